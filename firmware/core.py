"""The app's logic without any I/O: a press in, a new UI state and maybe one
record event out; a view out for the screen.

    step(ctx, ui, button) -> (ui, act)
    view(ctx, ui)         -> (screen module name, view dict)

``ctx`` is a ``Ctx``: the engine Game (or None), the tracking level (the
app reads only that tag of the record on a press; the test planner also
keeps the others in ``tags``) and read-only access to the roster, settings
and history.
``ui`` is a small dict (JSON-able) saying where the buttons are: ``{}`` is
the default screen for the game's state (see ``kind``); ``"s"`` names another
screen, plus that screen's cursor and entries. ``act`` is None (only the UI
moved), an engine event tuple (to check, apply and append to the record), or
``("new", tags)`` (start a new game record with these tags).

Everything here is pure and deterministic, so the same code runs on the
board and, on the laptop, in the tests that plan button presses.
Screens: firmware/screens/*; flows: firmware/flows/* (one per screen group).
"""

# kind -> flow module (imported lazily: a press imports only what it needs)
_FLOWS = {
    "setup": "setup", "house": "house", "dealer": "rounds", "sheet": "rounds", "end": "rounds",
    "turn": "play", "pick": "play", "menu": "play", "score": "score", "fix": "score",
    "hist": "history", "err": "error", "ask": "ask", "qr": "qr",
}


class Ctx:
    def __init__(self, game=None, tags=None, tracking="quick", store=None, free=1 << 30):
        self.game = game
        self.tags = tags or []
        self.tracking = tracking
        self.store = store
        self.free = free

    def names(self):
        return self.game.players if self.game is not None else []

    def name(self, seat):
        """The name of a 1-based seat."""
        return self.game.players[seat - 1]

    def words(self, m):
        """A refusal's message (shared_engine/messages.py) with the seat
        numbers of its seat slots turned into the players' names."""
        g = self.game
        if g is None or isinstance(m, str):
            return m
        t = m[0]
        out = [t]
        j = t.find("{")
        for i in range(1, len(m)):
            v = m[i]
            if isinstance(v, int):
                if t.startswith("seat", j + 1) and 0 < v <= g.n:
                    v = g.players[v - 1]
            elif not isinstance(v, str):
                v = self.words(v)
            out.append(v)
            j = t.find("{", j + 1)
        return tuple(out)


def kind(ctx, ui):
    """Which screen the buttons are on."""
    s = ui.get("s")
    if s:
        return s
    g = ctx.game
    if g is None:
        return "setup"
    if g.over:
        return "end"
    r = g.round
    if r is None:
        return "sheet" if g.results else "dealer"
    if r.ended:
        return "score"
    return "turn"


def flow(k):
    return __import__("firmware.flows." + _FLOWS[k], None, None, ("x",))


def step(ctx, ui, button):
    k = kind(ctx, ui)
    return flow(k).press(ctx, ui, k, button)


def view(ctx, ui):
    k = kind(ctx, ui)
    return flow(k).view(ctx, ui, k)


def full_refresh(ctx, ui, before):
    """Whether this press's update should be a full refresh: round
    boundaries and screens that change everything. Inside a round, against
    ghosting, the count of pixels the fast updates erased decides
    (firmware/picture.py), not the count of moves."""
    k = kind(ctx, ui)
    if k == "qr":
        return True     # every code on a clean panel: a fast update's ghost is noise to a camera
    return k in ("dealer", "sheet", "end", "setup", "err", "hist") and k != before


def sheet_rows(g):
    """The sheet's rows (label, scores) and its corrected cells [row, seat
    index] (the seats a ``fix`` changed, shared_engine/report.py): for the
    round sheet (flows/rounds.py) and History's (flows/history.py), here so
    that History need not load the rounds' flow."""
    rows = []
    fixed = []
    for k in range(len(g.results)):
        res = g.results[k]
        rows.append(("%d-%d" % (res[0], res[0]), res[1]))
        orig = res[6]
        if orig is not None:
            for s in range(g.n):
                if orig[1][s] != res[3][s] or orig[2][s] != res[4][s]:
                    fixed.append([k, s])
    return rows, fixed


def tile_text(a, b):
    return "%d-%d" % (a, b)


def labels(a=None, b=None, c=None, up=None, down=None):
    """The buttons' words (A, B, C, UP, DOWN), each a message of the
    catalogue (None: the button does nothing here)."""
    return (a and (a,), b and (b,), c and (c,), up and (up,), down and (down,))
