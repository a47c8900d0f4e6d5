"""pipkeeper: the laptop side of the table-top domino scorer.

The command layer is `pipkeeper.cli`; the work is done by library modules
(`sheet`, and the serial, flash, sync and library modules) that the commands
call, so they can be used and tested without the CLI.
"""

__version__ = "0.1.0"
