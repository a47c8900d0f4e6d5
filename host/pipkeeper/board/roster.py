"""The roster the board offers at set-up: player names and default options.

Written to the board as /pipkeeper/roster.json, {"names": [...],
"defaults": {"rules": ..., "tracking": ..., "options": {...}}} (the layout
firmware/storage.py reads), whole and atomically: pklink.R writes a
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
        try:
            presets.Rules(rules or "chickenfoot", 4, options)
        except ValueError as exc:
            raise PipkeeperError("option: {}".format(exc))
        defaults["options"] = options
    return defaults


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
    return len(data) + _write(link, NAMES, names_file(roster.get("names") or []), "the names' bitmaps")


def names_file(names):
    """The names file for the board (pipkeeper.i18n.render.names)."""
    from pipkeeper.i18n import render
    return render.names([n for n in names if not render.drawable(n)])


def check_lang(lang):
    from pipkeeper import i18n
    if lang not in i18n.LANGS:
        raise PipkeeperError("unknown language {!r}: use one of {}".format(lang, ", ".join(i18n.LANGS)))
    return lang


def push_settings(link, changes):
    """Set the board's own settings in its settings.json (the others
    kept), as a set-up on the board would: "lang" (its language), "idle"
    (see IDLE_MAX) and "refresh" (see REFRESHES), checked."""
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
    data = json.dumps(settings, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    _write(link, SETTINGS, data, "the board's settings")


def _write(link, path, data, what):
    out = link.exec("R({!r},{!r},{!r})".format(
        path, binascii.b2a_base64(data, newline=False).decode("ascii"), hashlib.sha256(data).hexdigest()))
    if out.strip() != b"ok":
        raise PipkeeperError("writing {} on the board failed".format(what))
    return len(data)
