"""pipkeeper stats: the league over the library's finished games."""

import csv
import io
import json

import click

from pipkeeper.errors import PipkeeperError
from pipkeeper.library.league import TABLE, League, cell
from pipkeeper.library.store import Library
from pipkeeper.options import NO_GAMES, db_option, filters_of, game_filters, json_option, printable

# --csv: a row per player
CSV_COLUMNS = ("player", "rating", "mu", "sigma", "games", "wins", "shared_wins", "win_percent",
               "average_total", "average_round_score", "rounds", "best_total", "best_game",
               "worst_total", "worst_game", "rounds_won", "rounds_out", "feet_started")


@click.command()
@db_option
@game_filters
@click.option("--min-games", type=click.IntRange(min=0), default=0, metavar="N",
              help="List only the players with N games or more (all games still rate everyone).")
@click.option("--vs", nargs=2, metavar="A B", default=None,
              help="Head-to-head: the games A and B both played, who finished ahead, by how much.")
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV, a row per player.")
def command(db, since, until, rules, event, players, games, min_games, vs, as_json, as_csv):
    """The league: per player games, wins, win %, average total and round
    score, best and worst game, rounds won and gone out, and a rating.

    Only finished games count: games still in play, flagged records and
    games stopped before a scored round are left out (the last line says
    how many). A shared win is a win. Players are matched by name as
    people write them (case, Unicode spelling) and joined by `pipkeeper
    players merge`.

    The rating is openskill's Plackett-Luce model over each game's final
    standing (lowest total first, highest under positive_scoring; level
    totals are a tie unless the game's tie-break decided): the ordinal
    mu - 3 sigma, with mu and sigma. Games are rated in date order, then in
    the order the library took them; --json has each player's history.
    """
    if as_json and as_csv:
        raise click.UsageError("--json or --csv, not both")
    filters = filters_of(since, until, rules, event, players, games)
    with Library(db, read_only=True) as library:
        league = League.of(library, filters)
    if vs:
        _head_to_head(league, vs, as_json)
        return
    standings = league.standings(min_games)
    if as_json:
        click.echo(json.dumps(league.as_dict(min_games), ensure_ascii=False))
        return
    if as_csv:
        _csv(standings)
        return
    if not standings:
        click.echo(NO_GAMES if league.empty() else "no finished game to rank: " + printable(league.counted()))
        return
    from pipkeeper.library.tables import Column, show, terminal_console

    console = terminal_console()
    columns = [Column(label, justify="left" if key == "player" else "right",
                      style="bold" if key == "player" else None,
                      # the figures whole on one line ("29.0 ± 8.2" never
                      # wrapped); the players' names cut short where the
                      # terminal is too narrow for them
                      wrap=key == "player", names="cells" if key == "player" else None)
               for key, label in TABLE]
    rows = [[printable(s["player"])] + [cell(s, k) for k, _ in TABLE[1:]] for s in standings]
    show(columns, rows, console=console)
    click.echo(printable(league.counted()))


def _csv(standings):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    from pipkeeper.library.export import csv_safe
    for s in standings:
        flat = dict(s, best_total=s["best_game"]["total"], best_game=s["best_game"]["game"],
                    worst_total=s["worst_game"]["total"], worst_game=s["worst_game"]["game"])
        w.writerow([csv_safe(flat[k]) if k == "player" else ("" if flat[k] is None else flat[k])
                    for k in CSV_COLUMNS])
    click.echo(out.getvalue(), nl=False)


def _head_to_head(league, pair, as_json):
    h = league.head_to_head(*pair)
    if as_json:
        click.echo(json.dumps(h, ensure_ascii=False))
        return
    a, b = (printable(p) for p in h["players"])
    if not h["games"]:
        raise PipkeeperError("{} and {} have no finished game together{}".format(
            a, b, " among those chosen" if league.left_out["filtered"] else ""))
    click.echo("{} vs {}: {} game{} together".format(a, b, h["games"], "" if h["games"] == 1 else "s"))
    click.echo("{} finished ahead in {}, {} in {}, level in {}".format(
        a, h["ahead"][0], b, h["ahead"][1], h["level"]))
    margin = h["margin"]
    if margin == 0:
        click.echo("level on points on average")
    else:
        click.echo("{} by {:.1f} point{} a game on average".format(
            a if margin > 0 else b, abs(margin), "" if abs(margin) == 1 else "s"))
