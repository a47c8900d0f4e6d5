"""The final sheet of a game as text, for the QR codes a phone reads
(firmware/flows/qr.py shows them; firmware/qr.py makes the symbols).

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
names, the game's id and the options as the record has them. Where the
text does not fit one code (at most ``PAGE`` bytes, version 6 at level L:
firmware/qr.py), it is paged, each page headed "pipkeeper <game> k/n"; a
line too long for a page is cut at a space and goes on as a line of its
own.

A module of its own, apart from the screen's flow: the QR screen's flow
lets it go (and the engine's helpers it loaded) once the texts are made,
before the code is drawn, the press's peak of heap.
"""

from firmware.words import plural, preset

HEADER = b"pipkeeper"
# The bytes of a page: version 6-L's capacity with the ECI designator
# (firmware/qr.py capacity(6, L, True): 133), kept here so that paging a
# text does not load the encoder.
PAGE = 133


# -- the language's words as text ---------------------------------------------------
#
# The text is made as bytes (UTF-8), never as strings: on the board every
# new string is looked up among MicroPython's interned names (qstr_find_strn,
# ~70 us with the scorer loaded), bytes are not, and the largest sheet's
# text is some 150 numbers and 30 pieces: as strings it cost the board's
# press 50 ms in English and 100 in Persian.

class Words:
    """Messages as text (bytes) in one language: the templates of
    ``<lang>.txt`` (its first line the language's ten digits, then
    "English<TAB>template" lines); English, or a language whose file is
    missing, as the English templates are."""

    def __init__(self, data=None):
        self.data = data
        self.digits = None
        if data:
            first = data[:data.find(b"\n")]
            if first != b"0123456789":
                self.digits = [c.encode() for c in first.decode()]

    def figures(self, s):
        """``s`` (bytes) with its ASCII digits in the language's own."""
        d = self.digits
        if d is not None:
            for i in range(10):
                s = s.replace(b"0123456789"[i:i + 1], d[i])
        return s

    def num(self, n):
        return self.figures(b"%d" % n)

    def template(self, key):
        k = key.encode()
        d = self.data
        if d:
            i = d.find(b"\n" + k + b"\t")
            if i >= 0:
                i += len(k) + 2
                return d[i:d.find(b"\n", i)]
        return k

    def say(self, m):
        """The text of message ``m`` (a string is its own text, a number
        is written in the language's digits)."""
        if isinstance(m, int):
            return self.num(m)
        if isinstance(m, str):
            return m.encode()
        key = m[0].encode()
        t = self.template(m[0])
        i = key.find(b"{")
        k = 1
        while i >= 0:
            j = key.find(b"}", i)
            t = t.replace(key[i:j + 1], self.say(m[k]))
            k += 1
            i = key.find(b"{", j)
        return t



def _why(g, how):
    """How game ``g`` was won: the end screen's words (firmware/flows/rounds.py
    ``why``). A copy, not an import: rounds is the largest flow, and loaded
    beside the encoder it took the QR press out of memory on the unix port
    (test_qr_sheet.py); in firmware/words.py, loaded at set-up, the name was
    one more in the boot's table of names, past a block (issue 32), and a
    game in Swedish ran out as it started (test_i18n_games.py)."""
    if how is None:
        return ("highest total",) if g.rules.positive else ("lowest total",)
    if how == "shared":
        return ("tied totals",)
    return ("tie-break, {how}", (how,))

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
    """The final sheet of game ``g`` as lines of text (bytes, after the
    header), in the words ``w`` (``Words``)."""
    say = w.say
    n_rounds = plural(len(g.results), "1 round", "{n} rounds")
    lines = [say(("{rules}, {rounds}, stopped" if g.stopped else "{rules}, {rounds}",
                  preset(g.rules.name), n_rounds))]
    house = house_rules(g.rules)
    if house:
        lines.append(say(("House rules: {rules}", house)))
    order = standing(g)
    names = [p.encode() for p in g.players]
    for rank, s in order:
        lines.append(w.num(rank) + b". " + names[s] + b" " + w.num(g.totals[s]))
    seats, how = g.winners()
    if not seats:
        lines.append(say(("the game was stopped",)))
    elif len(seats) == 1:
        lines.append(say(("{name} wins: {why}", g.players[seats[0] - 1], _why(g, how))))
    else:
        both = " & ".join(g.players[s - 1] for s in seats)
        lines.append(say(("{names} win: {why}", both, _why(g, how))))
    res = g.results
    if res:
        # a line of numbers at a time into the language's digits
        lines.append(say(("Rounds",)) + b": " + w.figures(b" ".join([b"%d" % r[0] for r in res])))
        for _, s in order:
            lines.append(names[s] + b": " + w.figures(b" ".join([b"%d" % r[1][s] for r in res])))
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
    """The text of each code (bytes): the lines in order, as many to a page
    as fit in ``page`` bytes below the header ``head`` (with " k/n" when
    there is more than one page)."""
    if len(head) + sum(len(x) + 1 for x in lines) <= page:
        return [b"\n".join([head] + lines)]
    n = 1
    while True:
        # the header's room for " k/n" at this many pages; more pages may
        # widen it: page again until the count holds
        room = page - len(head) - len(w.num(n)) * 2 - 3
        chunks = []
        cur = []
        used = 0
        for line in lines:
            for piece in _cut(line, room):
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
    return [b"".join([head, b" ", w.num(k + 1), b"/", total, b"\n", b"\n".join(chunks[k])])
            for k in range(len(chunks))]


def header(path):
    """The first line: "pipkeeper", the record's [Game] id and [Date]
    (each when it has one), from its header's lines."""
    out = [HEADER]
    if path is None:
        return HEADER
    try:
        with open(path, "rb") as f:
            for line in f:
                if not line.startswith(b"["):
                    break
                for tag in (b'[Game "', b'[Date "'):
                    if line.startswith(tag):
                        out.append(line[len(tag):line.find(b'"', len(tag))])
    except (OSError, ValueError):
        pass
    return b" ".join(out)


def texts(ctx, ui, lang_code):
    """The texts (bytes) of the codes of the game the ui names, in
    language ``lang_code``."""
    st = ctx.store
    name = ui.get("g")
    g = ctx.game
    if name:
        from shared_engine import dgn
        path = st.path("games", name)
        with open(path) as f:
            g = dgn.replay_lines(f, 1)
    else:
        path = st.current()
    w = words(lang_code)
    return pages(header(path), sheet_lines(g, w), w)
