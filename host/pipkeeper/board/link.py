"""Talking to a board over its USB serial: mpremote's transport, plus bulk I/O.

We reuse `mpremote.transport_serial.SerialTransport` to open the port and for
the raw-paste protocol (the board compiles what we send, flow-controlled by
its own window), rather than writing another raw-REPL client. Two things we do
ourselves, and why:

* Entering the raw REPL. mpremote's `enter_raw_repl` prints to stdout, waits
  10 s, and cannot recover a board left half-way through a raw paste by a
  pulled cable. Ours ends such a paste (Ctrl-C), skips whatever an
  interrupted session left in the pipe, tries again while the board answers
  like MicroPython (a board still busy after a Ctrl-C), and otherwise fails
  in ~4 s with one sentence.
* Reading output. `follow()` reads one byte per call; a game backlog arrives
  as large base64 lines that we read in blocks and hand over line by line as
  they come, so transfers stream and progress can be shown.

Every failure is a `PipkeeperError` with one line for the user: no board, a
busy port, no permission, not MicroPython, a lost link (`LinkLost`), an error
raised on the board (`BoardError`).
"""

import ast
import errno
import os
import time
from contextlib import contextmanager

from pipkeeper.board import ports
from pipkeeper.errors import PipkeeperError

BANNER = b"raw REPL; CTRL-B to exit\r\n>"

# How long to wait for the raw REPL before deciding the device is not a
# MicroPython board. A board busy in a long loop answers Ctrl-C at once.
# $PIPKEEPER_ENTER_TIMEOUT stretches it for a board slower than real time
# (the emulated RP2040 runs at about a third of it).
ENTER_TIMEOUT = float(os.environ.get("PIPKEEPER_ENTER_TIMEOUT") or 4.0)
# A device that answers like MicroPython (these words) but not yet with the
# raw REPL gets RECOVER times as long: a board still busy with what the last
# session (cut short by Ctrl-C) left it doing, or booting after its reset.
RECOVER = 3
_ALIVE = (b">>> ", b"raw REPL", b"Traceback", b"KeyboardInterrupt", b"MicroPython", b"soft reboot")


class LinkLost(PipkeeperError):
    """The serial link broke mid-conversation (cable pulled, board reset)."""


class BoardError(PipkeeperError):
    """Code we ran on the board raised; `.detail` holds its traceback."""

    def __init__(self, message, detail=""):
        super().__init__(message)
        self.detail = detail


class CountingSerial:
    """A pyserial port that counts the bytes on the wire both ways.

    The benchmarks report wire bytes, and the tests cut the link at a given
    byte; counting at this one choke point covers mpremote's writes too.
    """

    def __init__(self, ser):
        self._ser = ser
        self.bytes_in = 0
        self.bytes_out = 0

    def read(self, size=1):
        data = self._ser.read(size)
        self.bytes_in += len(data)
        return data

    def write(self, data):
        n = self._ser.write(data)
        self.bytes_out += len(data)
        return n

    def __getattr__(self, name):
        return getattr(self._ser, name)


class BoardInfo:
    """What a board says about itself; `mpy_*` decode `sys.implementation._mpy`.

    `_mpy` packs the .mpy version in bits 0-7, the sub-version in bits 8-9
    and the native architecture in bits 10+ (MicroPython docs, "MicroPython
    .mpy files"); 0 arch means the build has no native emitter.
    """

    ARCHS = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em",
             "armv7emsp", "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")

    def __init__(self, platform, version, mpy, uid, flash_total, flash_free, space=None):
        self.platform = platform
        self.version = tuple(version)
        self.mpy = mpy
        self.uid = uid
        self.flash_total = flash_total
        self._free = flash_free
        self._space = space     # () -> (total, free): the simulated board's, worked out when asked

    @property
    def flash_free(self):
        """The flash's free bytes; a simulated board's (-1 in its answer:
        its statvfs is the laptop's disk) worked out on the first asking,
        as a board's LittleFS would hold its files (Link.flash_space)."""
        if self._free is not None and self._free < 0 and self._space is not None:
            self.flash_total, self._free = self._space()
        return self._free

    @property
    def mpy_version(self):
        return self.mpy & 0xFF

    @property
    def mpy_sub(self):
        return (self.mpy >> 8) & 3

    @property
    def arch(self):
        index = self.mpy >> 10
        return self.ARCHS[index] if 0 <= index < len(self.ARCHS) else None

    @property
    def is_virtual(self):
        """The unix port (the sim): no reset to run main.py, no unique id."""
        return self.platform in ("linux", "darwin")

    @property
    def board_id(self):
        """The key the library files this board's games under: its unique
        id; a simulated board's (its own since each sim's folder keeps one)
        as "sim-<id>", so that the library tells sim games from a board's
        (pipkeeper.library.store.is_simulated)."""
        if self.is_virtual:
            return "sim-" + self.uid if self.uid else "virtual"
        return self.uid or self.platform

    def version_text(self):
        return ".".join(str(v) for v in self.version[:3])


# The scorer's modules let go of: from sys.modules, and from the REPL's
# globals, where main.py's ``from firmware import app`` (and an import run
# over the link, such as flash's check) left names that held them all.
DROP_SCORER = """for k in[k for k in sys.modules if k.split('.')[0]in('firmware','shared_engine','hardware','pkbundle')]:del sys.modules[k]
for k in[k for k,v in globals().items()if type(v)is type(sys)and v.__name__.split('.')[0]in('firmware','shared_engine','hardware','pkbundle')]:del globals()[k]
gc.collect()
"""

# Opens each session: the scorer interrupted by Ctrl-C lets go of its
# modules and its game (a board restarts it after the session) so that the
# link's own code finds room on its heap; then /lib/pklink.mpy if it is
# there and current.
_PRELUDE = """import sys,gc
""" + DROP_SCORER + """if'/lib'not in sys.path:sys.path.append('/lib')
try:from pklink import *
except Exception:V=0
print(V)
if V=={v}:I()
"""


class Link:
    """A raw-REPL session with one board. Use `connect()` to get one."""

    def __init__(self, transport, port):
        self.transport = transport
        self.port = port
        self.serial = transport.serial  # the CountingSerial
        self._info = None
        self.helper_pasted = False  # pklink's text was sent (not on the board)
        self.closed = False         # the port was let go (bootloader)

    # -- wire accounting -------------------------------------------------
    @property
    def wire_bytes(self):
        return self.serial.bytes_in + self.serial.bytes_out

    # -- entering the raw REPL -------------------------------------------
    def enter(self, timeout=None):
        """Interrupt whatever runs and stop at the raw REPL's '>' prompt.

        Each attempt: Ctrl-C twice (it stops running code, and ends a raw
        paste a pulled cable left half sent: pyexec's reader takes it as
        the end), what the board still sends drained, then Ctrl-A and its
        banner. Never Ctrl-D, which once ended a cut paste here: a board
        that was slow to answer the first attempt is at its friendly REPL by
        the second, and there Ctrl-D is a soft reset (on the unix port, the
        process's end, and queued on a tty, an end of input that ends the
        next REPL too): the board we are reaching for starts again, and is
        busy again when the next attempt comes. A device that answers like
        MicroPython, but not yet with the banner (busy, or booting after
        the last session), is given up to RECOVER times ``timeout``; one
        that says nothing of the kind, ``timeout``.
        """
        timeout = ENTER_TIMEOUT if timeout is None else timeout   # (read now: a bench may stretch it)
        start = time.monotonic()
        deadline = start + timeout
        self._heard = b""
        attempt = 0
        while time.monotonic() < deadline:
            self._write(b"\r\x03\x03")
            self._read_quiet(0.05, min(deadline, time.monotonic() + 0.5))
            self._write(b"\r\x01")
            if self._await_banner(min(deadline, time.monotonic() + 1.0 + attempt)):
                return
            attempt += 1
            if any(m in self._heard for m in _ALIVE):
                deadline = max(deadline, start + RECOVER * timeout)
        raise PipkeeperError(
            "the device on {} does not answer like MicroPython (no raw REPL); "
            "is MicroPython installed? (see README: putting MicroPython on a board)".format(self.port))

    def soft_reset(self, timeout=ENTER_TIMEOUT):
        """A soft reset from the raw REPL, back at its prompt: a fresh heap,
        boot.py run, main.py not (a board runs it only for its friendly
        REPL), as mpremote's ``soft-reset`` does. For work that needs the
        board's whole heap (``pipkeeper test --board``): the scorer the
        interrupt stopped still held a game's interned names, scattered over
        the heap, and a test file found no block for the table of names
        (issue 22). The sim starts a fresh process into the raw REPL. The
        board's helper is gone with its heap: ``info`` pastes it again."""
        self._write(b"\x04")
        self._read_until(b"soft reboot\r\n", timeout)
        self._read_until(BANNER, timeout)
        self._info = None

    def _hear(self, chunk):
        self._heard = (self._heard + chunk)[-4096:]
        return chunk

    def _await_banner(self, until):
        seen = b""
        while time.monotonic() < until:
            chunk = self._hear(self._read_some(until))
            if not chunk:
                continue
            seen = (seen + chunk)[-4096:]
            if seen.endswith(BANNER):
                # An interrupted session may have left an older banner in the
                # pipe: only the last one, followed by silence, is ours.
                time.sleep(0.02)
                if not self._waiting():
                    return True
        return False

    def _read_quiet(self, quiet, deadline):
        """Discard input until the line has been silent for `quiet` seconds
        (or `deadline` passes: a board still streaming is interrupted again)."""
        last = time.monotonic()
        while time.monotonic() - last < quiet and time.monotonic() < deadline:
            if self._waiting():
                self._hear(self._read_some(deadline))
                last = time.monotonic()
            else:
                time.sleep(0.005)

    # -- low-level I/O with one error for a broken link ------------------
    def _write(self, data):
        try:
            self.serial.write(data)
        except (OSError, Exception) as exc:  # pyserial raises SerialException
            raise self._lost(exc) from None

    def _waiting(self):
        try:
            return self.serial.in_waiting
        except (OSError, Exception) as exc:
            raise self._lost(exc) from None

    def _read_some(self, until):
        """Whatever is waiting (at least one byte unless `until` passes)."""
        ser = self.serial
        try:
            n = ser.in_waiting
            if n:
                return ser.read(n)
            if time.monotonic() >= until:
                return b""
            return ser.read(1)  # blocks at most ser.timeout
        except (OSError, Exception) as exc:
            raise self._lost(exc) from None

    def _lost(self, exc):
        return LinkLost("the link to the board on {} was lost ({}); "
                        "connect it and run the command again to resume".format(self.port, _short(exc)))

    # -- running code ------------------------------------------------------
    def start(self, code):
        """Send `code` with mpremote's raw paste; the board starts running it."""
        if isinstance(code, str):
            code = code.encode()
        self._write(b"\x05A\x01")
        reply = self._read_exact(2, 5.0)
        try:
            if reply == b"R\x01":
                self.transport.raw_paste_write(code)
                return
        except PipkeeperError:
            raise
        except Exception as exc:
            raise self._lost(exc) from None
        # An old firmware without raw paste: plain raw REPL, as mpremote does.
        if reply == b"R\x00":
            pass
        else:
            self._read_until(b"w REPL; CTRL-B to exit\r\n>", 5.0)
        for i in range(0, len(code), 256):
            self._write(code[i:i + 256])
            time.sleep(0.01)
        self._write(b"\x04")
        if self._read_exact(2, 5.0) != b"OK":
            raise BoardError("the board did not accept the code we sent")

    def _read_exact(self, n, timeout):
        """Exactly `n` bytes: the raw-paste handshake must not eat the window size."""
        until = time.monotonic() + timeout
        data = b""
        while len(data) < n:
            if time.monotonic() >= until:
                raise LinkLost("the board on {} stopped answering; run the command again".format(self.port))
            try:
                data += self.serial.read(n - len(data))
            except (OSError, Exception) as exc:
                raise self._lost(exc) from None
        return data

    def _read_until(self, ending, timeout):
        until = time.monotonic() + timeout
        data = b""
        while not data.endswith(ending):
            if time.monotonic() >= until:
                raise LinkLost("the board on {} stopped answering; run the command again".format(self.port))
            data += self._read_byte(until)
        return data

    def _read_byte(self, until):
        try:
            return self.serial.read(1)
        except (OSError, Exception) as exc:
            raise self._lost(exc) from None

    def stream(self, code, on_line=None, timeout=10.0):
        """Run `code`; call `on_line(line)` for each line it prints, as it arrives.

        Returns the output when no `on_line` is given. `timeout` is the
        longest silence tolerated. Ends after the raw REPL's closing
        `\\x04 err \\x04 >`; a traceback becomes a `BoardError` naming its
        last line.
        """
        self.start(code)
        lines = [] if on_line is None else None
        sink = lines.append if on_line is None else on_line
        pending = b""
        err = None
        quiet_until = time.monotonic() + timeout
        while True:
            chunk = self._read_some(quiet_until)
            if not chunk:
                if time.monotonic() >= quiet_until:
                    raise LinkLost("the board on {} stopped answering (no output for {:.0f} s); "
                                   "run the command again".format(self.port, timeout))
                continue
            quiet_until = time.monotonic() + timeout
            pending += chunk
            if err is None:
                end = pending.find(b"\x04")
                body = pending if end < 0 else pending[:end]
                parts = body.split(b"\n")
                if end < 0:
                    pending = parts.pop()
                else:
                    tail = parts.pop()
                    if tail:
                        parts.append(tail)
                    pending = pending[end + 1:]
                    err = b""
                for line in parts:
                    sink(line.rstrip(b"\r"))
            if err is not None:
                end = pending.find(b"\x04")
                if end < 0:
                    continue
                err = pending[:end]
                rest = pending[end + 1:]
                if not rest.endswith(b">"):
                    rest += self._read_exact(1, 5.0)
                break
        if err:
            text = err.decode("utf-8", "replace").strip()
            last = text.splitlines()[-1] if text else "error"
            raise BoardError("the board raised {}".format(last), text)
        if lines is not None:
            return b"\n".join(lines) + (b"\n" if lines else b"")
        return None

    def exec(self, code, timeout=10.0):
        """Run `code`; return its printed output (bytes)."""
        return self.stream(code, timeout=timeout)

    def eval(self, expr, timeout=10.0):
        """The value of a Python literal the board prints with repr()."""
        out = self.exec("print(repr({}))".format(expr), timeout=timeout)
        return ast.literal_eval(out.decode().strip())

    def literal(self, code, timeout=10.0):
        """Run `code`, which prints one repr(); return that value."""
        out = self.exec(code, timeout=timeout)
        return ast.literal_eval(out.decode().strip())

    def info(self):
        """The board's BoardInfo; also makes pklink's functions callable."""
        if self._info is None:
            from pipkeeper.board import onboard

            version = onboard.HELPER_VERSION
            out = self.exec(_PRELUDE.format(v=version)).decode("ascii", "replace").split("\n")
            if out[0].strip() != str(version):
                self.helper_pasted = True
                out = ["", self.exec(onboard.compact(onboard.source()) + "I()\n").decode("ascii", "replace")]
            try:
                self._info = BoardInfo(*ast.literal_eval(out[1].strip()), space=self.flash_space)
            except (ValueError, SyntaxError, TypeError, IndexError):
                raise PipkeeperError("the board on {} gave a garbled answer; try again".format(self.port))
        return self._info

    def flash_space(self):
        """(total, free) bytes of the board's flash, as of now: a board's own
        statvfs (pklink's S()); for the simulated board, whose flash is a
        folder of the laptop, what a Badger 2040's LittleFS would hold of
        its files (pklink's W(), pipkeeper.board.flashfs.space)."""
        if not self.info().is_virtual:
            return tuple(self.literal("print(repr(S()))"))
        from pipkeeper.board import flashfs

        entries = []
        for line in self.exec("W()", timeout=30).decode("utf-8", "replace").splitlines():
            size, _, path = line.strip().partition(" ")
            try:
                entries.append((int(size), ast.literal_eval(path)))
            except (ValueError, SyntaxError):
                raise PipkeeperError("the board's file list was garbled; try again")
        return flashfs.space(entries)

    def bootloader(self):
        """Reboot the board into its boot ROM's USB drive (BOOTSEL mode,
        ``machine.bootloader()``), and let go of the port, which goes away
        with the board's USB serial."""
        self.start("import machine\nmachine.bootloader()")
        time.sleep(0.2)
        try:
            self.transport.close()
        except Exception:
            pass
        self.closed = True

    def close(self, run_main=True):
        """Leave the raw REPL; on a real board restart main.py (a soft reset).

        The session's prelude took the scorer apart (its modules dropped),
        and a board left at its REPL takes no press until someone resets it:
        so every session ends with the reset, a read-only one too
        (`flash --dry-run`, `roster` with nothing to set). ``run_main`` False
        is for a caller that powers the board off next. The sim's unix port
        has no soft reset (Ctrl-D would end it), so we never send one there:
        the sim resets it when the host lets go of the port.
        """
        if self.closed:
            return
        try:
            self.serial.write(b"\r\x02")
            if run_main and self._info is not None and not self._info.is_virtual:
                self.serial.write(b"\x04")
        except Exception:
            pass
        try:
            self.transport.close()
        except Exception:
            pass


def _short(exc):
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0][:120]


def open_transport(port):
    """mpremote's SerialTransport on `port`, or a one-line reason why not."""
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport

    if not os.path.exists(port) and port.startswith("/"):
        raise PipkeeperError("no board at {} (nothing is plugged in there)".format(port))
    try:
        transport = SerialTransport(port, baudrate=115200, timeout=0.5)
    except TransportError:
        raise PipkeeperError(_why_unopenable(port)) from None
    transport.serial = CountingSerial(transport.serial)
    return transport


def _why_unopenable(port):
    """Open it once more ourselves to learn why mpremote could not."""
    import serial

    try:
        s = serial.Serial(port, exclusive=True)
        s.close()
    except Exception as exc:
        text = str(exc)
        err = getattr(exc, "errno", None)
        if "exclusively lock" in text or err in (errno.EBUSY, errno.EAGAIN) or "busy" in text.lower():
            return ("{} is busy: another program has it open "
                    "(a serial monitor, Thonny, mpremote, another pipkeeper); close it and try again".format(port))
        if err == errno.EACCES or "ermission denied" in text:
            return ("no permission to open {} (on Linux: add yourself to the 'dialout' group, "
                    "then log in again)".format(port))
        if err == errno.ENOENT or "No such file" in text:
            return "no board at {} (nothing is plugged in there)".format(port)
        return "cannot open {}: {}".format(port, _short(exc))
    return "cannot open {} (it was busy a moment ago); try again".format(port)


@contextmanager
def connect(port=None, run_main=True):
    """A `Link` in the raw REPL on `port` (found by USB id when None).

    Always leaves the raw REPL and closes the port, whatever happens; a
    real board is then reset into the scorer (`Link.close`).
    """
    port = ports.find_port(port)
    transport = open_transport(port)
    link = Link(transport, port)
    try:
        link.enter()
        yield link
    finally:
        link.close(run_main=run_main)
