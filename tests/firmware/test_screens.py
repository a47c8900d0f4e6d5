"""Golden frames: every screen kind drawn by the firmware on the unix port
and compared pixel for pixel with tests/firmware/golden/<name>.png.

Set PIPKEEPER_UPDATE_GOLDEN=1 to rewrite the goldens (then look at them)."""

import json
import os
import subprocess

import pytest

from screens_views import VIEWS, resolved

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")


@pytest.fixture(scope="module")
def frames(tmp_path_factory, mpy_tree):
    from pipkeeper.paths import micropython_binary
    d = tmp_path_factory.mktemp("screens")
    vj = d / "views.json"
    vj.write_text(json.dumps(resolved()))
    r = subprocess.run([micropython_binary(), "-X", "heapsize=160K", os.path.join(HERE, "mp_screens.py"),
                        str(vj), str(d), mpy_tree], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return {v["name"]: (d / (v["name"] + ".bin")).read_bytes() for v in VIEWS}


def _frame_of_png(path):
    from PIL import Image
    img = Image.open(path).convert("L")
    w, h = img.size
    scale = w // 296
    out = bytearray(4736)
    px = img.load()
    for y in range(128):
        for x in range(296):
            if px[x * scale, y * scale] < 128:
                out[y * 37 + (x >> 3)] |= 0x80 >> (x & 7)
    return bytes(out)


@pytest.mark.parametrize("name", [v["name"] for v in VIEWS])
def test_golden(frames, name):
    from pipkeeper.sim.panel import save_png
    path = os.path.join(GOLDEN, name + ".png")
    got = frames[name]
    if os.environ.get("PIPKEEPER_UPDATE_GOLDEN"):
        os.makedirs(GOLDEN, exist_ok=True)
        save_png(got, path, scale=2)
    assert os.path.exists(path), "no golden %s: run with PIPKEEPER_UPDATE_GOLDEN=1" % path
    assert _frame_of_png(path) == got, "%s differs from its golden frame" % name


def test_every_screen_module_has_a_golden():
    screens = {v["screen"] for v in VIEWS}
    mods = {f[:-3] for f in os.listdir(os.path.join(HERE, "..", "..", "firmware", "screens"))
            if f.endswith(".py") and f not in ("__init__.py", "ui.py")}
    assert mods <= screens, "screens without a golden frame: %s" % sorted(mods - screens)
