"""Run inside Pyodide by ``tests/test_pyodide.py`` (through ``run.mjs``); not a test itself.

``/site`` is a JupyterLite site built by the recipe of ``docs/jupyterlite.md``, served at
``base`` (``/input/input.json``). This boots the kernel's packages as the Pyodide kernel of
jupyterlite-pyodide-kernel 0.8.6 does (its worker's ``initPackageManager`` and ``initKernel``):
micropip from the site's Pyodide lock, piplite from the site, then the kernel's own packages
through piplite with the site's settings; then it runs the site's notebook, cell by cell,
through the kernel itself (``%pip install`` included), its outputs and widget messages
collected. Its last expression is a JSON report; nothing is asserted here.
"""

from __future__ import annotations

import glob
import importlib.metadata
import json
import traceback

import pyodide_js

KERNEL_PACKAGES = ("ipykernel", "comm", "pyodide-kernel", "jedi", "ipython")
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
KERNEL_WHEELS = "/site/extensions/@jupyterlite/pyodide-kernel-extension/static/pypi"


def settings() -> dict:
    """The Pyodide kernel's settings in the site's jupyter-lite.json."""
    with open("/site/jupyter-lite.json", encoding="utf-8") as file:
        config = json.load(file)["jupyter-config-data"]
    return config["litePluginSettings"][KERNEL_PLUGIN]


async def boot(base: str, kernel: dict) -> None:
    """micropip, piplite and the kernel's packages, from the site only."""
    await pyodide_js.loadPackage(["micropip"])
    import micropip

    (wheel,) = glob.glob(f"{KERNEL_WHEELS}/piplite-*.whl")
    await micropip.install(base + wheel.removeprefix("/site/"), keep_going=True)
    import piplite.piplite

    piplite.piplite._PIPLITE_DISABLE_PYPI = bool(kernel.get("disablePyPIFallback"))
    piplite.piplite._PIPLITE_URLS = [base + url.removeprefix("./") for url in kernel["pipliteUrls"]]
    for name in KERNEL_PACKAGES:
        await piplite.install(name, keep_going=True)
    import pyodide_kernel  # noqa: F401 -- the kernel's last step


def wire(kernel, seen: dict) -> None:
    """Connect the kernel's outputs as the worker's ``initGlobals`` and ``execute`` do, to
    the lists in ``seen`` instead of messages to the page."""
    import pyodide_kernel

    def comm(kind, content, metadata, ident, buffers) -> None:
        state = content.get("data", {}).get("state", {})
        model, esm = state.get("_model_name"), len(state.get("_esm", ""))
        seen["comms"].append({"type": kind, "model": model, "esm": esm})

    def result(count, data, metadata) -> None:
        seen["results"].append(sorted(data))

    def display(data, metadata, transient) -> None:
        seen["displays"].append(sorted(data))

    def stream(name, text) -> None:
        seen["streams"].append(text)

    shell = kernel.interpreter
    shell.send_comm = comm
    shell.displayhook.publish_execution_result = result
    shell.display_pub.display_data_callback = display
    pyodide_kernel.stdout_stream.publish_stream_callback = stream
    pyodide_kernel.stderr_stream.publish_stream_callback = stream


async def main() -> str:
    """Boot, then run every code cell of the notebook through the kernel."""
    with open("/input/input.json", encoding="utf-8") as file:
        given = json.load(file)
    kernel_settings = settings()
    report: dict = {"settings": kernel_settings, "cells": []}
    try:
        await boot(given["base"], kernel_settings)
    except Exception:
        report["boot_error"] = traceback.format_exc()
        return json.dumps(report)
    import pyodide_kernel

    kernel = pyodide_kernel.kernel_instance
    with open(f"/site/files/{given['notebook']}", encoding="utf-8") as file:
        cells = [c for c in json.load(file)["cells"] if c["cell_type"] == "code"]
    for cell in cells:
        seen: dict = {"comms": [], "results": [], "displays": [], "streams": []}
        wire(kernel, seen)
        source = "".join(cell["source"])
        outcome = {key: str(value) for key, value in (await kernel.run(source)).items()}
        report["cells"].append({"source": source, **seen, **outcome})
    names = (*KERNEL_PACKAGES, "milligan-widget")
    report["versions"] = {name: importlib.metadata.version(name) for name in names}
    widget = kernel.interpreter.user_ns.get("widget")
    if widget is not None:
        report["widget"] = {"seed": widget.game.seed, "message": widget.view.get("message", "")}
    return json.dumps(report)


await main()  # noqa: F704 -- Pyodide's runPythonAsync awaits at the top level
