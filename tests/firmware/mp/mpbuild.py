"""CPython side: build what the fault-test scripts in this folder run on.

The firmware, the engine and these harness scripts compiled with mpy-cross
(as the board runs .mpy; compiling from source on a 160K heap would leave
the firmware less room), in ``build/faults-mpy`` under the checkout:

    build/faults-mpy/shared_engine/*.mpy
    build/faults-mpy/firmware/**.mpy (+ the font .bin files, the language packs)
    build/faults-mpy/harness/{flashsim,powercut,onepress,random_presses,usbpower,usbsession}.mpy

``micropython_env()`` gives the environment (MICROPYPATH) to run
``micropython -X heapsize=N -m powercut ...`` with; run it from a folder
outside the checkout, or the source packages there would shadow the build.

The heap: the board gives the firmware a 160K heap; the harness modules
(the simulated flash device, the script's own code) live on the same heap
in these runs and would take their share from the firmware's. ``heap()``
measures what they take and returns 160K plus that, so the firmware has
what it has on a 160K heap without a harness (as in ``pipkeeper sim``).
"""

import os
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
HARNESS = ("flashsim", "powercut", "onepress", "random_presses", "usbpower", "usbsession")
HEAP = 160 * 1024
FULL = os.environ.get("PIPKEEPER_FULL_FAULT_TESTS") == "1"


def build(root=ROOT):
    """Compile (only what changed) and return the build folder."""
    from pipkeeper.board.mpy import HOST, build_package, compiled, engine_build

    root = Path(root).resolve()
    out = Path(engine_build(root, cache=root / "build" / "faults-mpy"))
    # The firmware holds viper code (the panel column transpose): it needs
    # the host's native architecture.
    # (and its data files, the fonts' .bin: build_package copies them)
    build_package(root / "firmware", out, args=HOST)
    from pipkeeper.sim.unix import write_packs
    write_packs(out / "firmware")          # the languages' packs, as flash writes them
    for name in HARNESS:
        compiled(HERE / (name + ".py"), out / "harness" / (name + ".mpy"), HOST)
    return out


def micropython_env(out):
    env = dict(os.environ)
    env["MICROPYPATH"] = "%s:%s" % (out / "harness", out)
    return env


FIRMWARE_IMPORTS = "import firmware.app, firmware.core, firmware.board, firmware.storage, shared_engine.dgn"


def harness_bytes(micropython, out, module, cwd):
    """The heap ``module`` (and flashsim) takes beyond the firmware's own
    imports, measured on a HEAP heap."""
    code = ("import gc\n" + FIRMWARE_IMPORTS + "\n"
            "gc.collect()\na = gc.mem_free()\nimport %s\ngc.collect()\n"
            "print(a - gc.mem_free())\n" % module)
    proc = subprocess.run([micropython, "-X", "heapsize=%d" % HEAP, "-c", code],
                          env=micropython_env(out), cwd=cwd, capture_output=True,
                          text=True, timeout=60)
    if proc.returncode:
        raise RuntimeError("measuring the harness failed: " + proc.stdout + proc.stderr)
    return int(proc.stdout.split()[-1])


def heap(micropython, out, module, cwd):
    """(heap size in bytes for -X heapsize, the harness's share)."""
    extra = harness_bytes(micropython, out, module, cwd)
    extra = (extra + 1023) // 1024 * 1024
    return HEAP + extra, extra
