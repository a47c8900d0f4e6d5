"""The error screen: any press dismisses it and the app carries on.

ui keys: "s": "err", "m": the fault's technical text (the exception as
``type: message``, as in /log.txt), "w": where it happened ("press A",
"draw turn", "restore"...).

Players read a sentence that says what happened and what to do; the
exception itself is in the board's log (App.log). The kind of fault is read
here from "m" and "w" (``kind``) rather than stored by the app: app.py is
loaded on every press, and each name it adds costs every press's heap (the
table of interned names); this module is loaded only when a fault shows.
"""

SAY = {
    "full": "The board's flash is full. Sync the games to the laptop "
            "(pipkeeper sync), then delete synced games from History.",
    "flash": "The board could not read or write its flash. Press OK to try "
             "again; if it keeps happening, sync the games and reflash the board.",
    "file": "A file of the scorer is missing or damaged. Reflash the board "
            "from the laptop (pipkeeper flash); the games stay on it.",
    "mem": "The board ran out of memory. Press OK to carry on; the game so "
           "far is saved.",
    "panel": "The screen did not answer. Press OK to try again; if it keeps "
             "happening, check the screen's cable.",
    "record": "Game {game} cannot be read back and was set aside; it stays on "
              "the board. Sync it to see what is wrong, and start a new game.",
    "saved": "The saved game could not be read back. Press OK to try again; "
             "if it keeps happening, sync the games to the laptop.",
    "bug": "Something unexpected went wrong (the details are in the board's "
           "log). Press OK to carry on; the game so far is saved.",
}

# the start of "m" -> the kind of fault (app.describe: "type: message")
_KINDS = (
    ("ImportError", "file"),
    ("MemoryError", "mem"),
    ("PanelError", "panel"),
)
# OSError's number -> the kind ("OSError: [Errno 28] ENOSPC" on a board,
# "OSError: 28" where the port has no table of errno names); others: "flash"
_ERRNOS = {"28": "full", "2": "file"}      # ENOSPC, ENOENT
_REPLAY = " does not replay"   # app.load's text for a record set aside


def kind(ui):
    """(the key in ``SAY``, the record's number or None) for the fault in
    ``ui``."""
    m = ui.get("m") or ""
    if ui.get("w") == "panel":
        return "panel", None        # whatever the driver raised (an OSError of its bus)
    for start, k in _KINDS:
        if m.startswith(start):
            return k, None
    if m.startswith("OSError"):
        n = m[8:].lstrip(" [Erno").split("]")[0].split(" ")[0]
        return _ERRNOS.get(n, "flash"), None
    if _REPLAY in m:
        path = m[:m.find(_REPLAY)]
        name = path[path.rfind("/") + 1:]
        return "record", name[:name.rfind(".")] if "." in name else name
    if ui.get("w") == "restore":
        return "saved", None
    return "bug", None


def say(k, game=None):
    """The players' sentence for fault kind ``k`` (``game``: the record's
    number, for "record"), a message of the catalogue."""
    s = SAY.get(k) or SAY["bug"]
    return (s, game) if k == "record" else (s,)


def view(ctx, ui, k):
    return "error", {"message": say(*kind(ui)),
                     "labels": (("OK",), None, None, None, None)}


def press(ctx, ui, k, button):
    return {}, None
