"""The ``replay --json`` report of FORMAT.md, built from a Game.

Kept apart from the engine so the board, which never prints JSON, does not
load it. Seats are numbered from 1 in every key.
"""

from shared_engine import engine
from shared_engine.presets import TRAINS

# The house rules of issue 31 beyond double_blank, with their defaults (the
# same in every preset), "name=default" a word: one string (the unix port's
# heap runs the engine's tests); tests/engine/test_house_rules.py holds them
# to the table of shared_engine/house.py, which a game at the presets'
# defaults does not load.
HOUSE = ("blank_end=0 doubles_count_double=no out_bonus=0 double_out=0 open_train=0 "
         "unsatisfied_double=0 blocked_cap=no skip_missing_doubles=no call_last_tile=0 "
         "first_turn_run=no voluntary_pass=no no_draw_end=no target_score=0 double_cover=any")



def report(game):
    """The report dict: rules, players, rounds, totals, over, winners, state
    (plus tie_break, redeals, options, house_rules and warnings)."""
    rounds = []
    for i in range(len(game.results)):
        double, counted, out, pips, db, bounds, orig, facts = game.results[i]
        rounds.append({
            "double": double,
            "scores": list(counted),
            "pips": list(pips),
            "holds_double_blank": [s + 1 for s in range(game.n) if db[s]],
            "out": None if out is None else out + 1,
            "winners": game.round_winners(i),
            # a `fix` changed the round: the seats whose pips it changed,
            # and the round as its score line gave it
            "corrected": [] if orig is None else [
                s + 1 for s in range(game.n) if orig[1][s] != pips[s] or orig[2][s] != db[s]
                or _seat_facts(orig[3], game.n, s) != _seat_facts(facts, game.n, s)],
            "original": None if orig is None else {
                "scores": list(orig[0]),
                "pips": list(orig[1]),
                "holds_double_blank": [s + 1 for s in range(game.n) if orig[2][s]],
            },
        })
        if game.rules.facts or game.rules.skip_missing:
            from shared_engine import facts
            rounds[-1]["facts"] = facts.round_facts(game, i)
    winners, how = game.winners()
    return {
        "rules": game.rules.name,
        "players": list(game.players),
        "options": options(game.rules),
        "house_rules": house_rules(game.rules),
        "rounds": rounds,
        "totals": list(game.totals),
        "over": game.over,
        "stopped": game.stopped,
        "winners": winners,
        "tie_break": how,
        "redeals": game.redeals,
        "next_double": None if game.over else game.next_double(),
        "state": state(game),
        "warnings": list(getattr(game, "warnings", ())),
    }


def state(game):
    """The round in play (or awaiting its score), else None."""
    r = game.round
    if r is None or game.over:
        return None
    rules = game.rules
    trains = None
    markers = None
    open_ends = None
    open_double = None
    if rules.layout == TRAINS:
        trains = {}
        for s in range(1, game.n + 1):
            trains[str(s)] = _end(r.trains[s])
        trains["mx"] = _end(r.trains[engine.MEXICAN])
        markers = [s for s in range(1, game.n + 1) if r.markers[s]]
        if r.od_train >= 0:  # 0 is the Mexican train, -1 none
            open_double = r.od_pip if r.od_pip >= 0 else None
    else:
        if r.ends is not None and not (r.toes and r.foot < 0):
            open_ends = []
            for p in range(len(r.ends)):
                open_ends.extend([p] * r.ends[p])
            open_ends.extend([r.double] * r.centre_left)
            if r.toes:
                open_ends.extend([r.foot] * r.toes)
            open_ends.sort()
        if r.toes and r.foot >= 0:
            open_double = r.foot
    return {
        "round": r.double,
        "lead": r.lead,
        "to_move": game.to_move,
        "hands": list(r.hands),
        "yard": r.yard,
        "drawable": r.drawable(rules),
        "trains_needed": r.centre_left,
        "toes_needed": r.toes,
        "open_ends": open_ends,
        "trains": trains,
        "markers": markers if markers is not None else [],
        "open_double": open_double,
        "drew": r.drew,
        "awaiting_score": bool(r.ended),
        "out": None if r.out is None else r.out + 1,
        "blocked": r.ended == engine.STUCK,
        "run": r.run + 1 if rules.layout == TRAINS and r.run >= 0 else None,
    }


def options(rules):
    """Every option with its value: the record's, else the preset's
    default (None where the preset works it out); 0-0's value both as
    ``double_blank`` and, as older records say it, ``double_blank_50``."""
    out = dict(rules.options)
    out["double_blank"] = str(rules.double_blank)
    given = rules.given
    for w in HOUSE.split():
        k, _, d = w.partition("=")
        out[k] = given.get(k, d)
    return out


def house_rules(rules):
    """{name: value} of the options in play that are not the preset's
    defaults (house.house: only where the record gives options)."""
    if not rules.given:
        return {}
    from shared_engine import house
    return dict(house.house(rules))


def _seat_facts(fb, n, s):
    """Seat s's facts in a round's facts bytes (None: none kept)."""
    if fb is None:
        return None
    return [fb[k * n + s] for k in range(len(fb) // n)]


def _end(v):
    return v if v >= 0 else None
