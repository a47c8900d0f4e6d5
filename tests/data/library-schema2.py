"""How tests/data/library-schema2.sqlite3 was built, with the code of main before schema 3
(commit 3880ec1): `PYTHONPATH=<main>/host:<main> python tests/data/library-schema2.py OUT tests/data`.
Kept beside the file it made; the tests read the file, never run this."""
import sys
from pipkeeper.library.store import Library, MIGRATIONS
assert len(MIGRATIONS) == 2, len(MIGRATIONS)
DATA = sys.argv[2]
out = sys.argv[1]
def game(players, scores, gid, date):
    lines = ['[Rules "chickenfoot"]', '[Players {}]'.format(" ".join('"%s"' % p for p in players)),
             '[Option "hand_size" "1"]', '[Option "rounds" "9 8"]', '[Game "%s"]' % gid, '[Date "%s"]' % date]
    for i, (d, sc) in enumerate(zip((9, 8), scores)):
        lead = 1 + i % len(players)
        lines += ["round {0}-{0} lead {1}".format(d, lead), "{} play".format(lead), "score " + " ".join(map(str, sc))]
    return ("\n".join(lines) + "\n").encode("utf-8")
with Library(out) as lib:
    lib.store("e6614104", "0001.dgn", game(["Ann", "Bob", "Cy"], [(0, 5, 7), (3, 0, 4)], "e661-0001", "2026-11-05"))
    lib.store("e6614104", "0002.dgn", game(["ann", "Dafydd", "Siân"], [(0, 5, 7), (3, 0, 4)], "e661-0002", "2026-11-05"))
    lib.store("sim-00112233445566aa", "0001.dgn", game(["Anne", "Bob", "مريم"], [(0, 6, 2), (9, 0, 1)], "66aa-0001", "2026-11-12"))
    lib.store("sim-00112233445566aa", "0002.dgn", game(["Ann", "Bob", "Cy"], [(0, 5, 7), (3, 0, 4)], "e661-0001", "2026-11-05")[:-20])
    lib.store("e6614104", "0003.dgn", open(DATA + "/illegal_turn.dgn", "rb").read())
    lib.store("e6614104", "0004.dgn", game(["Ann", "Bob"], [(0, 5), (3, 0)], "e661-0004", "2026-11-19"))
    lib.forget(6)
    print([ (g["id"], g["status"], g["players"], g["duplicate_of"]) for g in lib.games(include_hidden=True)])
