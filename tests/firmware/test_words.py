"""What the screens say, as the flows make it (issue 22): counts in the
singular for one, the presets by their names in every language, the
dealer's lines in plain words, one "Back" on the history sheet, "Undo"
written as the buttons beside it, and "End the game" asked first. The
flows are pure, so they run here on CPython; the text is the catalogue's
(pipkeeper.i18n.say), as the board draws it."""

import pytest

from firmware import core
from firmware.flows import history, play, rounds, setup
from firmware.storage import Storage
from pipkeeper import i18n
from shared_engine import fill
from shared_engine.engine import END, ROUND, SCORE, Game

IDS = ("chickenfoot", "chickenfoot-cross", "chicken-scratch", "mexican-train")


def _store(folder, games=0):
    st = Storage(str(folder))
    st.ensure_dirs()
    for _ in range(games):
        st.new_game(lambda n: '[Rules "chickenfoot"]\n[Players "Ann" "Bob"]\n')
    return st


def _words(m):
    """Every language's text of message ``m``."""
    return {lang: i18n.say(lang, m) for lang in i18n.LANGS}


@pytest.mark.parametrize("games, title", [(1, "History (1 game)"), (3, "History (3 games)")])
def test_history_counts_its_games(tmp_path, games, title):
    ctx = core.Ctx(store=_store(tmp_path, games))
    assert fill(history.view(ctx, {"s": "hist", "c": 0}, "hist")[1]["title"]) == title


def test_a_game_of_one_round_says_round(tmp_path):
    g = Game("chickenfoot", ["Ann", "Bob"], {"rounds": "9"})
    g.apply((ROUND, 9, 1, ()))
    g.apply((SCORE, (0, 12), (0, 0)))
    ctx = core.Ctx(game=g)
    assert fill(rounds.end_view(ctx, {})[1]["title"]) == "Chicken Foot, 1 round"
    st = _store(tmp_path)
    from shared_engine import dgn
    st.new_game(lambda n: dgn.write([("Rules", ["chickenfoot"]), ("Players", ["Ann", "Bob"]),
                                     ("Option", ["rounds", "9 8"])],
                                    [(ROUND, 9, 1, ()), (SCORE, (0, 12), (0, 0))]))
    name = st.list_games()[0]
    v = history.view(core.Ctx(store=st), {"s": "hist", "c": 0, "g": name}, "hist")[1]
    assert fill(v["right"]) == "1 rd"
    assert fill(v["title"]) == name[:-4] + " Chicken Foot"


def test_every_count_the_firmware_shows_has_its_form_for_one():
    """A firmware template that puts a plural noun after a count ("{n}
    games") has its form for one ("1 game") in the catalogue: the flows
    choose between them (firmware.words.plural)."""
    import re
    from pipkeeper.i18n import sources
    counted = re.compile(r"\{[nk]\} ((?:more )?)(\w+s)\b")
    msgs = set(i18n.english())
    mine = [m for m, where in sources.found().items()
            if where.startswith("firmware/") and counted.search(m)]
    assert "{n} games" in mine and "{n} rounds" in mine
    missing = [m for m in mine if counted.sub(lambda x: "1 " + x.group(1) + x.group(2)[:-1], m)
               not in msgs]
    assert not missing, missing


def test_presets_are_named_in_every_language(tmp_path):
    """The set-up's list, the options' title, the dealer's header, the end
    and the history show a preset's name, never its id, in every language
    (Persian showed "chickenfoot")."""
    st = _store(tmp_path, 1)
    ctx = core.Ctx(store=st)
    shown = list(setup.view(ctx, {"s": "setup", "pg": 0, "c": 0}, "setup")[1]["items"])
    shown.append(setup.view(ctx, {"s": "setup", "pg": 2, "c": 0, "pr": 3, "pl": [0, 1]}, "setup")[1]["title"])
    g = Game("mexican-train", ["Ann", "Bob"], {})
    gctx = core.Ctx(game=g)
    shown.append(rounds.dealer_view(gctx, {})[1]["preset"])
    shown.append(rounds.end_view(gctx, {})[1]["title"])
    shown.append(history.view(ctx, {"s": "hist", "c": 0}, "hist")[1]["items"][0][0])
    # a refusal of the set-up names the preset too
    ui, _ = setup.press(core.Ctx(store=st), {"s": "setup", "pg": 2, "c": 0, "pr": 0,
                                             "pl": [0, 1, 2, 3, 4, 5, 6, 7], "o": {"set": "6"}}, "setup", "A")
    if ui.get("msg"):
        shown.append(ui["msg"])
    for m in shown:
        for lang, s in _words(m).items():
            assert not any(i in s for i in IDS), (lang, s)
    from firmware.words import preset
    assert [i18n.say("fa", preset(i)) for i in IDS] == ["پای مرغ", "پای مرغ صلیبی", "خراش مرغ",
                                                          "قطار مکزیکی"]


class _Text:
    """firmware.text without a framebuffer: each text drawn, in English."""

    def __init__(self):
        self.drawn = []

    def font(self, name):
        return type("Font", (), {"HEIGHT": 18})

    def draw(self, fb, s, x, y, f=None, c=1):
        self.drawn.append(fill(s))
        return x

    def fit(self, s, f, w):
        return s

    def wrap(self, s, f, w):
        return [s]

    def width(self, s, f):
        return 0

    def height(self, f):
        return 8 if f is None else f.HEIGHT

    def right(self, fb, s, x, y, f=None, c=1):
        self.drawn.append(fill(s))

    def clear(self, fb):
        pass


def test_the_dealer_says_what_to_do_in_plain_words(monkeypatch):
    import sys
    import types
    stub = types.ModuleType("framebuf")      # CPython has none: text.py only names its format here
    stub.MONO_HLSB = 0
    monkeypatch.setitem(sys.modules, "framebuf", sys.modules.get("framebuf", stub))
    from firmware.screens import dealer, ui
    g = Game("chickenfoot", ["Ann", "Bob", "Cy", "Di"], {})
    v = rounds.dealer_view(core.Ctx(game=g), {})[1]
    assert fill(v["hunt"]) == "Whoever draws the 9-9 first leads. Is it Ann?"
    fake = _Text()
    monkeypatch.setattr(dealer, "text", fake)
    monkeypatch.setattr(ui, "text", fake)
    fb = type("FB", (), {"__getattr__": lambda self, name: lambda *a: None})()
    dealer.draw(v, fb)
    assert "10 tiles in the yard: leave the last one there" in fake.drawn, fake.drawn
    assert "Round 1/10  Chicken Foot" in fake.drawn
    assert not any("stay" in s or "who finds" in s for s in fake.drawn)
    fake.drawn[:] = []
    dealer.draw(dict(v, reserve=2, yard=1), fb)
    assert "1 tile in the yard: leave the last 2 there" in fake.drawn
    fake.drawn[:] = []
    dealer.draw(dict(v, reserve=0), fb)
    assert "10 tiles in the yard" in fake.drawn
    # where the centre double is in a hand: who holds it, in words too
    g = Game("mexican-train", ["Ann", "Bob"], {})
    v = rounds.dealer_view(core.Ctx(game=g), {})[1]
    assert fill(v["hunt"]) == "Whoever holds the 12-12 places it and leads. Is it Ann?"


def test_the_menu_says_undo_as_its_buttons_and_the_history_sheet_back_once(tmp_path):
    g = Game("chickenfoot", ["Ann", "Bob"], {})
    g.apply((ROUND, 9, 1, ()))
    ctx = core.Ctx(game=g)
    assert play.menu_view(ctx, {"s": "menu", "c": 0})[1]["labels"][:3] == (("OK",), ("Undo",), ("Back",))
    st = _store(tmp_path, 1)
    hctx = core.Ctx(store=st)
    name = st.list_games()[0]
    ui = {"s": "hist", "c": 0, "g": name}
    labels = history.view(hctx, ui, "hist")[1]["labels"]
    assert [l for l in labels if l] == [("Back",)] and labels[2] == ("Back",)
    assert history.press(hctx, ui, "hist", "A") == (ui, None)          # A does nothing here
    assert history.press(hctx, ui, "hist", "C") == ({"s": "hist", "c": 0}, None)


def test_ending_the_game_asks_first():
    g = Game("chickenfoot", ["Ann", "Bob"], {})
    g.apply((ROUND, 9, 1, ()))
    ctx = core.Ctx(game=g)
    items = [fill(x[0]) for x in play.menu_items(ctx)]
    c = items.index("End the game")
    ui, act = core.step(ctx, {"s": "menu", "c": c}, "A")
    assert act is None and ui == {"s": "ask", "c": c}
    name, v = core.view(ctx, ui)
    assert name == "menu" and fill(v["title"]) == "End the game?"
    assert v["labels"][:3] == (("OK",), None, ("Back",))
    for b in ("B", "UP", "DOWN"):
        assert core.step(ctx, ui, b) == (ui, None)
    assert core.step(ctx, ui, "C") == ({"s": "menu", "c": c}, None)     # back to the menu
    assert core.step(ctx, ui, "A") == ({}, (END,))
    for m in (v["title"], v["note"]):
        for lang, s in _words(m).items():
            assert lang == "en" or s != fill(m), (lang, s)              # translated
