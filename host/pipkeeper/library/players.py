"""Who is who across games and boards: the names in the records resolved to
players.

A record keeps each name as it was written. The library reads a name by
its spelling key (`names.fold`), and the `player_names` table (schema 3)
points keys at the player they belong to: `players rename` and `players
merge` write that table and nothing else, so no record is ever rewritten
and both can be changed again. A key the table does not name is its own
player, shown as the spelling the records use most (the first seen when
two are as common).
"""

import difflib

from pipkeeper.errors import PipkeeperError
from pipkeeper.library.names import check_new_name, fold


class Players:
    """The players of one library: ``table`` is `Library.player_names()`,
    ``seats`` its `seat_names()` (record id, name as written)."""

    def __init__(self, table, seats):
        self.table = dict(table)
        self.seats = list(seats)
        counts = {}
        order = {}
        for _rid, written in self.seats:
            key = fold(written)
            spelling = str(written).strip()
            seen = counts.setdefault(key, {})
            seen[spelling] = seen.get(spelling, 0) + 1
            order.setdefault((key, spelling), len(order))
        # the spelling the records use most for each key
        self.written = {key: sorted(seen, key=lambda w: (-seen[w], order[(key, w)]))
                        for key, seen in counts.items()}

    @classmethod
    def of(cls, library):
        return cls(library.player_names(), library.seat_names())

    # -- resolving ----------------------------------------------------------------
    def player(self, written):
        """The player key a name belongs to (the key of the name it is shown by)."""
        key = fold(written)
        seen = set()
        while key in self.table and key not in seen:
            seen.add(key)
            nxt = fold(self.table[key])
            if nxt == key:
                break
            key = nxt
        return key

    def name(self, player):
        """How the library shows a player (a key from `player`)."""
        if player in self.table:
            return self.table[player]
        spellings = self.written.get(player)
        return spellings[0] if spellings else player

    def shown(self, written):
        """The name a written name is shown by."""
        return self.name(self.player(written))

    def keys(self):
        """Every spelling key the library knows: in the records or in its table."""
        return set(self.written) | set(self.table)

    def find(self, name):
        """The player a name a person typed means; one line naming the
        nearest players when none."""
        key = fold(name)
        if key in self.keys():
            return self.player(key)
        names = sorted({self.name(self.player(k)) for k in self.keys()})
        near = difflib.get_close_matches(str(name), names, n=3, cutoff=0.6)
        raise PipkeeperError("no player {!r} in the library{} (see `pipkeeper players`)".format(
            name, "; did you mean {}?".format(" or ".join(near)) if near else ""))

    # -- the listing ----------------------------------------------------------------
    def listing(self):
        """One dict per player, most games first: `player` (shown), `games`
        (the listed games the engine accepts, in play included), `spellings`
        (every way the records write them)."""
        games = {}
        spellings = {}
        for rid, written in self.seats:
            p = self.player(written)
            games.setdefault(p, set()).add(rid)
            spellings.setdefault(p, [])
            if str(written).strip() not in spellings[p]:
                spellings[p].append(str(written).strip())
        rows = [{"player": self.name(p), "games": len(ids), "spellings": spellings[p]}
                for p, ids in games.items()]
        return sorted(rows, key=lambda r: (-r["games"], fold(r["player"]), r["player"]))

    # -- changes: the table rows to write -----------------------------------------------
    def _of_player(self, player):
        return [k for k in self.keys() if self.player(k) == player]

    def rename(self, old, new):
        """The table rows that show player ``old`` as ``new`` (every
        spelling of theirs, and the new one)."""
        who = self.find(old)
        new = check_new_name(new)
        taken = fold(new)
        if taken in self.keys() and self.player(taken) != who:
            raise PipkeeperError("{} is another player already: `pipkeeper players merge {} {}` "
                                 "joins them".format(new, old, new))
        rows = {k: new for k in self._of_player(who)}
        rows[taken] = new
        return rows

    def merge(self, alias, name):
        """The table rows that make player ``alias`` one with ``name`` (shown
        as ``name``'s player is); refused when both sat at one game."""
        gone, kept = self.find(alias), self.find(name)
        if gone == kept:
            raise PipkeeperError("{} and {} are one player already".format(alias, name))
        seated = {}
        for rid, written in self.seats:
            seated.setdefault(rid, set()).add(self.player(written))
        both = sorted(rid for rid, ps in seated.items() if gone in ps and kept in ps)
        if both:
            raise PipkeeperError("{} and {} sat at game {} together: two people, not one".format(
                alias, name, both[0]))
        shown = self.name(kept)
        rows = {k: shown for k in self._of_player(gone) + self._of_player(kept)}
        rows[kept] = shown
        return rows
