"""A progress bar for transfers, drawn by rich on stderr.

Every transfer (sync, flash, test --board) reports bytes through one of
these, so a slow cable is visible and a stall is obvious. rich draws it
(bar, bytes, rate, time left; pip draws its downloads the same way); this
module only keeps the small interface the transfers call (`advance`, `set`,
`note`, a `total` that may be learnt late) and decides when to draw: only on
a terminal (or when $PIPKEEPER_PROGRESS=1; =0 never), so piping `--json`
output or running in CI stays clean.
"""

import os
import sys

import click
from rich.console import Console
from rich.progress import (BarColumn, DownloadColumn, Progress as _RichProgress, TextColumn,
                           TimeRemainingColumn, TransferSpeedColumn)

from pipkeeper.closing import Closing


def _forced():
    """True or False when $PIPKEEPER_PROGRESS says, else None."""
    force = os.environ.get("PIPKEEPER_PROGRESS")
    if force is None:
        return None
    return force not in ("", "0")


def _is_tty(stream):
    return hasattr(stream, "isatty") and stream.isatty()


def _enabled(stream):
    force = _forced()
    if force is not None:
        return force
    return _is_tty(stream)


def human(n):
    """Bytes as people read them: 812 B, 12.3 KB, 1.4 MB.

    Kept by hand (rich's `filesize` counts in 1000s): the lines `flash` and
    `sync` print count in 1024s, as the board's flash sizes do.
    """
    if n < 1024:
        return "{} B".format(n)
    if n < 1024 * 1024:
        return "{:.1f} KB".format(n / 1024)
    if n < 1024 ** 3:
        return "{:.1f} MB".format(n / (1024 * 1024))
    return "{:.1f} GB".format(n / 1024 ** 3)


class Progress(Closing):
    """`with Progress(total, "label") as p: p.advance(n)`."""

    def __init__(self, total, label, stream=None, enabled=None):
        self.label = self._title = label
        self.done = 0
        self._total = max(int(total), 0)
        self.stream = stream or sys.stderr
        self.enabled = _enabled(self.stream) if enabled is None else enabled
        self._bar = None
        if self.enabled:
            console = Console(file=self.stream, force_terminal=True, highlight=False,
                              markup=False, emoji=False)
            self._bar = _RichProgress(
                TextColumn("{task.description}"), BarColumn(), DownloadColumn(binary_units=True),
                TransferSpeedColumn(), TimeRemainingColumn(),
                console=console, refresh_per_second=20,
                redirect_stdout=False, redirect_stderr=False)
            self._task = self._bar.add_task(label, total=self._total or None)
            self._bar.start()

    @property
    def total(self):
        return self._total

    @total.setter
    def total(self, value):
        """A transfer often learns its size after it starts (the board lists
        its files first)."""
        self._total = max(int(value), 0)
        self._update(total=self._total or None)

    def _update(self, **what):
        if self._bar is not None:
            self._bar.update(self._task, **what)

    def advance(self, n):
        self.done += n
        self._update(completed=self.done)

    def set(self, done):
        self.done = done
        self._update(completed=self.done)

    def note(self, label):
        """Change the label (e.g. the file being sent)."""
        self.label = label
        self._update(description=label, refresh=True)

    def echo(self, line):
        """Print a line of the command's output while the bar runs: on the
        bar's terminal above the bar (a line written past it would be
        appended to the bar's own line); into a pipe or a file as it is."""
        if self._bar is not None and _is_tty(sys.stdout):
            self._bar.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            click.echo(line)

    def close(self):
        if self._bar is not None:
            self._update(description=self._title)    # the last line: the whole transfer
            self._bar.stop()
            self._bar = None


class Null(Closing):
    """A progress that shows nothing (library callers, benchmarks)."""

    total = done = 0

    def advance(self, n):
        pass

    def set(self, done):
        pass

    def note(self, label):
        pass

    def echo(self, line):
        click.echo(line)

    def close(self):
        pass
