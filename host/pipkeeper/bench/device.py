"""``pipkeeper bench device``: what one press costs on the board, measured on
an emulated RP2040 running a real MicroPython image, with the board's own
LittleFS flash, its buttons on their GPIOs and the panel's SPI stream.

Every time is the emulator's clock (cycles at clk_sys, 125 MHz on these
images), so the figures repeat exactly from run to run and machine to
machine. The flash chip's erase and program times are modelled (W25Q16JV
typical: 45 ms a 4 KB sector, 0.4 ms a 256-byte page), as MicroPython waits
for them on a real board.

``--house-rules``: the largest game (its cold boots and the heap they
need) is played with every house rule of RULES.md on
(shared_engine/mixes.py's ``every_rule``); the scripted game's presses
are the set-up's, at the presets' defaults.

Figures (one build; ``--firmware`` twice gives them side by side):
  cold_boot_ms_late          the largest game (Mexican Train, 8 players, last
                             round, full tracking), a battery press with its
                             checkpoint: power-on -> first SPI byte of the update
                             (the burst of SPI traffic that ends in the refresh:
                             Pimoroni's driver also sets the panel up when the
                             board object is made, long before)
  cold_boot_ms_first_round   the same game early in round 1
  cold_boot_ms_full_replay   the late game without a checkpoint
  cold_boot_ms_late_worn     the late boot on a flash that first took a few
                             hundred presses (LittleFS's state changes the cost)
  press_ms_median, press_ms_worst
                             every press of a scripted game on USB, button
                             down -> first SPI byte (sleeps included)
  start_game_ms              the "start the game" press of that script
  awake_press_ms_median, awake_press_ms_worst
                             the same script on battery: every press given to
                             the board asleep during a game, its latch held
                             (machine.lightsleep), button down -> first SPI
                             byte (the set-up's presses and the game's end
                             are cold boots: not counted)
  heap_slope_bytes_per_press, press_ms_drift, long_run_presses, long_run_memory_errors
                             a long evening on USB (``--long N`` presses, 2,000
                             by default: the scripted game again and again,
                             undo included): the least-squares slope of the
                             free heap after a collection over the last 1,500
                             presses (firmware/board_machine.py idle's probe),
                             the median press of the last 200 against the
                             first 200's (0.05: 5% slower), MemoryErrors in
                             the board's log; the same with ``awake_`` before
                             them on battery, the board awake between presses
  idle_power_off_ms          the late game asleep after a press that left its
                             UI at rest (no resting screen to draw): from the
                             idle time-out (the timer's wake from its last
                             sleep) to the latch going low
  min_free_heap_checkpoint_bytes, min_free_heap_full_replay_bytes
                             the smallest free heap the late boot still draws
                             its frame in (the same frame as with the whole
                             heap): the rest is filled with a ballast buffer
                             before the firmware starts, every 2 KB step from
                             the whole heap down is tried, and the minimum is
                             the lowest step with no failure at or above it
  heap_failures_above_min_bytes   steps that failed although a lower one drew
  free_heap_at_start_bytes   what MicroPython leaves the firmware
  flash_for_games_bytes      the filesystem the build leaves for games and settings
  shortest_tap_applied_ms    on battery, the shortest press that is applied
                             (its frame equals a long press's), 5 ms steps
  press_to_settled_ms_median, press_to_settled_ms_worst
                             the awake presses above whose refresh is a fast
                             one, button down -> BUSY released after the
                             refresh: the settled picture a player waits
                             for (issue 33)
  cold_press_to_settled_ms_median, cold_press_to_settled_ms_worst
                             the same for the script's presses on battery
                             that were cold boots (set-up, the game's end)
  full_press_to_settled_ms_median, full_presses
                             the same for the script's presses on battery
                             whose refresh is a full one (round boundaries,
                             the count of erased pixels, a cold boot that
                             knows no old picture)
  cold_boot_to_settled_ms_from_rest, cold_boot_ms_from_rest
                             the late game on battery left to its idle
                             time-out (its resting picture drawn and noted,
                             the power cut), then a press: a cold boot to the
                             settled picture, and to the update's first SPI
                             byte; cold_boot_ms_from_rest_unmarked the same
                             boot without the resting mark (no picture to
                             take back: the difference is its cost)
  refresh_fast_ms, refresh_full_ms   the median fast and full refresh (BUSY's time)
  unchanged_pixels_driven    the most pixels one fast update drove that kept
                             their colour (the panel's model, js/panel.mjs)
  update_drive_frames        one fast update's drive: the most net DC of a
                             pixel that changes colour, in frames of 10 ms
  panel_dc_max_frames        the most |accumulated DC| of any pixel at the end
                             of the scripted game on USB (twice, without
                             --no-worn); long_run_panel_dc_max_frames and
                             awake_long_run_panel_dc_max_frames the same at
                             the end of the long runs
  wrong_drives               pixels driven by another transition's table than
                             their own (DTM1 not what the panel showed), over
                             every run above
  pixels_not_reached         changed pixels that did not reach their colour
  full_refreshes_in_rounds, rounds, full_refreshes_per_round
                             full refreshes of the scripted game's presses
                             inside a round (not those that start or score
                             one: tests/data/scripted_game.txt's comments),
                             and per round
  flash_erases_per_press_mean, flash_erases_per_press_max   on USB, the script
  qr_press_ms, qr_page_ms_worst
                             the QR code of the largest finished game (Mexican
                             Train, 8 players, 13 rounds; issue 34): on USB, the
                             end screen shown, C -> the first SPI byte of the
                             code's frame; the worst DOWN to another page
  qr_cold_press_ms, end_cold_press_ms
                             the same on battery (the board is off on a game's
                             end: every press there is a cold boot): C at
                             power-on -> first SPI byte; and the end screen's
                             own, A on the game's sheet (B on the end screen)
                             back to it (a power-on with no button held gives a
                             latched board no power: no frame to time)
  qr_cold_page_ms            DOWN on battery, the first code shown: the next
                             page's cold boot
  qr_pages                   the codes its sheet takes
  min_free_heap_qr_bytes, min_free_heap_end_bytes
                             the smallest free heap that draws the QR press's
                             code, and the end screen's, both cold boots (8 KB
                             steps, then 2 KB below the first failure; ``--no-heap``
                             leaves them out)
  profile_qr_press           the C press on USB's top functions (sampled
                             program counter; "(RAM code)" is native code
                             loaded into RAM: the encoder's on the stock image)
  profile                    the late cold boot's top functions by sampled
                             program counter, named from the image's ELF
  profile_usb_presses        the same over the script's presses on USB
"""

import os
import shutil
import statistics
import tempfile
from pathlib import Path

from pipkeeper.errors import PipkeeperError
from pipkeeper.board import flashfs, images
from pipkeeper.sim.rp2040 import symbols
from pipkeeper.sim.rp2040.board import EmulatedBoard
from pipkeeper.sim.rp2040.emulator import NS_PER_MS

WAKE = "DOWN"             # the press a cold boot handles (moves the UI only)
SCRIPT = "scripted_game.txt"
HEAP_STEP = 2048


def _ms(ns):
    return round(ns / NS_PER_MS, 1)


def _median(values):
    return round(statistics.median(values), 1) if values else None


def _script():
    from pipkeeper.sim import unix as sim
    return sim.parse_script(_script_text())


def _script_text():
    from pipkeeper.paths import repo_root
    return (repo_root() / "tests" / "data" / SCRIPT).read_text()


def in_rounds(text=None):
    """For each press of the scripted game, whether it falls inside a round:
    after the press that starts it (its comment ``round ...``) and before
    the one that scores it (``score ...``), both round boundaries, whose
    full refresh is the rule. The script's comments say which press
    records which event (tests/firmware/planner.py writes them)."""
    out = []
    inside = False
    for line in (text if text is not None else _script_text()).splitlines():
        button, _, note = line.partition("#")
        if not button.strip():
            continue
        note = note.strip()
        if note.startswith("score"):
            inside = False
        out.append(inside)
        if note.startswith("round"):
            inside = True
    return out


def _settled_ms(board, frames):
    """ms from the press's button down to BUSY released after its last refresh."""
    last = frames[-1]
    return _ms(last.t + (last.refresh_ns or 0) - board.last["t0"])


class Panel:
    """What the panel's model (js/panel.mjs) counted over some runs: the fast
    and full refreshes' times, the most unchanged pixels one fast update
    drove, the largest drive of one update, wrong drives, and the full
    refreshes of presses inside a round."""

    def __init__(self):
        self.fast, self.full = [], []
        self.unchanged_max = 0
        self.drive_max = 0
        self.wrong = 0
        self.not_reached = 0
        self.full_in_rounds = 0

    def figures(self):
        """The keys bench device prints (over every run counted)."""
        return {
            "refresh_fast_ms": _median(self.fast),
            "refresh_full_ms": _median(self.full),
            "unchanged_pixels_driven": self.unchanged_max,
            "update_drive_frames": self.drive_max,
            "wrong_drives": self.wrong,
            "pixels_not_reached": self.not_reached,
        }

    def add(self, frames, inside=False):
        for f in frames:
            p = f.panel or {}
            (self.full if f.full else self.fast).append(_ms(f.refresh_ns or 0))
            self.wrong += p.get("wrong_drives", 0)
            self.not_reached += p.get("not_reached", 0)
            if not f.full:
                self.unchanged_max = max(self.unchanged_max, p.get("unchanged_driven", 0))
                self.drive_max = max(self.drive_max, p.get("drive_max", 0))
            elif inside:
                self.full_in_rounds += 1


class Bench:
    """One build (a MicroPython image) with the scorer flashed on it."""

    def __init__(self, firmware, work, log=print, flashed=None, lang="en", house_rules=False):
        """``flashed``: a flash image the scorer was just flashed onto (the
        device tests have one); without it the scorer is flashed here.
        ``lang``: the language the board is set to speak (bench --lang).
        ``house_rules``: the largest game with every house rule on."""
        self.log = log
        self.lang = lang
        self.house_rules = house_rules
        self.firmware = firmware
        self.work = Path(work)
        self.work.mkdir(parents=True, exist_ok=True)
        self.clean = self.work / "clean.img"      # the scorer on a fresh flash
        # The scorer's own image holds the scorer: nothing to flash, and its
        # /main.py is frozen (the heap is held back through SCRATCH0).
        self.own = images.load_firmware(firmware).scorer is not None
        self.ballast = None
        if flashed is not None:
            shutil.copyfile(flashed, self.clean)
        elif self.own:
            board = self._board(self.work / "install")
            try:
                self.log("a first power-on of the emulated board (MicroPython formats its flash) ...")
                board.start()
                board.emu.power(on=False)
                board.emu.save()
            finally:
                board.close()
            shutil.copyfile(self.work / "install" / "flash.img", self.clean)
        else:
            board = self._board(self.work / "install")
            try:
                self.log("flashing the scorer onto the emulated board ...")
                board.install()
            finally:
                board.close()
            shutil.copyfile(self.work / "install" / "flash.img", self.clean)
        if lang != "en":
            # the board's language, as `pipkeeper roster --lang` sets it
            flashfs.write_files(str(self.clean), {
                "/pipkeeper/settings.json": ('{"lang": "%s"}' % lang).encode()})

    def _board(self, folder, power_cycle=False, image=None):
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        if image is not None:
            shutil.copyfile(image, folder / "flash.img")
        board = EmulatedBoard(str(folder), self.firmware, power_cycle=power_cycle)
        if self.ballast is not None:
            from pipkeeper.image import build
            board.emu.scratch(build.BENCH_WORD | self.ballast)
        return board

    # -- flash images -----------------------------------------------------------------

    def game_image(self, base, events_cut, name):
        """``base`` with the largest game cut at ``events_cut`` as the game in
        progress, and no checkpoint or UI state yet."""
        from pipkeeper.bench import engine as bench_engine, firmware as bench_firmware
        tags, events = bench_engine.largest_game(self.house_rules)
        with tempfile.TemporaryDirectory() as d:
            bench_firmware.write_board(d, tags, events[:events_cut], self.lang)
            out = self.work / (name + ".img")
            shutil.copyfile(base, out)
            flashfs.write_files(str(out), {}, remove=("/pipkeeper/checkpoint", "/pipkeeper/ui.json"))
            flashfs.copy_tree(str(out), d)
        return out

    def with_checkpoint(self, image, name, button=WAKE):
        """The image after one battery press (``button``): the board has
        rebuilt the game by a full replay and left its checkpoint."""
        out = self.work / (name + ".img")
        with self._board(self.work / name, power_cycle=True, image=image) as b:
            b.press(button)
            b.emu.save()
        shutil.copyfile(self.work / name / "flash.img", out)
        return out

    def ballast_image(self, image, free_bytes, name="ballast"):
        """``image`` whose /main.py first fills the heap but ``free_bytes``
        (on the scorer's own image, whose /main.py is frozen: ``image``,
        the boards made until ``ballast_image(None, None)`` being told
        through SCRATCH0)."""
        if free_bytes is None:      # no ballast from now on (a stock image's is its own file)
            self.ballast = None
            return image
        if self.own:
            self.ballast = free_bytes // 64
            return image
        main = flashfs.read(str(image), "/main.py")
        if main is None:
            raise PipkeeperError("the flashed board has no /main.py")
        pre = ("import gc\ngc.collect()\n"
               "_ballast = bytearray(max(0, gc.mem_free() - %d))\n" % (free_bytes + 32))
        out = self.work / (name + ".img")
        shutil.copyfile(image, out)
        flashfs.write_files(str(out), {"/main.py": pre.encode() + main})
        return out

    # -- measurements ------------------------------------------------------------------

    def cold_boot(self, image, hold_ms=300, profile=False, button=WAKE):
        """One battery press (``button``) on ``image``: (ms to the first SPI
        byte, frame data or None, profile counts or None)."""
        with self._board(self.work / "boot", power_cycle=True, image=image) as b:
            b.hold_ms = hold_ms
            if profile:
                b.emu.profile_start()
            frames = b.press(button)
            counts = b.emu.profile_stop() if profile else None
            first = b.last.get("update_at")
            on = b.last.get("power_on_at")
            ms = _ms(first - on) if first is not None and frames else None
            return ms, (frames[-1].data if frames else None), counts

    def usb_presses(self, presses, image, inside=()):
        """The script on USB: per press, ms from button down to the first SPI
        byte and flash erases; the "start the game" press; the panel's
        counts (a ``Panel``, ``inside`` saying which presses fall inside a
        round) and its most |DC| of any pixel at the end."""
        out = []
        start_game = None
        panel = Panel()
        with self._board(self.work / "usb", image=image) as b:
            b.start()
            b.emu.profile_start()
            for i, button in enumerate(presses):
                e0 = b.emu.stats()["flash"]["erase_calls"]
                frames = b.press(button)
                e1 = b.emu.stats()["flash"]["erase_calls"]
                panel.add(frames, i < len(inside) and inside[i])
                first = b.last.get("update_at")
                if first is None or not frames:
                    continue
                out.append((button, _ms(first - b.last["t0"]), e1 - e0))
                if start_game is None:
                    b.emu.save()
                    if flashfs.listdir(str(Path(b.dir) / "flash.img"), "/games"):
                        start_game = out[-1][1]
            counts = b.emu.profile_stop()
            dc = b.emu.panel()["dc_max"]
            b.emu.power(on=False)
            b.emu.save()
            worn = Path(b.dir) / "flash.img"
        return out, start_game, panel, dc, worn, counts

    # -- awake on battery during a game (issue 23) ---------------------------------------

    def awake_presses(self, presses, image, panel=None):
        """``presses`` on battery from ``image``: ms from button down to the
        first SPI byte of each press given to the board asleep, its power
        kept (a game in play); ms from button down to the settled picture
        (BUSY released after its refresh) of those whose refresh is a fast
        one, of the presses that were a cold boot (the set-up's, the end's)
        with a fast refresh, and of the presses with a full refresh: four
        lists. ``panel`` (a ``Panel``) counts the refreshes."""
        out, settled, cold, full = [], [], [], []
        with self._board(self.work / "awake", power_cycle=True, image=image) as b:
            b.start()
            for button in presses:
                asleep = b.asleep
                frames = b.press(button)
                if panel is not None:
                    panel.add(frames)
                first = b.last.get("update_at")
                if not frames:
                    continue
                if asleep and first is not None:
                    out.append(_ms(first - b.last["t0"]))
                # (a press whose refresh is a full one waits for that: apart)
                kind = settled if asleep else cold
                (kind if not any(f.full for f in frames) else full).append(_settled_ms(b, frames))
        return out, settled, cold, full

    def from_rest(self, image, panel=None):
        """A cold boot from the resting picture: ``image``'s game on battery,
        a press, the board left until its idle time-out (it draws its
        resting screen, notes it and cuts its power), then the next press:
        (ms from button down to the settled picture, ms from power-on to the
        update's first SPI byte), and the latter for the same boot with the
        resting mark taken away (it then knows no old picture and draws no
        resting one: the difference is what taking it back costs; its
        refresh is a full one). Nones if the board did not doze."""
        rest = self.work / "rest"
        with self._board(rest, power_cycle=True, image=image) as b:
            b.press("DOWN")
            b.press("C")
            if not b.asleep:
                return None, None, None
            b.idle_out()
            b.emu.save()
            shutil.copyfile(rest / "flash.img", self.work / "rested.img")
            frames = b.press(WAKE)
            if panel is not None:
                panel.add(frames)
            if not frames:
                return None, None, None
            settled = _settled_ms(b, frames)
            boot = _ms(b.last["update_at"] - b.last["power_on_at"])
        unmarked = self.work / "rested-unmarked.img"
        shutil.copyfile(self.work / "rested.img", unmarked)
        flashfs.write_files(str(unmarked), {}, remove=("/pipkeeper/rest",))
        ms, _frame, _ = self.cold_boot(unmarked, hold_ms=300)
        return settled, boot, ms

    def idle_power_off(self, image):
        """ms from the idle time-out to the latch going low, on ``image``'s
        game: two presses (the menu, and back: the UI at rest, so no resting
        screen to draw), then the board left asleep until it switches itself
        off; None if it did not doze."""
        with self._board(self.work / "idle", power_cycle=True, image=image) as b:
            b.press("DOWN")
            b.press("C")
            if not b.asleep:
                return None
            frames = b.idle_out()
            if frames or b.last.get("woke_at") is None:
                return None
            return _ms(b.last["t"] - b.last["woke_at"])

    def awake(self, presses, image, game, panel=None):
        """The awake figures: the script's presses on battery from ``image``,
        the idle power-off and a cold boot from the resting picture on
        ``game``."""
        times, settled, cold, full = self.awake_presses(presses, image, panel)
        rest = self.from_rest(game, panel)
        return {
            "awake_press_ms_median": _median(times),
            "awake_press_ms_worst": max(times) if times else None,
            "awake_presses_measured": len(times),
            "press_to_settled_ms_median": _median(settled),
            "press_to_settled_ms_worst": max(settled) if settled else None,
            "cold_press_to_settled_ms_median": _median(cold),
            "cold_press_to_settled_ms_worst": max(cold) if cold else None,
            "full_press_to_settled_ms_median": _median(full),
            "full_presses": len(full),
            "cold_boot_to_settled_ms_from_rest": rest[0],
            "cold_boot_ms_from_rest": rest[1],
            "cold_boot_ms_from_rest_unmarked": rest[2],
            "idle_power_off_ms": self.idle_power_off(game),
        }

    # -- a long evening: the heap must not grow (issue 23) -----------------------------

    def long_run(self, presses, image, battery=False, log=None, panel=None):
        """``presses`` on ``image``, on USB (or on battery, the board awake
        between presses): [(ms to the first SPI byte, free heap after a
        collection once the press is done, or None)] a press, the board's
        /log.txt at the end, and the panel's most |DC| of any pixel then
        (``panel``, a ``Panel``, counts the refreshes)."""
        from firmware.board import HEAP_PROBE
        out = []
        name = "long-battery" if battery else "long-usb"
        with self._board(self.work / name, power_cycle=battery, image=image) as b:
            b.emu.scratch(HEAP_PROBE, index=1)
            b.start()
            for i, button in enumerate(presses):
                awake = not battery or b.asleep
                frames = b.press(button)
                if panel is not None:
                    panel.add(frames)
                first = b.last.get("update_at")
                ms = _ms(first - b.last["t0"]) if frames and first is not None and awake else None
                regs = b.emu.stats().get("scratch")
                out.append((ms, regs[2] if regs and regs[1] == HEAP_PROBE and awake else None))
                if log is not None and i % 250 == 249:
                    log("  %d presses" % (i + 1))
            dc = b.emu.panel()["dc_max"]
            b.emu.power(on=False)
            b.emu.save()
            board_log = flashfs.read(str(Path(b.dir) / "flash.img"), "/log.txt") or b""
        return out, board_log, dc

    def long_figures(self, presses, image, battery=False, log=None, panel=None):
        """The long run's figures (``long_run``), keyed as bench device
        prints them (``awake_`` first on battery)."""
        per, board_log, dc = self.long_run(presses, image, battery, log, panel)
        k = "awake_" if battery else ""
        times = [ms for ms, _ in per if ms is not None]
        heap = [(i, free) for i, (_, free) in enumerate(per) if free is not None]
        tail = heap[-1500:]
        return {
            k + "long_run_presses": len(per),
            k + "heap_slope_bytes_per_press": _slope(tail),
            k + "heap_free_first_last_bytes": [heap[0][1], heap[-1][1]] if heap else None,
            k + "press_ms_drift": (round(statistics.median(times[-200:]) / statistics.median(times[:200]) - 1, 3)
                                   if len(times) >= 400 else None),
            k + "long_run_memory_errors": board_log.count(b"MemoryError"),
            k + "long_run_panel_dc_max_frames": dc,
        }

    def free_heap_at_start(self, image):
        """The free heap a MicroPython program starts with on this build (a
        flash without /main.py: the REPL is asked)."""
        bare = self.work / "bare.img"
        shutil.copyfile(image, bare)
        flashfs.write_files(str(bare), {}, remove=("/main.py",))
        if self.own:
            from pipkeeper.image import build
            self.ballast = build.BENCH_BARE
        try:
            b = self._board(self.work / "heap", image=bare)
        finally:
            self.ballast = None
        with b:
            b.emu.power(on=True)
            b.emu.run(1500)
            b.emu.serial_sock.settimeout(5)
            b.emu.serial_sock.send(b"\r\nimport gc;gc.collect();print('FREE', gc.mem_free())\r\n")
            b.emu.run(1000)
            data = b""
            try:
                while b"FREE " not in data or not data.rstrip().endswith(b">>>"):
                    chunk = b.emu.serial_sock.recv(4096)
                    if not chunk:
                        break
                    data += chunk
            except OSError:
                pass
        for line in data.decode("latin-1").splitlines():
            if line.startswith("FREE "):
                return int(line.split()[1])
        raise PipkeeperError("the emulated board did not report its free heap")

    def min_free_heap(self, image, reference, top, floor=0, fine=None, coarse=4 * HEAP_STEP):
        """(minimum, failures above it) over 2 KB steps from ``top`` down
        (to ``floor``: a test of an aim need not look below it). With
        ``fine``, 2 KB steps only within ``fine`` bytes of ``floor`` and
        ``coarse`` ones above, where a boot has room to spare: a test's
        sweep of the own image's 200 KB took 85 boots, seven minutes of
        CI's 35."""
        results = []
        free = top - top % HEAP_STEP
        misses = 0
        while free > 0 and free >= floor and misses < 4:
            # (a coarse step lands on the fine range's top, never past it)
            step = HEAP_STEP if fine is None or free <= floor + fine else \
                min(coarse, free - (floor + fine))
            img = self.ballast_image(image, free)
            try:
                _ms_, frame, _ = self.cold_boot(img)
            finally:
                self.ballast_image(None, None)
            ok = frame == reference
            results.append((free, ok))
            misses = 0 if ok else misses + 1
            free -= step
        ok_steps = [f for f, ok in results if ok]
        if not ok_steps:
            return None, []
        # The lowest step with no failure at or above it.
        minimum = top
        for f, ok in results:           # descending
            if not ok:
                break
            minimum = f
        failures = [f for f, ok in results if not ok and f > min(ok_steps)]
        return minimum, failures

    # -- the QR code of a finished game (issue 34) ----------------------------------------

    def qr_game(self, lang=None):
        """The clean flash with the largest finished game, its checkpoint
        written and its UI at rest: the board shows the end screen."""
        from pipkeeper.bench import qrgame
        rules, n, options = qrgame.LARGEST
        with tempfile.TemporaryDirectory() as d:
            qrgame.write(d, rules, n, lang or self.lang, 1, options)
            base = self.work / "qr-base.img"
            shutil.copyfile(self.clean, base)
            flashfs.write_files(str(base), {}, remove=("/pipkeeper/checkpoint", "/pipkeeper/ui.json"))
            flashfs.copy_tree(str(base), d)
        out = self.with_checkpoint(base, "qr-cp")
        flashfs.write_files(str(out), {}, remove=("/pipkeeper/ui.json",))
        return out

    def qr_presses(self, image, pages=20, profile=False):
        """On USB from ``image`` (the end screen): (ms of C to its code's
        first SPI byte, the worst DOWN to another page, pages, the codes'
        frames in order, the C press's profile counts or None)."""
        counts = None
        with self._board(self.work / "qr-usb", image=image) as b:
            b.start()
            if profile:
                b.emu.profile_start()
            frames = b.press("C")
            if profile:
                counts = b.emu.profile_stop()
            first = _ms(b.last["update_at"] - b.last["t0"])
            shown = [frames[-1].data]
            worst = 0
            for _ in range(pages):
                frames = b.press("DOWN")
                if frames[-1].data == shown[0]:
                    break
                worst = max(worst, _ms(b.last["update_at"] - b.last["t0"]))
                shown.append(frames[-1].data)
        return first, worst, len(shown), shown, counts

    def min_heap_quick(self, image, reference, top, button, coarse=4 * HEAP_STEP):
        """The smallest free heap a cold boot (``button``) draws
        ``reference`` in: ``coarse`` steps down from ``top`` to the first
        failure, then 2 KB steps from the last success: the lowest that
        drew before one failed (a fuller sweep: ``min_free_heap``)."""
        def draws(free):
            img = self.ballast_image(image, free)
            try:
                return self.cold_boot(img, button=button)[1] == reference
            finally:
                self.ballast_image(None, None)
        free = top - top % HEAP_STEP
        good = None
        while free > 0 and draws(free):
            good = free
            free -= coarse
        if good is None:
            return None
        free = good - HEAP_STEP
        while free > good - coarse and draws(free):
            good = free
            free -= HEAP_STEP
        return good

    def end_cold_press(self, image):
        """The end screen drawn by a cold boot: (the flash with the game's
        sheet shown, B on the end screen of ``image``; ms of A there back
        to the end screen; its frame)."""
        sheet = self.with_checkpoint(image, "qr-sheet", button="B")
        ms, frame, _ = self.cold_boot(sheet, button="A")
        return sheet, ms, frame

    def qr_figures(self, heap=True, top=None, elf=None):
        image = self.qr_game()
        first, worst, pages, shown, counts = self.qr_presses(image, profile=True)
        figs = {"qr_press_ms": first, "qr_page_ms_worst": worst, "qr_pages": pages}
        figs["qr_cold_press_ms"], qr_frame, _ = self.cold_boot(image, button="C")
        on_code = self.with_checkpoint(image, "qr-shown", button="C")
        figs["qr_cold_page_ms"] = self.cold_boot(on_code, button="DOWN")[0]
        sheet, figs["end_cold_press_ms"], end_frame = self.end_cold_press(image)
        figs["qr_frame_is_the_usb_ones"] = qr_frame == shown[0]
        if heap and top:
            figs["min_free_heap_qr_bytes"] = self.min_heap_quick(image, qr_frame, top, "C")
            figs["min_free_heap_end_bytes"] = self.min_heap_quick(sheet, end_frame, top, "A")
        figs["profile_qr_press"] = symbols.top_functions(counts, elf)
        return figs

    def shortest_tap(self, image, reference):
        lo, hi = 0, 400
        _, frame, _ = self.cold_boot(image, hold_ms=hi)
        if frame != reference:
            return None
        while hi - lo > 5:
            mid = (lo + hi) // 2
            _, frame, _ = self.cold_boot(image, hold_ms=mid)
            if frame == reference:
                hi = mid
            else:
                lo = mid
        return hi


def long_run_presses(n):
    """``n`` presses of a long evening: the scripted game, then again and
    again (at its end A starts a new game, three more A take the set-up's
    pages with their last choices; the same game follows), each time with
    two plays undone (UP) and played again (A)."""
    script = _script()
    game = script[11:]                   # from the round's start (the set-up is 11 presses)
    again = ["A"] * 4
    for i, b in enumerate(game):
        again.append(b)
        if b == "A" and i in (5, 40):
            again += ["UP", "A"]
    out = list(script)
    while len(out) < n:
        out += again
    return out[:n]


def _slope(points):
    """The least-squares slope of [(x, y)], or None for fewer than two."""
    n = len(points)
    if n < 2:
        return None
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return round(sum((x - mx) * (y - my) for x, y in points) / sxx, 2) if sxx else None


LONG_RUN = 2000


def run_build(firmware, log=print, heap=True, worn=True, lang="en", long_run=LONG_RUN,
              house_rules=False):
    from pipkeeper.bench import engine as bench_engine, firmware as bench_firmware
    fw = images.load_firmware(firmware)
    figures = {"firmware": os.path.basename(fw.path), "micropython": ".".join(map(str, fw.version)),
               "build": fw.kind, "lang": lang, "house_rules": house_rules,
               "flash_for_games_bytes": flashfs.geometry_of_firmware(fw.data).size}
    with tempfile.TemporaryDirectory(prefix="pipkeeper-bench-device-") as work:
        bench = Bench(firmware, work, log, lang=lang, house_rules=house_rules)
        tags, events = bench_engine.largest_game(house_rules)
        early, late = bench_firmware.cut_points(events)

        log("cold boots: the largest game, late and early ...")
        late_img = bench.game_image(bench.clean, late, "late")
        full_ms, full_frame, _ = bench.cold_boot(late_img)
        late_cp = bench.with_checkpoint(late_img, "late-cp")
        late_ms, late_frame, counts = bench.cold_boot(late_cp, profile=True)
        early_cp = bench.with_checkpoint(bench.game_image(bench.clean, early, "early"), "early-cp")
        early_ms, _, _ = bench.cold_boot(early_cp)
        figures["cold_boot_ms_late"] = late_ms
        figures["cold_boot_ms_first_round"] = early_ms
        figures["late_vs_first_round"] = round(late_ms / early_ms, 3) if late_ms and early_ms else None
        figures["cold_boot_ms_full_replay"] = full_ms

        log("presses of the scripted game on USB ...")
        presses = _script()
        inside = in_rounds()
        if worn:
            presses, inside = presses + presses, inside + inside
        rounds = sum(1 for a, b in zip([False] + inside, inside) if b and not a)
        per, start_game, panel, dc, worn_img, usb_counts = bench.usb_presses(presses, bench.clean, inside)
        times = [p[1] for p in per]
        erases = [p[2] for p in per]
        figures["press_ms_median"] = round(statistics.median(times), 1) if times else None
        figures["press_ms_worst"] = max(times) if times else None
        figures["presses_measured"] = len(times)
        figures["start_game_ms"] = start_game
        figures["flash_erases_per_press_mean"] = round(statistics.mean(erases), 2) if erases else None
        figures["flash_erases_per_press_max"] = max(erases) if erases else None
        figures["panel_dc_max_frames"] = dc
        figures["full_refreshes_in_rounds"] = panel.full_in_rounds
        figures["rounds"] = rounds
        figures["full_refreshes_per_round"] = round(panel.full_in_rounds / rounds, 2) if rounds else None

        log("presses of the scripted game on battery, the board awake between them ...")
        figures.update(bench.awake(_script(), bench.clean, late_cp, panel))

        if worn:
            log("the late boot on a worn flash (%d presses) ..." % len(presses))
            worn_late = bench.with_checkpoint(bench.game_image(worn_img, late, "worn"), "worn-cp")
            figures["cold_boot_ms_late_worn"], _, _ = bench.cold_boot(worn_late)

        figures["free_heap_at_start_bytes"] = top = bench.free_heap_at_start(bench.clean)
        if heap:
            log("the smallest heap the late boot draws in (2 KB steps) ...")
            m, fails = bench.min_free_heap(late_cp, late_frame, top)
            figures["min_free_heap_checkpoint_bytes"] = m
            figures["heap_failures_above_min_checkpoint"] = fails
            m, fails = bench.min_free_heap(late_img, full_frame, top)
            figures["min_free_heap_full_replay_bytes"] = m
            figures["heap_failures_above_min_full_replay"] = fails

        log("the QR code of the largest finished game ...")
        elf = symbols.elf_for(fw.path)
        figures.update(bench.qr_figures(heap, top, elf))

        log("the shortest tap on battery ...")
        figures["shortest_tap_applied_ms"] = bench.shortest_tap(late_cp, late_frame)
        if long_run:
            long_presses = long_run_presses(long_run)
            log("a long evening on USB: %d presses ..." % long_run)
            figures.update(bench.long_figures(long_presses, bench.clean, log=log, panel=panel))
            log("the same on battery, the board awake between presses ...")
            figures.update(bench.long_figures(long_presses, bench.clean, battery=True, log=log, panel=panel))
        figures.update(panel.figures())
        figures["profile"] = symbols.top_functions(counts, elf)
        figures["profile_usb_presses"] = symbols.top_functions(usb_counts, elf)
    return figures


def run(firmwares=(), log=print, heap=True, worn=True, lang="en", long_run=LONG_RUN, house_rules=False):
    """The figures of each build (the upstream image of ../shared/rp2/ when
    none is named), the board in ``lang``: flat for one, ``{"builds":
    {...}}`` for several."""
    firmwares = list(firmwares) or [os.environ.get(images.ENV_FIRMWARE) or images.default_firmware()]
    if not firmwares[0]:
        raise PipkeeperError("name a MicroPython image with --firmware (or $%s)" % images.ENV_FIRMWARE)
    out = {}
    for fw in firmwares:
        figs = run_build(fw, log=log, heap=heap, worn=worn, lang=lang, long_run=long_run,
                         house_rules=house_rules)
        out[figs["build"] + "-" + figs["micropython"]] = figs
    return next(iter(out.values())) if len(out) == 1 else {"builds": out}
