"""Score entry's questions beyond the pips, for a game whose house rules
count a round's other facts (RULES.md, "House rules"; the engine says which
it must be told: shared_engine/facts.py ``ask``).

Each is a field of the seat's entry, after its pips, entered with the same
keys (firmware/flows/score.py): a count (UP +1, B +10, DOWN -1) or a yes/no
(UP yes, DOWN no). A field is asked only where its answer can be other than
none: no blank end nor double in a hand of 0 pips, none of the doubles'
pips under 2. On a round none of whose play was recorded (a paper sheet)
the engine must also be told who went out: the seat with no pips and no
0-0 (a hand of tiles has pips, or is 0-0 alone), told without a question;
and whether on a double, asked of that seat only.

A module of its own, loaded only for such a game: most games have no
house rules, and score entry then loads nothing of them.
"""

from shared_engine import facts

# (field, the engine's bit that asks it, the fact's index in the score
# event, its words on the screen, a yes/no)
_FIELDS = (
    ("blank_ends", facts.ASK_BLANK_ENDS, facts.BLANK_ENDS, ("blank ends",), 0),
    ("doubles_pips", facts.ASK_DOUBLES_PIPS, facts.DOUBLES_PIPS, ("doubles' pips",), 0),
    ("open_train", facts.ASK_OPEN_TRAIN, facts.OPEN_TRAIN, ("own train marked?",), 1),
    ("unsatisfied", facts.ASK_UNSATISFIED, facts.UNSATISFIED, ("doubles left open",), 0),
    ("out_on_double", facts.ASK_OUT_ON_DOUBLE, facts.OUT_ON_DOUBLE, ("out on a double?",), 1),
)


def _went_out(bits, pips, db):
    """The seat went out (a paper sheet's round): told, not asked."""
    return bool(bits & facts.ASK_WENT_OUT) and pips == 0 and not db


def fields(g, s, pips, db):
    """The fields of seat s's entry after its pips, by name, given the pips
    and 0-0 entered."""
    bits = facts.ask(g)[s]
    out = []
    gone = _went_out(bits, pips, db)
    for name, bit, _, _, _ in _FIELDS:
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
    for f in _FIELDS:
        if f[0] == name:
            return f[3], f[4]
    return None, 0


def event_facts(g, pips, db, told):
    """The score event's facts: six, each None (not written) or one int a
    seat; ``told`` {field: [per seat]} as entered. None when the rules
    count none of them."""
    bits = facts.ask(g)
    out = [None] * facts.COUNT
    for name, bit, k, _, _ in _FIELDS:
        if any(b & bit for b in bits):
            got = told.get(name) or [0] * g.n
            out[k] = tuple(got[s] if bits[s] & bit else 0 for s in range(g.n))
    if any(b & facts.ASK_WENT_OUT for b in bits):
        out[facts.WENT_OUT] = tuple(1 if _went_out(bits[s], pips[s], db[s]) else 0 for s in range(g.n))
    for x in out:
        if x is not None:
            return tuple(out)
    return None


def fix_fields(g, r, s, pips):
    """The asked facts a correction of seat s in scored round r may change
    (the hand's: blank ends, doubles' pips), as ``fields`` would ask them."""
    rules = g.rules
    out = []
    if rules.blank_end and pips:
        out.append("blank_ends")
    if rules.doubles_double and pips >= 2:
        out.append("doubles_pips")
    return out


def fix_facts(g, r, s, told):
    """The correction's six facts for seat s of scored round r: the asked
    ones as entered (``told``), the derived ones as the round has them."""
    res = g.results[r]
    out = []
    for k in range(facts.COUNT):
        v = facts.of_result(res, k, s)
        for name, _, kk, _, _ in _FIELDS:
            if kk == k and name in told and k < facts.ASKED:
                v = told[name]
        out.append(v)
    return tuple(out)


def was(g, r, s, name):
    """Seat s's fact ``name`` in scored round r, as it stands."""
    for f in _FIELDS:
        if f[0] == name:
            return facts.of_result(g.results[r], f[2], s)
    return 0
