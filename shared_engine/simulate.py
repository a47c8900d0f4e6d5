"""Simulated games: real shuffled deals from a seed, bots that play them, and
the record written with known hands (``hand``, ``draw 5-3``).

The tests and the benchmarks feed on its output. It is pure Python so the
same simulated games run on MicroPython and CPython (a seed gives the same
game on both: the shuffle uses its own small generator, not ``random``). It
is never flashed to the board: the firmware does not import it.

Bots: ``random`` picks any legal play; ``greedy`` sheds the tile with the
most pips (doubles first when equal), the usual table strategy. Both play
every house rule of RULES.md the game's options turn on: they draw instead
of playing now and then (voluntary_pass), draw on until a tile fits
(drawn_tile until), run on their own train on a first turn and stop at
random (first_turn_run), forget to call their last tile now and then and
are caught (call_last_tile), open a round on the first double still to
open one that somebody holds (skip_missing_doubles), and write the facts
the rules count on the score line. With no house rule on, the generator
is asked exactly as before: a seed is the same game it always was.
"""

from shared_engine import tiles
from shared_engine.engine import (
    Game, Log, ROUND, HAND, PLAY, DRAW, PASS, SCORE, REDEAL, CAUGHT, UNKNOWN, DOUBLE,
)


def _ids(deck, i, j):
    """deck[i:j] as a list made at its size (list() of a slice grows it a
    doubling at a time: a block of 1 KB on the unix port's heap)."""
    out = [0] * (j - i)
    for k in range(i, j):
        out[k - i] = deck[k]
    return out


class Rng:
    """xorshift32: tiny, fast, and the same on every interpreter."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % n

    def shuffle(self, seq):
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]


def pick_random(game, plays, hand, rng):
    return plays[rng.below(len(plays))]


def pick_greedy(game, plays, hand, rng):
    best = None
    key = -1
    for p in plays:
        k = (p[0] + p[1]) * 2 + (1 if p[0] == p[1] else 0)
        if k > key:
            best = p
            key = k
    return best


BOTS = {"random": pick_random, "greedy": pick_greedy}


class Simulation:
    """Plays one game to the end, feeding every event to a live Game and
    collecting them. ``on_event(sim, ev)`` (optional) is called after each
    event is applied: the tests check invariants there."""

    def __init__(self, rules, players, seed=1, bots=None, options=None, on_event=None,
                 keep_events=True):
        self.rng = Rng(seed)
        self.names = list(players)
        n = len(players)
        self.options = dict(options or {})
        self.game = Game(rules, self.names, self.options)
        self.rules = self.game.rules
        self.bots = [BOTS[b] for b in (bots or ["greedy"] * n)]
        self.events = Log()  # stays empty unless keep_events; chunked for the board's heap
        self.keep_events = keep_events
        self.count = 0
        self.on_event = on_event
        self.hands = None   # the truth: tile ids per seat
        self.yard = None    # the truth: tile ids, drawn from the end
        self.last_lead = n  # so that round 1's hunt starts at seat 1
        tags = [("Rules", [rules]), ("Players", list(players))]
        for k in sorted(self.options):
            if k == "set":
                tags.append(("Set", [self.options[k]]))
            else:
                tags.append(("Option", [k, self.options[k]]))
        tags.append(("Game", ["sim-%d" % seed]))
        self.tags = tags

    def emit(self, ev):
        self.game.apply(ev)
        self.count += 1
        if self.keep_events:
            self.events.append(ev)
        if self.on_event is not None:
            self.on_event(self, ev)

    def run(self, max_events=100000):
        g = self.game
        while not g.over:
            self.play_round()
            if self.count > max_events:
                raise RuntimeError("simulation ran away")
        return self

    # -- dealing ---------------------------------------------------------------

    def _shuffled(self, exclude=-1):
        # A bytearray of the final size (tile ids are below 256): a list of
        # 91 ids is a block of 1 KB on the unix port's 64-bit heap, which a
        # 10 players' game at the 160K heap may not find.
        n = self.rules.tiles
        ts = bytearray(n if exclude < 0 else n - 1)
        j = 0
        for i in range(n):
            if i != exclude:
                ts[j] = i
                j += 1
        self.rng.shuffle(ts)
        return ts

    def _deal(self, deck):
        """Hands (lists of tile ids) and the yard from the shuffled ``deck``."""
        h = self.rules.hand_size
        n = self.game.n
        self.hands = [_ids(deck, k * h, (k + 1) * h) for k in range(n)]
        self.yard = _ids(deck, n * h, len(deck))

    def deal_round(self):
        """Deal, find the centre double and its leader; emit round and hands."""
        rules = self.rules
        n = self.game.n
        g = self.game
        start = self.last_lead % n  # the hunt starts left of the last leader
        while True:
            if rules.fixed_order:
                double = g.next_double()
            else:
                double = None
            hunt = bytearray()   # seats, a byte each: a long hunt (60 draws) is no 1 KB block
            if not rules.centre_in_hand:
                centre = tiles.double_id(double)
                # Everybody draws in turn from the face-down set until the
                # double turns up; then all goes back and is dealt.
                order = self._shuffled()
                i = 0
                while True:
                    seat = (start + i) % n
                    hunt.append(seat + 1)
                    if order[i] == centre:
                        break
                    i += 1
                lead = hunt[-1]
                deck = self._shuffled(exclude=centre)
                self._deal(deck)
                break
            deck = self._shuffled()
            self._deal(deck)
            if rules.skip_missing:
                # the first double still to open a round that someone holds;
                # when nobody holds any, the first is drawn for
                from shared_engine.variants import doubles_left
                left = doubles_left(g)
                double = left[0]
                for d in left:
                    did = tiles.double_id(d)
                    if [h for h in self.hands if did in h]:
                        double = d
                        break
            if double is None:
                # chicken-scratch: the highest unused double anybody holds.
                held = -1
                for d in rules.rounds:
                    if d in g.used:
                        continue
                    did = tiles.double_id(d)
                    for s in range(n):
                        if did in self.hands[s] and d > held:
                            held = d
                if held < 0:
                    self.emit((REDEAL,))
                    continue
                double = held
            centre = tiles.double_id(double)
            lead = None
            for s in range(n):
                if centre in self.hands[s]:
                    lead = s + 1
            if lead is None:
                seat = start
                while True:
                    t = self.yard.pop()
                    hunt.append(seat + 1)
                    self.hands[seat].append(t)
                    if t == centre:
                        lead = seat + 1
                        break
                    seat = (seat + 1) % n
            break
        self.last_lead = lead
        if not rules.centre_in_hand:
            hunt_ev = tuple(hunt) if len(hunt) > 1 or hunt[0] != lead else ()
        else:
            hunt_ev = tuple(hunt)
        self.emit((ROUND, double, lead, hunt_ev))
        for s in range(n):
            self.emit((HAND, s + 1, tuple(self.hands[s])))
        if rules.centre_in_hand:
            self.hands[lead - 1].remove(centre)

    # -- playing ------------------------------------------------------------

    def play_round(self):
        g = self.game
        rules = self.rules
        self.deal_round()
        if g.round is None:
            return
        r = g.round
        rng = self.rng
        vp = rules.voluntary_pass
        while not r.ended:
            s = r.to_move
            seat = s + 1
            plays = g.legal_plays()
            if rules.first_run and g.trains and r.run == s:
                # a first-turn run: on while a tile fits, now and then stopped
                if plays and rng.below(4):
                    self._play(s, plays)
                else:
                    self.emit((PASS, seat))
                continue
            if plays and not (vp and r.drawable(rules) > 0 and not rng.below(6)):
                self._play(s, plays)
                continue
            if r.drawable(rules) > 0:
                self._draw(s)
                plays = g.legal_plays()
                while not plays and rules.draw_until and r.drawable(rules) > 0:
                    self._draw(s)
                    plays = g.legal_plays()
                if plays and (rules.drawn_must or rng.below(4)) and not (vp and not rng.below(3)):
                    self._play(s, plays)
                    continue
            self.emit((PASS, seat))
        self.emit(self.score_event())

    def _draw(self, s):
        t = self.yard.pop()
        self.hands[s].append(t)
        self.emit((DRAW, s + 1, tiles.HI[t], tiles.LO[t]))

    def score_event(self):
        """The round's score line from the true hands: pips, 0-0, and the
        facts the rules count (blank ends, the doubles' pips); the engine
        knows the others."""
        rules = self.rules
        n = self.game.n
        zero = tiles.double_id(0)
        pips = []
        db = []
        blanks = []
        doubles = []
        for s in range(n):
            p = b = d = 0
            for t in self.hands[s]:
                p += tiles.pips(t)
                if t != zero:
                    if tiles.LO[t] == 0:
                        b += 1
                    elif tiles.is_double(t):
                        d += tiles.pips(t)
            pips.append(p)
            db.append(1 if zero in self.hands[s] else 0)
            blanks.append(b)
            doubles.append(d)
        claims = (tuple(blanks) if rules.blank_end and any(blanks) else None,
                  tuple(doubles) if rules.doubles_double and any(doubles) else None,
                  None, None, None, None)
        if claims[0] is None and claims[1] is None:
            return (SCORE, tuple(pips), tuple(db))
        return (SCORE, tuple(pips), tuple(db), claims)

    def _play(self, s, plays):
        a, b, target = self.bots[s](self.game, plays, self.hands[s], self.rng)
        self.hands[s].remove(tiles.tile_id(a, b))
        if target == s + 1:
            target = None
        self.emit((PLAY, s + 1, a, b, target))
        r = self.game.round
        rules = self.rules
        if rules.call_last and not r.ended and len(self.hands[s]) == 1 and not self.rng.below(3):
            # the last tile not called: the table catches it, the yard pays
            k = r.drawable(rules)
            if k > rules.call_last:
                k = rules.call_last
            ids = [self.yard.pop() for _ in range(k)]
            self.hands[s].extend(ids)
            self.emit((CAUGHT, s + 1, tuple(ids)))

    def record(self):
        """The game as DGN text."""
        from shared_engine import dgn
        return dgn.write(self.tags, self.events)


def to_quick(events):
    """The same game as quick tracking records it: no tiles, no hands."""
    out = []
    for ev in events:
        k = ev[0]
        if k == HAND:
            continue
        if k == PLAY:
            a = DOUBLE if ev[2] == ev[3] else UNKNOWN
            out.append((PLAY, ev[1], a, a, ev[4]))
        elif k == DRAW:
            out.append((DRAW, ev[1], UNKNOWN, UNKNOWN))
        elif k == CAUGHT:
            out.append((CAUGHT, ev[1], ()))
        else:
            out.append(ev)
    return out


def to_board(events):
    """The same game as the board records it in full tracking: tiles of
    plays entered, hands and drawn tiles unknown (the board never sees them)."""
    out = []
    for ev in events:
        k = ev[0]
        if k == HAND:
            continue
        if k == DRAW:
            out.append((DRAW, ev[1], UNKNOWN, UNKNOWN))
        elif k == CAUGHT:
            out.append((CAUGHT, ev[1], ()))
        else:
            out.append(ev)
    return out


def simulate(rules, n_players, seed=1, bots=None, options=None, on_event=None):
    """Play a whole game; return the Simulation (``.record()`` is its DGN)."""
    names = ["P%d" % (i + 1) for i in range(n_players)]
    sim = Simulation(rules, names, seed, bots, options, on_event)
    return sim.run()
