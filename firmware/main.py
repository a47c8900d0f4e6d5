# The board's entry point. `pipkeeper flash` copies this file to the board's
# root as main.py (on a bare board) or wraps it as a Badger OS app.
from firmware import app

app.main()
