"""The game state and the reducer: ``Game.apply(event)`` for every DGN event.

A game is its event list: state = fold(apply, events). Events are tuples
whose first item is one of the kinds below; seats are 1-based as in the
record. The reader in ``dgn`` turns text into these tuples; the board builds
them from button presses; the simulator from its bots. Every rule of
RULES.md is decided here, once, for all of them.

Illegal events raise ``IllegalEvent`` (a ``ValueError``) with a sentence a
player understands; the state is then unchanged (checks come before changes,
so a refused press costs nothing). Rules are never enforced with ``assert``:
MicroPython drops asserts when optimising.

Event tuples:
    (ROUND, double, lead, hunt)        hunt: tuple of seats, maybe empty
    (HAND, seat, tile_ids)
    (PLAY, seat, a, b, target)         a, b: pips, connecting end first;
                                       a == UNKNOWN: quick play;
                                       a == DOUBLE: quick "play double";
                                       target: None (own train / any end),
                                       MEXICAN, or a seat (mexican-train)
    (DRAW, seat, a, b)                 a == UNKNOWN when the tile is not known
    (PASS, seat)
    (BLOCKED,)  (REDEAL,)  (UNDO,)  (END,)
    (SCORE, pips, db)                  per seat: pips left (0-0 worth 0),
                                       and a 0/1 "holds 0-0" flag
    (SCORE, pips, db, facts)           the same with the round's facts for
                                       the house rules (shared_engine/facts.py)
    (FIX, round, seat, pips, db)       a correction: scored round ``round``
                                       (from 1), seat's pips and 0-0 flag
    (FIX, round, seat, pips, db, facts)   the same with the seat's facts
    (CAUGHT, seat, tile_ids)           call_last_tile: seat, holding one
                                       tile, draws the penalty (tiles known
                                       or an empty tuple)
"""

from shared_engine import tiles
from shared_engine.tiles import MEXICAN, NO, OUT, UNSEEN, IllegalEvent
from shared_engine.presets import Rules, TRAINS

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

ROUND = const(1)
HAND = const(2)
PLAY = const(3)
DRAW = const(4)
PASS = const(5)
BLOCKED = const(6)
SCORE = const(7)
REDEAL = const(8)
UNDO = const(9)
END = const(10)
FIX = const(11)   # packed into 4 bits with the others (engine.pack)
CAUGHT = const(12)

UNKNOWN = const(-1)  # a tile played or drawn without being entered
DOUBLE = const(-2)   # quick tracking: "play double"
# MEXICAN (a play's target: the shared Mexican train), OUT, NO and UNSEEN
# are in tiles.py, which moves.py and scoring.py share with this module.

# How a round's play ended (OUT = 1 is in tiles.py).
PLAYING = const(0)
STUCK = const(2)


def tile_text(a, b):
    return "%d-%d" % (a, b)


class Round:
    """The state of the round being played. Lists of small ints, no objects
    per tile, so that a copy (for undo marks and checkpoints) is cheap."""

    # Set on a round only when a house rule's play does (a round of the stock
    # rules never holds them: every attribute of an instance is a slot of
    # its map, and two more grew the round's past a block of the board's
    # heap in the heaviest game, test_games.py)
    out_double = False  # the seat that went out went out on a double
    caught = None       # call_last_tile: caught lines per seat (a list), once one is

    def __init__(self, rules, double, lead, hunt):
        if rules is None:
            return  # an empty round, filled in by checkpoint.restore
        n = rules.players
        top = rules.top
        self.double = double
        self.lead = lead
        self.hunt = hunt
        self.hands = [rules.hand_size] * n
        self.known = [[] for _ in range(n)]   # tile ids known to be in hand
        self.exact = [False] * n              # known == the whole hand
        self.any_known = False                # a hand or a drawn tile was given
        self.table = bytearray(rules.tiles)   # 1: on the table (or the centre)
        self.table[tiles.double_id(double)] = 1
        yard = rules.tiles - n * rules.hand_size
        if rules.centre_in_hand:
            if hunt:
                # Nobody held the double: the listed seats drew in turn, the
                # last of them (the leader) found it and placed it.
                yard -= len(hunt)
                for s in hunt[:-1]:
                    self.hands[s - 1] += 1
            else:
                self.hands[lead - 1] -= 1
        else:
            yard -= 1  # set aside before the deal; the hunt drew nothing for keeps
        self.yard = yard
        self.to_move = (lead - 1) if rules.lead_plays_centre else lead % n
        self.drew = False
        self.drawn = NO      # id of the tile drawn this turn, if known
        self.passes = 0         # consecutive passes with nothing to draw
        self.ended = PLAYING
        self.out = None
        self.moves = 0          # plays, draws and passes so far
        self.quick = False      # a play was recorded without its tile
        if rules.layout == TRAINS:
            self.trains = [NO] * (n + 1)   # end pip; index 0: Mexican train
            self.markers = [False] * (n + 1)
            self.had_turn = [False] * n
            self.od_train = NO             # train carrying the open double
            self.od_pip = NO
            self.laid = [0] * (n + 1)      # seat + 1 that laid the uncovered double ending a train
            self.run = NO                  # first_turn_run: the seat in a run
            self.centre_left = 0
            self.ends = None
            self.foot = NO
            self.toes = 0
        else:
            self.centre_left = rules.start_trains
            self.ends = [0] * (top + 1)       # open ends by pip (start-phase slots apart)
            self.foot = NO                 # pip of the pending chicken foot
            self.toes = 0                     # toes it still needs
            self.foot_by = NO                 # the seat that laid its double

    def drawable(self, rules):
        d = self.yard - rules.reserve
        return d if d > 0 else 0


class Log:
    """The history kept for undo: a list in chunks of 32.

    On the board's heap a long list cannot grow: MicroPython never moves
    objects, so after a few hundred events the heap has no free run long
    enough for the doubled list. Chunks of 32 always fit. ``append`` is on
    every event's path, so it touches only the last chunk.
    """

    def __init__(self):
        self.tail = []
        self.chunks = [self.tail]

    def __len__(self):
        n = 0
        for c in self.chunks:
            n += len(c)
        return n

    def __iter__(self):
        for c in self.chunks:
            for x in c:
                yield x

    def append(self, x):
        c = self.tail
        if len(c) == 32:
            c = self.tail = []
            self.chunks.append(c)
        c.append(x)

    def pop(self):
        c = self.tail
        if not c:
            raise IndexError("pop from an empty log")
        x = c.pop()
        if not c and len(self.chunks) > 1:
            self.chunks.pop()
            self.tail = self.chunks[-1]
        return x

    def cut(self, at):
        """Remove and return the items from index ``at`` on."""
        # One list of the right size, filled from its end: grown an item at
        # a time it was copied as it doubled, and a long round's undo on the
        # board's heap found no block for the copy (2 KB, issue 24's tests).
        n = len(self) - at
        out = [None] * (n if n > 0 else 0)
        while n > 0:
            n -= 1
            out[n] = self.pop()
        return out

    def drop(self, cut):
        """Forget the first ``cut`` items (chunks need not be full)."""
        c = self.chunks
        while cut and len(c) > 1 and len(c[0]) <= cut:
            cut -= len(c[0])
            c.pop(0)
        if cut:
            del c[0][:cut]


class Game:
    """One game: rules, players, scores so far and the round in play.

    The small surface the board, the record and the bots use:
    ``apply(event)``, ``to_move``, ``legal_plays()``, ``is_over``,
    ``scores()``, ``winners()``, ``report()`` (in ``shared_engine.report``).
    """

    def __init__(self, rules, players, options=None, checked=False):
        if len(players) < 2:
            raise ValueError("a game needs at least 2 players")
        # checked: the options were checked when the game began (a checkpoint's)
        self.rules = Rules(rules, len(players), options or {}, checked)
        self.trains = self.rules.layout == TRAINS  # read on every play
        self.players = list(players)
        self.n = len(players)
        self.totals = [0] * self.n
        # scored rounds: (double, counted, out, pips, db, bounds, original):
        # bounds what each seat's pips could be (scoring.bounds, None when
        # the round was scored before it ended), original (counted, pips,
        # db) as the score line gave them once a ``fix`` changed the round.
        self.results = []
        self.used = []        # doubles that have started a scored round
        self.round = None     # the Round in play, or None between rounds
        self.over = False
        self.stopped = False  # `end` was read
        self.redeals = 0
        self.history = Log()  # events applied and not retracted, for undo
        self.marks = []       # (index in history, state) before each `round`
        self.base = 0         # events dropped from the front of history
        # Rounds of history kept for undo: None keeps all (the laptop); the
        # board keeps 2, so memory stays flat however long the game.
        self.keep_rounds = None

    # -- the surface --------------------------------------------------------

    @property
    def to_move(self):
        """Seat (1-based) whose turn it is, or None."""
        r = self.round
        if r is None or r.ended or self.over:
            return None
        return r.to_move + 1

    @property
    def is_over(self):
        return self.over

    def scores(self):
        """Running totals per seat."""
        return list(self.totals)

    def apply(self, ev):
        """Apply one event, or raise IllegalEvent and change nothing."""
        k = ev[0]
        if k == UNDO:
            self._undo()
            return
        if k == FIX:
            # A correction of a scored round: also after the game is over
            # (its winner may change), and while a round is in play.
            self._fix(ev[1], ev[2], ev[3], ev[4], ev[5] if len(ev) > 5 else None)
            self.history.append(pack(ev))
            return
        if self.over:
            raise IllegalEvent("the game is over")
        if k == PLAY:
            self._play(ev[1] - 1, ev[2], ev[3], ev[4])
        elif k == DRAW:
            self._draw(ev[1] - 1, ev[2], ev[3])
        elif k == PASS:
            self._pass(ev[1] - 1)
        elif k == ROUND:
            self._start(ev[1], ev[2], ev[3])
        elif k == HAND:
            self._hand(ev[1], ev[2])
        elif k == SCORE:
            self._score(ev[1], ev[2], ev[3] if len(ev) > 3 else None)
        elif k == CAUGHT:
            from shared_engine import variants
            variants.caught(self, ev[1], ev[2])
        elif k == BLOCKED:
            self._blocked()
        elif k == REDEAL:
            self._redeal()
        elif k == END:
            if self.round is not None and self.round.ended:
                self._live()  # ruling 8: after out or blocked, only the score
            self.round = None
            self.over = True
            self.stopped = True
        else:
            raise IllegalEvent("unknown event")
        self.history.append(pack(ev))

    def step(self, k, ev):
        """``apply`` for a play, draw or pass of kind ``k``, its items as
        ints at ev[1:6] (an array('i') will do): the seat, the tile's a and
        b, the target (-1: none; a play's only) and the event's ``pack``.
        The same checks and refusals as ``apply``. The full replay of a
        record on the board (dgn.Scanner.replay_file) reads them from a line's
        bytes: no event tuple (on the board's heap a block of two, found by
        a search), no pack() to compute, and a call of two arguments (a
        bound method called with more copies them to the heap first).

        Its locals and stack stay within 11 words: MicroPython allocates a
        larger frame on the heap at every call (VM_MAX_STATE_ON_STACK)."""
        if self.over:
            raise IllegalEvent("the game is over")
        if k == PLAY:
            self._play(ev[1] - 1, ev[2], ev[3], None if ev[4] < 0 else ev[4])
        elif k == DRAW:
            self._draw(ev[1] - 1, ev[2], ev[3])
        else:
            self._pass(ev[1] - 1)
        c = self.history.tail
        if len(c) < 32:
            c.append(ev[5])   # Log.append but for a new chunk, without its call
        else:
            self.history.append(ev[5])

    # -- rounds -------------------------------------------------------------

    def next_double(self):
        """The centre double the next round must start with (None when any
        unused one may, as in chicken-scratch); under skip_missing_doubles
        the first of the doubles still to open a round (variants.py),
        which a round opens on if someone holds it."""
        rules = self.rules
        if rules.fixed_order:
            if rules.skip_missing:
                for d in rules.rounds:
                    if d not in self.used:
                        return d
                return None
            i = len(self.results)
            return rules.rounds[i] if i < len(rules.rounds) else None
        return None

    def _start(self, double, lead, hunt):
        rules = self.rules
        n = self.n
        if self.round is not None:
            raise IllegalEvent("round %d-%d is still in play: score it first" % (
                self.round.double, self.round.double))
        if double < 0 or double > rules.top:
            raise IllegalEvent("%d-%d is not in a double-%d set" % (double, double, rules.top))
        if lead < 1 or lead > n:
            raise IllegalEvent("there is no seat %d" % lead)
        if rules.skip_missing:
            from shared_engine import variants
            variants.check_start(self, double, hunt)
        elif rules.fixed_order:
            want = self.next_double()
            if double != want:
                raise IllegalEvent("this round starts with %d-%d, not %d-%d" % (
                    want, want, double, double))
        else:
            if double not in rules.rounds:
                raise IllegalEvent("%d-%d does not start a round in this game" % (double, double))
            if double in self.used:
                raise IllegalEvent("%d-%d has already started a round" % (double, double))
        if hunt:
            if not rules.hunt:
                raise IllegalEvent("%s has no hunt for the double: redeal instead" % rules.name)
            for i in range(len(hunt)):
                s = hunt[i]
                if s < 1 or s > n:
                    raise IllegalEvent("there is no seat %d" % s)
                if i and s != hunt[i - 1] % n + 1:
                    raise IllegalEvent("the hunt goes clockwise: seat %d cannot follow seat %d" % (
                        s, hunt[i - 1]))
            if hunt[-1] != lead:
                raise IllegalEvent("the hunt ends with the seat that found %d-%d, seat %d" % (
                    double, double, lead))
        r = Round(rules, double, lead, tuple(hunt))
        if r.yard < 0:
            raise IllegalEvent("the hunt drew more tiles than the yard holds")
        marks = self.marks
        marks.append((len(self.history), self._mark()))
        keep = self.keep_rounds
        if keep and len(marks) > keep:
            drop = len(marks) - keep
            cut = marks[drop][0]
            del marks[:drop]
            self.history.drop(cut)
            for i in range(len(marks)):
                marks[i] = (marks[i][0] - cut, marks[i][1])
            self.base += cut
        self.round = r

    def _hand(self, seat, tile_ids):
        from shared_engine import hands

        hands.hand(self, seat, tile_ids)

    def _redeal(self):
        # Mid-round the deal is void; between rounds a void deal is recorded
        # (chicken-scratch's ruling 4: nobody held a starting double).
        if self.round is not None and self.round.ended:
            self._live()  # ruling 8: after out or blocked, only the score
        self.round = None
        self.redeals += 1

    def _live(self):
        """The round in play, or a clear error."""
        r = self.round
        if r is None:
            raise IllegalEvent("no round is in play: a round line comes first")
        if r.ended:
            raise IllegalEvent("the round is over: only its score may follow")
        return r

    def _turn(self, s, what):
        """The round in play if it is seat s's turn; else the reason why not."""
        r = self.round
        if r is None or r.ended or r.to_move != s:
            self._live()
            if s < 0 or s >= self.n:
                raise IllegalEvent("there is no seat %d" % (s + 1))
            raise IllegalEvent("seat %d cannot %s: it is seat %d's turn" % (
                s + 1, what, r.to_move + 1))
        return r

    def _unseen(self, t, s):
        """Raise unless tile t may be in seat s's hand: in the set, not on
        the table, not known to be in another hand."""
        r = self.round
        if t >= self.rules.tiles:
            raise IllegalEvent("{tile} is not in a double-{top} set", tiles.name(t), self.rules.top)
        if r.table[t]:
            if t == tiles.double_id(r.double):
                raise IllegalEvent("{tile} is the centre double", tiles.name(t))
            raise IllegalEvent("{tile} is already on the table", tiles.name(t))
        if r.any_known:
            known = r.known
            for o in range(self.n):
                if o != s and t in known[o]:
                    raise IllegalEvent("{tile} is in {seat}'s hand", tiles.name(t), o + 1)

    # -- plays ---------------------------------------------------------------

    def _play(self, s, a, b, target):
        # The hot path of the board, and of a full replay (dgn.Scanner.replay_file):
        # a check at most one call deep, messages built only when a play is
        # refused; on a train (mexican-train, the board's longest games) all
        # in this one method, as a call costs the RP2040 as much as a dozen
        # of these lines.
        r = self.round
        if r is None or r.ended or r.to_move != s:
            self._turn(s, "play")
        if a >= 0:
            top = self.rules.top
            if a > top or b > top:
                raise IllegalEvent("{refusal}: it is not in a double-{top} set", _who(s, a, b), top)
            t = (a * (a + 1) >> 1) + b if a >= b else (b * (b + 1) >> 1) + a
            if r.table[t] or r.any_known:
                try:
                    self._unseen(t, s)
                except IllegalEvent as e:
                    raise IllegalEvent("{refusal}: {why}", _who(s, a, b),
                                       e.args if len(e.args) > 1 else (e.args[0],))
            if r.drew and r.drawn >= 0 and r.drawn != t:
                raise IllegalEvent("{refusal}: after drawing, only the drawn tile {tile} may be played",
                                   _who(s, a, b), tiles.name(r.drawn))
            if r.exact[s] and t not in r.known[s]:
                raise IllegalEvent("{refusal}: they do not hold it", _who(s, a, b))
            dbl = a == b
        else:
            t = NO
            dbl = a == DOUBLE
        trains = self.trains
        if trains:
            # A play on a train: checks first, then the train changed.
            own = s + 1
            if target is None:
                target = own
            if target < 0 or target > self.n:
                raise IllegalEvent("{refusal}: there is no train of {seat}", _who(s, a, b), target)
            od = r.od_train
            ends = r.trains
            if dbl:
                if od != NO:
                    # The only double with the open double's number is that double.
                    raise _refused(s, a, b, target, "a double never covers a double")
                if a < 0 and ends[target] == NO:
                    raise _refused(s, a, b, target, ("a new train must match the station {tile}, "
                                   "and no other double does", tile_text(r.double, r.double)))
            if target != own:
                if not r.had_turn[s]:
                    raise _refused(s, a, b, target,
                                   "on a first turn only their own train may be played")
                if od == NO and target != MEXICAN and not r.markers[target]:
                    raise _refused(s, a, b, target, "it carries no marker")
            if od != NO and target != od:
                raise _refused(s, a, b, target, ("the double {tile} on {train} must be satisfied first",
                               _double_text(r.od_pip), _train_text(od, -1)))
            if a >= 0:
                end = ends[target]
                need = r.double if end == NO else end
                if need >= 0 and a != need:
                    if end == NO:
                        raise _refused(s, a, b, target, ("a new train must match the station {tile}",
                                       tile_text(need, need)))
                    raise _refused(s, a, b, target, ("its end shows {n}", need))
                ends[target] = b
            else:
                r.quick = True
                ends[target] = UNSEEN
            if target == own:
                r.markers[own] = False
            if dbl:
                r.od_train = target
                r.od_pip = a if a >= 0 else UNSEEN
                r.laid[target] = own     # uncovered until a tile follows it
                r.run = NO               # a double is satisfied before a run goes on
            else:
                if od != NO:
                    r.od_train = NO
                    r.od_pip = NO
                if r.laid[target]:
                    r.laid[target] = 0
        else:
            if target is not None:
                raise IllegalEvent("{refusal}: trains are named only in mexican-train", _who(s, a, b))
            self._play_foot(r, s, a, b, dbl)
        # The play is legal: take the tile out of the hand.
        hands = r.hands
        hands[s] -= 1
        r.moves += 1
        r.passes = 0
        if t >= 0:
            r.table[t] = 1
            if r.any_known:
                k = r.known[s]
                if t in k:
                    k.remove(t)
                elif r.exact[s]:
                    r.exact[s] = False
        else:
            r.quick = True
            if r.exact[s]:
                # We no longer know which tile left the hand.
                r.exact[s] = False
        if hands[s] == 0:
            r.ended = OUT
            r.out = s
            if dbl:
                # out on a double: not a double left unsatisfied (ruling 13)
                r.out_double = True
                if trains:
                    r.laid[target] = 0
                else:
                    r.foot_by = NO
            return
        r.drew = False
        r.drawn = NO
        if trains:
            if dbl:
                return  # a double earns another play, with a fresh draw
            if target == own and not r.had_turn[s] and self.rules.first_run:
                r.run = s   # first_turn_run: the turn stays until their pass
                return
            r.had_turn[s] = True
        r.to_move = (s + 1) % self.n

    def _play_foot(self, r, s, a, b, dbl):
        if r.centre_left:
            d = r.double
            if dbl or (a >= 0 and a != d):
                raise IllegalEvent("{refusal}: the centre {tile} needs {trains} first",
                                   _who(s, a, b), tile_text(d, d), _n(r.centre_left, 2))
            r.centre_left -= 1
            if a >= 0 and r.ends is not None:
                r.ends[b] += 1
            else:
                r.ends = None
            return
        if r.toes:
            f = r.foot
            if dbl:
                raise IllegalEvent("{refusal}: a toe of the chicken foot is never a double", _who(s, a, b))
            if a >= 0 and f >= 0 and a != f:
                raise IllegalEvent("{refusal}: a chicken foot on {tile} needs {toes}",
                                   _who(s, a, b), tile_text(f, f), _n(r.toes, 4))
            r.toes -= 1
            if r.toes == 0:
                r.foot = NO
            if a >= 0 and r.ends is not None:
                r.ends[b] += 1
            else:
                r.ends = None
            return
        ends = r.ends
        if a >= 0:
            if ends is not None:
                if ends[a] <= 0:
                    raise IllegalEvent("{refusal}: no open end shows {n}", _who(s, a, b), a)
                ends[a] -= 1
                if not dbl:
                    ends[b] += 1
        else:
            r.ends = None
        if dbl:
            r.foot = a if a >= 0 else UNSEEN
            r.toes = 3
            r.foot_by = s

    # -- draws and passes ------------------------------------------------------

    def _draw(self, s, a, b):
        r = self.round
        if r is None or r.ended or r.to_move != s:
            self._turn(s, "draw")
        if r.drew:
            # drawn_tile until: again, while the drawn tile does not fit
            if not self.rules.draw_until:
                raise IllegalEvent("{seat} has already drawn this turn: play the drawn tile or pass",
                                   s + 1)
            if r.drawn >= 0 and not self.rules.voluntary_pass and self._plays_for(s, (r.drawn,)):
                raise IllegalEvent("{seat} cannot draw: the drawn tile {tile} fits and must be played",
                                   s + 1, tiles.name(r.drawn))
        if self.trains and r.run == s:
            raise IllegalEvent("{seat} has played this turn: a pass ends their first-turn run", s + 1)
        if r.yard <= self.rules.reserve:
            raise IllegalEvent("{seat} cannot draw: {why}", s + 1, self._yard_text(r))
        if r.exact[s] and not self.rules.voluntary_pass:
            plays = self._plays_for(s, r.known[s])
            if plays:
                raise IllegalEvent("{seat} cannot draw: they can play {tile}",
                                   s + 1, tile_text(plays[0][0], plays[0][1]))
        t = NO
        if a >= 0:
            if a > self.rules.top or b > self.rules.top:
                raise IllegalEvent("%s is not in a double-%d set" % (tile_text(a, b), self.rules.top))
            t = tiles.tile_id(a, b)
            self._unseen(t, s)
            if t in r.known[s]:
                raise IllegalEvent("%s is already in seat %d's hand" % (tiles.name(t), s + 1))
            r.known[s].append(t)
            r.any_known = True
        elif r.exact[s]:
            r.exact[s] = False
        r.yard -= 1
        r.hands[s] += 1
        r.drew = True
        r.drawn = t
        r.passes = 0
        r.moves += 1

    def _pass(self, s):
        r = self.round
        if r is None or r.ended or r.to_move != s:
            self._turn(s, "pass")
        # No local for self.rules: within 11 words a frame stays off the heap.
        if self.trains and r.run == s:
            # first_turn_run: the pass that ends the run (no draw, no marker)
            r.run = NO
            r.had_turn[s] = True
            r.moves += 1
            r.to_move = (s + 1) % self.n
            return
        if not r.drew:
            if r.yard > self.rules.reserve:
                raise IllegalEvent("{seat} cannot pass: they must draw first ({tiles} may be drawn)",
                                   s + 1, _n(r.drawable(self.rules), 0))
            if r.exact[s] and not self.rules.voluntary_pass:
                plays = self._plays_for(s, r.known[s])
                if plays:
                    raise IllegalEvent("{seat} cannot pass: they can play {tile}",
                                       s + 1, tile_text(plays[0][0], plays[0][1]))
            r.passes += 1
        elif self.rules.voluntary_pass:
            pass
        elif self.rules.draw_until and r.yard > self.rules.reserve:
            raise IllegalEvent("{seat} cannot pass: they draw until a tile fits ({tiles} may be drawn)",
                               s + 1, _n(r.drawable(self.rules), 0))
        elif r.drawn >= 0 and self.rules.drawn_must:
            plays = self._plays_for(s, (r.drawn,))
            if plays:
                raise IllegalEvent("{seat} cannot pass: the drawn tile {tile} fits and must be played",
                                   s + 1, tiles.name(r.drawn))
        if self.trains:
            if r.od_train != NO and self.rules.cover_own and r.laid[r.od_train] == s + 1:
                r.od_train = NO     # double_cover own: nobody else is bound to cover it
                r.od_pip = NO
            r.markers[s + 1] = True
            r.had_turn[s] = True
        r.moves += 1
        r.drew = False
        r.drawn = NO
        r.to_move = (s + 1) % self.n
        if r.passes >= self.n or (self.rules.no_draw_end and r.yard <= self.rules.reserve):
            r.ended = STUCK

    def _blocked(self):
        r = self._live()
        if r.drawable(self.rules) > 0:
            raise IllegalEvent("the round is not blocked: {tiles} may still be drawn",
                               _n(r.drawable(self.rules), 0))
        r.ended = STUCK

    def _yard_text(self, r):
        if r.yard <= 0:
            return ("the yard is empty",)
        return ("the last {tiles} of the yard stay there", _n(r.yard, 0))

    # -- legal plays -------------------------------------------------------------

    def legal_plays(self, seat=None):
        """Every (a, b, target) the seat to move (or ``seat``) could legally
        play now: a is the connecting end, target None or a train
        (mexican-train). Tiles come from the seat's hand where it is known,
        else from every tile not on the table and not known elsewhere.
        Returns None when the open ends are not known (quick tracking)."""
        from shared_engine import moves

        return moves.legal_plays(self, seat)

    def _plays_for(self, s, pool):
        from shared_engine import moves

        return moves.plays_for(self, s, pool)

    # -- scores and winners: in shared_engine.scoring, loaded when needed -------

    def _score(self, pips, db, facts):
        from shared_engine import scoring

        scoring.score(self, pips, db, facts)

    def _fix(self, rnd, seat, pips, db, facts):
        from shared_engine import corrections

        corrections.fix(self, rnd, seat, pips, db, facts)

    def round_winners(self, i):
        """Seats (1-based) that won scored round i: the lowest score (the
        highest under positive scoring)."""
        from shared_engine import scoring

        return scoring.round_winners(self, i)

    def winners(self):
        """(seats, how): the game's winners after tie-breaks, and the
        tie-break that decided it (None when the totals alone did)."""
        from shared_engine import scoring

        return scoring.winners(self)


    # -- undo ------------------------------------------------------------------

    def _mark(self):
        return (list(self.totals), list(self.results), list(self.used),
                self.over, self.stopped, self.redeals)

    def _undo(self):
        """Retract the latest event not yet retracted: go back to the mark
        before its round and apply the events since, less the last one."""
        h = self.history
        if not h:
            if self.base:
                raise IllegalEvent("undo reaches back only to the start of the previous round")
            raise IllegalEvent("there is nothing to undo")
        if self.base and not (self.marks and self.marks[0][0] <= len(h) - 1):
            raise IllegalEvent("undo reaches back only to the start of the previous round")
        h.pop()
        while self.marks and self.marks[-1][0] > len(h):
            self.marks.pop()
        if self.marks:
            at, mark = self.marks[-1]
        else:
            at, mark = 0, ([0] * self.n, [], [], False, False, 0)
        self.totals, self.results, self.used = list(mark[0]), list(mark[1]), list(mark[2])
        self.over, self.stopped, self.redeals = mark[3], mark[4], mark[5]
        self.round = None
        tail = h.cut(at)
        if self.marks and self.marks[-1][0] == at:
            self.marks.pop()
        for ev in tail:
            self.apply(unpack(ev))


def _train_text(target, s):
    if target == MEXICAN:
        return ("the Mexican train",)
    if target == s + 1:
        return ("their own train",)
    return ("{seat}'s train", target)


def _refused(s, a, b, target, why):
    """The error for a play refused on a train (mexican-train)."""
    return IllegalEvent("{refusal} on {train}: {why}", _who(s, a, b), _train_text(target, s),
                        why if isinstance(why, tuple) else (why,))




def _who(s, a, b):
    """"seat 3 cannot play 5-2": the start of a refused play's sentence (a
    message, shared_engine/messages.py), built only when a play is refused."""
    if a == DOUBLE:
        return ("{seat} cannot play a double", s + 1)
    if a >= 0:
        return ("{seat} cannot play {tile}", s + 1, tile_text(a, b))
    return ("{seat} cannot play a tile", s + 1)


def pack(ev):
    """An event as one small int where it fits (plays, draws, passes and the
    one-word events), else the tuple itself: the history kept for undo then
    costs a machine word an event, not a tuple. ``unpack`` reverses it."""
    k = ev[0]
    if k == PLAY:
        t = ev[4]
        return (((((ev[2] + 2) << 5 | (ev[3] + 2)) << 5 | (31 if t is None else t)) << 5
                 | ev[1]) << 4) | k
    if k == DRAW:
        return ((((ev[2] + 2) << 5 | (ev[3] + 2)) << 5 | ev[1]) << 4) | k
    if k == PASS:
        return (ev[1] << 4) | k
    if k == BLOCKED or k == REDEAL or k == END:
        return k
    if k == FIX and len(ev) == 5:
        return ((((ev[3] << 1 | ev[4]) << 5 | ev[1]) << 5 | ev[2]) << 4) | k
    if k == HAND or k == CAUGHT:
        return bytes((k, ev[1])) + bytes(ev[2])
    if k == ROUND:
        return bytes((ROUND, ev[1], ev[2])) + bytes(ev[3])
    return ev


def unpack(x):
    if isinstance(x, bytes):
        if x[0] == HAND or x[0] == CAUGHT:
            return (x[0], x[1], tuple(x[2:]))
        return (ROUND, x[1], x[2], tuple(x[3:]))
    if not isinstance(x, int):
        return x
    k = x & 15
    x >>= 4
    if k == PLAY:
        seat = x & 31
        t = (x >> 5) & 31
        b = ((x >> 10) & 31) - 2
        a = (x >> 15) - 2
        return (PLAY, seat, a, b, None if t == 31 else t)
    if k == DRAW:
        return (DRAW, x & 31, (x >> 10) - 2, ((x >> 5) & 31) - 2)
    if k == PASS:
        return (PASS, x)
    if k == FIX:
        return (FIX, (x >> 5) & 31, x & 31, x >> 11, (x >> 10) & 1)
    return (k,)


def _double_text(pip):
    if pip >= 0:
        return "%d-%d" % (pip, pip)
    return ("just played",)


# Counts in refusals, as messages: one, and n (the messages' tuples are
# constants, made once; their words are not interned on the board).
_COUNTS = (("1 tile",), ("{n} tiles",), ("1 more train",), ("{n} more trains",),
           ("1 more toe",), ("{n} more toes",))


def _n(n, k):
    """The count ``n`` of the thing at ``_COUNTS[k]``, as a message."""
    return _COUNTS[k] if n == 1 else _COUNTS[k + 1] + (n,)
