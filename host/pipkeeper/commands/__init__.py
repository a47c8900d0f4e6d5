"""One module per subcommand; each exposes a click command named `command`.

Add a new one to `COMMANDS` in `pipkeeper/cli.py`.
"""
