"""Setting up a game: preset, players from the roster, options, tracking.

Page 0, the preset: UP/DOWN move, A chooses, C leaves set-up (when a game
is on). Page 1, the players: UP/DOWN move, B takes a player in or out (seats
in the order taken), A goes on, C back. Page 2, the options: UP/DOWN move,
B changes the value, A starts the game, C back. Its "House rules" row
opens the House rules page with B (firmware/flows/house.py: the rules a
table plays its own way, the sets it named, the last game's, offered
first). Its last three rows are the board's own settings, kept in
settings.json and never in the record: the language, the minutes a board
on battery waits asleep during a game before it switches itself off
("idle": firmware/app.py App.awake_ms; 0, at once after every press), and
the screen's refresh ("refresh": clean, or fast: no full refresh inside a
round; firmware/picture.py). The set-up speaks the language of its
Language row.

The roster is /pipkeeper/roster.json ({"names": [...]}, pushed from the
laptop by `pipkeeper roster`), else a built-in one; a roster of fewer than
two names (an older laptop took `roster Ann`) is topped up with the
built-in names, so that a game can still be set up. The last set-up is
remembered in settings.json ("last") and offered again, over the roster's
defaults; its "house" keeps the last game's house rules of each preset.

ui keys: "s": "setup", "pg": page, "c": cursor, "pr": preset index,
"pl": roster indices taken (seat order), "o": option values by name,
"t": "quick" or "full", "house" and "rules_set": the house rules and the
set they came from (firmware/flows/house.py), "msg": why the game cannot
start.
"""

from firmware.core import labels
from firmware.words import PRESETS, preset

# The helper this flow imports where it uses it, which the app keeps with
# the flow between frames (firmware/app.py render).
DRAWS_WITH = ("firmware.flows.rule_sets",)
ABOUT = (
    ("Chicken Foot, double-9, 10 rounds",),
    ("Maltese cross, 0-0 counts 50",),
    ("Chicken Scratch, double-6, 5 tiles",),
    ("Mexican Train, double-12, 13 rounds",),
)
DEFAULT_ROSTER = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
SETS = ("6", "9", "12", "15", "18")
DEFAULT_SET = ("9", "9", "6", "12")
ROUNDS = ("all", "1", "2", "3", "5")   # a short game: the first k doubles
# The board's languages (host/pipkeeper/i18n), each shown in itself.
LANGS = ("en", "cy", "ga", "sv", "mn", "fa")
ENDONYMS = ("English", "Cymraeg", "Gaeilge", "Svenska", "Монгол", "فارسی")
IDLES = ("0", "1", "2", "5", "10", "15", "30")   # minutes; `pipkeeper roster --option idle=N` takes up to 60
IDLE = "5"


def roster(ctx):
    st = ctx.store
    names = []
    if st is not None:
        r = st.read_json("roster.json")
        if r and isinstance(r.get("names"), list):
            names = [n for n in r["names"] if isinstance(n, str) and n]
    if len(names) < 2:
        names += [n for n in DEFAULT_ROSTER if n not in names]
    return names


def _last(ctx):
    """The set-up to offer: the last one used on this board, else the
    roster's defaults (rules, tracking, options); in the board's language
    (settings.json "lang": chosen here at the last set-up, or pushed by
    `pipkeeper roster --lang`)."""
    st = ctx.store
    if st is None:
        return {}
    s = st.read_json("settings.json") or {}
    out = _offered(st, s)
    o = dict(out.get("o") or {})
    # the house rules an older board kept among its options ("0-0 counts
    # 50", "Winner scores others"): the last game's, of its preset
    old = {}
    if o.pop("double_blank_50", "no") == "yes":
        old["double_blank"] = "50"
    if o.pop("positive_scoring", "no") == "yes":
        old["positive_scoring"] = "yes"
    if old and "house" not in out:
        out["house"] = {PRESETS[out.get("pr", 0)]: old}
    if s.get("lang") in LANGS:
        o["lang"] = s["lang"]
    for k in ("idle", "refresh"):
        if k in s:
            o[k] = str(s[k])
    out["o"] = o
    return out


def _offered(st, s):
    """The last set-up, over the roster's defaults: what the laptop pushed
    after that set-up (`pipkeeper roster` lets go of the parts of "last"
    it replaces, host/pipkeeper/board/roster.py) shows through."""
    out = _defaults(st)
    last = s.get("last")
    if isinstance(last, dict):
        for k in last:
            if k == "o" and out.get("o"):
                o = dict(out["o"])
                o.update(last["o"] or {})
                out["o"] = o
            else:
                out[k] = last[k]
    return out


def _defaults(st):
    r = st.read_json("roster.json") or {}
    d = r.get("defaults") or {}
    out = {}
    if d.get("rules") in PRESETS:
        out["pr"] = PRESETS.index(d["rules"])
    if d.get("tracking") in ("quick", "full"):
        out["t"] = d["tracking"]
    o = d.get("options") or {}
    if "set" in o:
        out["o"] = {"set": o["set"]}     # (its house rules: rule_sets.standard)
    return out


def _options(pr, o):
    """[(name, label, values)] the options page offers for preset pr (the
    House rules row at rule_sets.OPTIONS_ROW: B opens its page)."""
    return [("tracking", ("Tracking",), ("quick", "full")),
            ("set", ("Set: double",), SETS),
            ("rounds", ("Rounds",), ROUNDS),
            ("house", ("House rules",), None),
            ("lang", ("Language",), LANGS),
            ("idle", ("Off after (minutes)",), IDLES),
            ("refresh", ("Screen",), ("clean", "fast"))]   # firmware/picture.py; `roster --option refresh=fast`


def _value(pr, o, t, key):
    if key == "lang":
        return o.get("lang", "en")
    if key == "tracking":
        return t
    if key == "set":
        return o.get("set", DEFAULT_SET[pr])
    if key == "rounds":
        return o.get("rounds", "all")
    if key == "idle":
        return o.get("idle", IDLE)
    if key == "refresh":
        return o.get("refresh", "clean")
    return o.get(key, "no")


def _with_house(ctx, ui):
    """``ui`` with the house rules of its preset (firmware/flows/house.py),
    those offered first when it has none yet: the last game's with that
    preset. Asked only from the options page on (and the words of the house
    rules loaded only then: the pages before hold a game's heap beside
    them when a game is on)."""
    if "house" in ui:
        return ui
    from firmware.flows.rule_sets import offered
    u = dict(ui)
    u["rules_set"], u["house"] = offered(ctx.store, PRESETS[ui["pr"]], _last(ctx).get("house"))[0]
    return u


def _shown(value):
    """An option's value as the screen shows it: words are messages of the
    catalogue, numbers stay as they are, a language is its own name."""
    if value in LANGS:
        return ENDONYMS[LANGS.index(value)]
    return value if value[0] in "0123456789" else (value,)


def _ui(ui, **kw):
    u = dict(ui)
    u.pop("msg", None)
    u["s"] = "setup"
    for k in kw:
        u[k] = kw[k]
    return u


def _start(ctx, ui):
    last = _last(ctx)
    u = {"s": "setup", "pg": 0, "c": last.get("pr", 0), "pr": last.get("pr", 0),
         "pl": last.get("pl") or [0, 1, 2, 3], "o": last.get("o") or {},
         "t": last.get("t", "quick")}
    for k in ui:
        u[k] = ui[k]
    if "pl" not in ui:
        # the last set-up's seats that the roster still has (a shorter
        # roster pushed since: "Players (4)" over three names)
        n = len(roster(ctx))
        u["pl"] = [i for i in u["pl"] if i < n]
    return u


def view(ctx, ui, k):
    ui = _start(ctx, ui)
    pg = ui["pg"]
    c = ui["c"]
    # The set-up speaks the language of its Language row (the board's
    # setting, or the one just chosen), not the last game's (issue 32).
    lang = ui["o"].get("lang", "en")
    if pg == 0:
        return "menu", {
            "title": ("New game: rules",),
            "items": [preset(p) for p in PRESETS],
            "cursor": c,
            "note": ui.get("msg") or ABOUT[c],
            "labels": labels("OK", None, "Back" if ctx.game is not None else None, "up", "down"),
            "lang": lang,
        }
    if pg == 1:
        names = roster(ctx)
        pl = ui["pl"]
        items = []
        for i in range(len(names)):
            items.append([names[i], "%d" % (pl.index(i) + 1) if i in pl else ""])
        return "menu", {
            "title": ("Players ({n})", len(pl)),
            "items": items,
            "cursor": c,
            "note": ui.get("msg") or ("B: in/out, seats in order taken",),
            "labels": labels("Next", "In/out", "Back", "up", "down"),
            "lang": lang,
        }
    from firmware.flows.rule_sets import summary
    ui = _with_house(ctx, ui)
    pr = ui["pr"]
    opts = _options(pr, ui["o"])
    items = [[label, summary(ui) if key == "house" else _shown(_value(pr, ui["o"], ui["t"], key))]
             for key, label, _ in opts]
    return "menu", {
        "title": ("Options: {rules}", preset(PRESETS[pr])),
        "items": items,
        "cursor": c,
        "note": ui.get("msg") or ("B: change   A: start the game",),
        "labels": labels("Start", "Open" if opts[c][0] == "house" else "Change", "Back", "up", "down"),
        "lang": lang,
    }


def press(ctx, ui, k, button):
    ui = _start(ctx, ui)
    pg = ui["pg"]
    c = ui["c"]
    if pg == 0:
        n = len(PRESETS)
        if button == "UP":
            return _ui(ui, c=(c - 1) % n), None
        if button == "DOWN":
            return _ui(ui, c=(c + 1) % n), None
        if button == "A":
            u = _ui(ui, pg=1, pr=c, c=0)
            if c != ui["pr"]:
                # this preset's house rules (its last game's first), when asked
                u.pop("house", None)
                u.pop("rules_set", None)
            return u, None
        if button == "C" and ctx.game is not None:
            return {}, None
        return ui, None
    if pg == 1:
        names = roster(ctx)
        n = len(names)
        if button == "UP":
            return _ui(ui, c=(c - 1) % n), None
        if button == "DOWN":
            return _ui(ui, c=(c + 1) % n), None
        if button == "B":
            pl = list(ui["pl"])
            if c in pl:
                pl.remove(c)
            else:
                pl.append(c)
            return _ui(ui, pl=pl), None
        if button == "C":
            return _ui(ui, pg=0, c=ui["pr"]), None
        if button == "A":
            pl = [i for i in ui["pl"] if i < n]
            if len(pl) < 2:
                u = _ui(ui)
                u["msg"] = ("Take at least 2 players (B)",)
                return u, None
            return _ui(ui, pg=2, c=0, pl=pl), None
        return ui, None
    ui = _with_house(ctx, ui)
    pr = ui["pr"]
    opts = _options(pr, ui["o"])
    if button == "UP":
        return _ui(ui, c=(c - 1) % len(opts)), None
    if button == "DOWN":
        return _ui(ui, c=(c + 1) % len(opts)), None
    if button == "C":
        return _ui(ui, pg=1, c=0), None
    if button == "B" and opts[c][0] == "house":
        u = _ui(ui, row=0)
        u["s"] = "house"
        return u, None
    if button == "B":
        key, _, values = opts[c]
        cur = _value(pr, ui["o"], ui["t"], key)
        nxt = values[(values.index(cur) + 1) % len(values)] if cur in values else values[0]
        if key == "tracking":
            return _ui(ui, t=nxt), None
        o = dict(ui["o"])
        o[key] = nxt
        return _ui(ui, o=o), None
    if button == "A":
        return _new(ctx, ui)
    return ui, None


def _new(ctx, ui):
    pr = ui["pr"]
    rules = PRESETS[pr]
    names = roster(ctx)
    players = [names[i] for i in ui["pl"] if i < len(names)]
    tags = [("Rules", [rules]), ("Players", players)]
    o = ui["o"]
    if o.get("set", DEFAULT_SET[pr]) != DEFAULT_SET[pr]:
        tags.append(("Set", [o["set"]]))
    k = o.get("rounds", "all")
    if k != "all":
        top = int(o.get("set", DEFAULT_SET[pr]))
        tags.append(("Option", ["rounds", " ".join(str(top - i) for i in range(int(k)))]))
    from firmware.flows.rule_sets import in_play
    played = in_play(rules, ui.get("house") or {})
    for key in played:
        tags.append(("Option", [key, played[key]]))
    tags.append(("Tracking", [ui["t"]]))
    tags.append(("Lang", [o.get("lang", "en")]))
    # Check the rules accept it before anything is written.
    from shared_engine.engine import Game
    opts = {}
    for name, vals in tags:
        if name == "Set":
            opts["set"] = vals[0]
        elif name == "Option":
            opts[vals[0]] = vals[1]
    try:
        Game(rules, players, opts)
    except ValueError as e:
        from shared_engine.messages import message
        u = _ui(ui)
        # a refusal names the preset by its id: the players read its name
        u["msg"] = tuple(preset(v) if isinstance(v, str) else v for v in message(e))
        return u, None
    # the last game's house rules, by preset: offered first next time
    kept = _last(ctx).get("house")
    kept = dict(kept) if isinstance(kept, dict) else {}
    kept[rules] = played
    last = {"pr": pr, "pl": ui["pl"], "o": o, "t": ui["t"], "house": kept}
    return {}, ("new", tags, last)
