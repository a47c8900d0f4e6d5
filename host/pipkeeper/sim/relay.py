"""The simulated boards' USB serial on a pty: the relay both boards share.

A host (mpremote, `pipkeeper flash`, `sync`) opens the slave end of a pty
as it would the board's port; a thread copies the bytes between the master
end and the board (the unix port's own terminal for `sim --serial`, the
emulated RP2040's USB socket for `sim --rp2040 --serial`) and watches them:
it notes when the board is in its REPL (a button press cannot reach the
scorer then) and when the host lets go of the port (a board left in its
REPL is then reset into the scorer, as a person presses reset after
flashing). The two boards differ only in how bytes reach the board and what
a reset is: the hooks below.

$PIPKEEPER_SIM_TRACE=FILE logs every byte both ways, with the time.
"""

import os
import select
import threading
import time

# What the board prints on entering its REPL: the friendly prompt, and the
# banner of the raw REPL that mpremote drives.
PROMPT = b">>> "
RAW_BANNER = b"raw REPL; CTRL-B to exit"


class PortRelay:
    """A port for the host on `host_fd` (a pty master), relayed to a board.

    Subclasses call `_init_relay(host_fd)` and implement `_board_fd()` (what
    to select on), `_read_board()` and `_write_board(data)`, `_host_left()`
    (the host closed the port), and may `_tick()` once a turn. A subclass
    that starts the board afresh (a reset) calls `_fresh()` once the new
    board is the one `_read_board()` reads: what the old one printed counts
    no more. `repl` is True once the board printed a REPL prompt, `raw` once
    that was the raw REPL's.
    """

    def _init_relay(self, host_fd):
        self.host_fd = host_fd
        self.repl = False
        self.raw = False
        self._seen = b""        # the board's last bytes, to find a prompt across reads
        self.stop = False
        self.t = None
        trace = os.environ.get("PIPKEEPER_SIM_TRACE")
        self._tr = open(trace, "a") if trace else None

    def _start_relay(self):
        self.t = threading.Thread(target=self._relay, daemon=True)
        self.t.start()

    def _stop_relay(self):
        self.stop = True
        if self.t is not None:
            self.t.join(timeout=2)

    def _trace(self, *what):
        if self._tr is not None:
            self._tr.write("%.3f %s\n" % (time.monotonic(), " ".join(repr(x) for x in what)))
            self._tr.flush()

    def _to_host(self, data):
        try:
            os.write(self.host_fd, data)
        except OSError:     # nobody has the port open: a board's bytes go nowhere
            pass

    def _tick(self):
        pass

    def _fresh(self):
        """The board started afresh, in its scorer: forget its REPL. (Why a
        reset must call this: the old board's last words, the banner that
        answers the host's closing Ctrl-B, may be read after the reset and
        would set `repl` again for good, with no host left to clear it.)"""
        self.repl = False
        self.raw = False
        self._seen = b""

    def _relay(self):
        connected = False
        while not self.stop:
            board = self._board_fd()
            try:
                r, _, _ = select.select([board, self.host_fd], [], [], 0.05)
            except (OSError, ValueError):
                return
            if board in r:
                data = self._read_board()
                if data:
                    self._trace("board>", data)
                    seen = self._seen = (self._seen + data)[-64:]
                    if PROMPT in seen or RAW_BANNER in seen:
                        self.repl = True
                    if RAW_BANNER in seen:
                        self.raw = True
                    self._to_host(data)
            if self.host_fd in r:
                try:
                    data = os.read(self.host_fd, 65536)
                    connected = True
                except OSError:
                    data = b""
                    if connected:       # the last host let go of the port
                        connected = False
                        self._trace("host closed the port", self.repl)
                        self._host_left()
                    time.sleep(0.05)
                if data:
                    self._trace("host>", data)
                    self._write_board(data)
            self._tick()
