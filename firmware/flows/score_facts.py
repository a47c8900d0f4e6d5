"""Score entry's questions beyond the pips, for a game whose house rules
count a round's other facts (RULES.md, "House rules"; the engine says which
it must be told: shared_engine/facts.py ``ask``): score entry's and the
fix's presses for such a game (firmware/flows/score.py hands them over,
with its keys: ``kit``, as it may not be imported from here).

Each is a field of the seat's entry, after its pips, entered with the same
keys: a count (UP +1, B +10, DOWN -1) or a yes/no (UP yes, DOWN no). A field is asked only where its answer can be other than
none: no blank end nor double in a hand of 0 pips, none of the doubles'
pips under 2. On a round none of whose play was recorded (a paper sheet)
the engine must also be told who went out: the seat with no pips and no
0-0 (a hand of tiles has pips, or is 0-0 alone), told without a question;
and whether on a double, asked of that seat only.

A module of its own, loaded only for such a game: most games have no
house rules, and score entry then loads nothing of them. A correction of
such a game's score is firmware/flows/fix_facts.py's.
"""

# The engine's numbers for what score entry asks and for the score event's
# facts (shared_engine/facts.py: ASK_* bits, the facts' order; the contract
# of notes/CONTRACTS.md, held to the engine's by
# tests/firmware/test_score_entry.py). Here, not imported: the engine's
# module is 5.5 KB of bytecode, which score entry would hold beside the
# score line's counting, and the board's heap has no room for both; it is
# asked once (``asked``) and its answer kept in the ui.
ASK_WENT_OUT = 128
COUNT = 6
WENT_OUT = 5
# (field, the engine's bit that asks it, the fact's index in the score
# event, its words on the screen, a yes/no)
FIELDS = (
    ("blank_ends", 4, 0, ("blank ends",), 0),
    ("doubles_pips", 8, 1, ("doubles' pips",), 0),
    ("open_train", 16, 2, ("own train marked?",), 1),
    ("unsatisfied", 32, 3, ("doubles left open",), 0),
    ("out_on_double", 64, 4, ("out on a double?",), 1),
)


def asked(g, ui):
    """What the engine asks of each seat (shared_engine/facts.py ``ask``):
    the ui's, once asked."""
    bits = ui.get("ask")
    if bits is None:
        from shared_engine import facts
        bits = list(facts.ask(g))
    return bits


def _went_out(bits, pips, db):
    """The seat went out (a paper sheet's round): told, not asked."""
    return bool(bits & ASK_WENT_OUT) and pips == 0 and not db


def fields(bits, pips, db):
    """The fields of a seat's entry after its pips, by name, given what the
    engine asks of it (``bits``) and the pips and 0-0 entered."""
    out = []
    gone = _went_out(bits, pips, db)
    for name, bit, _, _, _ in FIELDS:
        if not bits & bit:
            continue
        if name == "blank_ends" and not pips:
            continue            # no tile but 0-0: no blank end (0-0's are its own)
        if name == "doubles_pips" and pips < 2:
            continue
        if name == "out_on_double" and not gone:
            continue
        if gone and name in ("open_train", "unsatisfied"):
            continue            # the seat that went out has no penalties (ruling 13)
        out.append(name)
    return out


def words(name):
    """(the field's words, a yes/no) for the screen."""
    for f in FIELDS:
        if f[0] == name:
            return f[3], f[4]
    return None, 0


def event_facts(bits, pips, db, told):
    """The score event's facts: six, each None (not written) or one int a
    seat; ``bits`` what the engine asks, ``told`` {field: [per seat]} as
    entered. None when the rules count none of them, and a fact None where
    no seat has it: the event is the one its line reads back as (a mark of
    0 is not written, shared_engine/marks.py)."""
    n = len(bits)
    out = [None] * COUNT
    for name, bit, k, _, _ in FIELDS:
        if any(b & bit for b in bits):
            got = told.get(name) or [0] * n
            out[k] = tuple(got[s] if bits[s] & bit else 0 for s in range(n))
    if any(b & ASK_WENT_OUT for b in bits):
        out[WENT_OUT] = tuple(1 if _went_out(bits[s], pips[s], db[s]) else 0 for s in range(n))
    for k in range(COUNT):
        if out[k] is not None and not any(out[k]):
            out[k] = None
    for x in out:
        if x is not None:
            return tuple(out)
    return None


def field_view(view, name, v, b, more, keys):
    """The score screen's ``view`` for field ``name`` (not the pips): its
    words, the value (a yes or no), the keys."""
    said, yes_no = words(name)
    view["field"] = said
    if yes_no:
        view["pips"] = ("yes",) if v else ("no",)
    view["labels"] = keys(v, b, more, yes_no)


def _got(p, told, name, i):
    """Seat i's value of field ``name`` as entered so far."""
    if name == "pips":
        return p[i]
    got = told.get(name)
    return got[i] if got else 0


def _store(p, told, name, i, v):
    if name == "pips":
        p[i] = v
    else:
        told[name] = list(told.get(name) or [0] * len(p))
        told[name][i] = v


def with_fields(u, field, told, bits=None):
    """A ui ``u`` with the field being entered, the fields entered and
    what the engine asks (kept: it is asked once)."""
    if field:
        u["field"] = field
    if told:
        u["facts"] = told
    if bits is not None:
        u["ask"] = bits
    return u


def ready():
    """Make room for the score line (or the fix) this press makes: score
    entry's own modules let go (this one, the score flow, its screen: the
    next screen is another, and they are loaded again if the engine refuses
    the line), then the engine's modules the line needs loaded (its
    counting, the facts', the marks' of its line, and the record's module,
    which the app loads first: short of room that would let go of the
    others) here, in the press's
    step, which the app runs again with more room when the heap runs short
    (firmware/heap.py ``Heap.roomy``), rather than in the middle of the
    engine's applying it, which cannot run twice. Why: a game with house
    rules ran out there on the unix port's 160 KB, with 22 KB more held
    than a game without."""
    from firmware import heap
    heap.evict(("firmware.flows.score", "firmware.flows.fix_facts", "firmware.screens.score"))
    for m in ("shared_engine.dgn", "shared_engine.facts", "shared_engine.marks", "shared_engine.scoring"):
        __import__(m, None, None, ("x",))


def press(ctx, ui, button, kit):
    """Score entry's press in such a game: the pips, then each field."""
    from shared_engine.engine import SCORE
    edit, _, state, make = kit
    g = ctx.game
    n = g.n
    bits = asked(g, ui)
    i, p, d, v, b, out = state(g, ui)
    told = dict(ui.get("facts") or {})
    field = ui.get("field", 0)
    names = ["pips"] + fields(bits[i], p[i], d[i])
    name = names[min(field, len(names) - 1)]
    v, b, more, what = edit(v, b, ui.get("more"), button, words(name)[1])
    if what is None:
        return with_fields(make(i, p, d, v, b, more=more), field, told, bits), None
    _store(p, told, name, i, v)
    d[i] = b
    if what == "back":
        if field:
            f = field - 1
            return with_fields(make(i, p, d, _got(p, told, names[f], i), b), f, told, bits), None
        j = i - 1
        if j == out:
            j -= 1
        if j < 0:
            return {}, None        # leave score entry
        names = ["pips"] + fields(bits[j], p[j], d[j])
        f = len(names) - 1
        return with_fields(make(j, p, d, _got(p, told, names[f], j), d[j]), f, told, bits), None
    # A: this field kept; the next, as the pips just entered ask, or the next player
    names = ["pips"] + fields(bits[i], p[i], d[i])
    if field + 1 < len(names):
        f = field + 1
        return with_fields(make(i, p, d, _got(p, told, names[f], i), b), f, told, bits), None
    j = i + 1
    if j == out:
        j += 1
    if j < n:
        return with_fields(make(j, p, d, p[j], d[j]), 0, told, bits), None
    if out >= 0:
        p[out] = 0
        d[out] = 0
    u = with_fields(make(i, p, d, v, b), field, told, bits)
    ready()
    extra = event_facts(bits, p, d, told)
    if extra is None:
        return u, (SCORE, tuple(p), tuple(d))
    return u, (SCORE, tuple(p), tuple(d), extra)
