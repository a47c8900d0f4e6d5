"""Power cuts inside the flash's own erase and program, on the emulated
RP2040 (issue 25): a fixed sample of `pipkeeper bench powercut`
(pipkeeper.bench.powercut, which says what a case checks).

The emulator cuts the power inside the N-th flash op from a moment on, a
fraction of the way through it (js/emulator.mjs "a power cut inside one":
an erase leaves the sector's bytes old or 0xFF, a program a prefix and one
byte half done); the next press powers the board on, as on battery, and
must find the game of the last press done or of the press in flight, the
frame of that state, nothing lost, no fault, no format.

The sample, on the upstream image and the scorer's own (Pimoroni's build
is left to the bench, `bench powercut --firmware`: its flash goes through
the same rp2 port's LittleFS and boot ROM functions, and CI's budget has
no room for a third image's two minutes): every flash op of

- a UI-only press of the set-up (ui.json), the press that starts the game
  (the first press of a new game: record, settings, pointer), the round's
  lead (a checkpoint and a full refresh), from a flashed board;
- the score entry at the end of round 1 (a round boundary: the score, a
  checkpoint, a full refresh), and, after a `pipkeeper sync` has marked the
  game on the board, round 2's lead, from the sim's flash at that point;

of each press its first and last flash ops, its erases and ops spread
between, four at most (``powercut.sample_ops``), each cut once, at 0.3 or
0.8 of it in turn (the bench cuts every op at four points, and every press
of the game). On the own image, its update through
BOOTSEL cut in the boot ROM's first erase and in its last program, and the
same update written in address order, to show the check fails then. (Cuts
inside `pipkeeper flash --force` over USB serial on a stock image, two
minutes a case here, are the bench's: pipkeeper.bench.powercut_update.)
"""

import os

import pytest

import devkit

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

SETUP_UI, NEW_GAME, LEAD = 9, 10, 11      # presses of tests/data/scripted_game.txt
SCORE = 98                                # round 1's score entry
RATIO = 1.5                               # the cold boot after a cut, at most, against the normal one


@pytest.fixture()
def sweepable(device):
    if devkit.is_pimoroni(device):
        pytest.skip("Pimoroni's build: the bench's (`bench powercut --firmware`); CI has no room "
                    "for a third image's sample, and its flash path is the rp2 port's, as upstream's")
    return device


def _figures(sweep, presses, tmp_path):
    cases = sweep.sample_cases(presses)
    results = sweep.run_cases(cases)
    from pipkeeper.bench import powercut
    figures = powercut.summary(results, 0)
    print("\n%s: %d cuts inside %d flash ops of presses %s: %d failures, %d formats, %d lines lost, "
          "cold boot after a cut x%s at most (median x%s), awake x%s at most" % (
              os.path.basename(sweep.firmware), figures["cut_points"], sum(len(p.ops) for p in presses),
              [p.index for p in presses], figures["failures"], figures["formats"], figures["lines_lost"],
              figures["cold_boot_ratio_max"], figures["cold_boot_ratio_median"],
              figures["awake_ratio_max"]))
    return figures


def _assert_clean(figures, presses):
    from pipkeeper.bench import powercut
    assert figures["cut_points"] == sum(min(len(p.ops), powercut.SAMPLE_OPS) for p in presses) > 0
    assert figures["failures"] == 0, "\n".join(figures["failed"])
    assert figures["formats"] == 0 and figures["lines_lost"] == 0
    assert figures["cold_boot_ratio_max"] <= RATIO, figures


def _at(golden, sim_game, mpy_tree, tmp_path, first):
    """A copy of ``golden`` holding what the sim's flash holds after the
    script's first ``first`` presses (no need to press them on battery)."""
    from pipkeeper.bench import powercut
    sim_dir = tmp_path / "sim"
    devkit.sim_frames(sim_dir, sim_game.presses[:first], mpy_tree)
    return powercut.lay_state(golden, sim_dir, tmp_path / "base.img")


def test_cuts_in_the_first_presses_of_a_game(sweepable, golden, mpy_tree, sim_game, tmp_path):
    from pipkeeper.bench import powercut
    base = _at(golden, sim_game, mpy_tree, tmp_path, SETUP_UI)
    sweep = powercut.Sweep(sweepable, tmp_path / "sweep", base, sim_game.presses, log=lambda m: None)
    presses = sweep.clean([SETUP_UI, NEW_GAME, LEAD], first=SETUP_UI)
    # The clean run draws what the sim draws (frames[0] is the power-on).
    for i in (SETUP_UI, NEW_GAME, LEAD):
        assert sweep.clean_frames[i] == sim_game.frames[i + 1][-1].data, "press %d" % i
    assert [len(p.ops) > 0 for p in presses] == [True] * 3
    assert any(k == "E" for p in presses for k, _, _ in p.ops)       # an erase among them
    figures = _figures(sweep, presses, tmp_path)
    _assert_clean(figures, presses)


def test_cuts_at_the_round_boundary_and_after_a_sync(sweepable, golden, mpy_tree, sim_game, tmp_path):
    from pipkeeper.bench import powercut
    presses = sim_game.presses
    lead = powercut.sync_point()
    assert presses[SCORE] == "A" and lead > SCORE
    base = _at(golden, sim_game, mpy_tree, tmp_path, SCORE)
    sweep = powercut.Sweep(sweepable, tmp_path / "sweep", base, presses, log=lambda m: None)
    swept = sweep.clean([SCORE, lead], sync_before=lead, first=SCORE)
    for p in swept:
        assert sweep.clean_frames[p.index] == sim_game.frames[p.index + 1][-1].data, "press %d" % p.index
    # The sync marked the game on the board before the lead was pressed.
    assert "/pipkeeper/synced" in swept[1].before.files
    figures = _figures(sweep, swept, tmp_path)
    _assert_clean(figures, swept)


def _own_update(device, base, work, built=None):
    """An Update of the scorer's own image from an earlier release (as
    test_own_image's) on a board holding ``base``'s game."""
    from pipkeeper.bench import powercut_update
    from pipkeeper.image import build
    earlier = build.build(devkit.PROFILE, source=devkit.source_tarball(), version="0.0.9",
                          cache=devkit._IMAGE_CACHE)
    path = work / "earlier.uf2"
    path.write_bytes(earlier.uf2())
    built = built or build.build(devkit.PROFILE, source=devkit.source_tarball(), cache=devkit._IMAGE_CACHE)
    return powercut_update.Update(str(path), base, work / "update", built=built, log=lambda m: None)


def _game_on(golden, sim_game, mpy_tree, tmp_path):
    """A copy of ``golden`` with the scripted game's first round under way."""
    return _at(golden, sim_game, mpy_tree, tmp_path, LEAD + 8)


def _own_golden(device, request):
    """The flashed board, for the scorer's own image only (skipped before the
    session's flash of another image is asked for)."""
    if not devkit.is_own(device):
        pytest.skip("the scorer's own image only (this is %s)" % os.path.basename(device))
    return request.getfixturevalue("golden")


def test_cuts_in_the_image_update_leave_bootsel_and_the_games(device, request, sim_game, mpy_tree,
                                                               tmp_path):
    """The own image's update through BOOTSEL, cut in the boot ROM's first
    erase (sector 0: stage 2 goes) and in its last program (stage 2
    itself): the board starts in BOOTSEL, the next flash finishes, the
    games stay."""
    from pipkeeper.bench import powercut_update
    golden = _own_golden(device, request)
    update = _own_update(device, _game_on(golden, sim_game, mpy_tree, tmp_path), tmp_path)
    figures = powercut_update.run(update, 2, (0.5,))
    print("\nown image update: %s" % figures)
    assert figures["update_cut_points"] == 2 and figures["update_started_bootsel"] == 2
    assert figures["update_failures"] == 0, figures["update_failed"]


def test_an_image_written_in_address_order_is_caught(device, request, sim_game, mpy_tree, tmp_path):
    """The check can fail: the same update as a plain UF2 in address order
    (stage 2 first, as most tools write one), cut in its third op (sector 0
    erased, the new stage 2 programmed, then the page after it: the vector
    table and the reset handler), leaves a board whose stage 2 checks and
    whose code is half written: it starts neither the scorer nor BOOTSEL.
    (Not its last op: the earlier release differs from this one only in its
    version, and what the last page holds may never run at a boot.)"""
    from pipkeeper.bench import powercut_update
    from pipkeeper.board import images
    from pipkeeper.image import build
    golden = _own_golden(device, request)

    class AddressOrder:
        def __init__(self, built):
            self.identity, self.code = built.identity, built.code

        def uf2(self):
            pages = images.uf2_chunks(images.bin_to_uf2([(0, self.code)]))
            return b"".join(_block(a, n, len(pages), pages[a]) for n, a in enumerate(sorted(pages)))

    built = build.build(devkit.PROFILE, source=devkit.source_tarball(), cache=devkit._IMAGE_CACHE)
    update = _own_update(device, _game_on(golden, sim_game, mpy_tree, tmp_path), tmp_path,
                         AddressOrder(built))
    with powercut_update.emulated(update):
        ops = update.clean_ops()
        assert [k for k, _, _ in ops[:3]] == ["E", "P", "P"], ops[:3]
        r = update.case(3, 0.5)
    assert r["problems"] == ["the board started neither the scorer nor BOOTSEL"], r


def _block(offset, n, total, data):
    import struct
    from pipkeeper.board import images
    return (struct.pack("<8I", images.UF2_MAGIC[0], images.UF2_MAGIC[1], images.UF2_FAMILY_PRESENT,
                        images.FLASH_BASE + offset, 256, n, total, images.RP2040_FAMILY)
            + data + bytes(220) + struct.pack("<I", images.UF2_MAGIC[2]))
