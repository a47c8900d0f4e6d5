"""The heap's bookkeeping for a press: a reserve held for the one large
block a press may need, work run again with more room when it runs out of
memory, modules let go of between presses, and everything shed for the
error screen.

Why a press needs it: a boot scatters the game's objects over the heap, and
a press may then need one large block. MicroPython's table of interned
names grows by blocks that double, and the one of 640 entries (4.5 KB on
the board, 7 KB on the 64-bit unix port) came due while a press imported
its flow, a screen or a font: with 50-160 KB free and no block that large,
the press showed "MemoryError: ... allocating 640 bytes" (issue 22).

The app (firmware/app.py) owns one ``Heap`` and runs its restore, its step,
its drawing, its writes and the imports an event's apply needs
(``engine_for``) through ``Heap.roomy``; ``tidy`` runs as a press
starts on USB power, ``Heap.shed`` before a fault is logged and shown.
"""

import gc
import sys

# Module groups, by the prefix of their names.
SCREENS = ("firmware.screens.", "firmware.flows.", "firmware.qr")   # (the QR screen's encoder)
# Engine modules a restore may load that a press seldom needs again: the
# engine imports them again where it does (legal plays, score lines; the
# house rules' table and house_set (by its prefix), facts, variants and marks: a game with house rules
# on USB kept them all for good, and its next round found no room).
AFTER_RESTORE = ("shared_engine.checkpoint", "shared_engine.scoring", "shared_engine.moves",
                 "shared_engine.corrections", "shared_engine.house", "shared_engine.facts",
                 "shared_engine.variants", "shared_engine.marks")
# The screens' and flows' words: let go with them.
WORDS = ("firmware.words",)
# What ``Heap.roomy`` lets go of before it runs a work a third time: what
# the work loads again.
SPARE = SCREENS + AFTER_RESTORE + WORDS + ("shared_engine.dgn",)
# What a fault lets go of (``Heap.shed``): all but the app's own modules
# (core, storage, the board, this one) and the packages; the next press
# loads what it needs.
SHED = SCREENS + ("shared_engine.", "firmware.text", "firmware.lang", "firmware.font_")

# Bytes held from the boot for a large block a press may need on a fragmented heap
# (Heap.hold): the block of 640 interned names (4.5 KB on the board, 7 KB
# with the 64-bit unix port's pointers), plus what loading a module takes before
# its names are interned. No more: while held it is heap the restore lacks.
# The scorer's own image holds none (app.main(reserve=0)): its modules run in place
# from flash, so its table of names stays small and a press loads no bytecode.
RESERVE = 12288 if sys.maxsize > 1 << 32 else 8192
# Where the heap is tight enough for a fragmented heap to fail a press (the
# tests' 160 KB on the 64-bit unix port, whose objects are twice the size),
# the reserve is held at the top of the heap (Heap.hold). On a board the
# heap has room to spare and the placement would cost every cold boot some
# 20 ms: gc.mem_free() walks the whole heap (9 ms on the RP2040), the filler
# is allocated, and its garbage forces a collection later in the boot.
AT_TOP = sys.maxsize > 1 << 32


def engine_for(ev):
    """The record's module (returned) and the engine's helper that
    ``Game.apply(ev)`` imports, imported ahead of it: App.apply runs this
    through ``Heap.roomy``, as ``Game.apply`` may not run twice. Why: an
    import interns the module's names, and where the table of names is full
    it needs its next block (640 entries, 7 KB on the unix port) in one
    piece; inside ``Game.apply`` no reserve was let go for it, and a fix
    pressed on a cold boot showed "MemoryError: ... allocating 640 bytes"
    with 50 KB free in pieces (issue 32: the boot's names were 616 of the
    620 the first five blocks hold, and corrections brings 4). The helpers:
    a fix's corrections, a score's scoring (shared_engine/engine.py).

    Nothing of the game through ``roomy``'s arguments: on USB, with the
    game (or its round) passed, the new game of test_fault_scenario.py
    found 5-8 KB less heap free once the old game was let go (measured;
    a stale slot's reference to the argument tuples, likely) and ran out.
    So not the legal moves a draw or a pass checks while a hand is known
    whole (full tracking): whether they are needed depends on the round."""
    from shared_engine.engine import FIX, SCORE
    k = ev[0]
    if k == FIX:
        from shared_engine import corrections  # noqa: F401
    elif k == SCORE:
        from shared_engine import scoring  # noqa: F401
    from shared_engine import dgn
    return dgn


def evict(prefixes=SCREENS, keep=()):
    """Forget modules: by default the screen and flow modules the last press
    used but those in ``keep`` (called as a press starts): on USB power the
    board stays up, and keeping every screen ever shown would grow the heap
    past what a battery press (a cold boot) needs. The press imports what it
    needs again, as a cold boot would. After a restore, the engine's helpers
    it loaded."""
    mods = sys.modules
    for name in list(mods):
        if name in keep:
            continue
        for p in prefixes:
            if name.startswith(p):
                del mods[name]
                pkg, _, attr = name.rpartition(".")
                try:
                    delattr(mods[pkg], attr)
                except (KeyError, AttributeError):
                    pass
                break


def tidy(keep):
    """Make room for a press on USB power (the board stays up between
    presses): forget the screen and flow modules the last press used but
    those it drew with (``keep``: the next press most often shows the same
    screen, and importing them again cost a press on USB a quarter of its
    time, mostly interning their names), and the engine's helpers a press
    seldom needs again (``AFTER_RESTORE``: the last score entry's scoring,
    the last checkpoint's writer, 11 KB of heap on the unix port that a
    board on USB kept for good), and collect, so that each press starts
    from a heap like a cold boot's plus one screen. A cold boot's
    press (every press on battery: nothing drawn yet since the boot) starts
    with a fresh heap and skips this, which saves it some 40 ms. On a heap
    left full (a fault's press) the list of names ``evict`` walks may find
    no block: collected first then, and at worst the modules stay."""
    try:
        evict(SCREENS + AFTER_RESTORE, keep)
    except MemoryError:
        gc.collect()
        try:
            evict(SCREENS + AFTER_RESTORE, keep)
        except MemoryError:
            pass
    gc.collect()


class Heap:
    """The reserve and the retries of one app.

    ``on_spill``: called (no arguments) when ``roomy`` is about to let go of
    the modules a work loads again, so that the app forgets what it kept of
    them (the modules its last frame was drawn with)."""

    def __init__(self, reserve_size=RESERVE, on_spill=None):
        self.reserve = None
        self.reserve_size = reserve_size
        self.on_spill = on_spill
        self.hold(AT_TOP)

    def hold(self, top=False):
        """Hold ``reserve_size`` bytes in one block, allocated while the heap
        is still whole (at the boot; on USB again after the tidy-up of a
        press that used it), for ``roomy`` to let go when a large block is
        needed (the module's docstring says why)."""
        if self.reserve is not None or not self.reserve_size:
            return
        # With ``top`` (at the boot, the heap still whole), at the top of the
        # heap, above a filler let go at once: the allocator fills the
        # lowest room first, so that the small blocks a retry allocates
        # before its large one (the flow's view, a screen loaded again) land
        # below the reserve's block, not in it. Held at the bottom, a cold
        # boot's drawing filled it so and failed on its retry too (issue
        # 22). On USB the heap is too scattered for the filler: a failed
        # try would cost a collection a press.
        filler = None
        size = self.reserve_size
        below = gc.mem_free() - size - 2048 if top else 0
        if top and below > 0:
            try:
                filler = bytearray(below)
            except MemoryError:
                pass
        try:
            self.reserve = bytearray(size)
        except MemoryError:
            pass
        filler = None       # (not left to the return: a stale slot would keep it from the collector)

    def roomy(self, fn, *args):
        """``fn(*args)``; if it runs out of memory, it runs again with more
        room, twice at most: first with the reserve let go (a collection
        frees its block), then with every module the work can load again
        let go too (``SPARE``: the screens and flows, the record's module,
        the engine's helpers). Only for work that may run twice: the
        restore, the step (pure), the drawing (pure: a screen fills the
        framebuffer first), an import, a write made whole under its name.

        Why in that order: the work that ran out has mostly loaded its
        modules by then, and the reserve's block is there for what comes
        after them (the table of names, 7 KB on the unix port). Let go
        together, the modules loaded again first and filled the block, and a
        cold boot's drawing failed on its second try too (issue 22). Why
        the modules at all: in a long game on USB the heap can be too
        scattered to hold the reserve again, and a drawing then failed on
        its first try with 20 KB free in pieces."""
        try:
            return fn(*args)
        except MemoryError:
            pass
        if self.reserve is not None:
            self.reserve = None
            gc.collect()
            try:
                return fn(*args)
            except MemoryError:
                pass
        if self.on_spill is not None:
            self.on_spill()
        gc.collect()
        try:
            evict(SPARE)
        except MemoryError:
            pass        # (its list of names, on a heap still full: fn tries as it is)
        gc.collect()
        return fn(*args)

    def shed(self):
        """Let go of all that a press may have filled the heap with, for
        the log and the error screen: the reserve (the next press holds it
        again, once it has let the error screen go), the screen, flow, text
        and engine modules and the fonts. The app lets go of its game first
        (``App.shed``). Why: a fault for want of memory left too little to
        import the error screen, and the board showed the raw exception,
        cut mid-word, press after press (issue 22)."""
        self.reserve = None
        gc.collect()            # the largest first, so that what follows has room
        try:
            t = sys.modules.get("firmware.text")
            if t is not None:
                t.release()
                t.use("en")         # closes the language's pack
        except Exception:
            pass
        try:
            evict(SHED)
        except MemoryError:
            pass
        gc.collect()
