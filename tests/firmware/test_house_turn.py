"""What the house rules change on the turn screen and in the game menu
(firmware/flows/play_rules.py), run on CPython over whole simulated games:
the first-turn run's line, drawing again under ``drawn_tile until``, a
row for each seat caught not calling its last tile; and their module is
loaded only where they change the screen (loading it on every turn cost
the stock image's late cold boot 7.6 ms with every rule on)."""

import sys

import firmware.flows
from firmware import core
from firmware.flows import play
from shared_engine import fill
from shared_engine.engine import CAUGHT
from shared_engine.simulate import Simulation

MODULE = "firmware.flows.play_rules"


def _unload():
    sys.modules.pop(MODULE, None)
    firmware.flows.__dict__.pop("play_rules", None)   # (else `from ... import` finds it there)


def _games(options, check):
    """``check(g, r)`` at every event of two simulated games under
    ``options`` while a round is in play, the house rules' module unloaded."""
    def on_event(sim, ev):
        g = sim.game
        if g.round is not None and not g.round.ended:
            _unload()
            check(g, g.round)

    for seed in (1, 2):
        Simulation("mexican-train", ["A", "B", "C", "D"], seed, ["greedy", "random"] * 2,
                   options=options, on_event=on_event, keep_events=False).run()


def test_the_turn_says_a_run_and_a_draw_again_and_loads_their_words_only_then():
    seen = {"run": 0, "until": 0, "plain": 0}

    def check(g, r):
        lines = [fill(m) for m in play._status(core.Ctx(game=g), g)]
        run = r.run == r.to_move
        until = bool(r.drew and r.drawable(g.rules))
        assert ("First turn: play on, or Pass to end it" in lines) == run, lines
        assert ("Drew: play it, or draw again" in lines) == until, lines
        assert ("Drew: play it or pass" in lines) == (bool(r.drew) and not until), lines
        assert (MODULE in sys.modules) == (run or until)
        seen["run" if run else "until" if until else "plain"] += 1

    _games({"first_turn_run": "yes", "drawn_tile": "until"}, check)
    assert seen["run"] and seen["until"] and seen["plain"], seen


def test_the_menu_offers_a_missed_call_only_for_a_seat_on_its_last_tile():
    seen = {"last": 0, "plain": 0}

    def check(g, r):
        ctx = core.Ctx(game=g, tracking="full")
        caught = [x[1][1] for x in play.menu_items(ctx) if isinstance(x[1], tuple) and x[1][0] == CAUGHT]
        last = [s + 1 for s in range(g.n) if r.hands[s] == 1]
        assert caught == last
        assert (MODULE in sys.modules) == bool(last)
        seen["last" if last else "plain"] += 1

    _games({"call_last_tile": "2"}, check)
    assert seen["last"] and seen["plain"], seen
