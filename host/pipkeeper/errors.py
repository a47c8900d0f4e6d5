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
