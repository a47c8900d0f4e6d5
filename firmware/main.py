# The board's entry point. `pipkeeper flash` copies this file to the board's
# root as main.py (on a bare board) or wraps it as a Badger OS app. The
# scorer's modules come from one file mounted at /pk (firmware/bundle.py);
# without it they are plain files in /lib.
try:
    import pkbundle
    pkbundle.mount()
except ImportError:
    pass
from firmware import app

app.main()
