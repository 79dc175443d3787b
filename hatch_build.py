"""Hatchling build hook: compile the search core (milligan_widget/core/_ccore.c).

With a C compiler and the Python headers at hand (sysconfig tells where), the extension is
built next to its source, shipped in the wheel, and the wheel is tagged for this Python and
platform. Without them, or with ``MILLIGAN_WIDGET_PURE=1`` in the environment (as for
Pyodide), the build goes on as pure Python (``py3-none-any``): the package then runs on its
pure-Python core. Only the standard library is needed.

After changing the C source in an editable install, ``python hatch_build.py`` builds it again
in place (as ``pip install -e .`` does).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

SOURCE = Path("milligan_widget") / "core" / "_ccore.c"


def extension_path(root: Path) -> Path:
    """Where the built extension goes, with this Python's suffix (``.cpython-311-...so``)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return root / SOURCE.with_name("_ccore" + suffix)


def compile_command(source: Path, target: Path) -> list[str]:
    """The compiler and linker call, from the flags this Python was built with (``LDSHARED``
    in the environment overrides them, and ``CFLAGS`` there are added last, as for
    setuptools: ``CFLAGS="-O1 -fsanitize=address,undefined"`` makes a sanitized build)."""
    ldshared = os.environ.get("LDSHARED") or sysconfig.get_config_var("LDSHARED")
    if not ldshared:
        raise OSError("this Python does not say how to link an extension (LDSHARED)")
    cflags = shlex.split(sysconfig.get_config_var("CCSHARED") or "-fPIC")
    cflags += ["-O2", *shlex.split(os.environ.get("CFLAGS", ""))]
    include = sysconfig.get_paths()["include"]
    return [*shlex.split(ldshared), *cflags, "-I", include, str(source), "-o", str(target)]


def build_extension(root: Path) -> Path:
    """Compile the extension in place; raises on any failure."""
    target = extension_path(root)
    source = root / SOURCE
    if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
        return target
    built = target.with_name(target.name + ".part")  # then renamed: a loaded copy stays whole
    done = subprocess.run(
        compile_command(source, built), capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        built.unlink(missing_ok=True)
        raise OSError(done.stderr.strip() or done.stdout.strip() or "the compiler failed")
    os.replace(built, target)
    return target


if __name__ == "__main__":
    print(build_extension(Path(__file__).resolve().parent))
    sys.exit()

from hatchling.builders.hooks.plugin.interface import BuildHookInterface  # noqa: E402


class CustomBuildHook(BuildHookInterface):
    """Builds the extension for wheels (editable ones too); sdists ship the source only."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        if os.environ.get("MILLIGAN_WIDGET_PURE", "") not in ("", "0"):
            self.app.display_info("MILLIGAN_WIDGET_PURE is set: a pure-Python wheel")
            return
        root = Path(self.root)
        try:
            target = build_extension(root)
        except (OSError, subprocess.SubprocessError) as error:
            message = f"the C search core was not built ({error}); the wheel is pure Python"
            self.app.display_warning(message)
            print(f"WARNING: {message}", file=sys.stderr)
            return
        if version != "editable":  # an editable install imports it where it was built
            build_data["force_include"][str(target)] = str(target.relative_to(root))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
