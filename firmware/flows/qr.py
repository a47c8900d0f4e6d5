"""The final sheet to a phone: a finished game's result as plain text in QR
codes (firmware/qr.py), which a phone's camera shows with no app.

Opened from the end screen (C) and from History's sheet of a finished game
(B); C goes back there. Where the text does not fit one code (at most
``PAGE`` bytes, version 6 at level L: firmware/qr.py), it is paged, each
page a code of its own headed "pipkeeper <game> k/n": DOWN shows the next
page (after the last, the first again), UP the one before.

The text, in the board's language (its words from the catalogue: a
language's ``<lang>.txt`` beside its pack holds them as text, made when the
board is flashed, host/pipkeeper/i18n/render.py), one line each:

    pipkeeper <game id> [<date>] [k/n]
    <rules>, <rounds>[, stopped]          the preset and the rounds played
    House rules: <key>=<value>; ...       options not the preset's, as in the record
    1. <name> <total>                     the players in finishing order (the
    ...                                   winners first, then by total; equal
                                          totals share a rank)
    <name> wins: <why>                    or "<names> win: <why>" (a shared win,
                                          a tie-break), or "the game was stopped"
    Rounds: <double> <double> ...         the rounds' doubles, in order
    <name>: <score> <score> ...           each player's round scores, finishing order

Numbers are written with the language's digits (Persian's in Persian); the
names, the game's id and the options as the record has them. A line too
long for a page is cut at a space and goes on as a line of its own.

ui keys: "s": "qr", "p": the page shown (0-based), "g": the record (a
History file name; none: the game in progress), "c": History's cursor.
"""

from firmware.core import labels
from firmware.words import plural, preset, why

HEADER = "pipkeeper"
# The bytes of a page: version 6-L's capacity with the ECI designator
# (firmware/qr.py capacity(6, L, True): 133), kept here so that paging a
# text does not load the encoder.
PAGE = 133


# -- the language's words as text ---------------------------------------------------

class Words:
    """Messages as text in one language: the templates of ``<lang>.txt``
    (its first line the language's ten digits, then "English<TAB>template"
    lines); English, or a language whose file is missing, as the English
    templates are."""

    def __init__(self, data=None):
        self.data = data
        digits = "0123456789"
        if data:
            digits = data[:data.find(b"\n")].decode()
        self.digits = None if digits == "0123456789" else digits

    def num(self, n):
        s = "%d" % n
        if self.digits is None:
            return s
        return "".join(self.digits[ord(c) - 48] if "0" <= c <= "9" else c for c in s)

    def template(self, key):
        d = self.data
        if d:
            k = b"\n" + key.encode() + b"\t"
            i = d.find(k)
            if i >= 0:
                i += len(k)
                return d[i:d.find(b"\n", i)].decode()
        return key

    def say(self, m):
        """The text of message ``m`` (a string is its own text, a number
        is written in the language's digits)."""
        if isinstance(m, int):
            return self.num(m)
        if isinstance(m, str):
            return m
        key = m[0]
        t = self.template(key)
        i = key.find("{")
        k = 1
        while i >= 0:
            j = key.find("}", i)
            t = t.replace(key[i:j + 1], self.say(m[k]))
            k += 1
            i = key.find("{", j)
        return t


def words(lang_code):
    """The ``Words`` of language ``lang_code`` (the screens' own), read in
    place where it is frozen into the image. Through firmware.text's
    handle on firmware.lang (``_loaded``): a press may come before the
    frame that opens the language's pack."""
    if lang_code == "en":
        return Words()
    from firmware import text
    path = text._loaded().folder() + lang_code + ".txt"
    try:
        data = text.data_bytes(path) if path[0] != "/" else None
        if data is None:
            with open(path, "rb") as f:
                data = f.read()
    except OSError:
        return Words()
    return Words(data)


# -- the sheet as text ----------------------------------------------------------------

def standing(g):
    """[(rank, seat index)] in finishing order: the winners first, then the
    rest by total (the lowest first, the highest under positive scoring);
    equal places share a rank ("1, 2, 2, 4")."""
    seats, _ = g.winners()
    tot = g.totals
    sign = -1 if g.rules.positive else 1

    def key(s):
        return (0 if s + 1 in seats else 1, sign * tot[s])

    order = sorted(range(g.n), key=key)
    out = []
    for i in range(len(order)):
        s = order[i]
        rank = out[-1][0] if i and key(order[i - 1]) == key(s) else i + 1
        out.append((rank, s))
    return out


def house_rules(rules):
    """The options in play that are not the preset's own, as the record
    writes them (key=value; ...); "" when none. Any option the engine
    knows is here, so a rule added to it needs no word of its own."""
    from shared_engine.presets import PRESETS, OPTION_NAMES
    preset_of = PRESETS[rules.name]
    out = []
    for k in OPTION_NAMES:
        v = rules.options.get(k)
        if v is not None and v != preset_of.get(k):
            out.append("%s=%s" % (k, v))
    return "; ".join(out)


def sheet_lines(g, w):
    """The final sheet of game ``g`` as lines of text (after the header),
    in the words ``w`` (``Words``)."""
    say = w.say
    n_rounds = plural(len(g.results), "1 round", "{n} rounds")
    lines = [say(("{rules}, {rounds}, stopped" if g.stopped else "{rules}, {rounds}",
                  preset(g.rules.name), n_rounds))]
    house = house_rules(g.rules)
    if house:
        lines.append(say(("House rules: {rules}", house)))
    order = standing(g)
    for rank, s in order:
        lines.append("%s. %s %s" % (w.num(rank), g.players[s], w.num(g.totals[s])))
    seats, how = g.winners()
    if not seats:
        lines.append(say(("the game was stopped",)))
    elif len(seats) == 1:
        lines.append(say(("{name} wins: {why}", g.players[seats[0] - 1], why(g, how))))
    else:
        names = " & ".join(g.players[s - 1] for s in seats)
        lines.append(say(("{names} win: {why}", names, why(g, how))))
    if g.results:
        lines.append(say(("Rounds",)) + ": " + " ".join(w.num(r[0]) for r in g.results))
        for _, s in order:
            lines.append(g.players[s] + ": " + " ".join(w.num(r[1][s]) for r in g.results))
    return lines


def _cut(line, room):
    """``line`` (bytes) in pieces of at most ``room`` bytes, cut at the
    last space that fits (else at a character's start)."""
    out = []
    while len(line) > room:
        i = line.rfind(b" ", 0, room + 1)
        if i <= 0:
            i = room
            while i > 0 and line[i] & 0xC0 == 0x80:     # not inside a UTF-8 character
                i -= 1
            out.append(line[:i])
            line = line[i:]
        else:
            out.append(line[:i])
            line = line[i + 1:]
    out.append(line)
    return out


def pages(head, lines, w, page=PAGE):
    """The text of each code: the lines in order, as many to a page as fit
    in ``page`` bytes below the header ``head`` (with " k/n" when there is
    more than one page)."""
    one = "\n".join([head] + lines).encode()
    if len(one) <= page:
        return [one.decode()]
    n = 1
    while True:
        # the header's room for " k/n" at this many pages; more pages may
        # widen it: page again until the count holds
        tail = len((" %s/%s" % (w.num(n), w.num(n))).encode())
        room = page - len(head.encode()) - tail - 1
        chunks = []
        cur = []
        used = 0
        for line in lines:
            for piece in _cut(line.encode(), room):
                if cur and used + 1 + len(piece) > room:
                    chunks.append(cur)
                    cur = []
                    used = 0
                used += len(piece) + (1 if cur else 0)
                cur.append(piece)
        chunks.append(cur)
        if len(chunks) <= n:
            break
        n = len(chunks)
    total = w.num(len(chunks))
    return ["%s %s/%s\n%s" % (head, w.num(k + 1), total, b"\n".join(chunks[k]).decode())
            for k in range(len(chunks))]


def header(st, path):
    """The first line: "pipkeeper", the record's [Game] id and [Date]
    (each when it has one), from its header's lines."""
    out = [HEADER]
    if path is None:
        return HEADER
    try:
        for line in st.lines(path):
            if not line.startswith("["):
                break
            for tag in ('[Game "', '[Date "'):
                if line.startswith(tag):
                    out.append(line[len(tag):line.find('"', len(tag))])
    except (OSError, ValueError):
        pass
    return " ".join(out)


def page_texts(ctx, ui):
    """The texts of the codes of the game the ui names."""
    st = ctx.store
    name = ui.get("g")
    if name:
        from shared_engine import dgn
        path = st.path("games", name)
        with open(path) as f:
            g = dgn.replay_lines(f, 1)
    else:
        g = ctx.game
        path = st.current()
    lang_code = getattr(ctx.game, "lang", None) or (st.read_json("settings.json") or {}).get("lang", "en")
    w = words(lang_code)
    return pages(header(st, path), sheet_lines(g, w), w)


def view(ctx, ui, k):
    texts = page_texts(ctx, ui)
    n = len(texts)
    p = min(ui.get("p", 0), n - 1)
    return "qr", {
        "text": texts[p],
        "page": ("%d/%d" % (p + 1, n)) if n > 1 else None,
        "hint": ("Point a phone's camera at the code",),
        "labels": labels(None, None, "Back", "prev" if p else None, "next" if n > 1 else None),
    }


def press(ctx, ui, k, button):
    if button == "C":
        if ui.get("g"):
            return {"s": "hist", "c": ui.get("c", 0), "g": ui["g"]}, None
        return {}, None
    if button in ("UP", "DOWN"):
        n = len(page_texts(ctx, ui))
        p = ui.get("p", 0)
        p = (p + 1) % n if button == "DOWN" else max(p - 1, 0)
        out = dict(ui)
        out["p"] = p
        return out, None
    return ui, None
