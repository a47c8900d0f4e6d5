"""The one error type of the CLI.

Library code raises `PipkeeperError("a sentence for the user")` for anything
the user can fix (a missing file, no board found, a bad option); `cli.main`
prints it as `pipkeeper: message` on stderr and exits 1. Anything else that
escapes is a bug and keeps its traceback.
"""


class PipkeeperError(Exception):
    """A failure to report to the user in one line, then exit non-zero."""

    exit_code = 1

    def __init__(self, message, exit_code=None):
        super().__init__(message)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code

    def __str__(self):
        return self.message


def the_one(found, nothing, several):
    """The one thing in the list `found` (a board's port, a BOOTSEL drive);
    PipkeeperError saying `nothing` when there is none, `several` when
    there are more (the user must name one)."""
    if not found:
        raise PipkeeperError(nothing)
    if len(found) > 1:
        raise PipkeeperError(several)
    return found[0]
