// The emulated RP2040 that pipkeeper's board firmware runs on: rp2040js with
// what it lacks for a real MicroPython board (see ../README.md for why each).
//
//   node emulator.mjs CONFIG.json
//
// The Python side (pipkeeper/sim/rp2040/emulator.py) drives it with one JSON
// object a line on stdin and reads one JSON object a line on stdout. The
// board's USB serial is a socket pair (fd cfg.serial_fd): bytes in are what a host
// types, bytes out are what the board prints.
//
// Every time is the emulated clock's (nanoseconds since the first power-on),
// never the host's: the CPU runs at clk_sys (125 MHz unless the firmware
// changes it) and time the CPU spends waiting (WFI/WFE) is skipped.

import fs from 'node:fs';
import net from 'node:net';
import readline from 'node:readline';
import { RP2040, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';
import { Physical, UC8151, SSD1680 as SSD1680Model } from './panel.mjs';

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const FLASH_SIZE = cfg.flash_size || 2 * 1024 * 1024;
const MS = 1e6;

// -- output -------------------------------------------------------------------------

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// -- the flash chip: survives power cycles, written through the boot ROM ---------

const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
if (cfg.flash_image && fs.existsSync(cfg.flash_image)) {
  const img = fs.readFileSync(cfg.flash_image);
  flash.set(img.subarray(0, Math.min(img.length, FLASH_SIZE)));
}
// The firmware image goes over whatever the saved flash held at its place.
let firmware = fs.readFileSync(cfg.firmware_bin);
flash.set(firmware.subarray(0, Math.min(firmware.length, FLASH_SIZE)));
let flashDirty = false;
const flashStats = { erased_blocks: 0, programmed_bytes: 0, erase_calls: 0, program_calls: 0, ops: 0 };

// Typical times of the Badger's and the Pico's flash chip (Winbond W25Q16JV
// datasheet, "AC electrical characteristics": tSE 45 ms per 4 KB sector, tPP
// 0.4 ms per 256-byte page). MicroPython waits for them with interrupts off.
const ERASE_NS = (cfg.flash_erase_ms ?? 45) * MS;
const PAGE_NS = (cfg.flash_page_ms ?? 0.4) * MS;

// -- flash operations, and a power cut inside one -----------------------------------
//
// Every erase and program goes through flashErase/flashProgram: MicroPython's
// (the boot ROM's RE and RP, trapped below) and the boot ROM's own UF2 writes
// in BOOTSEL. Each is one "op", counted in flashStats.ops. Op 'cut' arms a
// power cut at the N-th op from then on, after a fraction of it: NOR flash
// erases a sector unevenly, so a cut erase leaves each byte of the sector in
// flight either as it was or 0xFF (a seeded generator chooses; sectors of
// the op before it are erased, those after it untouched); a cut program
// leaves a prefix of the bytes written and the next byte partly programmed
// (some of the bits it clears cleared). Then the board is off, as if the
// battery had gone: nothing more runs, and a button held is let go.
let cut = null;                 // {at, fraction, seed, seen} while armed
const journal = { on: false, ops: [] };

function rng(seed) {
  let x = (seed >>> 0) || 0x9e3779b9;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 4294967296; };
}

function cutNow() {
  // This op is the one the armed cut falls in: true once, then the cut is spent.
  if (!cut) return false;
  cut.seen++;
  if (cut.seen < cut.at) return false;
  return true;
}

function noteOp(kind, off, count) {
  flashStats.ops++;
  if (journal.on) journal.ops.push([kind, off, count]);
}

// Returns the ns the op took; `torn` (an object) is filled when the power went in it.
function flashErase(off, count, mem, torn) {
  noteOp('E', off, count);
  flashStats.erased_blocks += count / 4096;
  flashStats.erase_calls++;
  flashDirty = true;
  if (!cutNow()) {
    flash.fill(0xff, off, off + count);
    if (mem) mem.fill(0xff, off, off + count);
    return ERASE_NS * Math.ceil(count / 4096);
  }
  const f = cut.fraction, rand = rng(cut.seed);
  const sectors = Math.max(1, Math.ceil(count / 4096));
  const done = f * sectors;
  const k = Math.floor(done), p = done - k;
  for (let s = 0; s < sectors; s++) {
    const a = off + s * 4096, b = Math.min(off + count, a + 4096);
    for (let i = a; i < b; i++) {
      if (s < k || (s === k && rand() < p)) {
        flash[i] = 0xff;
        if (mem) mem[i] = 0xff;
      }
    }
  }
  Object.assign(torn, { kind: 'erase', off, count, fraction: f });
  return ERASE_NS * done;
}

function flashProgram(off, count, byteAt, mem, torn) {
  noteOp('P', off, count);
  flashStats.programmed_bytes += count;
  flashStats.program_calls++;
  flashDirty = true;
  const end = Math.min(count, FLASH_SIZE - off);
  const cutting = cutNow();
  const upto = cutting ? Math.floor(cut.fraction * end) : end;
  for (let i = 0; i < upto; i++) {
    const v = flash[off + i] & byteAt(i);
    flash[off + i] = v;
    if (mem) mem[off + i] = v;
  }
  if (!cutting) return PAGE_NS * Math.ceil(count / 256);
  if (upto < end) {
    // the byte in flight: some of the bits it clears are cleared
    const rand = rng(cut.seed);
    const old = flash[off + upto];
    const clears = old & ~byteAt(upto) & 0xff;
    const v = old & ~(clears & Math.floor(rand() * 256));
    flash[off + upto] = v;
    if (mem) mem[off + upto] = v;
  }
  Object.assign(torn, { kind: 'program', off, count, fraction: cut.fraction, written: upto });
  return PAGE_NS * (upto / 256);
}

function powerCut(torn) {
  // The power goes in the middle of a flash op (the op 'cut' armed it).
  const c = cut;
  cut = null;
  held.clear();
  releases.length = 0;
  emit({ ev: 'cut', t: mcu ? mcu.clock.nanosCounter : clockNanos, op: c.seen, ...torn });
  powerOff();
}

const bootrom = new Uint32Array(fs.readFileSync(cfg.bootrom).buffer.slice(0));

// The boot ROM's flash functions, by their two-letter codes in its table.
function romFunctions(rom) {
  const bytes = new Uint8Array(rom.buffer);
  const u16 = (a) => bytes[a] | (bytes[a + 1] << 8);
  let p = u16(0x14);
  const out = {};
  for (;;) {
    const code = u16(p);
    if (!code) break;
    out[String.fromCharCode(code & 0xff, code >> 8)] = u16(p + 2) & ~1;
    p += 4;
  }
  return out;
}
const ROM = romFunctions(bootrom);
// UB is reset_usb_boot (machine.bootloader()): the chip reboots into the
// ROM's USB drive, modelled below (BOOTSEL).
const TRAPS = ['IF', 'EX', 'RE', 'RP', 'FC', 'CX', 'UB'];
const trapAt = {};
{
  // A BKPT #n at each entry point: the CPU stops there and we do the work.
  const bytes = new Uint8Array(bootrom.buffer);
  TRAPS.forEach((code, n) => {
    const a = ROM[code];
    if (a === undefined) throw new Error('boot ROM lacks function ' + code);
    bytes[a] = n;
    bytes[a + 1] = 0xbe;
    trapAt[n] = code;
  });
}

// -- the board -------------------------------------------------------------------------

const B = cfg.board;            // pins, from the board profile
let mcu = null;                 // the RP2040 while powered
let cdc = null;
let powered = false;
let onUsb = !!cfg.usb;
const held = new Set();         // button labels held down
let stopReason = null;          // set by events that end a run
let latchHigh = false;

// serial: fd 3 <-> USB CDC
const serialIn = [];            // bytes from the host, not yet given to the board
let serialPendingRead = null;   // the board asked for data while none was there
let serialSock = null;
try {
  serialSock = new net.Socket({ fd: cfg.serial_fd ?? 3, readable: true, writable: true });
  serialSock.on('data', (d) => {
    for (const b of d) serialIn.push(b);
    feedSerial();
  });
  serialSock.on('error', () => {});
} catch (e) {
  serialSock = null;
}
const serialOutTap = [];        // what the board printed, for run-until "text"
let serialText = '';

function feedSerial() {
  if (!cdc || !serialPendingRead || !serialIn.length) return;
  const { endpoint, size } = serialPendingRead;
  serialPendingRead = null;
  const n = Math.min(size, serialIn.length);
  const buf = new Uint8Array(serialIn.splice(0, n));
  mcu.usbCtrl.endpointReadDone(endpoint, buf);
}

// -- the panel: a UC8151 (or SSD1680) on SPI, as the board sees it ---------------
//
// The controllers and the panel itself are modelled in panel.mjs (what each
// refresh drives, pixel by pixel, and what it counts); here they are wired
// to the chip: commands and data decoded from the SPI stream with CS and DC,
// BUSY held for exactly the refresh's time, RST, and the power. Frames come
// only from the SPI stream, never from the firmware's memory: a frame is the
// picture the panel shows after the refresh, worked out by the model.

const panel = {
  cmd: -1, index: 0, busyUntil: 0, busyFrom: 0, firstSpi: null, frames: 0, lastActivity: 0,
  burstStart: null, updateAt: null,
};
const BURST_GAP_NS = 10 * MS;
const SSD1680 = B.controller === 'SSD1680';
const physical = new Physical();
const uc = new UC8151(physical, { otpMs: cfg.otp_refresh_ms ?? 4500 });
const ssdModel = new SSD1680Model(physical, { fullMs: B.full_update_ms, fastMs: B.update_ms });
const ssd = { asleep: false };      // SSD1680 deep sleep: BUSY high, nothing taken until a reset
const panelModel = SSD1680 ? ssdModel : uc;
let lastReport = null;              // the last refresh's report (stats)

// The flash file holds the 2 MB flash, then the panel's state: the e-ink
// keeps its picture (and its pixels their DC) without power, and belongs
// to the board, so a copy of the board's file is a copy of its panel too.
function loadPanel(img) {
  if (img && img.length > FLASH_SIZE) physical.load(img.subarray(FLASH_SIZE));
}
loadPanel(cfg.flash_image && fs.existsSync(cfg.flash_image) ? fs.readFileSync(cfg.flash_image) : null);

function setBusy(ns) {
  const now = mcu.clock.nanos;
  panel.busyFrom = now;
  panel.busyUntil = now + ns;
  busyPin(true);
  busyAlarm.schedule(ns);
}
let busyAlarm = null;
function busyEnd() {
  uc.settle();
  busyPin(false);
}
function busyPin(isBusy) {
  if (!mcu || B.busy == null) return;
  // BUSY_LEVEL is the level the panel holds while busy. A controller in
  // deep sleep holds it busy (SSD1680) until a hardware reset. cfg.busy_stuck
  // ('busy' or 'idle') is a BUSY line that never moves: another build's pin,
  // or nothing wired there.
  if (cfg.busy_stuck) isBusy = cfg.busy_stuck === 'busy';
  else isBusy = isBusy || ssd.asleep;
  mcu.gpio[B.busy].setInputValue(isBusy ? !!B.busy_level : !B.busy_level);
}

// A refresh began: its frame (the picture once it is over) and its report.
function refreshed(rep, now) {
  const { rows, ...report } = rep;
  report.ns = Math.round(rep.ns);
  lastReport = report;
  if (panel.updateAt === null) panel.updateAt = panel.burstStart;
  emit({ ev: 'frame', t: now, full: rep.full, refresh_ns: report.ns, update_at: panel.burstStart,
         data: Buffer.from(rows).toString('base64'), panel: report });
  panel.frames++;
  setBusy(rep.ns);
}

// The power went during a refresh: the pixels took only its frames so far.
function cutRefresh(now) {
  if (SSD1680 || !(panel.busyUntil > now)) return;
  const rows = uc.cutShort(now - panel.busyFrom);
  if (rows) emit({ ev: 'panel_cut', t: now, data: Buffer.from(rows).toString('base64') });
}

function panelCommand(c) {
  const now = mcu.clock.nanos;
  uc.lutStart(c);
  const rep = uc.command(c);
  if (rep) refreshed(rep, now);
  else if (c === 0x04 || c === 0x02) setBusy((cfg.power_ms ?? 0) * MS);   // PON / POF: the booster, quick
}

function ssdCommand(c) {
  if (ssd.asleep) return;
  if (c === 0x12) { ssdModel.defaults(); setBusy((cfg.ssd_swreset_ms ?? 2) * MS); }
  else if (c === 0x20) {
    const rep = ssdModel.activate();
    if (rep.busyMs !== undefined) setBusy(rep.busyMs * MS);
    else refreshed(rep, mcu.clock.nanos);
  }
}
function ssdData(c, i, v) {
  if (ssd.asleep) return;
  if (c === 0x10 && i === 0 && (v & 3)) { ssd.asleep = true; busyPin(true); return; }
  ssdModel.data(c, i, v);
}
function ssdReset() {                // RST high again after low: out of deep sleep
  ssdModel.defaults();
  ssd.asleep = false;
  setBusy((cfg.ssd_reset_ms ?? 1) * MS);
}

function onSpiByte(v) {
  const now = mcu.clock.nanos;
  const cs = mcu.gpio[B.cs].outputValue;
  if (cs) return;
  if (panel.firstSpi === null) panel.firstSpi = now;
  // The update's first byte: the start of the burst of SPI traffic that
  // ends in the refresh (a driver may set the panel up long before, as
  // Pimoroni's does when the board object is made).
  if (now - panel.lastActivity > BURST_GAP_NS || panel.burstStart === null) panel.burstStart = now;
  panel.lastActivity = now;
  const dc = mcu.gpio[B.dc].outputValue;
  if (!dc) {
    panel.cmd = v;
    panel.index = 0;
    if (SSD1680) return ssdCommand(v);
    panelCommand(v);
  } else if (SSD1680) {
    ssdData(panel.cmd, panel.index++, v);
  } else {
    uc.data(panel.cmd, panel.index++, v);
  }
}

// -- power ------------------------------------------------------------------------------

// A board with a power latch (the Badger) has power on battery only while a
// button is held or its latch is high; a board without one (the Pico builds)
// has it while its power switch is on (power {on}).
let switchOn = false;
function shouldHavePower() {
  if (onUsb) return true;
  if (B.latch == null) return switchOn;
  if (held.size) return true;
  return latchHigh;
}

function checkPower() {
  if (powered && !shouldHavePower()) powerOff();
}

function powerOff() {
  if (mcu) clockNanos = mcu.clock.nanosCounter;
  if (mcu) cutRefresh(clockNanos);
  panel.busyUntil = 0;
  if (bootsel) {                 // the ROM's drive goes with the power
    clearInterval(bootsel.timer);
    bootsel = null;
    try { fs.rmSync(cfg.bootsel_drive, { recursive: true, force: true }); } catch (e) {}
  }
  powered = false;
  switchOn = false;
  dormant = false;
  asleep = false;
  mcu = null;
  cdc = null;
  latchHigh = false;
  stopReason = stopReason || 'off';
  emit({ ev: 'off', t: clockNanos });
  if (free) { free.real0 = process.hrtime.bigint(); free.emu0 = clockNanos; }
}

let clockNanos = 0;              // carried across power cycles
// WATCHDOG SCRATCH0-7 at power-on (0 on a real board): how a bench asks the
// scorer's own image to hold heap back (SCRATCH0: host/pipkeeper/image/build.py
// MAIN) and the firmware for its heap (SCRATCH1, firmware/board_machine.py idle).
const scratchAtOn = [0, 0, 0, 0, 0, 0, 0, 0];
let profile = null;              // {every, n, counts}

function powerOn() {
  if (!stage2Valid()) {          // the boot ROM finds no boot stage 2: BOOTSEL
    powerOnAt = clockNanos;
    latchAt = null;
    emit({ ev: 'on', t: clockNanos });
    return enterBootsel('stage2');
  }
  const m = new RP2040();
  m.logger = new ConsoleLogger(LogLevel.Error);
  // The pads' reset value is 0x56 (input enabled, pull-down, Schmitt;
  // RP2040 datasheet, PADS_BANK0 GPIOn): rp2040js starts them with input
  // disabled, so code that reads a button before configuring its pin (the
  // wakeup module of Pimoroni's build, in C, at power-on) would read 0.
  for (const p of m.gpio) p.padValue = 0x56;
  m.loadBootrom(bootrom);
  m.flash.set(flash);            // reset() filled it with 0xff
  for (let i = 0; i < 8; i++) m.peripherals[0x40058].scratchData[i] = scratchAtOn[i];
  // Keep one clock across power cycles: the emulated time is the run's.
  m.clock.nanosCounter = clockNanos;
  mcu = m;
  powered = true;
  latchHigh = false;
  serialPendingRead = null;      // a new chip has asked for nothing yet
  switchOn = true;
  dormant = false;
  panel.cmd = -1;
  panel.busyUntil = 0;
  uc.powerOn();                  // the controllers' RAM and registers are gone; the panel's picture is not
  ssdModel.defaults();
  ssdModel.noise();
  ssd.asleep = false;
  busyAlarm = m.clock.createAlarm(() => busyEnd());
  wakeAlarm = m.clock.createAlarm(() => wakeUp());
  modelDormant(m);
  modelSleep(m);
  modelUniqueId(m);

  // A CPU spinning on the panel's BUSY pin (Pimoroni's driver waits for a
  // refresh in a tight C loop) would cost a second of host time per press
  // to emulate instruction by instruction: when the same instruction has
  // read the GPIO inputs many times in a row while the panel is busy, the
  // clock jumps to the moment BUSY changes, as the loop would have seen it.
  // The emulated time is the same; only the host's is saved.
  const sioRead = m.sio.readUint32.bind(m.sio);
  let pollPc = -1, polls = 0;
  m.sio.readUint32 = (offset) => {
    if (offset === 4 && panel.busyUntil > m.clock.nanos) {
      const pc = m.core.PC;
      if (pc === pollPc) {
        if (++polls > 64) {
          polls = 0;
          m.clock.tick(panel.busyUntil - m.clock.nanos);
        }
      } else {
        pollPc = pc;
        polls = 0;
      }
    }
    return sioRead(offset);
  };

  // Flash through the boot ROM's functions.
  m.onBreak = (n) => {
    const code = trapAt[n];
    if (process.env.PIPKEEPER_RP2040_TRACE) console.error('trap ' + code + ' ' + [0,1,2,3].map((i) => (m.core.registers[i] >>> 0).toString(16)).join(' '));
    const core = m.core;
    const r = core.registers;
    if (code === 'RE' || code === 'RP') {
      const torn = {};
      const off = r[0] >>> 0;
      let ns = 0;
      if (code === 'RE') {
        const count = r[1] >>> 0;
        if (off + count <= FLASH_SIZE) ns = flashErase(off, count, m.flash, torn);
      } else {
        const src = r[1] >>> 0;
        ns = flashProgram(off, r[2] >>> 0, (i) => m.readUint8(src + i), m.flash, torn);
      }
      m.clock.tick(ns);
      if (torn.kind) return powerCut(torn);     // the CPU is gone: nothing returns
    } else if (code === 'UB') {
      enterBootsel();
      return;
    } else if (code === undefined) {
      emit({ ev: 'log', msg: 'breakpoint ' + n + ' at ' + (core.PC >>> 0).toString(16) });
      stopReason = 'break';
      return;
    }
    core.PC = core.LR & ~1;       // return to the caller
  };

  // SPI: each byte takes its time on the wire, and the panel sees it.
  const spi = m.spi[B.spi];
  spi.onTransmit = (v) => {
    onSpiByte(v);
    const hz = spi.clockFrequency || 1e6;
    const ns = (spi.dataBits * 1e9) / hz;
    spiAlarm.schedule(ns);
  };
  const spiAlarm = m.clock.createAlarm(() => spi.completeTransmit(0));

  // USB: a host that reads everything and sends only what it has.
  cdc = new USBCDC(m.usbCtrl);
  if (onUsb) {
    cdc.onSerialData = (buf) => {
      if (serialSock) serialSock.write(Buffer.from(buf));
      serialText = (serialText + Buffer.from(buf).toString('latin1')).slice(-4096);
    };
    m.usbCtrl.onEndpointRead = (endpoint, size) => {
      if (endpoint === cdc.outEndpoint) {
        serialPendingRead = { endpoint, size };
        feedSerial();
      }
    };
  } else {
    m.usbCtrl.onUSBEnabled = () => {};      // on battery nothing is plugged in
  }

  // Pins the outside world drives.
  for (const [label, gpio, activeHigh] of B.buttons) {
    m.gpio[gpio].setInputValue(held.has(label) ? activeHigh : !activeHigh);
  }
  if (B.vbus != null) m.gpio[B.vbus].setInputValue(onUsb);
  busyPin(false);
  if (B.latch != null) {
    m.gpio[B.latch].addListener(() => {
      const p = m.gpio[B.latch];
      latchHigh = p.outputEnable && p.outputValue;
      if (latchHigh) {
        if (latchAt === null) latchAt = m.clock.nanos;
      } else {
        checkPower();
      }
    });
  }
  if (B.rst != null) {
    // The controller's hardware reset: RST low, then high again.
    let rstLow = false;
    m.gpio[B.rst].addListener(() => {
      const p = m.gpio[B.rst];
      const low = p.outputEnable && !p.outputValue;
      if (rstLow && !low) {
        if (SSD1680) ssdReset(); else uc.reset();
      }
      rstLow = low;
    });
  }
  latchAt = null;
  m.core.PC = 0x10000000;        // boot stage 2 at the start of flash, as the ROM would
  powerOnAt = clockNanos;
  emit({ ev: 'on', t: clockNanos });
}
let latchAt = null;
let powerOnAt = 0;

// -- BOOTSEL: the boot ROM's USB drive ------------------------------------------------------
//
// machine.bootloader() (or BOOTSEL held at power-on: op 'bootsel') reboots
// the chip into the boot ROM, which shows a USB drive, RPI-RP2, and writes
// the blocks of a UF2 file copied onto it into the flash, then reboots into
// what it got. The drive is the folder cfg.bootsel_drive: it appears with
// its INFO_UF2.TXT, and a .uf2 file that lands in it is written block by
// block, as the ROM does (a file cut short leaves the blocks it had, and the
// drive stays); once every block of the file is written the drive goes away
// and the board starts again. The chip runs no code meanwhile, and its USB
// serial is gone.
let bootsel = null;             // {timer} while the ROM's drive is up

function enterBootsel(why = 'asked') {
  if (mcu) clockNanos = mcu.clock.nanosCounter;
  mcu = null;
  cdc = null;
  powered = true;               // the chip has power: it is the ROM that runs
  dormant = false;
  emit({ ev: 'bootsel', t: clockNanos, why });
  const drive = cfg.bootsel_drive;
  if (!drive || !onUsb) return;  // the drive is for a USB host; on battery the ROM waits for one
  fs.mkdirSync(drive, { recursive: true });
  fs.writeFileSync(drive + '/INFO_UF2.TXT', 'UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n');
  const seen = new Map();        // file -> bytes already taken
  bootsel = { timer: setInterval(() => bootselPoll(drive, seen), 50), end: 0, total: 0 };
}

function bootselPoll(drive, seen) {
  let names;
  try { names = fs.readdirSync(drive).filter((n) => n.toLowerCase().endsWith('.uf2')); } catch (e) { return; }
  for (const n of names) {
    let data;
    try { data = fs.readFileSync(drive + '/' + n); } catch (e) { continue; }
    let done = seen.get(n) || 0;
    for (; done + 512 <= data.length; done += 512) {
      if (!bootsel) return;                 // a cut took the power in the last block
      if (romUf2Block(data.subarray(done, done + 512))) return leaveBootsel(drive);
    }
    seen.set(n, done);
  }
}

// One 512-byte block of a file copied onto the drive, as the RP2040 boot ROM
// takes it (pico-bootrom-rp2040, bootrom/virtual_disk.c, vd_write_block and
// _write_uf2_page): only UF2 blocks for the RP2040 family carrying 256 bytes
// for a 256-aligned flash address count; a block telling another number of
// blocks than the transfer under way starts a new transfer (its state is in
// RAM: a power-on starts afresh too); a block number already written is
// ignored. The 4 KB sector is erased before the first block written whose
// block number falls in its group of 16 (the ROM keys its "sectors cleared"
// bitmap by block_no * 256 / 4096, not by the address: a UF2 whose block
// numbers do not step with its addresses, 16 to a sector, gets sectors left
// unerased or erased twice), then the page is programmed (NOR: the bits are
// ANDed in). Blocks are written in the order the file holds them. Once every
// block of the transfer is in, the chip reboots. Returns true then.
function romUf2Block(blk) {
  const v = new DataView(blk.buffer, blk.byteOffset, 512);
  if (v.getUint32(0, true) !== 0x0A324655 || v.getUint32(4, true) !== 0x9E5D5157 ||
      v.getUint32(508, true) !== 0x0AB16F30) return false;
  const flags = v.getUint32(8, true), addr = v.getUint32(12, true), size = v.getUint32(16, true);
  const no = v.getUint32(20, true), total = v.getUint32(24, true);
  if (!(flags & 0x2000) || v.getUint32(28, true) !== 0xE48BFF56 || (flags & 1) || size !== 256) return false;
  const off = addr - 0x10000000;
  if (!total || off < 0 || off + 256 > FLASH_SIZE || (off & 0xff)) { bootsel.total = 0; return false; }
  const t = bootsel;
  if (t.total !== total) { t.total = total; t.valid = new Set(); t.cleared = new Set(); }
  if (no >= total || t.valid.has(no)) return false;
  const torn = {};
  let ns = 0;
  if (!t.cleared.has(no >> 4)) {
    t.cleared.add(no >> 4);
    ns += flashErase(off & ~0xfff, 4096, null, torn);
  }
  if (!torn.kind) ns += flashProgram(off, 256, (i) => blk[32 + i], null, torn);
  clockNanos += ns;
  if (torn.kind) { powerCut(torn); return false; }
  t.valid.add(no);
  t.end = Math.max(t.end, off + 256);
  return t.valid.size === total;
}

// The boot ROM at power-on (RP2040 datasheet 2.8.1): it reads the first 256
// bytes of flash, boot stage 2, and runs them only if their last word is the
// CRC-32 (MPEG-2: polynomial 0x04C11DB7, not reflected, no final XOR) of
// the 252 before; else it falls into its USB boot, BOOTSEL.
function stage2Valid() {
  let crc = 0xffffffff;
  for (let i = 0; i < 252; i++) {
    crc ^= flash[i] << 24;
    for (let b = 0; b < 8; b++) crc = (crc & 0x80000000) ? ((crc << 1) ^ 0x04c11db7) : (crc << 1);
    crc >>>= 0;
  }
  return crc === ((flash[252] | (flash[253] << 8) | (flash[254] << 16) | (flash[255] << 24)) >>> 0);
}

function leaveBootsel(drive) {
  clearInterval(bootsel.timer);
  const end = bootsel.end;
  bootsel = null;
  try { fs.rmSync(drive, { recursive: true, force: true }); } catch (e) {}
  // What the UF2 wrote below the filesystem is the firmware now: later
  // power-ons lay it, not the old one.
  firmware = flash.slice(0, Math.min(end, codeEnd()));
  saveFlash();
  powered = false;
  powerOn();
  if (free) schedule();
}

function codeEnd() {
  // Where the filesystem starts: 0xC0000 in the scorer's own image (it
  // carries its mark, pipkeeper/board/image_identity.py), 0xA0000 in the stock
  // RPI_PICO and Badger builds.
  const mark = Buffer.from(flash.buffer, flash.byteOffset, 0xC0000).indexOf('PKIMAGE1 ');
  return mark >= 0 ? 0xC0000 : 0xA0000;
}

// -- DORMANT --------------------------------------------------------------------------------
//
// machine.lightsleep() with no time-out on the rp2 port stops the crystal
// oscillator (XOSC DORMANT = "coma") and waits for it to be stable again:
// the chip's DORMANT state, every clock stopped. rp2040js keeps running the
// CPU, which would spin on the XOSC status forever; here the CPU stops and
// only a GPIO edge or level enabled in IO_BANK0's DORMANT_WAKE_INTE0-3 (and
// latched in INTR, as the hardware does) starts the oscillator again, after
// its start-up delay (XOSC STARTUP x 256 cycles at 12 MHz). A wake event
// already latched when the chip goes dormant ends it at once.
let dormant = false;
let wakeAlarm = null;
let waking = false;
const dormantInte = [0, 0, 0, 0];
const dormantStats = { sleeps: 0, wakes: 0, ns: 0, since: 0 };

// The flash chip's unique id. MicroPython's machine.unique_id() is
// pico-sdk's, read once at boot by flash_get_unique_id: with the chip
// selected by hand (IO_QSPI's SS override low), the RUID command 4Bh, four
// dummy bytes, then eight bytes of id, through the SSI's data register.
// rp2040js's SSI answers every byte with 0, so every board was
// 0000000000000000; here each board answers with its own (cfg.flash_uid,
// the sim folder's .sim-board-id). Any other byte, and a byte outside such
// a command, is 0, as before.
const FLASH_UID = Buffer.from(cfg.flash_uid || '0000000000000000', 'hex');
function modelUniqueId(m) {
  const SS_CTRL = 0x0c, DR0 = 0x60;           // GPIO_QSPI_SS_CTRL; SSI_DR0
  const qspi = m.peripherals[0x40018], ssi = m.peripherals[0x18000];
  const ssiRead = ssi.readUint32.bind(ssi), ssiWrite = ssi.writeUint32.bind(ssi);
  let ssCtrl = 0, sent = null, answers = [];  // sent: the command's bytes while CS is forced low
  qspi.readUint32 = (offset) => (offset === SS_CTRL ? ssCtrl : 0);
  qspi.writeUint32 = (offset, value) => {
    if (offset !== SS_CTRL) return;
    ssCtrl = value >>> 0;
    const over = (ssCtrl >> 8) & 3;           // OUTOVER: 2 drive low, 3 drive high
    if (over === 2 && sent === null) { sent = []; answers = []; }
    else if (over !== 2) sent = null;
  };
  ssi.writeUint32 = (offset, value) => {
    if (offset !== DR0 || sent === null) return ssiWrite(offset, value);
    const i = sent.push(value & 0xff) - 1;
    answers.push(sent[0] === 0x4b && i >= 5 && i < 5 + FLASH_UID.length ? FLASH_UID[i - 5] : 0);
  };
  ssi.readUint32 = (offset) => {
    if (offset !== DR0 || sent === null) return ssiRead(offset);
    return answers.length ? answers.shift() : 0;
  };
}

function modelDormant(m) {
  dormantInte.fill(0);
  waking = false;
  const io = m.peripherals[0x40014];
  const ioRead = io.readUint32.bind(io);
  const ioWrite = io.writeUint32.bind(io);
  io.readUint32 = (offset) => {
    if (offset >= 0x160 && offset < 0x170) return dormantInte[(offset - 0x160) >> 2];
    if (offset >= 0x180 && offset < 0x190) return ioRead(0xf0 + offset - 0x180) & dormantInte[(offset - 0x180) >> 2];
    return ioRead(offset);
  };
  io.writeUint32 = (offset, value) => {
    if (offset >= 0x160 && offset < 0x170) { dormantInte[(offset - 0x160) >> 2] = value >>> 0; return; }
    ioWrite(offset, value);
  };
  const xosc = m.peripherals[0x40024];
  const xoscWrite = xosc.writeUint32.bind(xosc);
  xosc.writeUint32 = (offset, value) => {
    xoscWrite(offset, value);
    if (offset === 0x08 && value >>> 0 === 0x636f6d61) {
      dormant = true;
      dormantStats.sleeps++;
      dormantStats.since = m.clock.nanos;
      emit({ ev: 'dormant', t: m.clock.nanos });
      stopReason = stopReason || 'dormant';
      checkWake();
    }
  };
}

function wakePending() {
  const io = mcu.peripherals[0x40014];
  for (let r = 0; r < 4; r++) {
    if (dormantInte[r] && io.readUint32(0xf0 + 4 * r) & dormantInte[r]) return true;
  }
  return false;
}

function checkWake() {
  if (!mcu || !dormant || waking || !wakePending()) return;
  waking = true;
  const xosc = mcu.peripherals[0x40024];
  const delay = (xosc.startup & 0x3fff) * 256 * ((xosc.startup & 0x100000) ? 4 : 1);
  wakeAlarm.schedule(Math.max(1, delay) * 1e9 / mcu.xoscFreq);
}

function wakeUp() {
  if (!mcu || !dormant) return;
  const xosc = mcu.peripherals[0x40024];
  xosc.isDormant = false;
  xosc.stable = xosc.enabled;
  xosc.dormant = 0x77616b65;
  dormant = false;
  waking = false;
  dormantStats.wakes++;
  dormantStats.ns += mcu.clock.nanos - dormantStats.since;
  emit({ ev: 'awake', t: mcu.clock.nanos });
}

// -- SLEEP: machine.lightsleep(ms) ----------------------------------------------------------
//
// machine.lightsleep(ms) on the rp2 port is the chip's SLEEP state, not
// DORMANT: the PLLs stop, clk_sys runs from the crystal, SLEEP_EN gates every
// clock but the timer's, SCR.SLEEPDEEP is set and the core waits in WFI for
// the timer's alarm or any interrupt enabled (a Pin.irq edge). rp2040js runs
// the WFI (the time to the next alarm is skipped) but keeps no SCR: it is
// kept here, and a WFI with SLEEPDEEP set is a sleep, told as the event
// 'sleep' ('woke' when the core runs again), counted in stats and waited for
// by `run` (until 'sleep': a sleep begun during the run). WFE (MicroPython's
// waits between polls) is none.
// And WFI as ARMv6-M has it (B1.5.19) where rp2040js differs: with PRIMASK
// set, an interrupt pending and enabled ends the wait, also one pending
// before the WFI ran, and is taken only once PRIMASK is cleared. The firmware
// checks for a press and sleeps with interrupts off on that ground
// (firmware/presses.py): rp2040js instead slept through an edge that came
// just before the WFI, and took an interrupt inside the masked section.
const WFI = 0xbf30;
let scr = 0;                     // the core's SCB SCR (SLEEPDEEP is bit 2)
let asleep = false;
const sleepStats = { sleeps: 0, wakes: 0, ns: 0, since: 0, wokeAt: null };

function modelSleep(m) {
  scr = 0;
  asleep = false;
  const ppb = m.ppb;
  const ppbRead = ppb.readUint32.bind(ppb);
  const ppbWrite = ppb.writeUint32.bind(ppb);
  ppb.readUint32 = (offset) => (offset === 0xd10 ? scr : ppbRead(offset));
  ppb.writeUint32 = (offset, value) => {
    if (offset === 0xd10) scr = value & 0x16; else ppbWrite(offset, value);
  };
  const core = m.core;
  const check = core.checkForInterrupts.bind(core);
  core.checkForInterrupts = () => {
    if (core.waiting && core.PM && !core.pendingNMI) {
      if (interruptPending(core)) core.waiting = false;
      return false;
    }
    return check();
  };
}

function interruptPending(core) {
  return !!(core.pendingInterrupts & core.enabledInterrupts) || core.pendingSystick || core.pendingPendSV;
}

function coreWaits(m) {
  // The core has just stopped in a WFI or WFE.
  const core = m.core;
  if (m.readUint16((core.PC - 2) >>> 0) !== WFI) return;
  if (core.PM && interruptPending(core)) { core.waiting = false; return; }
  if (!(scr & 4) || asleep) return;
  asleep = true;
  sleepStats.sleeps++;
  sleepStats.since = m.clock.nanos;
  emit({ ev: 'sleep', t: m.clock.nanos });
  stopReason = stopReason || 'sleep';
}

function coreRuns(m) {
  // The core runs again after a sleep.
  asleep = false;
  sleepStats.wakes++;
  sleepStats.ns += m.clock.nanos - sleepStats.since;
  sleepStats.wokeAt = m.clock.nanos;
  emit({ ev: 'woke', t: m.clock.nanos });
}

// -- running -----------------------------------------------------------------------------

function runSlice(maxNs) {
  // Runs the CPU until the clock passes maxNs or an event asks to stop.
  const m = mcu;
  const core = m.core;
  const clock = m.clock;
  let n = 0;
  while (clock.nanosCounter < maxNs && !stopReason && mcu === m && n < 400000) {
    if (core.waiting || dormant) {
      let dt = clock.nanosToNextAlarm;
      if (dt <= 0 || clock.nanosCounter + dt > maxNs) dt = Math.max(1, maxNs - clock.nanosCounter);
      clock.tick(dt);
      n += 50;
    } else {
      if (asleep) coreRuns(m);
      if (profile && --profile.n <= 0) {
        profile.n = profile.every;
        const pc = core.PC >>> 0;
        profile.counts.set(pc, (profile.counts.get(pc) || 0) + 1);
        if (profile.timeline) profile.timeline.push([Math.round(clock.nanosCounter / 1000), pc]);
      }
      const cycles = core.executeInstruction();
      clock.tick(cycles * (1e9 / m.clkSys));
      if (core.waiting) coreWaits(m);
      n++;
    }
  }
  if (mcu === m) clockNanos = clock.nanosCounter;
}

// Two ways to run. A job (op "run") runs the board until the emulated time
// has advanced `ms`, or one of: "frame" (a refresh began), "idle" (a frame
// was shown, then nothing went to the panel for idle_ms), "off", "text" (the
// board printed `text`), "latch" (the power latch went high), "dormant" (the
// chip is in DORMANT), "sleep" (it went into SLEEP during the run); then reports
// "ran". Free running (op "go", until "pause") runs it at most as fast as
// real time, the way a board on the table runs, for the serial port and
// the keyboard; it reports "idle" after each shown frame.
let job = null;
let free = null;                 // {real0, emu0, frames0, idleSent}
const releases = [];             // [{name, at}] buttons to let go at an emulated time

function startRun(req) {
  const startNs = clockNanos;
  job = {
    req,
    end: startNs + (req.ms ?? 1000) * MS,
    frames0: panel.frames,
    sleeps0: sleepStats.sleeps,
    until: new Set(req.until || []),
    idleNs: (req.idle_ms ?? 300) * MS,
    start: startNs,
  };
  stopReason = null;
  if (req.mark_spi) { panel.firstSpi = null; panel.updateAt = null; }
  schedule();
}

function finish(reason) {
  const j = job;
  job = null;
  emit({
    ev: 'ran', id: j.req.id, reason, t: clockNanos, powered,
    first_spi: panel.firstSpi, update_at: panel.updateAt, latch_at: latchAt, power_on_at: powerOnAt,
    frames: panel.frames - j.frames0, dormant, sleeps: dormantStats.sleeps, wakes: dormantStats.wakes,
    asleep, light_sleeps: sleepStats.sleeps, light_wakes: sleepStats.wakes, woke_at: sleepStats.wokeAt,
  });
}

let scheduled = false;
function schedule(delay) {
  if (scheduled) return;
  scheduled = true;
  const go = () => { scheduled = false; step(); };
  if (delay) setTimeout(go, delay); else setImmediate(go);
}

function release(name) {
  const b = B.buttons.find((x) => x[0] === name);
  held.delete(name);
  if (mcu) mcu.gpio[b[1]].setInputValue(!b[2]);
  checkPower();
  checkWake();
}

function nextRelease() {
  let at = Infinity;
  for (const r of releases) at = Math.min(at, r.at);
  return at;
}

function dueReleases() {
  for (let i = releases.length - 1; i >= 0; i--) {
    if (releases[i].at <= clockNanos) {
      const r = releases.splice(i, 1)[0];
      release(r.name);
    }
  }
}

function advance(target) {
  // Up to `target`, stopping at button releases; time passes without power too.
  const rel = nextRelease();
  const to = Math.min(target, rel);
  if (powered && mcu) runSlice(to); else clockNanos = Math.max(clockNanos, to);
  dueReleases();
}

function step() {
  if (job) return stepJob();
  if (free) return stepFree();
}

function stepJob() {
  const j = job;
  for (let k = 0; k < 8 && job; k++) {
    if (!powered && j.until.has('off')) return finish('off');
    let target = j.end;
    if (j.until.has('idle') && panel.frames > j.frames0) {
      const idleAt = Math.max(panel.lastActivity, panel.busyUntil) + j.idleNs;
      if (clockNanos >= idleAt) return finish('idle');
      target = Math.min(target, idleAt);
    }
    if (!powered && !releases.length) {
      clockNanos = Math.max(clockNanos, target);
    } else {
      advance(target);
    }
    if (stopReason === 'off' && j.until.has('off')) return finish('off');
    if (stopReason === 'break') return finish('break');
    stopReason = null;
    if (j.until.has('dormant') && dormant) return finish('dormant');
    if (j.until.has('sleep') && sleepStats.sleeps > j.sleeps0) return finish('sleep');
    if (j.until.has('frame') && panel.frames > j.frames0) return finish('frame');
    if (j.until.has('latch') && latchAt !== null) return finish('latch');
    if (j.until.has('text') && serialText.includes(j.req.text)) return finish('text');
    if (clockNanos >= j.end) return finish('time');
  }
  schedule();
}

function stepFree() {
  const f = free;
  const realNs = Number(process.hrtime.bigint() - f.real0);
  const ahead = clockNanos - f.emu0 - realNs;
  if (ahead > 20 * MS) return schedule(Math.min(50, Math.floor(ahead / MS)));
  advance(clockNanos + 20 * MS);
  stopReason = null;
  if (panel.frames > f.frames0) {
    const idleAt = Math.max(panel.lastActivity, panel.busyUntil) + f.idleNs;
    if (clockNanos >= idleAt) {
      emit({ ev: 'idle', t: clockNanos, frames: panel.frames - f.frames0, powered });
      f.frames0 = panel.frames;
    }
  }
  schedule();
}

function saveFlash() {
  if (!cfg.flash_image) return;
  const tmp = cfg.flash_image + '.tmp';
  fs.writeFileSync(tmp, Buffer.concat([Buffer.from(flash.buffer, flash.byteOffset, flash.length), physical.save()]));
  fs.renameSync(tmp, cfg.flash_image);
  flashDirty = false;
}

// -- commands ------------------------------------------------------------------------------

function command(req) {
  const op = req.op;
  if (op === 'run') return startRun(req);
  if (op === 'go') {
    free = { real0: process.hrtime.bigint(), emu0: clockNanos, frames0: panel.frames, idleNs: (req.idle_ms ?? 300) * MS };
    schedule();
    return emit({ ev: 'ok', id: req.id, t: clockNanos });
  }
  if (op === 'pause') {
    free = null;
    return emit({ ev: 'ok', id: req.id, t: clockNanos });
  }
  if (op === 'tap') {
    // A press held for hold_ms of emulated time (the board wakes on it).
    const b = B.buttons.find((x) => x[0] === req.name);
    if (!b) return emit({ ev: 'error', id: req.id, msg: 'no button ' + req.name });
    held.add(b[0]);
    if (!powered && B.latch != null) powerOn();
    else if (mcu) mcu.gpio[b[1]].setInputValue(b[2]);
    checkWake();
    releases.push({ name: b[0], at: clockNanos + (req.hold_ms ?? 100) * MS });
    if (free) free.frames0 = panel.frames;
    return emit({ ev: 'ok', id: req.id, t: clockNanos, powered });
  }
  if (op === 'button') {
    const b = B.buttons.find((x) => x[0] === req.name);
    if (!b) return emit({ ev: 'error', id: req.id, msg: 'no button ' + req.name });
    if (req.down) held.add(b[0]); else held.delete(b[0]);
    if (req.down && !powered && B.latch != null) powerOn();
    else if (mcu) mcu.gpio[b[1]].setInputValue(req.down ? b[2] : !b[2]);
    if (!req.down) checkPower();
    checkWake();
    return emit({ ev: 'ok', id: req.id, t: clockNanos, powered });
  }
  if (op === 'power') {
    if (req.usb !== undefined) {
      onUsb = !!req.usb;
      if (mcu && B.vbus != null) mcu.gpio[B.vbus].setInputValue(onUsb);
      checkWake();
    }
    if (req.on === false && powered) powerOff();
    else if (req.on && !powered) powerOn();
    else if (req.reset && powered) { powerOff(); powerOn(); }
    else checkPower();
    return emit({ ev: 'ok', id: req.id, t: clockNanos, powered });
  }
  if (op === 'debug') {
    return emit({ ev: 'debug', id: req.id, t: clockNanos, pc: mcu ? mcu.core.PC >>> 0 : null,
      waiting: mcu ? mcu.core.waiting : null, cdc: cdc ? { init: cdc.initialized, out: cdc.outEndpoint, in: cdc.inEndpoint } : null,
      pending: serialPendingRead, queued: serialIn.length, flash: flashStats,
      clk_sys: mcu ? mcu.clkSys : null, clk_peri: mcu ? mcu.clkPeri : null, spi_hz: mcu ? mcu.spi[B.spi].clockFrequency : null });
  }
  if (op === 'load') {
    // The flash image file was changed by the host (the board is off).
    if (powered) return emit({ ev: 'error', id: req.id, msg: 'load needs the board off' });
    const img = fs.readFileSync(cfg.flash_image);
    flash.fill(0xff);
    flash.set(img.subarray(0, Math.min(img.length, FLASH_SIZE)));
    flash.set(firmware.subarray(0, Math.min(firmware.length, FLASH_SIZE)));
    return emit({ ev: 'ok', id: req.id, t: clockNanos });
  }
  if (op === 'bootsel') {
    // Power-on with BOOTSEL held: the ROM's drive, whatever the flash holds.
    if (powered && mcu) powerOff();
    enterBootsel();
    return emit({ ev: 'ok', id: req.id, t: clockNanos, powered });
  }
  if (op === 'cut') {
    // A power cut at the at-th flash op from now (1: the next), after
    // `fraction` of it; at 0 (or none) disarms. Reported by an event 'cut'.
    cut = req.at ? { at: req.at, fraction: Math.min(1, Math.max(0, req.fraction ?? 0.5)),
                     seed: req.seed ?? 1, seen: 0 } : null;
    return emit({ ev: 'ok', id: req.id, t: clockNanos, ops: flashStats.ops });
  }
  if (op === 'journal') {
    // [kind 'E'|'P', offset, bytes] of every flash op since the last call (start: from now).
    const ops = journal.ops;
    journal.ops = [];
    journal.on = !!req.on;
    return emit({ ev: 'journal', id: req.id, t: clockNanos, ops });
  }
  if (op === 'scratch') { scratchAtOn[req.index || 0] = req.value >>> 0; return emit({ ev: 'ok', id: req.id, t: clockNanos }); }
  if (op === 'save') { saveFlash(); return emit({ ev: 'ok', id: req.id, t: clockNanos }); }
  if (op === 'stats') {
    return emit({ ev: 'stats', id: req.id, t: clockNanos, flash: flashStats, powered, dormant,
      sleeps: dormantStats.sleeps, wakes: dormantStats.wakes, dormant_ns: dormantStats.ns,
      asleep, light_sleeps: sleepStats.sleeps, light_wakes: sleepStats.wakes, light_sleep_ns: sleepStats.ns,
      scratch: mcu ? Array.from(mcu.peripherals[0x40058].scratchData) : null,
      serial_text: serialText.slice(-2000),
      panel: Object.assign({}, panelModel.totals, { dc_max: physical.dcMax(), last: lastReport }) });
  }
  if (op === 'profile') {
    if (req.start) {
      profile = { every: req.every || 997, n: req.every || 997, counts: new Map(),
                  timeline: req.timeline ? [] : null };
      return emit({ ev: 'ok', id: req.id });
    }
    const counts = profile ? Object.fromEntries(profile.counts) : {};
    const timeline = profile ? profile.timeline : null;
    profile = null;
    return emit({ ev: 'profile', id: req.id, counts, timeline });
  }
  if (op === 'quit') {
    saveFlash();
    emit({ ev: 'bye', id: req.id, t: clockNanos });
    process.exit(0);
  }
  emit({ ev: 'error', id: req.id, msg: 'unknown op ' + op });
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return emit({ ev: 'error', msg: 'not JSON: ' + line.slice(0, 80) });
  }
  try {
    command(req);
  } catch (e) {
    emit({ ev: 'error', id: req.id, msg: String(e && e.stack || e) });
  }
});
rl.on('close', () => { saveFlash(); process.exit(0); });

emit({ ev: 'ready', rom: ROM, flash_size: FLASH_SIZE });
