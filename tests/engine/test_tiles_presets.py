"""Tiles and sets, the four presets' defaults, hand sizes per player count,
and every option of RULES.md ("Options"): its values, its errors, and the
`rounds` and `hand_size` tables."""

from shared_engine import tiles
from shared_engine.presets import Rules
from shared_engine.engine import Game

from _check import raises, rejects, game, state, replay, report

PRESETS = ("chickenfoot", "chickenfoot-cross", "chicken-scratch", "mexican-train")


def rules(name, n, options=None):
    return Rules(name, n, options or {})


def refused(name, n, options, fragment):
    e = raises(ValueError, Rules, name, n, options)
    assert fragment in str(e), (fragment, str(e))
    return str(e)


# -- tiles and sets ------------------------------------------------------------

def test_set_sizes():
    # RULES "Words": (N+1)(N+2)/2 tiles.
    got = [tiles.size(n) for n in (6, 9, 12, 15, 18)]
    assert got == [28, 55, 91, 136, 190]
    assert tiles.SETS == (6, 9, 12, 15, 18)


def test_tile_ids_are_the_set_exactly():
    for top in tiles.SETS:
        ids = []
        for a in range(top + 1):
            for b in range(a + 1):
                ids.append(tiles.tile_id(a, b))
        ids.sort()
        assert ids == list(range(tiles.size(top))), top


def test_tile_identity_is_high_low():
    t = tiles.tile_id(4, 9)
    assert t == tiles.tile_id(9, 4)
    assert tiles.name(t) == "9-4"
    assert tiles.pips(t) == 13
    assert not tiles.is_double(t)
    d = tiles.double_id(5)
    assert tiles.is_double(d) and tiles.name(d) == "5-5" and tiles.pips(d) == 10
    assert tiles.name(tiles.double_id(0)) == "0-0" and tiles.pips(tiles.double_id(0)) == 0


def test_default_set_per_preset():
    assert rules("chickenfoot", 4).top == 9
    assert rules("chickenfoot-cross", 4).top == 9
    assert rules("chicken-scratch", 4).top == 6
    assert rules("mexican-train", 4).top == 12
    assert rules("mexican-train", 4).tiles == 91
    assert rules("chicken-scratch", 4).tiles == 28


# -- hand sizes ------------------------------------------------------------------

def test_hand_size_chickenfoot():
    # 2->21, 3->14, 4->11, 5->8, 6->7, 7->6, 8->5
    want = ((2, 21), (3, 14), (4, 11), (5, 8), (6, 7), (7, 6), (8, 5))
    for n, h in want:
        assert rules("chickenfoot", n).hand_size == h, n


def test_hand_size_cross():
    for n in (2, 3, 4, 5, 6, 7):
        assert rules("chickenfoot-cross", n).hand_size == 7, n


def test_hand_size_scratch():
    for n in (2, 3, 4, 5):
        assert rules("chicken-scratch", n).hand_size == 5, n


def test_hand_size_mexican():
    # up to 6 players 12, 7-8 players 10, 9-10 players 8
    for n in (2, 3, 4, 5, 6):
        assert rules("mexican-train", n).hand_size == 12, n
    for n in (7, 8):
        assert rules("mexican-train", n).hand_size == 10, n
    for n in (9, 10):
        assert rules("mexican-train", n).hand_size == 8, n


def test_deal_counts_per_preset():
    # What the deal leaves: chickenfoot sets the centre double aside before
    # the deal; the other presets deal it, and its holder places it.
    st = state(game("chickenfoot", 4, body="round 9-9 lead 1"))
    assert st["hands"] == [11, 11, 11, 11] and st["yard"] == 55 - 44 - 1
    st = state(game("chickenfoot", 2, body="round 9-9 lead 1"))
    assert st["hands"] == [21, 21] and st["yard"] == 55 - 42 - 1
    st = state(game("chickenfoot", 8, body="round 9-9 lead 1"))
    assert st["hands"] == [5] * 8 and st["yard"] == 55 - 40 - 1
    st = state(game("chickenfoot-cross", 4, body="round 9-9 lead 1"))
    assert st["hands"] == [6, 7, 7, 7] and st["yard"] == 55 - 28
    st = state(game("chicken-scratch", 4, body="round 6-6 lead 1"))
    assert st["hands"] == [4, 5, 5, 5] and st["yard"] == 28 - 20
    st = state(game("mexican-train", 4, body="round 12-12 lead 1"))
    assert st["hands"] == [11, 12, 12, 12] and st["yard"] == 91 - 48
    st = state(game("mexican-train", 8, body="round 12-12 lead 3"))
    assert st["hands"] == [10, 10, 9, 10, 10, 10, 10, 10] and st["yard"] == 91 - 80
    st = state(game("mexican-train", 10, body="round 12-12 lead 10"))
    assert st["hands"] == [8] * 9 + [7] and st["yard"] == 91 - 80


# -- player counts -----------------------------------------------------------------

def test_player_counts():
    refused("chickenfoot", 9, {}, "2 to 8 players")
    refused("chickenfoot", 1, {}, "2 to 8 players")
    refused("chickenfoot-cross", 1, {}, "players")
    e = raises(ValueError, Game, "mexican-train", ["Solo"])
    assert "at least 2 players" in str(e)
    for name in PRESETS:
        rules(name, 2)


def test_too_few_tiles_for_the_hands():
    # Cross: 7 tiles for 8 players is 56 > 55: a larger set is needed.
    refused("chickenfoot-cross", 8, {}, "too few")
    assert rules("chickenfoot-cross", 8, {"set": "12"}).tiles == 91
    # Scratch: 6 players of 5 is 30 > 28.
    refused("chicken-scratch", 6, {}, "too few")
    # Chickenfoot sets the centre double aside: 2 x 27 + 1 = 55 fits, 28 does not.
    assert rules("chickenfoot", 2, {"hand_size": "27"}).hand_size == 27
    refused("chickenfoot", 2, {"hand_size": "28"}, "too few")


# -- option defaults (RULES "Options" table) ----------------------------------------

def test_option_defaults_chickenfoot():
    r = rules("chickenfoot", 4)
    assert r.start_trains == 4 and r.lead_plays_centre and r.drawn_must
    assert r.reserve == 1 and not r.db50 and not r.tie_rounds and not r.positive
    assert r.rounds == (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
    assert rules("chickenfoot", 2).reserve == 2
    assert rules("chickenfoot", 3).reserve == 1
    assert rules("chickenfoot", 6).start_trains == 6


def test_option_defaults_cross():
    r = rules("chickenfoot-cross", 6)
    assert r.start_trains == 4 and not r.lead_plays_centre and not r.drawn_must
    assert r.reserve == 0 and r.db50 and r.tie_rounds and not r.positive
    assert r.rounds == (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)


def test_option_defaults_scratch():
    r = rules("chicken-scratch", 3)
    assert r.start_trains == 4 and not r.lead_plays_centre and r.drawn_must
    assert r.reserve == 0 and not r.db50 and not r.tie_rounds and not r.positive
    assert r.rounds == (6, 5, 4, 3, 2, 1, 0)


def test_option_defaults_mexican():
    r = rules("mexican-train", 4)
    assert r.start_trains == 0 and not r.lead_plays_centre and r.drawn_must
    assert r.reserve == 0 and not r.db50 and not r.tie_rounds and not r.positive
    assert r.rounds == tuple(range(12, -1, -1)) and len(r.rounds) == 13


# -- each option --------------------------------------------------------------------

def test_option_set():
    for top in (6, 9, 12, 15, 18):
        r = rules("mexican-train", 2, {"set": str(top)})
        assert r.top == top and r.tiles == tiles.size(top)
        assert r.rounds[0] == top
    refused("chickenfoot", 4, {"set": "7"}, "set must be one of 6, 9, 12, 15, 18")
    refused("chickenfoot", 4, {"set": "nine"}, "set must be a number")


def test_option_set_tag_in_a_record():
    text = game("chickenfoot", 4, {"set": "12"}, "round 12-12 lead 1")
    assert state(text)["yard"] == 91 - 44 - 1
    rejects(game("chickenfoot", 4, {"set": "12"}, "round 9-9 lead 1"), 4,
            "starts with 12-12")


def test_option_hand_size_number():
    assert rules("chickenfoot-cross", 2, {"hand_size": "15"}).hand_size == 15
    assert rules("mexican-train", 4, {"hand_size": "15"}).hand_size == 15
    refused("chickenfoot", 4, {"hand_size": "0"}, "at least 1")
    refused("chickenfoot", 4, {"hand_size": "many"}, "hand_size must be a number")


def test_option_hand_size_table():
    table = "2:15 3:15 4:15 5:11"
    assert rules("mexican-train", 3, {"hand_size": table}).hand_size == 15
    assert rules("mexican-train", 5, {"hand_size": table}).hand_size == 11
    refused("mexican-train", 6, {"hand_size": table}, "no entry for 6 players")
    refused("mexican-train", 4, {"hand_size": "4:x"}, "hand_size must be a number")
    st = state(game("mexican-train", 2, {"hand_size": table}, "round 12-12 lead 2"))
    assert st["hands"] == [15, 14] and st["yard"] == 91 - 30


def test_option_start_trains():
    assert rules("chickenfoot", 4, {"start_trains": "5"}).start_trains == 5
    assert rules("chickenfoot", 4, {"start_trains": "players"}).start_trains == 4
    assert rules("chickenfoot-cross", 6, {"start_trains": "players"}).start_trains == 6
    assert rules("chickenfoot", 4, {"start_trains": "none"}).start_trains == 0
    refused("chickenfoot", 4, {"start_trains": "10"}, "start_trains must be 0 to 9")
    refused("chickenfoot", 4, {"start_trains": "four"}, "start_trains must be a number")
    refused("mexican-train", 4, {"start_trains": "4"}, "start_trains must be none")


def test_option_start_trains_players_up_to_8():
    assert rules("chickenfoot", 8).start_trains == 8
    big = rules("chickenfoot-cross", 12, {"set": "18", "start_trains": "players"})
    assert big.start_trains == 8


def test_option_lead_plays_centre():
    assert not rules("chickenfoot", 4, {"lead_plays_centre": "no"}).lead_plays_centre
    assert rules("chickenfoot-cross", 4, {"lead_plays_centre": "yes"}).lead_plays_centre
    refused("chickenfoot", 4, {"lead_plays_centre": "maybe"}, "lead_plays_centre must be yes or no")
    # The effect: who moves first after the round line.
    assert state(game("chickenfoot", 4, {"lead_plays_centre": "no"},
                      "round 9-9 lead 2"))["to_move"] == 3
    assert state(game("mexican-train", 4, {"lead_plays_centre": "yes"},
                      "round 12-12 lead 2"))["to_move"] == 2


def test_option_drawn_tile():
    assert not rules("chickenfoot", 4, {"drawn_tile": "may"}).drawn_must
    assert rules("chickenfoot-cross", 4, {"drawn_tile": "must"}).drawn_must
    refused("chickenfoot", 4, {"drawn_tile": "should"}, "drawn_tile must be must, may or until")


def test_option_yard_reserve():
    assert rules("chickenfoot", 2, {"yard_reserve": "none"}).reserve == 0
    assert rules("mexican-train", 2, {"yard_reserve": "2p2-else1"}).reserve == 2
    assert rules("mexican-train", 5, {"yard_reserve": "2p2-else1"}).reserve == 1
    refused("chickenfoot", 4, {"yard_reserve": "3"}, "yard_reserve must be none or 2p2-else1")


def test_option_double_blank_50():
    assert rules("chickenfoot", 4, {"double_blank_50": "yes"}).db50
    assert not rules("chickenfoot-cross", 4, {"double_blank_50": "no"}).db50
    refused("chickenfoot", 4, {"double_blank_50": "50"}, "double_blank_50 must be yes or no")


def test_option_tie_break():
    assert rules("chickenfoot", 4, {"tie_break": "most_rounds_won,lowest_nonzero_round"}).tie_rounds
    assert not rules("chickenfoot-cross", 4, {"tie_break": "shared"}).tie_rounds
    refused("chickenfoot", 4, {"tie_break": "coin"}, "tie_break must be")


def test_option_positive_scoring():
    assert rules("mexican-train", 4, {"positive_scoring": "yes"}).positive
    for name in PRESETS:
        assert not rules(name, 4, {"positive_scoring": "no"}).positive
    refused("mexican-train", 4, {"positive_scoring": "on"}, "positive_scoring must be yes or no")


def test_every_preset_accepts_every_option_name():
    opts = {"set": "12", "hand_size": "5", "lead_plays_centre": "no", "drawn_tile": "may",
            "yard_reserve": "none", "double_blank_50": "yes", "rounds": "12 11",
            "tie_break": "shared", "positive_scoring": "no"}
    for name in PRESETS:
        r = rules(name, 4, opts)
        assert r.rounds == (12, 11) and r.hand_size == 5 and r.db50


def test_unknown_option_and_rules():
    refused("chickenfoot", 4, {"jokers": "yes"}, "unknown option 'jokers'")
    refused("dominoes", 4, {}, "unknown rules 'dominoes'")


# -- the rounds option -----------------------------------------------------------------

def test_option_rounds():
    assert rules("chickenfoot", 4, {"rounds": "9 8 7"}).rounds == (9, 8, 7)
    assert rules("chickenfoot", 4, {"rounds": "3 5"}).rounds == (3, 5)
    refused("chickenfoot", 4, {"rounds": "9 9"}, "9-9 is named twice")
    refused("chickenfoot", 4, {"rounds": "10"}, "10-10 is not in a double-9 set")
    refused("chickenfoot", 4, {"rounds": ""}, "names no double")
    refused("chickenfoot", 4, {"rounds": "9,8"}, "rounds must be a number")


def test_option_rounds_in_a_game():
    text = game("chickenfoot", 2, {"rounds": "3 5"}, """
        round 3-3 lead 1     ; 4
        score 10 20          ; 5
        round 5-5 lead 2     ; 6
        score 7 0            ; 7
    """)
    rep = report(text)
    assert [r["double"] for r in rep["rounds"]] == [3, 5]
    assert rep["over"] and rep["totals"] == [17, 20] and rep["winners"] == [1]
    bad = game("chickenfoot", 2, {"rounds": "3 5"}, """
        round 5-5 lead 1     ; 4
    """)
    rejects(bad, 4, "this round starts with 3-3, not 5-5")
    more = text + "round 2-2 lead 1\n"
    rejects(more, 8, "the game is over")


# -- option tags in a record --------------------------------------------------------------

def test_bad_option_in_a_record():
    text = game("chickenfoot", 4, {"drawn_tile": "should"}, "round 9-9 lead 1")
    msg = rejects(text, None, "drawn_tile must be must, may or until")
    assert msg
    text = '[Rules "chickenfoot"]\n[Players "A" "B"]\n[Option "drawn_tile"]\nround 9-9 lead 1\n'
    rejects(text, None, "an Option tag takes a name and a value")
    text = '[Rules "chickenfoot"]\n[Players "A" "B"]\n[Set "7"]\nround 9-9 lead 1\n'
    rejects(text, None, "set must be one of")


def test_options_reach_the_game():
    g = replay(game("chickenfoot-cross", 3, {"set": "12", "hand_size": "2:9 3:9 4:8"},
                    "round 12-12 lead 1"))
    assert g.rules.top == 12 and g.rules.hand_size == 9
    assert g.rules.options["hand_size"] == "2:9 3:9 4:8"
