"""A player's name as people write it (issue 32, item 10): Persian writes
a zero-width non-joiner inside names (مریم‌السادات: the م does not join the
ا after it), and `roster` refused it as a control character. The joiners
names use (ZWNJ, ZWJ) are taken; real control characters (an escape, a bell,
a bidi override that turns the text around) are still refused; and the
board draws the name as the shaping engine lays it out, the letters
unjoined where the ZWNJ stands."""

import json
import os
import subprocess

import pytest

from boardkit import ROOT, has_sim, run_cli, virtual_board
from pipkeeper.board import roster
from pipkeeper.errors import PipkeeperError

ZWNJ = "\u200c"
MARYAM = "مریم" + ZWNJ + "السادات"          # Maryam-Sadat, as Persian spells it
FAMILY = "\U0001F469\u200D\U0001F467"       # a ZWJ sequence, 3 letters as people count them


def test_the_joiners_a_name_uses_are_taken():
    assert roster.check_name(MARYAM) == MARYAM
    assert roster.check_name("Ann" + FAMILY) == "Ann" + FAMILY
    # twelve letters and a joiner still fit a seat's column: a joiner takes no room
    assert roster.check_name("ابراهیم" + ZWNJ + "زاده") == "ابراهیم" + ZWNJ + "زاده"


@pytest.mark.parametrize("name", ["Ann\x07", "\x1b[31mAnn", "Ann\u202eboB", "Ann\u200e", "A\u2066nn",
                                  "Ann\x00", "An\u2028n"])
def test_real_control_characters_are_still_refused(name):
    with pytest.raises(PipkeeperError, match="has control characters"):
        roster.check_name(name)


def test_roster_takes_a_persian_name_with_a_zwnj_onto_the_board(tmp_path):
    root = tmp_path / "board"
    (root / "pipkeeper").mkdir(parents=True)
    with virtual_board(root, bare=True) as board:
        code, out, err = run_cli("roster", MARYAM, "Ann", "--lang", "fa",
                                 env={"PIPKEEPER_PORT": board.port, "PIPKEEPER_DB": str(tmp_path / "db")})
    assert code == 0, err
    on_board = json.loads((root / "pipkeeper" / "roster.json").read_text(encoding="utf-8"))
    assert on_board["names"] == [MARYAM, "Ann"]
    assert (root / "pipkeeper" / "names.bin").read_bytes() == roster.names_file([MARYAM, "Ann"])


def _inked(rows):
    """The inked pixels of ``rows`` (lists of 0/1), moved to their top left."""
    ink = [(x, y) for y, row in enumerate(rows) for x, v in enumerate(row) if v]
    x0, y0 = min(x for x, _ in ink), min(y for _, y in ink)
    return sorted((x - x0, y - y0) for x, y in ink)


def _raqm(name):
    from pipkeeper.i18n import render
    img, _ = render.image(name, 1, rtl=True)
    w, h = img.size
    px = img.load()
    return [[1 if px[x, y] else 0 for x in range(w)] for y in range(h)]


@pytest.mark.skipif(not has_sim(), reason="needs the MicroPython unix port and mpy-cross")
def test_the_board_draws_the_name_as_the_shaping_engine_lays_it_out(tmp_path):
    """The board (firmware/lang.py on the unix port, the board's heap) draws
    the roster's name from the names file `roster` writes: pixel for pixel
    raqm's shaping of the whole name, where the ZWNJ keeps م and ا apart
    (the same letters without it join, and are drawn otherwise); the ZWNJ
    itself leaves no ink (no missing-glyph box)."""
    from pipkeeper.paths import micropython_binary
    from pipkeeper.sim import unix as sim
    names = tmp_path / "names.bin"
    names.write_bytes(roster.names_file([MARYAM]))
    (tmp_path / "lines.json").write_text(json.dumps([MARYAM], ensure_ascii=False), encoding="utf-8")
    r = subprocess.run([micropython_binary(), "-X", "heapsize=160K",
                        os.path.join(ROOT, "tests", "firmware", "mp_i18n_lines.py"),
                        str(tmp_path / "lines.json"), str(tmp_path), sim.build_tree(ROOT), str(names), "fa"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    frame = (tmp_path / "line-0.bin").read_bytes()
    board = [[(frame[y * 37 + (x >> 3)] >> (7 - (x & 7))) & 1 for x in range(296)] for y in range(40)]
    assert _inked(board) == _inked(_raqm(MARYAM))
    assert _inked(_raqm(MARYAM)) != _inked(_raqm(MARYAM.replace(ZWNJ, "")))
    assert not any(any(row) for row in _raqm(ZWNJ))
