"""The set-up with the roster file the laptop pushed (issue 22): a roster
of one name made the players page say "Players (4)" and refuse to go on;
the board still sets up a game with whatever the file holds."""

import json

import pytest

from firmware import core
from firmware.storage import Storage
from shared_engine import fill


def _ctx(tmp_path, roster=None, settings=None):
    st = Storage(str(tmp_path))
    st.ensure_dirs()
    if roster is not None:
        st.write_json("roster.json", roster)
    if settings is not None:
        st.write_json("settings.json", settings)
    return core.Ctx(store=st)


def _players_page(ctx):
    ui, _ = core.step(ctx, {"s": "setup"}, "A")          # the rules: OK
    name, v = core.view(ctx, ui)
    return ui, v


def _start(ctx, ui):
    """A on the players page, then A on the options page: the game's tags."""
    ui, act = core.step(ctx, ui, "A")
    assert act is None and ui.get("pg") == 2 and not ui.get("msg"), ui
    ui, act = core.step(ctx, ui, "A")
    assert act and act[0] == "new", (ui, act)
    return dict(act[1])


@pytest.mark.parametrize("roster", [{"names": ["Ann"]}, {"names": []}, {"names": "Ann"},
                                    {"names": ["Ann", 7, None]}, {}])
def test_a_roster_of_fewer_than_two_names_still_sets_up_a_game(tmp_path, roster):
    ctx = _ctx(tmp_path, roster)
    ui, v = _players_page(ctx)
    names = [it[0] for it in v["items"]]
    taken = [it[0] for it in v["items"] if it[1]]
    assert len(names) >= 2 and fill(v["title"]) == "Players (%d)" % len(taken)
    if roster.get("names") and isinstance(roster["names"], list):
        assert names[0] == "Ann"
    tags = _start(ctx, ui)
    assert len(tags["Players"]) >= 2 and tags["Players"] == taken


def test_the_last_set_up_counts_only_the_players_the_roster_still_has(tmp_path):
    ctx = _ctx(tmp_path, {"names": ["Ann", "Bob", "Cy"]},
               {"last": {"pr": 0, "pl": [0, 1, 2, 3], "o": {}, "t": "quick"}})
    ui, v = _players_page(ctx)
    assert fill(v["title"]) == "Players (3)"
    assert _start(ctx, ui)["Players"] == ["Ann", "Bob", "Cy"]
