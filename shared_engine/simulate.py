"""Simulated games: real shuffled deals from a seed, bots that play them, and
the record written with known hands (``hand``, ``draw 5-3``).

The tests and the benchmarks feed on its output. It is pure Python so the
same simulated games run on MicroPython and CPython (a seed gives the same
game on both: the shuffle uses its own small generator, not ``random``). It
is never flashed to the board: the firmware does not import it.

Bots: ``random`` picks any legal play; ``greedy`` sheds the tile with the
most pips (doubles first when equal), the usual table strategy.
"""

from shared_engine import tiles
from shared_engine.engine import (
    Game, Log, ROUND, HAND, PLAY, DRAW, PASS, SCORE, REDEAL, UNKNOWN, DOUBLE,
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
            hunt = []
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
        while not g.round.ended:
            s = g.round.to_move
            seat = s + 1
            plays = g.legal_plays()
            if plays:
                self._play(s, plays)
                continue
            if g.round.drawable(rules) > 0:
                t = self.yard.pop()
                self.hands[s].append(t)
                self.emit((DRAW, seat, tiles.HI[t], tiles.LO[t]))
                plays = g.legal_plays()
                if plays and (rules.drawn_must or self.rng.below(4)):
                    self._play(s, plays)
                    continue
            self.emit((PASS, seat))
        n = g.n
        zero = tiles.double_id(0)
        pips = []
        db = []
        for s in range(n):
            p = 0
            for t in self.hands[s]:
                p += tiles.pips(t)
            pips.append(p)
            db.append(1 if zero in self.hands[s] else 0)
        self.emit((SCORE, tuple(pips), tuple(db)))

    def _play(self, s, plays):
        a, b, target = self.bots[s](self.game, plays, self.hands[s], self.rng)
        self.hands[s].remove(tiles.tile_id(a, b))
        if target == s + 1:
            target = None
        self.emit((PLAY, s + 1, a, b, target))

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
        else:
            out.append(ev)
    return out


def simulate(rules, n_players, seed=1, bots=None, options=None, on_event=None):
    """Play a whole game; return the Simulation (``.record()`` is its DGN)."""
    names = ["P%d" % (i + 1) for i in range(n_players)]
    sim = Simulation(rules, names, seed, bots, options, on_event)
    return sim.run()
