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


def _ink(frame, x, y):
    return frame[y * 37 + (x >> 3)] >> (7 - (x & 7)) & 1


def _runs(columns, gap):
    """[(first, last), ...]: the runs of inked columns (``columns``: x ->
    inked), those apart by fewer than ``gap`` blank columns joined (the
    letters of a word, the digits of a number)."""
    runs = []
    for x in range(len(columns)):
        if columns[x]:
            if runs and x - runs[-1][1] <= gap:
                runs[-1] = (runs[-1][0], x)
            else:
                runs.append((x, x))
    return runs


def test_eight_players_totals_stand_apart_and_clear_of_more(frames):
    """Issue 32, item 9: at 8 players the sheet's 3-digit totals ran into
    one another ("349359369379") and into DOWN's "more". Each total stands
    between two of the columns' dotted rules, and the row ends 6 pixels
    before the label."""
    f = frames["sheet-8-players"]
    ty = 103                    # the totals' row (screens/sheet.py)
    band = range(ty, ty + 8)
    # a dotted rule: ink on every other row, the totals' rows and one under
    # them, none on the rows between (a digit has ink on these)
    rule = [all(_ink(f, x, y) for y in range(ty, ty + 9, 2))
            and not any(_ink(f, x, y) for y in range(ty + 1, ty + 8, 2)) for x in range(296)]
    rules = [x for x in range(296) if rule[x]]
    assert len(rules) == 7, "column rules at %s" % rules
    digits = [any(_ink(f, x, y) for y in band) and not rule[x] for x in range(296)]
    for a, b in zip(rules, rules[1:]):
        assert any(digits[a + 1:b]), "no total between the rules at %d and %d" % (a, b)
    last, label = _runs(digits[rules[-1] + 1:], 4)[:2]      # the last total, "more"
    assert label[0] - last[1] > 6, "the last total %s and the label %s" % (last, label)


def test_the_end_screen_keeps_a_score_apart_from_the_next_name(frames):
    """Issue 32, item 9: one space between a score and the next player's
    name read as one run ("45 Bob"): a character and a half (12 pixels)."""
    f = frames["end-shared"]
    bands = []                  # the rows of text under the winners' line
    for y in range(60, 112):
        inked = any(_ink(f, x, y) for x in range(250))
        if inked and (not bands or bands[-1][1] < y - 1):
            bands.append([y, y])
        elif inked:
            bands[-1][1] = y
    totals = [b for b in bands if b[1] - b[0] < 9]      # the 8-pixel font's rows
    assert len(totals) == 2, bands
    for top, bottom in totals:
        cols = [any(_ink(f, x, y) for y in range(top, bottom + 1)) for x in range(250)]
        words = _runs(cols, 6)            # name, score, name, score...
        assert len(words) % 2 == 0, words
        for i in range(1, len(words) - 1, 2):
            assert words[i + 1][0] - words[i][1] > 12, "score %s, next name %s" % (words[i], words[i + 1])
