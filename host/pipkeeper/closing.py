"""`with` for whatever holds something open until `close()`: the library's
database, a simulated board's processes and ptys, the progress bar on the
terminal."""


class Closing:
    """A `with` block gives the object itself and closes it at the end,
    whatever happened: `with Library(path) as library: ...`."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
