"""pipkeeper sync: pull the game records from the board into the library."""

import json

import click

from pipkeeper.board import link, sync
from pipkeeper.errors import PipkeeperError
from pipkeeper.library.store import Library
from pipkeeper.options import db_option, json_option, port_option
from pipkeeper.progress import Progress, human
from pipkeeper.wording import counted


@click.command()
@port_option
@db_option
@json_option
def command(port, db, as_json):
    """Pull new and grown game records from the board into the library.

    Only the bytes beyond what the library holds cross the cable, after the
    board has checked that the held part is unchanged. A cut cable loses
    nothing: run sync again and it carries on. A record the engine rejects
    is kept and flagged; a file whose name or size is unsafe is refused.
    """
    with Library(db) as library:
        stored_before = len(library.games(include_hidden=True))
        try:
            with link.connect(port, run_main=True) as board:
                with Progress(0, "sync") as bar:
                    result = sync.sync(board, library, progress=bar)
        except link.LinkLost as exc:
            kept = len(library.games(include_hidden=True)) - stored_before
            raise PipkeeperError("{} ({} stored before that)".format(exc.message, counted(kept, "record")))
    if as_json:
        click.echo(json.dumps(result.as_dict()))
        return
    for e in result.entries:
        if e.action in ("new", "grown", "replaced"):
            click.echo("{:<8} {:<20} {:>9}  #{}{}".format(
                e.action, e.name, human(e.size), e.record_id,
                "  FLAGGED" if e.status == "rejected" else ""))
    for e in result.entries:
        if e.message:
            click.echo(("refused: " if e.action == "refused" else "") + e.message)
    counts = [(result.count("new"), "new"), (result.count("grown"), "grown"),
              (result.count("replaced"), "replaced"), (result.count("refused"), "refused"),
              (sum(1 for e in result.entries if e.status == "rejected"), "flagged")]
    said = ", ".join("{} {}".format(n, w) for n, w in counts if n) or "nothing new"
    click.echo("{} from {} ({} on the wire)".format(said, result.board, human(result.wire_bytes)))
    if result.image:
        from pipkeeper.board import image_identity as identity
        click.echo("the board runs the scorer's own image: {}".format(
            identity.Identity.from_dict(result.image).describe()))
