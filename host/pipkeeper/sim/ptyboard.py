"""A bare virtual board: the MicroPython unix port behind a pseudo-terminal.

`pipkeeper sim --serial` serves the real firmware this way; this module is the
same link without the firmware, for the transfer benchmarks and the host tests
(which need a board to flash and sync against, not the game running on it).
Like the sim, the unix port remounts its root at DIR, so the board's
`/games/` is `DIR/games/`, and it answers mpremote's raw REPL on the pty.

The pty is put in the state a USB serial port has: no echo, and Ctrl-C still
interrupts a running program (the unix port turns it into KeyboardInterrupt).
"""

import os
import pty
import subprocess
import termios

from pipkeeper.closing import Closing
from pipkeeper.paths import micropython_binary

# The unix port's root becomes DIR (see mp/flashdir.py for why not VfsPosix(DIR)).
_BOOT = "import sys;sys.path.insert(0,{mp!r});import flashdir;sys.path.pop(0);flashdir.mount({root!r})"
_MP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mp")


def _quiet(fd):
    """No echo on the slave side: the host must not read its own bytes back."""
    attrs = termios.tcgetattr(fd)
    attrs[3] &= ~(termios.ECHO | termios.ECHONL)
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


class PtyBoard(Closing):
    """`micropython -i` on the master end of a pty; `.port` is the slave's path.

    The host opens `.port` like any serial port (pyserial puts it in raw
    mode, so bytes pass unchanged both ways). We keep a slave descriptor open
    ourselves: when the last one closes, the master reads EIO and the board
    process would exit, whereas a real board outlives its cable.
    """

    def __init__(self, root):
        self.root = os.path.abspath(root)
        os.makedirs(self.root, exist_ok=True)
        master, slave = pty.openpty()
        _quiet(slave)
        self._master = master
        self._slave = slave
        self.port = os.ttyname(slave)
        self.proc = subprocess.Popen(
            [micropython_binary(), "-i", "-c", _BOOT.format(mp=_MP, root=self.root)],
            stdin=master, stdout=master, stderr=master,
            close_fds=True, start_new_session=True,
        )
        os.close(master)  # the child has it; our copy would only delay EOF

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        try:
            os.close(self._slave)
        except OSError:
            pass
