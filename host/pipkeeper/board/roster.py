"""The roster the board offers at set-up: player names and default options.

Written to the board as /pipkeeper/roster.json, {"names": [...],
"defaults": {"rules": ..., "tracking": ..., "options": {...}}, "sets":
[{"name": ..., "rules": ..., "options": {...}}]} (the layout
firmware/storage.py reads; "sets": the tables' named sets of house rules,
firmware/flows/house.py), whole and atomically: pklink.R writes a
temporary file, checks its hash, then renames it over the old one, so a
pulled cable leaves the old roster or the new one. Names and options are
checked here first against the engine's own presets, so the board never has
to refuse what we send.
"""

import binascii
import hashlib
import json
import unicodedata

from pipkeeper.errors import PipkeeperError
from pipkeeper.wording import did_you_mean

PATH = "/pipkeeper/roster.json"
NAMES = "/pipkeeper/names.bin"        # the names the board's fonts cannot draw, as bitmaps
SETTINGS = "/pipkeeper/settings.json"
MAX_NAMES = 20
MIN_NAMES = 2  # a game takes two players at least: fewer left the board's set-up stuck
MAX_NAME = 12  # what fits a seat's column on the 296-pixel screen
TRACKING = ("quick", "full")
# `--option idle=N`: the minutes a board on battery waits asleep during a
# game before it switches itself off (0: at once, after every press). A
# setting of the board (settings.json "idle", firmware/app.py App.awake_ms),
# not a rule: never in a record's [Option] tags nor in the engine's Rules.
IDLE_MAX = 60
# `--option refresh=clean|fast`: the screen's refresh, a setting of the board
# as idle is (settings.json "refresh", firmware/picture.py): "fast" leaves
# out the full refresh inside a round that the count of erased pixels asks
# for; round boundaries keep theirs.
REFRESHES = ("clean", "fast")


# The zero-width joiners names are spelled with: ZWNJ keeps two letters
# apart that would join (Persian مریم‌السادات, the board's own Persian text
# too), ZWJ joins what would not (an emoji sequence). They take no room and
# change no order; every other format or control character (an escape, a
# bidi override that turns the text around, a line separator) is refused.
JOINERS = "\u200c\u200d"


def check_name(name):
    name = name.strip()
    if not name:
        raise PipkeeperError("an empty player name")
    if len([c for c in name if c not in JOINERS]) > MAX_NAME:
        raise PipkeeperError("player name {!r} is longer than {} characters".format(name, MAX_NAME))
    if any(_control(c) for c in name):
        raise PipkeeperError("player name {!r} has control characters".format(name))
    if '"' in name or "\\" in name:
        raise PipkeeperError("player name {!r}: no quotes or backslashes, please".format(name))
    return name


def _control(c):
    """Whether ``c`` may not stand in a name: a control, format or
    unassigned character but for the joiners, or a line or paragraph
    separator."""
    kind = unicodedata.category(c)
    return (kind[0] == "C" and c not in JOINERS) or kind in ("Zl", "Zp")


def check_names(names):
    """A roster's names, checked: each one a name, at least two (a game's
    fewest players) and at most MAX_NAMES, all different."""
    clean = [check_name(n) for n in names]
    if len(clean) < MIN_NAMES:
        raise PipkeeperError("a roster takes at least {} players, not {}: name them all, "
                             "e.g. pipkeeper roster Ann Bob".format(MIN_NAMES, len(clean)))
    if len(clean) > MAX_NAMES:
        raise PipkeeperError("at most {} names".format(MAX_NAMES))
    if len(set(n.casefold() for n in clean)) != len(clean):
        raise PipkeeperError("the names must differ")
    return clean


def check_defaults(rules=None, tracking=None, options=None):
    """The defaults dict, checked with the engine's presets; the board's
    own settings among ``options`` (``idle``, ``refresh``) go apart, beside them."""
    from shared_engine import presets

    defaults = {}
    options = dict(options or {})
    if "idle" in options:
        defaults["idle"] = check_idle(options.pop("idle"))
    if "refresh" in options:
        defaults["refresh"] = check_refresh(options.pop("refresh"))
    if rules is not None:
        if rules not in presets.PRESETS:
            raise PipkeeperError("unknown rules {!r}: use one of {}{}".format(
                rules, ", ".join(presets.NAMES), did_you_mean(rules, presets.NAMES)))
        defaults["rules"] = rules
    if tracking is not None:
        if tracking not in TRACKING:
            raise PipkeeperError("tracking is quick or full, not {!r}".format(tracking))
        defaults["tracking"] = tracking
    if options:
        check_options(rules, options)
        defaults["options"] = options
    return defaults


def check_options(rules, options):
    """Every option of the engine's table (shared_engine/house.py), the
    house rules' extended values too: an unknown name, or a value the table
    does not allow, refused in one line that names the values allowed;
    then the options together by the engine's rules for ``rules`` (with
    no preset named: for one of the presets at least, since the board may
    play any)."""
    from shared_engine import house, presets

    import difflib
    for key, value in options.items():
        row = house.option(key)
        if row is None:
            near = difflib.get_close_matches(key, [r[0] for r in house.rows()], n=2, cutoff=0.6)
            raise PipkeeperError("option: unknown option {!r}{}".format(
                key, "; did you mean {}?".format(" or ".join(near)) if near else ""))
        why = house.check(row, value)
        if why is not None:
            raise PipkeeperError("option: {}".format(why))
    first = None
    for name in [rules] if rules else presets.NAMES:
        try:
            presets.Rules(name, 4, options)
            return
        except ValueError as exc:
            first = first or exc
    raise PipkeeperError("option: {}".format(first))


# A named set of house rules ("Thursday club"): picked on the board's House
# rules page, where its name is the rule set row's value (16 letters fit
# beside the label in every language).
MAX_SETS = 8
MAX_SET_NAME = 16
# What a named set cannot hold: the options page's own rows (chosen at each
# set-up) and the board's settings.
NOT_IN_SETS = ("set", "rounds", "idle")


def check_set_name(name):
    """A named set's name: drawn on the board (so not a preset's id, which
    `--rules` takes as the default preset, and not starting with "*", which
    the board keeps for its own sets: firmware/flows/house.py)."""
    from shared_engine import presets
    name = name.strip()
    if not name or name.startswith("*"):
        raise PipkeeperError("a named set of rules needs a name that does not start with '*', not {!r}".format(name))
    if len(name) > MAX_SET_NAME:
        raise PipkeeperError("the rule set's name {!r} is longer than {} characters".format(name, MAX_SET_NAME))
    if any(_control(c) for c in name):
        raise PipkeeperError("the rule set's name {!r} has control characters".format(name))
    if name in presets.PRESETS:
        raise PipkeeperError("{!r} is a preset: name a set of rules otherwise".format(name))
    return name


def check_set(name, rules, options):
    """A named set, checked with the engine's option data: {"name", "rules",
    "options"}."""
    from shared_engine import presets
    name = check_set_name(name)
    if rules not in presets.PRESETS:
        raise PipkeeperError("unknown preset {!r} for rule set {!r}: use one of {}".format(
            rules, name, ", ".join(presets.NAMES)))
    for key in options:
        if key in NOT_IN_SETS:
            raise PipkeeperError("a named set holds rules: {} is chosen at each set-up, "
                                 "or with --option and no --preset".format(key))
    check_options(rules, options)
    return {"name": name, "rules": rules, "options": dict(options)}


def unknown_rules(name):
    """The refusal of `--rules NAME` that is no preset and no set the board
    has, without --preset: most likely a preset mistyped."""
    from shared_engine import presets
    return "unknown rules {!r}: use one of {}, or name a set of house rules with --preset PRESET{}".format(
        name, ", ".join(presets.NAMES), did_you_mean(name, presets.NAMES))


def put_set(roster, new):
    """``roster`` with the named set ``new`` in (replacing one of its name)."""
    sets = [s for s in roster.get("sets") or () if s.get("name") != new["name"]]
    if len(sets) >= MAX_SETS:
        raise PipkeeperError("the board holds at most {} named sets of rules: "
                             "remove one first (--remove-rules NAME)".format(MAX_SETS))
    out = dict(roster)
    out["sets"] = sets + [new]
    return out


def remove_set(roster, name):
    sets = roster.get("sets") or []
    if not any(s.get("name") == name for s in sets):
        raise PipkeeperError("the board has no rule set named {!r}".format(name))
    out = dict(roster)
    out["sets"] = [s for s in sets if s.get("name") != name]
    if not out["sets"]:
        del out["sets"]
    return out


def find_set(roster, name):
    for s in (roster or {}).get("sets") or ():
        if s.get("name") == name:
            return s
    return None


def check_idle(value):
    """The idle minutes, an int from 0 to IDLE_MAX."""
    try:
        n = int(str(value).strip())
    except ValueError:
        n = -1
    if not 0 <= n <= IDLE_MAX:
        raise PipkeeperError("idle is the minutes a board on battery waits asleep during a game "
                             "before it switches off: 0 (at once) to {}, not {!r}".format(IDLE_MAX, value))
    return n


def check_refresh(value):
    """The screen's refresh: clean or fast."""
    v = str(value).strip().lower()
    if v not in REFRESHES:
        raise PipkeeperError("refresh is clean (a full refresh inside a long round where the "
                             "screen needs it) or fast (none inside a round), not {!r}".format(value))
    return v


def parse_options(pairs):
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise PipkeeperError("--option takes KEY=VALUE, not {!r}".format(pair))
        out[key.strip()] = value.strip()
    return out


def read(link):
    """The roster on the board (None if it has none)."""
    link.info()
    try:
        return _read_json(link, PATH)
    except ValueError:
        raise PipkeeperError("the board's roster ({}) is not valid JSON; push a new one".format(PATH))


def _read_json(link, path):
    """A JSON file on the board (None when it has none; ValueError when it is not JSON)."""
    out = link.exec("try:\n print(open({!r}).read())\nexcept OSError:\n print('null')".format(path))
    return json.loads(out.decode("utf-8"))


def merge(current, names=None, defaults=None):
    roster = {"names": [], "defaults": {}}
    if isinstance(current, dict):
        roster["names"] = list(current.get("names") or [])
        roster["defaults"] = dict(current.get("defaults") or {})
        if current.get("sets"):
            roster["sets"] = list(current["sets"])
    if names:
        roster["names"] = check_names(names)
    if defaults:
        opts = dict(roster["defaults"].get("options") or {})
        opts.update(defaults.get("options") or {})
        roster["defaults"].update(defaults)
        if opts:
            roster["defaults"]["options"] = opts
    return roster


def push(link, roster):
    """Write the roster to the board atomically, and the bitmaps of the
    names its fonts cannot draw (a name in Persian, Mongolian, Welsh:
    shaped and laid out here, pipkeeper.i18n.render); returns the bytes
    written."""
    data = json.dumps(roster, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    link.info()
    _write(link, PATH, data, "the roster")
    drawn = list(roster.get("names") or []) + [x["name"] for x in roster.get("sets") or ()]
    return len(data) + _write(link, NAMES, names_file(drawn), "the names' bitmaps")


def names_file(names):
    """The names file for the board (pipkeeper.i18n.render.names): the
    players' names and the named sets' that its fonts cannot draw."""
    from pipkeeper.i18n import render
    return render.names([n for n in names if not render.drawable(n)])


def check_lang(lang):
    from pipkeeper import i18n
    if lang not in i18n.LANGS:
        raise PipkeeperError("unknown language {!r}: use one of {}".format(lang, ", ".join(i18n.LANGS)))
    return lang


def newer_than_last(settings, defaults):
    """settings.json with the parts of its "last" set-up that the roster's
    new ``defaults`` replace let go: the preset ("pr") for ``rules``, the
    tracking ("t"), and each option pushed; the board's set-up offers the
    last set-up first, then the roster's defaults (firmware/flows/setup.py),
    so a push made after a game would otherwise go unseen there (issue 32:
    `roster --lang fa --rules mexican-train` left Chicken Foot chosen).
    The last players are kept."""
    last = settings.get("last")
    if not isinstance(last, dict):
        return settings
    last = dict(last)
    if "rules" in defaults:
        last.pop("pr", None)
    if "tracking" in defaults:
        last.pop("t", None)
    pushed = defaults.get("options") or {}
    if pushed and isinstance(last.get("o"), dict):
        last["o"] = {k: v for k, v in last["o"].items() if k not in pushed}
    out = dict(settings)
    out["last"] = last
    return out


def push_settings(link, changes, defaults=None):
    """Set the board's own settings in its settings.json (the others
    kept), as a set-up on the board would: "lang" (its language), "idle"
    (see IDLE_MAX) and "refresh" (see REFRESHES), checked; with the
    roster's new ``defaults``, the last set-up's parts they replace let go
    (``newer_than_last``)."""
    if "lang" in changes:
        check_lang(changes["lang"])
    if "idle" in changes:
        check_idle(changes["idle"])
    if "refresh" in changes:
        check_refresh(changes["refresh"])
    try:
        settings = _read_json(link, SETTINGS) or {}
    except ValueError:
        settings = {}        # a damaged settings file: the board starts it afresh too
    if not isinstance(settings, dict):
        settings = {}
    settings.update(changes)
    if defaults:
        settings = newer_than_last(settings, defaults)
    data = json.dumps(settings, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    _write(link, SETTINGS, data, "the board's settings")


def _write(link, path, data, what):
    out = link.exec("R({!r},{!r},{!r})".format(
        path, binascii.b2a_base64(data, newline=False).decode("ascii"), hashlib.sha256(data).hexdigest()))
    if out.strip() != b"ok":
        raise PipkeeperError("writing {} on the board failed".format(what))
    return len(data)
