"""The compiled core under AddressSanitizer and UndefinedBehaviorSanitizer.

The C core is built again with ``-fsanitize=address,undefined`` (by ``hatch_build.py``, the
flags given as ``CFLAGS``) in a copy of the package in a temporary folder, and
``tests/test_core.py`` runs there against that build, with the sanitizer's runtime preloaded
into this Python (which is not built with it) and Python's allocator swapped for malloc, so
that every object is watched. A read or write past a buffer, a use after free or undefined
behaviour (a shift too far, ``memcpy`` from NULL) aborts that run, and the test fails with the
sanitizer's report. Leaks are not checked: Python keeps much of what it allocates till exit.
Skipped where the compiler cannot build with the sanitizers.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from milligan_widget.core import AVAILABLE

ROOT = Path(__file__).resolve().parent.parent
SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CFLAGS = f"-O1 -g {SANITIZE}"
BUILD_TIMEOUT = 120
RUN_TIMEOUT = 300

pytestmark = pytest.mark.skipif("c" not in AVAILABLE, reason="the C extension is not built")


def compiler() -> str:
    """The compiler this Python links extensions with (the first word of ``LDSHARED``)."""
    ldshared = os.environ.get("LDSHARED") or sysconfig.get_config_var("LDSHARED") or ""
    words = shlex.split(ldshared)
    if not words or shutil.which(words[0]) is None:
        pytest.skip(f"no compiler to build the core with (LDSHARED is {ldshared!r})")
    return words[0]


def asan_runtime(cc: str, folder: Path) -> str:
    """The path of the compiler's AddressSanitizer library, once a program builds with both
    sanitizers; a skip with the compiler's words where it cannot."""
    probe = folder / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    built = subprocess.run(
        [cc, *shlex.split(SANITIZE), str(probe), "-o", str(folder / "probe")],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )
    if built.returncode != 0:
        pytest.skip(f"{cc} cannot build with {SANITIZE}: {built.stderr.strip()[:500]}")
    found = subprocess.run(
        [cc, "-print-file-name=libasan.so"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if not os.path.isabs(found) or not os.path.exists(found):
        pytest.skip(f"{cc} does not say where its libasan.so is (it says {found!r})")
    return found


def copy_of_the_checkout(folder: Path) -> Path:
    """The package, its tests and its build hook, without any built extension."""
    junk = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.part", ".hypothesis")
    for name in ("milligan_widget", "tests"):
        shutil.copytree(ROOT / name, folder / name, ignore=junk)
    for name in ("hatch_build.py", "pyproject.toml"):
        shutil.copy2(ROOT / name, folder / name)
    return folder


def sanitized_env(libasan: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CFLAGS")}
    env.update(
        LD_PRELOAD=libasan,
        ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0",
        UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1",
        PYTHONMALLOC="malloc",
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def sanitizer_report(output: str) -> str:
    """The start of the first sanitizer report in ``output`` (its stack runs on for pages),
    else the end of ``output``."""
    starts = [output.find(m) for m in ("runtime error:", "ERROR: AddressSanitizer")]
    found = [i for i in starts if i >= 0]
    if not found:
        return output[-6000:]
    start = output.rfind("\n", 0, min(found)) + 1
    return output[start : start + 3000]


def test_the_core_passes_its_tests_under_address_and_undefined_sanitizers(tmp_path: Path):
    cc = compiler()
    libasan = asan_runtime(cc, tmp_path)
    checkout = copy_of_the_checkout(tmp_path / "checkout")
    built = subprocess.run(
        [sys.executable, "hatch_build.py"],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
        env=dict(os.environ, CFLAGS=CFLAGS),
    )
    assert built.returncode == 0, f"the sanitized build failed:\n{built.stderr}"
    extension = Path(built.stdout.strip().splitlines()[-1])
    assert extension.is_relative_to(checkout) and b"__asan_init" in extension.read_bytes()

    env = sanitized_env(libasan)
    where = subprocess.run(
        [sys.executable, "-c", "import milligan_widget.core._ccore as c; print(c.__file__)"],
        cwd=checkout,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert where.stdout.strip() == str(extension), where.stderr

    # -s: a sanitizer ends the process at once, and its report must not die in a capture
    pytest_args = ["-q", "-x", "-s", "-p", "no:cacheprovider", "tests/test_core.py"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *pytest_args],
        cwd=checkout,
        capture_output=True,
        text=True,
        env=env,
        timeout=RUN_TIMEOUT,
    )
    report = sanitizer_report(run.stdout + run.stderr)
    assert run.returncode == 0, f"tests/test_core.py failed on the sanitized core:\n{report}"
    assert " passed" in run.stdout and "ERROR: AddressSanitizer" not in run.stderr, report
