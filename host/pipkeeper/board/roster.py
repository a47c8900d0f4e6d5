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

PATH = "/pipkeeper/roster.json"
MAX_NAMES = 20
MAX_NAME = 12  # what fits a seat's column on the 296-pixel screen
TRACKING = ("quick", "full")


def check_name(name):
    name = name.strip()
    if not name:
        raise PipkeeperError("an empty player name")
    if len(name) > MAX_NAME:
        raise PipkeeperError("player name {!r} is longer than {} characters".format(name, MAX_NAME))
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise PipkeeperError("player name {!r} has control characters".format(name))
    if '"' in name or "\\" in name:
        raise PipkeeperError("player name {!r}: no quotes or backslashes, please".format(name))
    return name


def check_defaults(rules=None, tracking=None, options=None):
    """The defaults dict, checked with the engine's presets."""
    from shared_engine import presets

    defaults = {}
    options = dict(options or {})
    if rules is not None:
        if rules not in presets.PRESETS:
            raise PipkeeperError("unknown rules {!r}: use one of {}".format(rules, ", ".join(presets.NAMES)))
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
    out = link.exec("try:\n print(open({!r}).read())\nexcept OSError:\n print('null')".format(PATH))
    try:
        return json.loads(out.decode("utf-8"))
    except ValueError:
        raise PipkeeperError("the board's roster ({}) is not valid JSON; push a new one".format(PATH))


def merge(current, names=None, defaults=None):
    roster = {"names": [], "defaults": {}}
    if isinstance(current, dict):
        roster["names"] = list(current.get("names") or [])
        roster["defaults"] = dict(current.get("defaults") or {})
    if names:
        clean = [check_name(n) for n in names]
        if len(clean) > MAX_NAMES:
            raise PipkeeperError("at most {} names".format(MAX_NAMES))
        if len(set(n.casefold() for n in clean)) != len(clean):
            raise PipkeeperError("the names must differ")
        roster["names"] = clean
    if defaults:
        opts = dict(roster["defaults"].get("options") or {})
        opts.update(defaults.get("options") or {})
        roster["defaults"].update(defaults)
        if opts:
            roster["defaults"]["options"] = opts
    return roster


def push(link, roster):
    """Write the roster to the board atomically; returns the bytes written."""
    data = json.dumps(roster, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    link.info()
    out = link.exec("R({!r},{!r},{!r})".format(
        PATH, binascii.b2a_base64(data, newline=False).decode("ascii"), hashlib.sha256(data).hexdigest()))
    if out.strip() != b"ok":
        raise PipkeeperError("writing the roster on the board failed")
    return len(data)
