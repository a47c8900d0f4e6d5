"""pipkeeper flash refuses a board older than MicroPython 1.23 (the oldest
the scorer runs on) in one line, before it writes anything."""

import pytest

from boardkit import run_cli, virtual_board
from pipkeeper.board import flash, link, onboard
from pipkeeper.errors import PipkeeperError

REFUSAL = ("pipkeeper: this board runs MicroPython 1.22.2; the scorer needs 1.23 or newer: "
           "update it (README: Putting MicroPython on a board)")

ARMV6M_V6_2 = 6 | (2 << 8) | (4 << 10)     # what 1.22's rp2 port reports in _mpy
ARMV6M_V6_3 = 6 | (3 << 8) | (4 << 10)


def info(version, mpy=ARMV6M_V6_3):
    return link.BoardInfo("rp2", version, mpy, "e66", 1, 1)


def test_older_than_1_23_is_refused_although_its_mpy_loads():
    with pytest.raises(PipkeeperError) as exc:
        flash.check_target(info((1, 22, 2), ARMV6M_V6_2))
    assert "pipkeeper: " + str(exc.value) == REFUSAL
    with pytest.raises(PipkeeperError, match="runs MicroPython 1.19.1; the scorer needs 1.23"):
        flash.check_target(info((1, 19, 1), ARMV6M_V6_2))


def test_1_23_and_newer_are_built_for():
    for version in ((1, 23, 0), (1, 24, 1), (1, 28, 0), (2, 0, 0)):
        assert flash.check_target(info(version))[0] == ["-march=armv6m"]


def _pretend_1_22(root):
    """The board's link helper, as /lib/pklink.py, reporting MicroPython
    1.22.2 and its .mpy: the board then answers as a 1.22 board would."""
    src = onboard.source()
    for real, fake in (("tuple(sys.implementation.version[:3])", "(1, 22, 2)"),
                       ('getattr(sys.implementation, "_mpy", 0)', str(ARMV6M_V6_2))):
        assert real in src
        src = src.replace(real, fake)
    (root / "lib").mkdir()
    (root / "lib" / "pklink.py").write_text(src)


def test_flash_refuses_a_1_22_board_in_one_line_and_writes_nothing(tmp_path, cache):
    root = tmp_path / "board"
    (root / "games").mkdir(parents=True)
    _pretend_1_22(root)
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    with virtual_board(root, bare=True) as board:
        code, out, err = run_cli("flash", env={"PIPKEEPER_PORT": board.port})
    assert code != 0
    assert err.strip() == REFUSAL
    assert out.strip() == ""
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
