"""The picture on the panel, kept so that an update drives only the pixels
that change, and the rule of the full refresh inside a round (issue 33).

Why: the UC8151's fast waveform used to drive every pixel towards its
colour at every press, changed or not, and a pixel that stayed black all
evening took the same direction of DC at every press: burn-in. A panel
told the old picture (DTM1) and the new (DTM2) drives each pixel by its
transition, and the waveform (firmware/waveform.py) leaves the pixels that
keep their colour undriven. For that the board must know what the panel
shows; where it does not, the update is a full refresh, whatever was asked.

- While the board is up (on USB, awake during a game on battery, a Pico
  build in DORMANT), the panel shows the last picture drawn: kept here
  (``old``, 4,736 bytes) and given to the board's update as the old one.
  Where the heap runs short (firmware/heap.py lets go of what can be had
  again; a fault sheds the heap) it is let go of too (``drop``): the next
  update is a full refresh.
- A cold boot (a battery board that cut its own power: the set-up's
  screens, History, the game's end, the idle time-out's resting screen)
  knows it from the resting mark, /pipkeeper/rest: the CRC-32 of the
  picture left on the panel and the erased count below, written just
  before the board cuts its power (``rest``). The boot draws the screen of
  the UI it restored (saved after that picture's update) and takes it as
  the old picture only if its CRC is the mark's (``recall``). Re-drawn
  rather than kept in flash: the picture's 4,736 bytes written at every
  power-off would cost two 4 KB erases (~100 ms of flash, and wear) on
  every halt; drawing it costs the cold boot the screen's drawing, which
  it mostly pays anyway for the press (docs/PERFORMANCE.md has both).
- The mark is removed before the next refresh starts (``update``; every
  boot tries, whatever it found): a power cut from then on leaves no mark,
  so the next boot knows no old picture and makes a full refresh. A cut
  never leaves a mark that is not the panel's picture
  (docs/POWERCUTS.md; ``pipkeeper bench powercut`` checks every frame).

The full refresh stays at round boundaries and on screens that change
everything (firmware/core.py ``full_refresh``). Inside a round it comes
when the pixels the fast updates turned from black to white since the last
full refresh reach ``ERASED_LIMIT``: an erased pixel is where a fast
waveform leaves its ghost (meshtastic's e-ink driver counts the same,
firmware PR #3256). 50,000 is about 1.3 screens: antirez found 50 fast
updates between full ones right for his no-flicker mode on the Badger
2040, and a fast update inside a round of the scripted game erases 1,033
pixels (median). A press that redraws much counts for more than a cursor
that moves. The players' setting "fast" (`pipkeeper roster --option
refresh=fast`, the set-up's options; "clean" by default) leaves out the
full refresh inside a round altogether: ghosting cannot be judged on an
emulator, and that choice is theirs.
"""

try:
    from binascii import crc32
except ImportError:  # CPython
    from zlib import crc32

import os

from firmware.board import BUF_SIZE

REST = "rest"               # /pipkeeper/rest: the resting picture's mark
ERASED_LIMIT = 50000        # erased pixels since the last full refresh


def _erased_py(old, new):
    n = 0
    for i in range(len(old)):
        v = old[i] & ~new[i] & 0xFF
        while v:
            v &= v - 1
            n += 1
    return n


try:
    import micropython

    @micropython.viper
    def _erased_viper(old: ptr8, new: ptr8, size: int) -> int:
        # ink (1) in the old picture, paper (0) in the new: about 1 ms a
        # frame on the RP2040
        n = 0
        for i in range(size):
            v = old[i] & (new[i] ^ 0xFF)
            while v:
                v &= v - 1
                n += 1
        return n

    def erased(old, new):
        """Pixels inked in ``old`` and not in ``new`` (MONO_HLSB, 1 = ink)."""
        return _erased_viper(old, new, len(old))
except Exception:  # CPython, or a port built without the native emitters
    erased = _erased_py


class _InFile:
    """The picture kept in a file instead of the heap, where the board names
    one (``Board.picture_file``: the unix-port sim's folder; the tests' own
    boards). Why: the unix
    port's 160 KB of 64-bit objects is the tests' tight stand-in for the
    board's heap, not the board's (241 KB free at start on the stock image,
    104 KB live after a late press), and the 4,736 bytes are the board's by
    design, measured where they are spent: on the emulated RP2040 (bench
    device, tests/device). The decisions (known or not, the erased count,
    the CRC) are the same either way, so the sim's frames stay the
    board's."""

    def __init__(self, path):
        self.path = path
        self.chunk = bytearray(128)

    def keep(self, buf):
        with open(self.path, "wb") as f:
            f.write(buf)

    def _chunks(self):
        with open(self.path, "rb") as f:
            at = 0
            while True:
                n = f.readinto(self.chunk)
                if not n:
                    return
                yield at, memoryview(self.chunk)[:n]
                at += n

    def count(self, buf):
        mv = memoryview(buf)
        return sum(erased(c, mv[at:at + len(c)]) for at, c in self._chunks())

    def crc(self):
        c = 0
        for _at, chunk in self._chunks():
            c = crc32(chunk, c)
        return c & 0xFFFFFFFF


def _keep(old, buf):
    if isinstance(old, _InFile):
        old.keep(buf)
    else:
        old[:] = buf


def _count(old, buf):
    return old.count(buf) if isinstance(old, _InFile) else erased(old, buf)


def _crc(old):
    return old.crc() if isinstance(old, _InFile) else crc32(old) & 0xFFFFFFFF


class Picture:
    def __init__(self, store, heap, in_file=None):
        self.store = store
        self.heap = heap        # firmware/heap.py: room for the picture's block
        self.in_file = in_file  # a file to keep the picture in, not the heap (_InFile)
        self.old = None         # the picture the panel shows (while ``known``), or None
        self.known = False
        self.erased = 0         # pixels erased by fast updates since the last full refresh
        self.fast = None        # the players' setting (settings.json "refresh"), read when needed
        # A resting mark on flash: the first refresh removes it whatever
        # this boot does with it. The block for its picture is taken only
        # once the restore is done (``recall``): taken first, its 4,736
        # bytes were more than the own image's late boot could spare at its
        # heap aim (tests/device/test_heap.py), and the boot showed an error
        # where a full refresh does.
        self.mark = None
        try:
            with open(self._path()) as f:
                self.mark = f.read()
        except OSError:
            pass
        self.marked = self.mark is not None

    def _block(self, n):
        if self.in_file:
            return _InFile(self.in_file)
        return bytearray(n)

    def _path(self):
        return self.store.path("pipkeeper", REST)

    def recall(self, app):
        """A cold boot from a press, before the press: the picture the board
        left on the panel, drawn again from the UI restored, if its mark
        says it is the one (``app`` draws it into its framebuffer)."""
        if self.mark is None or app.stale or app.ui.get("s") == "err":
            return
        try:
            crc, count = [int(x) for x in self.mark.split()]
            app.roomy(app.draw)
            if crc32(app.buf) & 0xFFFFFFFF != crc:
                return
            if self.old is None:
                self.old = self._block(BUF_SIZE)    # (no room: a full refresh)
        except Exception:
            return
        if self.old is not None:
            _keep(self.old, app.buf)
            self.known = True
            self.erased = count

    def update(self, board, buf, full):
        """The board's update of ``buf``: fast only where the old picture is
        known and the erased count allows it. Returns None once the panel
        took the frame, else the exception of its second try."""
        old = self.old if self.known else None
        count = 0
        if old is None:
            full = True
        elif not full:
            count = _count(old, buf)
            if self.erased + count >= ERASED_LIMIT and not self._fast():
                full = True
        if self.marked:
            self.marked = False
            try:
                os.remove(self._path())
            except OSError:
                pass        # (none there)
        self.known = False  # until the update is over: a fault in it leaves the panel unknown
        failed = None
        for again in (False, True):
            try:
                board.update(buf, full, None if again else old)
                failed = None
                break
            except Exception as e:
                # Once more, full, after a collection (a BUSY line missed
                # once, a fragmented heap); a second failure goes back to
                # the app, which shows its error screen: never only logged,
                # or the players would answer the screen before, and the
                # next press would act on a screen they never saw (issue 32).
                failed = e
                full = True
                import gc
                gc.collect()
        if failed is not None:
            return failed
        self.erased = 0 if full else self.erased + count
        if self.old is None:
            try:
                self.old = self.heap.roomy(self._block, len(buf))
            except MemoryError:
                return None     # (the next update will be a full one)
        _keep(self.old, buf)
        self.known = True
        return None

    def drop(self):
        """Let go of the picture kept (the heap needs its 4,736 bytes: a
        drawing or a restore ran out, a fault): the next update is a full
        refresh, as after a power cut."""
        self.old = None
        self.known = False

    def rest(self, board):
        """The board is about to cut its power: note the picture it leaves."""
        cuts = getattr(board, "cuts_power", None)    # (a board of the tests' own may have none)
        if not self.known or cuts is None or not cuts():
            return
        try:
            with open(self._path(), "w") as f:
                f.write("%d %d" % (_crc(self.old), self.erased))
            self.marked = True
        except OSError:
            pass

    def _fast(self):
        if self.fast is None:
            try:
                self.fast = (self.store.read_json("settings.json") or {}).get("refresh") == "fast"
            except Exception:
                self.fast = False
        return self.fast
