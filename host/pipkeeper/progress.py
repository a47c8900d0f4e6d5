"""A progress bar for transfers, drawn on stderr.

Every transfer (sync, flash, test --board) reports bytes through one of
these, so a slow cable is visible and a stall is obvious. It draws only on a
terminal (or when $PIPKEEPER_PROGRESS=1), redrawing at most 20 times a
second, so piping `--json` output or running in CI stays clean.
"""

import os
import sys
import time

_WIDTH = 24


def _enabled(stream):
    force = os.environ.get("PIPKEEPER_PROGRESS")
    if force is not None:
        return force not in ("", "0")
    return hasattr(stream, "isatty") and stream.isatty()


def human(n):
    """Bytes as people read them: 812 B, 12.3 KB, 1.4 MB."""
    if n < 1024:
        return "{} B".format(n)
    if n < 1024 * 1024:
        return "{:.1f} KB".format(n / 1024)
    if n < 1024 ** 3:
        return "{:.1f} MB".format(n / (1024 * 1024))
    return "{:.1f} GB".format(n / 1024 ** 3)


class Progress:
    """`with Progress(total, "label") as p: p.advance(n)`."""

    def __init__(self, total, label, stream=None, enabled=None):
        self.total = max(int(total), 0)
        self.label = label
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = _enabled(self.stream) if enabled is None else enabled
        self.start = time.monotonic()
        self._drawn = 0.0
        self._dirty = False

    def advance(self, n):
        self.done += n
        self._maybe_draw()

    def set(self, done):
        self.done = done
        self._maybe_draw()

    def note(self, label):
        """Change the label (e.g. the file being sent)."""
        self.label = label
        self._maybe_draw()

    def _maybe_draw(self, force=False):
        if not self.enabled:
            return
        now = time.monotonic()
        if force or now - self._drawn >= 0.05:
            self._drawn = now
            self._draw(now)

    def _draw(self, now):
        total = self.total or 1
        frac = min(self.done / total, 1.0)
        filled = int(frac * _WIDTH)
        rate = self.done / max(now - self.start, 1e-6)
        line = "{} [{}{}] {}/{} {}/s".format(
            self.label[:28].ljust(28), "#" * filled, "." * (_WIDTH - filled),
            human(self.done), human(self.total), human(int(rate)))
        self.stream.write("\r" + line + "\x1b[K")
        self.stream.flush()
        self._dirty = True

    def close(self):
        if self.enabled:
            self._maybe_draw(force=True)
            if self._dirty:
                self.stream.write("\n")
                self.stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Null:
    """A progress that shows nothing (library callers, benchmarks)."""

    total = done = 0

    def advance(self, n):
        pass

    def set(self, done):
        pass

    def note(self, label):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass
