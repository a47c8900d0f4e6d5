"""The app: buttons in, record lines and panel updates out.

    boot:  restore the game from flash (``restore``), and the UI state
    press: core.step -> an event is checked by the engine and applied; or
           only the UI moves -> one panel update; then, while the panel
           draws, the event's line is appended to the record (one line,
           open/append/close: App.commit) and the UI saved to
           /pipkeeper/ui.json
    halt:  on battery the board cuts its power here; the next press is a
           cold boot that starts again from ``boot``

Exactly one panel update per press (and one at a plain power-on): a fast one
for turn changes, a full refresh at round boundaries (core.full_refresh)
and where firmware/picture.py says (the old picture not known, the count
of erased pixels).

The UI state is tied to the record's size: a press that appends an event
leaves ui.json alone (it is then stale and the default screen for the new
state is shown), so such a press writes one line to one file and nothing
else; at round boundaries and every CP_EVERY events it also writes the
engine's checkpoint (see ``restore``). A press that only moves the UI
rewrites ui.json (atomically).

Faults: any exception in a press or a drawing is caught here, logged to
/log.txt (bounded) and shown on the error screen as a sentence for players
that says what to do (firmware/flows/error.py reads the kind of fault from
the exception's text kept in the UI state, so that this module, loaded on
every press, names nothing new); the next press dismisses it and the app
restores itself from flash and carries on.

The heap's bookkeeping (the reserve held for a large block, work run again
with more room, the modules let go of between presses, all shed before a
fault) is firmware/heap.py's; this module is the press.
"""

import gc
import sys

from firmware import core, heap
from firmware.board import BUF_SIZE, WIDTH, HEIGHT, IDLE
from firmware.picture import Picture
from firmware.storage import Storage

KEEP_ROUNDS = 2      # rounds of history the engine keeps for undo
HOME = "pipkeeper"
CHECKPOINT = "checkpoint"
CP_EVERY = 64        # events between checkpoints within a long round
CP_MIN_LINES = 24    # a shorter record is replayed rather than checkpointed


def restore(store):
    """The game in progress, from flash: (game, tracking, path), or
    (None, None, None) when there is none. The one place the app rebuilds its
    state: a torn last line is dropped first; then the checkpoint
    (/pipkeeper/checkpoint, shared_engine.checkpoint) plus the record's
    lines after it, or a full replay of the record when the checkpoint is
    missing, stale or corrupt (a fresh one is then written), so a boot
    costs about the same at round 13 as at round 1."""
    path = store.current()
    if path is None:
        return None, None, None
    store.repair(path)
    cpath = store.path(HOME, CHECKPOINT)
    with open(path, "rb") as f:
        try:
            cp = open(cpath, "rb")
        except OSError:
            cp = None
        try:
            game, tracking = resume(f, cp)
        finally:
            if cp is not None:
                cp.close()
    return game, tracking, path


def resume(f, cp):
    """(game, tracking) of the record open as ``f`` ("rb": a file, or the
    bytes of a new game's header), from the checkpoint open as ``cp`` or
    None (shared_engine.checkpoint.resume), with what the app keeps beside
    the game: its size, its language, where its checkpoint stands."""
    from shared_engine import checkpoint
    game, why = checkpoint.resume(f, cp, KEEP_ROUNDS)
    if why is None:
        game.cp_lines = game.lines - game.tail
        game.cp_due = False
    else:
        # A fresh checkpoint is due; the app writes it after the panel
        # update (App.checkpoint), when the heap has room again. Not for
        # a record of a few lines (a game just started): replaying them
        # costs less than the flash writes of a checkpoint.
        game.cp_lines = 0
        game.cp_due = game.lines > CP_MIN_LINES
    f.seek(0, 2)
    game.size = f.tell()
    f.seek(0)
    tracking, game.lang = read_tags(f)
    return game, tracking


def write_checkpoint(store, game, f, lines):
    """Save the engine's state for the record open as ``f`` (its whole
    length, ``lines`` lines), atomically."""
    from shared_engine import checkpoint
    f.seek(0, 2)
    length = f.tell()
    cpath = store.path(HOME, CHECKPOINT)
    tmp = cpath + ".new"
    with open(tmp, "w+b") as out:
        checkpoint.write(game, f, length, lines, out)
    import os
    os.rename(tmp, cpath)
    game.cp_lines = lines


def read_tags(f):
    """The record's ``[Tracking "..."]`` and ``[Lang "..."]`` tags ("quick"
    and "en" when it has none), from the record open as ``f`` ("rb"). The
    only tags a press needs: they are found in the header's bytes, without
    parsing the header into strings (each string costs the board a look-up
    among MicroPython's interned names, ~50 us)."""
    tracking = "quick"
    lang = "en"
    n = 0
    while n < _HEAD:
        # a line at a time: one block of _HEAD bytes found no room on a
        # scattered heap (issue 22), a header's line always does
        line = f.readline()
        if not line:
            break
        n += len(line)
        s = line.strip()
        if not s or s[0] == 59:           # ";": a comment
            continue
        if s[0] != 91:                    # not "[": the events begin
            break
        if s.startswith(b'[Tracking "'):
            j = s.find(b'"', 11)
            if j > 0:
                tracking = s[11:j].decode()
        elif s.startswith(b'[Lang "'):
            j = s.find(b'"', 7)
            if j > 0:
                lang = s[7:j].decode()
    return tracking, lang


_HEAD = 1024     # the header's bytes that can hold the tags (8 names of 16 letters)

# events after which a checkpoint is written: a round's start (then a boot
# replays at most the round so far), the game's end
_BOUNDARY = (1, 10)


def board_id():
    try:
        import machine
        import binascii
        return binascii.hexlify(machine.unique_id()).decode()[-4:]
    except Exception:
        return "sim0"


# Free heap, with the engine loaded, that the set-up's presses need beside
# the record's module too (ahead): a board has it (the Badger 2040 W some
# 90 KB); the unix port's 160 KB has 69 KB, and with dgn loaded ahead the
# players' page with names beyond ASCII ran out at 156 KB (issue 22).
AHEAD_ROOM = 80 * 1024

# On battery during a game the board stays up, asleep, for the next press;
# after IDLE_MIN minutes without one (settings.json "idle": the set-up's
# options page, `pipkeeper roster --option idle=N`; 0: at once) it cuts its
# power. These screens wait for no one: set-up, History, the end of a game,
# an error (App.awake_ms).
IDLE_MIN = 5
IDLE_MAX = 60        # minutes (one light sleep of the rp2 port is under 72)
_NO_WAIT = ("setup", "house", "hist", "end", "err")


class App:
    def __init__(self, board, reserve=heap.RESERVE):
        import framebuf
        self.board = board
        self.store = Storage(board.flash_root)
        self.buf = bytearray(BUF_SIZE)
        self.fb = framebuf.FrameBuffer(self.buf, WIDTH, HEIGHT, framebuf.MONO_HLSB)
        self.ctx = core.Ctx(store=self.store)
        self.path = None
        self.ui = {}
        self.stale = True      # the state must be (re)loaded from flash
        self.full = True       # the next update is a full refresh
        self.presses = 0
        self.applied = 0
        self.ui_dirty = False
        self.renders = 0       # panel updates since the boot
        self.screen = None     # the screen being drawn
        self.drew_with = ()    # the modules the last frame was drawn with (heap.tidy)
        self.lang = "en"       # the screens' language (load)
        self.idle = None       # the board's idle minutes, read when first needed (awake_ms)
        self.pending = None    # the record's writes of this press, made after its frame (commit)
        self.heap = heap.Heap(reserve, self._forget_drawn)
        self.picture = Picture(self.store, self.heap, getattr(board, "picture_file", None))

    def roomy(self, fn, *args):
        """``fn(*args)``, run again with more room if it runs out of memory
        (firmware/heap.py, ``Heap.roomy``)."""
        return self.heap.roomy(fn, *args)

    def _forget_drawn(self):
        self.drew_with = ()
        self.picture.drop()     # (4.7 KB: the next update is then a full one)

    # -- state -------------------------------------------------------------------

    def boot(self):
        try:
            self.roomy(self.load)
        except Exception as e:
            self.fault(e, "restore")

    def load(self):
        st = self.store
        self.stale = True
        self.ctx = core.Ctx(store=st, free=st.free_bytes())
        self.path = None
        self.ui = {}
        try:
            game, tracking, path = self.roomy(restore, st)
        except Exception as e:
            # (a RecordError comes from dgn, loaded then: never import it
            # here, on a heap that may just have run out, to ask)
            d = sys.modules.get("shared_engine.dgn")
            if d is None or not isinstance(e, d.RecordError):
                # A fault of this boot (out of memory, a flash error): the
                # game stays current; the error screen shows and the next
                # press tries again.
                raise
            # A record that does not replay is kept as it is (never deleted);
            # the board starts afresh and says why.
            self.log(e, "restore")
            bad = st.current()
            try:
                st.set_current("")    # start afresh; the record itself stays
            except OSError:
                pass
            self.stale = False
            ui = {"s": "err", "m": "%s does not replay: %s" % (bad, e), "w": "restore"}
            try:
                self.set_ui(ui)      # shown until a press, even across cold boots
            except Exception:
                self.ui = ui
            return
        self.adopt(game, tracking, path)

    def adopt(self, game, tracking, path):
        """Take ``game`` (the record at ``path``) as the game in progress,
        and the UI saved with it."""
        st = self.store
        heap.evict(heap.AFTER_RESTORE)
        # The restore's garbage out before the press allocates: without it the
        # press's modules land among the game's objects and the restore's
        # leftovers, and a block of MicroPython's table of names (640
        # entries, reported as "allocating 640 bytes") found no room on a
        # fragmented heap.
        gc.collect()
        if path is None:
            st.ensure_dirs()     # a fresh board: the first write needs them
        self.ctx.game = game
        self.ctx.tracking = tracking or "quick"
        # The language the screens speak (firmware.text.use, at the drawing):
        # the game's [Lang] tag, else the board's setting (settings.json
        # "lang", read only without a game).
        self.lang = game.lang if game is not None else (
            st.read_json("settings.json") or {}).get("lang", "en")
        self.path = path
        # ui.json: [ui, the record's path, its size] (a list: no keys to
        # parse); the UI is the record's only while the record is that size.
        saved = st.read_json("ui.json")
        if isinstance(saved, list) and len(saved) == 3 and (
                saved[1] == path and (path is None or saved[2] == game.size)):
            self.ui = saved[0] or {}
        self.stale = False

    def set_ui(self, ui):
        """Move the UI; /pipkeeper/ui.json is written after the panel update
        (``save_ui``): the write costs a press some 17 ms of flash."""
        if ui == self.ui:
            return
        self.ui = ui
        self.ui_dirty = True

    def save_ui(self):
        if not self.ui_dirty:
            return
        st = self.store
        st.write_json("ui.json", [self.ui, self.path, st.size(self.path) if self.path else -1])
        self.ui_dirty = False   # (after: ``roomy`` may run it again)

    def new_game(self, tags, last):
        # (loaded as apply loads it: with the reserve to let go, since the
        # set-up's screens may have left no block for the names' table)
        dgn = self.roomy(__import__, "shared_engine.dgn", None, None, ("x",))
        bid = board_id()
        date = None
        try:
            import time
            t = time.localtime()
            if t[0] >= 2024:
                date = "%04d-%02d-%02d" % (t[0], t[1], t[2])
        except Exception:
            pass

        def header(n):
            tg = list(tags) + [("Game", ["%s-%04d" % (bid, n)])]
            if date:
                tg.append(("Date", [date]))
            return "".join(dgn.lines(tg, ()))

        if self.store.free_bytes() < 8192:
            raise OSError(28)    # ENOSPC: the error screen says what to do
        lang = "en"
        for k, v in tags:
            if k == "Lang":
                lang = v[0]
        extra = {"last": last, "lang": lang}
        o = (last or {}).get("o") or {}
        for k in ("idle", "refresh"):   # settings of the board (awake_ms, picture.py), not rules of the game
            if k in o:
                extra[k] = o[k]
        self.idle = self.picture.fast = None
        plan = self.store.plan_game()
        text = header(plan[1]).encode()
        # The game left goes before the new one is restored: the press that
        # called this still holds the context, and with it that game (seven
        # players, four rounds: that press ran out of memory, issue 22). So
        # do the set-up's flow and screens, done with (18 KB of heap on the
        # unix port; the game's first screen loads its own), and the words
        # they held: a new game restores with the engine and the record's
        # module loaded, on the heap a cold boot's restore has.
        self.ctx.game = None
        self.drew_with = ()
        heap.evict(heap.SCREENS + heap.WORDS)
        gc.collect()
        self.ui = {}
        self.stale = True
        import io
        game, tracking = self.roomy(resume, io.BytesIO(text), None)
        # Its files are written once this press's frame has gone to the
        # panel (``commit``, from ``render``): the three of them, each made
        # atomically, with LittleFS's commits and now and then an erase,
        # cost the press some 100 ms before its frame; after it, they cost
        # nobody a wait (a full refresh takes 4.5 s). A power cut before
        # they are written loses this press only: the board comes back to
        # the set-up it was on.
        self.pending = ("new", header, extra, plan)
        self.adopt(game, tracking, plan[0])
        self.set_ui({})

    def commit(self):
        """This press's writes to the record, once its frame has gone to
        the panel (``render``): the event's line (``apply``), or the new
        game's files (``new_game``). Why after: a line's append is a
        LittleFS commit, and where it takes a block, an erase of 45 ms (two
        at times); the panel then draws while the flash is written, and a
        press's wait is its own work only. A power cut before the write
        loses that press, as a cut in the middle of it would have."""
        p = self.pending
        if p is None:
            return
        self.pending = None
        # Through ``roomy``: after the drawing the heap is at its fullest,
        # and opening a file takes a block for its cache (1,200 B on the
        # unix port's LittleFS). Both writes may run twice: an append
        # allocates only in its open, before a byte is written, and the new
        # game's files are each written whole under a name the plan fixed.
        if p[0] == "line":
            try:
                self.roomy(self.store.append, self.path, p[1])
            except Exception:
                self.stale = True     # the engine moved on but the record did not
                raise
        else:
            self.roomy(self.store.new_game, p[1], p[2], p[3])

    # -- a press -----------------------------------------------------------------

    def press(self, button):
        """One press: at most one record line, then exactly one update."""
        self.presses += 1
        before = None
        applied = False
        if self.renders:
            # (the error screen's modules are not kept: seldom shown twice)
            heap.tidy(self.drew_with if self.ui.get("s") != "err" else ())
            self.heap.hold()
        try:
            if self.ui.get("s") == "err":
                # The press that dismisses an error does only that.
                before = "err"
                if self.stale:
                    self.roomy(self.load)
                if self.ui.get("s") == "err":
                    self.set_ui({})
                self.render(True)
                return
            if self.stale:
                self.roomy(self.load)
            ctx = self.ctx
            before = core.kind(ctx, self.ui)
            ui, act = self.roomy(core.step, ctx, self.ui, button)
            if act is None:
                self.set_ui(ui)
            elif act[0] == "new":
                self.new_game(act[1], act[2])
            else:
                applied = self.apply(ui, act)
        except Exception as e:
            self.fault(e, "press %s" % button)
        full = self.full
        if not full:
            try:
                full = core.full_refresh(self.ctx, self.ui, before) or (
                    applied and self.ctx.game is not None and self.ctx.game.round is None)
            except Exception:
                full = True
        self.render(full)

    def apply(self, ui, ev):
        from shared_engine.engine import IllegalEvent
        ctx = self.ctx
        g = ctx.game
        if g is None:
            return False
        dgn = self.roomy(heap.engine_for, ev)   # (and the engine's helper for ev)
        try:
            g.apply(ev)
        except IllegalEvent as e:
            msg = e.args        # its message (shared_engine/messages.py)
            if len(msg) == 1:
                msg = (msg[0],) if isinstance(msg[0], str) else msg[0]
            k = core.kind(ctx, ui)
            f = core.flow(k)
            if hasattr(f, "refused"):
                u = f.refused(ctx, ui, msg)
            else:
                u = dict(self.ui)
                u["msg"] = ctx.words(msg)
            self.set_ui(u)
            return False
        self.pending = ("line", dgn.format_event(ev))     # to the record once the frame is sent (commit)
        self.applied += 1
        self.ui = {}
        g.lines = getattr(g, "lines", 0) + 1
        if ev[0] in _BOUNDARY or g.lines - getattr(g, "cp_lines", 0) >= CP_EVERY:
            # Round boundaries and every CP_EVERY events: a fresh checkpoint,
            # so that a cold boot replays at most a few dozen lines; written
            # after this press's panel update (App.checkpoint).
            g.cp_due = True
        return True

    def checkpoint(self):
        """Write the checkpoint if one is due: after the panel update, with
        this press's screen and flow modules dropped, so that the heap's
        peak is not a boot plus a checkpoint plus a screen. A failure here
        loses nothing (the record is whole): the next boot replays it in
        full and the checkpoint is due again."""
        g = self.ctx.game
        if g is None or not getattr(g, "cp_due", False) or self.path is None:
            return
        g.cp_due = False
        heap.evict()
        self.drew_with = ()
        gc.collect()
        try:
            # (roomy: written afresh to its .new file on a second try)
            self.roomy(self._write_checkpoint, g)
        except Exception as e:
            self.log(e, "checkpoint")
            try:
                import os
                os.remove(self.store.path(HOME, CHECKPOINT + ".new"))
            except OSError:
                pass
        gc.collect()

    def _write_checkpoint(self, g):
        with open(self.path, "rb") as f:
            write_checkpoint(self.store, g, f, g.lines)

    def ahead(self):
        """On USB, between presses, with no game yet (the set-up screens):
        import the engine, then the record's module if the heap has room
        (the 64-bit unix port's 160 KB has not), which the set-up never
        needs and the press that starts the game does. That press imported
        them itself, 430 ms against 100 for a press; the time between two
        presses costs nobody anything on USB power. A press that comes
        meanwhile is kept (firmware/presses.py: the edge is latched) and
        taken as soon as this is done. Never on battery, where every moment
        awake costs charge and the next press is a cold boot anyway."""
        if self.ctx.game is not None or self.stale:
            return
        try:
            # (with the reserve to let go: the next press holds it again)
            self.roomy(__import__, "shared_engine.engine")
            gc.collect()
            if gc.mem_free() >= AHEAD_ROOM:
                from shared_engine import dgn  # noqa: F401
        except MemoryError:
            gc.collect()        # the press loads what is missing, as before

    def awake_ms(self):
        """How long a board on battery stays up, asleep, waiting for the
        next press before it cuts its power: IDLE minutes while a game is in
        play on a screen its players answer, 0 (at once) on the screens that
        wait for no one. Why: a cold boot costs a press 150-500 ms and the
        charge of half a second at 25 mA; an hour asleep at 1 mA costs what
        some 300 cold boots do, so during a game staying up is cheap and every
        press fast, while a board left on its set-up, History or a finished
        game is off within a press (hardware/README.md's power budget)."""
        g = self.ctx.game
        if g is None or g.over or self.stale or core.kind(self.ctx, self.ui) in _NO_WAIT:
            return 0
        if self.idle is None:
            try:
                n = int((self.store.read_json("settings.json") or {}).get("idle", IDLE_MIN))
            except Exception:
                n = IDLE_MIN
            self.idle = min(max(n, 0), IDLE_MAX)
        return self.idle * 60000

    def rest(self):
        """The idle time-out: the power goes next. The e-ink keeps its last
        picture while the board is off, so that picture is the game's own
        screen for its state (whose turn, the score entry, the sheet), not a
        menu, a refusal or a half-made entry left open: drawn only where the
        UI is elsewhere, as one more update."""
        if not self.ui:
            return
        before = core.kind(self.ctx, self.ui)
        self.set_ui({})
        try:
            full = self.full or core.full_refresh(self.ctx, self.ui, before)
        except Exception:
            full = True
        self.render(full)

    # -- the screen ------------------------------------------------------------------

    def render(self, full=False):
        self.renders += 1
        self.screen = None
        self.drew_with = ()
        try:
            self.board.prepare()
        except Exception as e:
            self.log(e, "panel")
        try:
            self.roomy(self.draw)
        except Exception as e:
            name = self.screen
            where = "draw %s" % name if name else "draw"
            if self.ui.get("s") == "err":
                # The error screen itself did not draw: the fault it reports
                # is the one players must read (a full flash, say), not the
                # drawing's; this one goes to the log.
                self.shed()
                self.log(e, where)
            else:
                self.fault(e, where)
            full = True
            self.show_fault()
        try:
            from firmware import text
            text.release()
        except Exception:
            pass
        # None, or why the panel failed twice (firmware/picture.py)
        unseen = self.picture.update(self.board, self.buf, full)
        self.full = False
        try:
            self.commit()
        except Exception as e:
            # The frame shows what the flash does not hold: say so at
            # once, and the board goes on from the record as it is.
            self.fault(e, "record")
            self.render(True)
            return
        try:
            self.roomy(self.save_ui)    # (a write made whole under its name)
        except Exception as e:
            self.log(e, "ui")
        if unseen is not None and self.ui.get("w") != "panel":
            # Never silently: the next press would answer a screen not seen (issue 32)
            self.fault(unseen, "panel")
            return self.render(True)
        self.checkpoint()

    def draw(self):
        """This press's screen into the framebuffer (``screen``), in the set-up's language or the game's."""
        from firmware import text
        name, v = core.view(self.ctx, self.ui)
        text.use(v.get("lang") or self.lang, self.store.path(HOME, "names.bin"))
        self.screen = name
        mod = __import__("firmware.screens." + name, None, None, ("x",))
        mod.draw(v, self.fb)
        # The screen's module, its helpers (screens.ui: the only module the
        # screens share) and the flow that made the view: a closed set, so
        # that no module kept holds one evicted (which would be loaded twice).
        flow = "firmware.flows." + core._FLOWS[core.kind(self.ctx, self.ui)]
        # (and the helpers the flow imports where it uses them: DRAWS_WITH,
        # kept when the view loaded them, so the next frame does not load
        # them again)
        self.drew_with = (mod.__name__, "firmware.screens.ui", flow) + tuple(
            n for n in getattr(sys.modules.get(flow), "DRAWS_WITH", ()) if n in sys.modules)

    # -- faults ------------------------------------------------------------------------

    def log(self, e, where):
        try:
            import io
            s = io.StringIO()
            s.write("[%s] " % where)
            sys.print_exception(e, s)
            self.store.log(s.getvalue())
        except Exception:
            pass

    def show_fault(self):
        """The error screen for the fault recorded in ``self.ui``, drawn on
        the heap ``shed`` left: the players' sentence from flows/error.py
        (screens.error falls back to framebuf's own font by itself when the
        fonts fail). Short of memory even so, everything is let go once more
        and it is tried again; only when screens.error cannot be imported or
        fails are the lines here drawn: the sentence (or, without
        flows/error.py, the fault's own text), broken at spaces."""
        m = self.ui.get("m") or "error"
        for attempt in (0, 1):
            try:
                from firmware.flows.error import view
                m = view(None, self.ui, None)[1]["message"]
                from firmware.screens import error
                error.draw({"message": m}, self.fb)
                return
            except MemoryError:
                self.shed()
            except Exception:
                break
        fb = self.fb
        fb.fill(0)
        try:
            if not isinstance(m, str):      # the players' sentence, a message
                from shared_engine import fill
                m = fill(m)
            y = 2
            line = ""
            for word in m.split():
                if line and len(line) + 1 + len(word) > 36:
                    fb.text(line, 2, y, 1)
                    y += 10
                    line = ""
                line = (line + " " + word if line else word)[:36]
            fb.text(line, 2, y, 1)
        except MemoryError:
            # Not a byte left for the sentence's words: the fault's kind,
            # a constant, and the board goes on (a fault here ended the
            # board's loop, and the press after it found a dead board)
            fb.fill(0)
            fb.text("MemoryError", 2, 2, 1)

    def shed(self):
        """Let go of the game (``stale``: the next press restores it from
        flash, as a cold boot would) and of all the heap's bookkeeping lets
        go of for a fault (``Heap.shed``: the reserve, the screen, flow,
        text and engine modules, the fonts), so that the log and the error
        screen have room."""
        self.stale = True
        self.ctx.game = None
        self._forget_drawn()
        self.heap.shed()

    def fault(self, e, where):
        self.shed()
        self.log(e, where)
        msg = describe(e)
        ui = {"s": "err", "m": msg, "w": where}
        try:
            self.set_ui(ui)     # so that a cold boot shows it too
        except Exception:
            self.ui = ui


def describe(e):
    """An exception in words for the error screen: its type, and its message
    when it has one (a bare ``TypeError()`` has none)."""
    s = str(e)
    return "%s: %s" % (type(e).__name__, s) if s else type(e).__name__


def open_board():
    """The board this firmware runs on: the simulated board on the unix
    port; Pimoroni's ``badger2040`` module when the firmware has it and
    /board.txt names no other build; otherwise upstream MicroPython's
    ``machine`` with the project's panel drivers and the pins of the profile
    /board.txt names (``pipkeeper flash --board NAME``; else the build the
    scorer's own image was made for; default badger2040).

    Here, not in board.py: the board classes import board.py, so the choice
    among them lives above them and nothing imports it back (no circle); and
    not a module of its own, which every cold boot would pay to load."""
    from firmware.board import load_profile, read_setting
    if sys.platform in ("linux", "darwin"):
        from firmware.board_sim import SimBoard
        return SimBoard()
    choice = read_setting("/", "board.txt", "")
    if not choice:
        try:
            # the scorer's own image names the build it was made for
            from pkimage import BOARD as choice
        except ImportError:
            pass
    if choice in ("", "badger2040", "badger2040w"):
        try:
            import badger2040  # noqa: F401  (Pimoroni's build)
        except ImportError:
            pass
        else:
            from firmware.board_badger import BadgerBoard
            return BadgerBoard()
    from firmware.board_machine import MachineBoard
    return MachineBoard(load_profile(choice or "badger2040"))


def main(board=None, reserve=heap.RESERVE):
    """Run the scorer until the board has no more presses (the sim's end of
    input); on battery the board's halt() never returns. On battery during a
    game the board dozes instead (App.awake_ms: asleep, its power kept, until
    the next press or the time-out, then the resting screen and halt()).
    ``reserve``: the bytes App holds for a fragmented heap (0 on the
    scorer's own image)."""
    if board is None:
        board = open_board()
    app = App(board, reserve)
    app.boot()
    b = board.wake_button()
    if b is not None:
        # A cold boot from a press (on battery): the panel still shows the
        # last frame, so this press refreshes it as it would on USB (fast,
        # full only where core.full_refresh says so), from the picture
        # it left there (firmware/picture.py).
        app.full = False
        app.picture.recall(app)
        app.press(b)
    else:
        app.render(True)
    while True:
        if board.on_usb():
            app.ahead()
        board.idle()
        b = IDLE
        if board.dozes():
            try:
                ms = app.awake_ms()
                if ms:
                    b = board.wait_press(ms)
                    if b == IDLE:
                        app.rest()
            except Exception as e:
                # (the board cuts its power then, as before: never left up,
                # out of the loop, on its battery)
                app.log(e, "doze")
                b = IDLE
        if b == IDLE:
            app.picture.rest(board)
            board.halt()
            b = board.wait_press()
        if b is None:
            return app
        app.press(b)
