// The e-ink panel of the emulated board, as a model that counts (issue 33).
//
// The board's picture is decoded from the SPI stream the firmware sends the
// panel's controller, as before; what is new is that the panel itself is
// modelled: each of its 37,888 pixels has an optical state and a DC
// account, and every refresh is worked out from the controller's registers
// as the controller would run it. So the emulator shows the picture the
// panel really shows (not what the controller's RAM claims), and counts
// what a panel maker would look at: pixels driven that did not change, the
// net DC each pixel has taken, pixels that did not reach their colour, and
// drives chosen from an "old" picture that is not the panel's.
//
// The physical panel (`Physical`):
//   - `b[p]`: how black pixel p is, 0 (white) to 1 (black); it shows ink at
//     0.5 or more. A frame of drive moves it by volts x ms / Q_VMS, clamped:
//     Q_VMS = 800 V.ms is the drive that takes a pixel all the way across.
//     Why that figure: antirez's UC8151 driver, measured on a real Badger
//     2040, switches the panel with its fastest waveform ("speed 6": 8
//     frames at 100 Hz with +-10 V on the pixels that change, 147 ms from
//     the update call to the settled picture; README, "Update latency").
//     A waveform with less drive than that is taken not to reach its colour.
//   - `dc[p]`: the net DC the pixel has seen over the run, relative to VCOM,
//     in frames of 10 ms at full level (one frame of VDH or VDL against VCOM
//     at 100 Hz counts 1; a frame of VDH against VCOML counts 2). A pixel
//     that sits black through an evening of waveforms that drive black
//     pixels towards black collects DC at every update: the burn-in of
//     antirez's README, "Burn-ins due to wrong LUTs".
//   - p = y * 296 + x in the landscape picture (our framebuffer's order).
//   The physical panel survives power cuts (e-ink keeps its picture); the
//   controller's RAM and registers do not.
//
// The UC8151 (`UC8151`; Badger 2040, Pico Inky Pack), from its command set
// (UC8151 / IL0373 datasheets; the command names as Pimoroni's driver uses
// them):
//   - DTM1 (0x10) holds the "old" picture, DTM2 (0x13) the new one; bit 1 is
//     white. After a power-on or a hardware reset their contents are noise
//     (the controller promises nothing kept), so a driver that relies on
//     DTM1 must write it after the reset.
//   - PSR (0x00) bit 5: the waveform from OTP (0) or from the LUT registers
//     (1); bits 3 and 2 the scan directions (which RAM byte is which pixel).
//   - PWR (0x01) bytes 2, 3: VDH and VDL, 2.4 V + 0.2 V a step (0x26: 10 V,
//     0x2b: 11 V). PLL (0x30): the frame rate (29 to 200 Hz).
//   - The LUTs: VCOM (0x20) and one a transition, chosen per pixel by its
//     DTM1 and DTM2 bits: white->white (0x21), black->white (0x22),
//     white->black (0x23), black->black (0x24). Each is 7 groups of 6 bytes:
//     the levels of four phases (two bits each, phase A in the top bits:
//     00 GND, 01 VDH, 10 VDL, 11 floating; for VCOM 00 its DC level, 01 VDH
//     above it, 10 VDL, 11 floating), the four phases' frame counts, and
//     how many times the group repeats. The groups run one after the other;
//     the refresh lasts as long as the longest of the five tables.
//   - A refresh from OTP runs the panel's own waveform, which cannot be read:
//     the model takes it as a time (`otpMs`, 4.5 s as Pimoroni's driver
//     waits for it) that leaves every pixel at its new colour, fully, with
//     no net DC (the waveforms Pimoroni keeps "for reference" as the panel's
//     built-in ones are charge-neutral in every transition).
//   - PTIN/PTL/PTOU (0x91/0x90/0x92): the partial window (Pimoroni's
//     partial_update): the data fills the window only, and a refresh drives
//     only its pixels.
//   - DSLP (0x07, 0xA5): deep sleep; nothing is taken until a hardware reset.
//
// A refresh's report (`refresh()`): its time, whether it was a full
// refresh (from OTP, or every pixel driven, those that keep their colour
// both ways and charge-neutral: a cleaning flash), and per pixel counted:
//   changed           pixels whose colour changes (the panel's, to DTM2's)
//   unchanged_driven  pixels that keep their colour but were driven at all
//   not_reached       changed pixels that did not reach their new colour
//   shows_wrong       pixels that do not show DTM2's colour afterwards
//   wrong_drives      pixels driven by the table of another transition than
//                     their own, because DTM1 did not hold what the panel
//                     showed (a table the same as their own does no harm)
//   drive             the net DC of each transition's table, and `drive_max`
//                     the most of the two that change a colour: "one
//                     update's drive"
//   dc_max            the most |accumulated DC| of any pixel, afterwards

export const W = 296;
export const H = 128;
export const N = W * H;
export const RAM = 4736;
export const Q_VMS = 800;
const DC_FRAME_MS = 10;

// Frame rates of the UC8151's PLL register (datasheet "PLL control"; the
// values Pimoroni's driver names in uc8151.hpp, PLL_FLAGS).
export const PLL_HZ = { 0x3f: 29, 0x3e: 33, 0x3d: 40, 0x3c: 50, 0x3b: 67, 0x3a: 100, 0x39: 200 };
const CLASSES = [0x21, 0x22, 0x23, 0x24];      // the tables of WW, BW, WB, BB (cls())
const NAMES = ['ww', 'bw', 'wb', 'bb'];

function rng(seed) {
  let x = (seed >>> 0) || 0x9e3779b9;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x & 0xff; };
}

// The transition's table: 0 ww, 1 bw, 2 wb, 3 bb, from the old and new ink.
function cls(oldInk, newInk) {
  return oldInk ? (newInk ? 3 : 1) : (newInk ? 2 : 0);
}

export class Physical {
  constructor() {
    this.b = new Float32Array(N);
    this.dc = new Float32Array(N);
  }

  ink(p) {
    return this.b[p] >= 0.5 ? 1 : 0;
  }

  // MONO_HLSB rows of 37 bytes, 1 = ink: the picture the panel shows.
  rows() {
    const out = new Uint8Array(RAM);
    const b = this.b;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        if (b[y * W + x] >= 0.5) out[y * 37 + (x >> 3)] |= 0x80 >> (x & 7);
      }
    }
    return out;
  }

  dcMax() {
    let m = 0;
    for (let p = 0; p < N; p++) {
      const v = Math.abs(this.dc[p]);
      if (v > m) m = v;
    }
    return Math.round(m * 1000) / 1000;
  }

  // The state kept with the board's flash file (the panel belongs to the
  // board: a copy of the file is a copy of the board, picture included).
  save() {
    const head = Buffer.from('PKPANEL1');
    return Buffer.concat([head, Buffer.from(this.b.buffer), Buffer.from(this.dc.buffer)]);
  }

  load(buf) {
    if (!buf || buf.length < 8 + 8 * N || buf.subarray(0, 8).toString() !== 'PKPANEL1') return false;
    const copy = new Uint8Array(buf.subarray(8, 8 + 8 * N));
    this.b.set(new Float32Array(copy.buffer, 0, N));
    this.dc.set(new Float32Array(copy.buffer, 4 * N, N));
    return true;
  }
}

// One table's run: [[level, frames], ...] in time order.
function lutRuns(lut) {
  const runs = [];
  for (let g = 0; g < 7; g++) {
    const o = g * 6;
    const sel = lut[o] | 0, rep = lut[o + 5] | 0;
    for (let r = 0; r < rep; r++) {
      for (let k = 0; k < 4; k++) {
        const f = lut[o + 1 + k] | 0;
        if (f) runs.push([(sel >> (6 - 2 * k)) & 3, f]);
      }
    }
  }
  return runs;
}

function frames(runs) {
  let n = 0;
  for (const r of runs) n += r[1];
  return n;
}

// The pixel's drive in a frame: level units (VDH and VCOMH +1, VDL and
// VCOML -1) and volts, or 0 where the source or VCOM floats.
function driveOf(src, com, vdh, vdl) {
  if (src === 3 || com === 3) return [0, 0];
  const sl = src === 1 ? 1 : src === 2 ? -1 : 0;
  const sv = src === 1 ? vdh : src === 2 ? -vdl : 0;
  const cl = com === 1 ? 1 : com === 2 ? -1 : 0;
  const cv = com === 1 ? vdh : com === 2 ? -vdl : 0;
  return [sl - cl, sv - cv];
}

// The register waveform of each transition: [{level, volts, frames}] runs
// with VCOM merged in; its net DC, and whether it drives either way.
export function waveforms(luts, pwr) {
  const vdh = 2.4 + 0.2 * ((pwr[2] ?? 0x26) & 0x3f);
  const vdl = 2.4 + 0.2 * ((pwr[3] ?? 0x26) & 0x3f);
  const vcom = lutRuns(luts[0x20] || []);
  const out = [];
  let total = frames(vcom);
  const pix = CLASSES.map((c) => lutRuns(luts[c] || []));
  for (const r of pix) total = Math.max(total, frames(r));
  for (let c = 0; c < 4; c++) {
    const a = pix[c];
    const segs = [];
    let i = 0, j = 0, ai = a.length ? a[0][1] : 0, vj = vcom.length ? vcom[0][1] : 0;
    let t = 0;
    while (t < total) {
      const src = i < a.length ? a[i][0] : 0;
      const com = j < vcom.length ? vcom[j][0] : 0;
      const left = Math.min(i < a.length ? ai : Infinity, j < vcom.length ? vj : Infinity, total - t);
      const [level, volts] = driveOf(src, com, vdh, vdl);
      const last = segs[segs.length - 1];
      if (last && last.level === level && last.volts === volts) last.frames += left;
      else segs.push({ level, volts, frames: left });
      t += left;
      if (i < a.length) { ai -= left; if (ai <= 0) { i++; ai = i < a.length ? a[i][1] : 0; } }
      if (j < vcom.length) { vj -= left; if (vj <= 0) { j++; vj = j < vcom.length ? vcom[j][1] : 0; } }
    }
    let net = 0, pos = false, neg = false;
    for (const s of segs) {
      net += s.level * s.frames;
      if (s.level > 0) pos = true;
      if (s.level < 0) neg = true;
    }
    out.push({ segs, net, driven: pos || neg, pos, neg });
  }
  return { classes: out, frames: total, vdh, vdl };
}

function sameWave(a, b) {
  if (a.segs.length !== b.segs.length) return false;
  for (let k = 0; k < a.segs.length; k++) {
    const x = a.segs[k], y = b.segs[k];
    if (x.level !== y.level || x.volts !== y.volts || x.frames !== y.frames) return false;
  }
  return true;
}

// A pixel's blackness after the first `upto` frames of a waveform.
function run(b, wave, frameMs, upto) {
  let left = upto;
  for (const s of wave.segs) {
    if (left <= 0) break;
    const f = Math.min(s.frames, left);
    left -= f;
    if (s.volts) {
      b += (s.volts * f * frameMs) / Q_VMS;
      if (b < 0) b = 0; else if (b > 1) b = 1;
    }
  }
  return b;
}

// The run's totals (a controller's `totals`) after the refresh `rep`.
function newTotals() {
  return { updates: 0, full: 0, fast: 0, wrong_drives: 0, unchanged_driven: 0,
           unchanged_driven_max: 0, not_reached: 0, shows_wrong: 0, cut_short: 0 };
}

function count(t, rep, P) {
  rep.dc_max = P.dcMax();
  t.updates++;
  if (rep.full) t.full++; else t.fast++;
  t.wrong_drives += rep.wrong_drives;
  t.not_reached += rep.not_reached;
  t.shows_wrong += rep.shows_wrong;
  if (!rep.full) {
    t.unchanged_driven += rep.unchanged_driven;
    t.unchanged_driven_max = Math.max(t.unchanged_driven_max, rep.unchanged_driven);
  }
}

export class UC8151 {
  constructor(physical, opts = {}) {
    this.panel = physical;
    this.otpMs = opts.otpMs ?? 4500;
    this.seed = opts.seed ?? 1;
    this.dtm1 = new Uint8Array(RAM);
    this.dtm2 = new Uint8Array(RAM);
    this.maps = {};
    this.pending = null;
    this.totals = newTotals();
    this.powerOn();
  }

  noise() {
    const r = rng(this.seed++ * 2654435761);
    for (let i = 0; i < RAM; i++) { this.dtm1[i] = r(); this.dtm2[i] = r(); }
  }

  defaults() {
    this.psr = 0;
    this.pll = 0x3c;
    this.pwr = [0x03, 0x00, 0x26, 0x26, 0x03];
    this.luts = {};
    this.partial = false;
    this.window = null;
    this.asleep = false;
  }

  powerOn() {
    this.defaults();
    this.noise();
  }

  // The hardware reset (RST low, then high): registers to their defaults,
  // the RAM holds nothing known; it is also the only way out of deep sleep.
  reset() {
    this.defaults();
    this.noise();
  }

  // RAM byte index -> pixel index, for the scan directions of PSR (bits 3
  // and 2). As the panel is mounted on the Badger 2040 / Pico Inky Pack:
  // gate G295 at the left edge, source S0 at the top. UD 0 (scan down)
  // sends the first line of RAM to G295, so RAM column 0 is the left edge;
  // SHL 1 (shift right) puts a line's first bit on S0, the top. Pimoroni's
  // driver sets SCAN_DOWN | SHIFT_RIGHT for an upright picture.
  map() {
    const key = this.psr & 0x0c;
    if (this.maps[key]) return this.maps[key];
    const ud = !!(this.psr & 0x08), shl = !!(this.psr & 0x04);
    const m = new Int32Array(RAM * 8);
    for (let sx = 0; sx < W; sx++) {
      const x = ud ? W - 1 - sx : sx;
      for (let yb = 0; yb < 16; yb++) {
        const i = sx * 16 + (shl ? yb : 15 - yb);
        for (let k = 0; k < 8; k++) {
          const y = yb * 8 + k;
          const bit = shl ? 7 - k : k;        // bit (7 - bit) of byte i, see inkAt
          m[i * 8 + (7 - bit)] = y * W + x;
        }
      }
    }
    this.maps[key] = m;
    return m;
  }

  command(c) {
    if (this.asleep) return null;
    if (c === 0x91) this.partial = true;
    else if (c === 0x92) this.partial = false;
    else if (c === 0x12) return this.refresh();
    return null;
  }

  data(c, i, v) {
    if (this.asleep) return;
    if (c === 0x10 || c === 0x13) {
      const ram = c === 0x10 ? this.dtm1 : this.dtm2;
      const at = this.windowIndex(i);
      if (at >= 0 && at < RAM) ram[at] = v;
    } else if (c === 0x00) {
      if (i === 0) this.psr = v;
    } else if (c === 0x01) {
      if (i < 5) this.pwr[i] = v;
    } else if (c === 0x30) {
      if (i === 0) this.pll = v;
    } else if (c >= 0x20 && c <= 0x24) {
      (this.luts[c] = this.luts[c] || [])[i] = v;
    } else if (c === 0x90) {
      (this.window = this.window || [])[i] = v;
    } else if (c === 0x07) {
      if (i === 0 && v === 0xa5) this.asleep = true;
    }
  }

  // The partial window (PTL: source start and end, 8 a byte; gate start and
  // end, nine bits each): [s0 byte, s1 byte, g0, g1], or the whole RAM.
  win() {
    const w = this.window;
    if (!this.partial || !w || w.length < 6) return [0, 15, 0, W - 1];
    const s0 = (w[0] >> 3) & 0x1f, s1 = (w[1] >> 3) & 0x1f;
    const g0 = ((w[2] & 1) << 8) | w[3], g1 = ((w[4] & 1) << 8) | w[5];
    return [Math.min(s0, 15), Math.min(s1, 15), Math.min(g0, W - 1), Math.min(g1, W - 1)];
  }

  windowIndex(i) {
    if (!this.partial) return i;
    const [s0, s1, g0] = this.win();
    const per = s1 - s0 + 1;
    return (g0 + Math.floor(i / per)) * 16 + s0 + (i % per);
  }

  // A LUT table begins again with each command that writes it.
  lutStart(c) {
    if (c >= 0x20 && c <= 0x24) this.luts[c] = [];
    if (c === 0x90) this.window = [];
  }

  frameNs() {
    return 1e9 / (PLL_HZ[this.pll] || 50);
  }

  // DRF: work the refresh out and apply it to the panel. Returns its report
  // with `ns` (BUSY's length) and `rows` (the picture shown afterwards).
  refresh() {
    const P = this.panel;
    const otp = !(this.psr & 0x20);
    const [s0, s1, g0, g1] = this.win();
    const whole = s0 === 0 && s1 === 15 && g0 === 0 && g1 === W - 1;
    const map = this.map();
    const before = { b: P.b.slice(), dc: P.dc.slice() };
    const rep = { full: false, partial: !whole, changed: 0, unchanged_driven: 0, not_reached: 0,
                  shows_wrong: 0, wrong_drives: 0 };
    let waves = null, ns, frameMs = 0;
    if (otp) {
      ns = this.otpMs * 1e6;
      rep.full = whole;
      rep.drive = null;
      rep.drive_max = 0;
    } else {
      waves = waveforms(this.luts, this.pwr);
      const fns = this.frameNs();
      frameMs = fns / 1e6;
      ns = waves.frames * fns;
      const k = waves.classes;
      // the waves' DC in frames of 10 ms
      for (const w of k) w.netFrames = (w.net * frameMs) / DC_FRAME_MS;
      rep.drive = {};
      NAMES.forEach((n, c) => { rep.drive[n] = Math.round(k[c].netFrames * 1000) / 1000; });
      rep.drive_max = Math.max(Math.abs(k[1].netFrames), Math.abs(k[2].netFrames));
      rep.full = whole && k.every((w) => w.driven) && k[0].net === 0 && k[3].net === 0 &&
        k[0].pos && k[0].neg && k[3].pos && k[3].neg;
      rep.frames = waves.frames;
      rep.hz = PLL_HZ[this.pll] || 50;
    }
    const classes = new Uint8Array(N).fill(255);     // 255: outside the window
    // Which tables drive alike (a wrong old picture that selects a table
    // the same as the pixel's own does no harm), and each table's result
    // from a pixel fully white or fully black (most pixels are).
    const same = [], ends = [];
    if (!otp) {
      for (let a = 0; a < 4; a++) {
        same.push([0, 1, 2, 3].map((b) => sameWave(waves.classes[a], waves.classes[b])));
        ends.push([run(0, waves.classes[a], frameMs, waves.frames), run(1, waves.classes[a], frameMs, waves.frames)]);
      }
    }
    for (let g = g0; g <= g1; g++) {
      for (let sb = s0; sb <= s1; sb++) {
        const i = g * 16 + sb;
        const d1 = this.dtm1[i], d2 = this.dtm2[i];
        for (let bit = 0; bit < 8; bit++) {
          const p = map[i * 8 + bit];
          const sh = 7 - bit;
          const oldInk = ((d1 >> sh) & 1) ^ 1, newInk = ((d2 >> sh) & 1) ^ 1;
          const shown = P.ink(p);
          const c = cls(oldInk, newInk);
          classes[p] = c;
          if (shown !== newInk) rep.changed++;
          if (otp) {
            P.b[p] = newInk;
            continue;
          }
          const w = waves.classes[c];
          if (!same[c][cls(shown, newInk)]) rep.wrong_drives++;
          if (shown === newInk && w.driven) rep.unchanged_driven++;
          const b0 = P.b[p];
          const b1 = b0 === 0 ? ends[c][0] : b0 === 1 ? ends[c][1] : run(b0, w, frameMs, waves.frames);
          P.b[p] = b1;
          P.dc[p] += w.netFrames;
          if (shown !== newInk && b1 !== newInk) rep.not_reached++;
        }
      }
    }
    // (outside the window the panel keeps its picture; DTM2 there is not shown)
    rep.shows_wrong = this.showsWrong(classes, map, g0, g1, s0, s1);
    rep.ns = ns;
    count(this.totals, rep, P);
    this.pending = { before, classes, waves, frameMs, ns, otp };
    rep.rows = P.rows();
    return rep;
  }

  // Pixels in the window that do not show DTM2's colour after the refresh.
  showsWrong(classes, map, g0, g1, s0, s1) {
    let n = 0;
    for (let g = g0; g <= g1; g++) {
      for (let sb = s0; sb <= s1; sb++) {
        const i = g * 16 + sb;
        const d2 = this.dtm2[i];
        for (let bit = 0; bit < 8; bit++) {
          const p = map[i * 8 + bit];
          if (this.panel.ink(p) !== (((d2 >> (7 - bit)) & 1) ^ 1)) n++;
        }
      }
    }
    return n;
  }

  // The refresh just made is over (BUSY released): it stays as worked out.
  settle() {
    this.pending = null;
  }

  // The power went `elapsedNs` into the refresh: the pixels took only the
  // frames run so far (a refresh from OTP leaves the pixels it drives
  // half-way: grey, neither colour for sure). Returns the picture then.
  cutShort(elapsedNs) {
    const q = this.pending;
    this.pending = null;
    if (!q || elapsedNs >= q.ns) return null;
    const P = this.panel;
    P.b.set(q.before.b);
    P.dc.set(q.before.dc);
    const upto = q.otp ? 0 : Math.floor(elapsedNs / (q.frameMs * 1e6));
    for (let p = 0; p < N; p++) {
      const c = q.classes[p];
      if (c === 255) continue;
      if (q.otp) { P.b[p] = 0.5; continue; }
      const w = q.waves.classes[c];
      P.b[p] = run(P.b[p], w, q.frameMs, upto);
      let net = 0, left = upto;
      for (const s of w.segs) { const f = Math.min(s.frames, left); left -= f; net += s.level * f; if (left <= 0) break; }
      P.dc[p] += (net * q.frameMs) / DC_FRAME_MS;
    }
    this.totals.cut_short++;
    return P.rows();
  }
}


// The SSD1680 (the Pico + Waveshare Pico-ePaper-2.9 build), from Solomon
// Systech's datasheet. Two RAMs of 176 sources x 296 gates (22 bytes a gate
// line): 0x24 the picture to show, 0x26 the previous one. Bytes written go
// where the address counters point, which then move as the data entry mode
// (0x11) says: X (bytes) and Y (gate lines) each up or down, X first or Y
// first, wrapping inside the window (0x44/0x45); 0x4E/0x4F set the counters.
// Display update control 2 (0x22) says what the activation (0x20) does:
// display mode 1 (a full refresh: every pixel shows 0x24) or mode 2 (only
// pixels whose 0x24 and 0x26 bits differ are driven; the others keep what
// the panel showed), with a waveform loaded from OTP (bit 0x10) or by 0x32.
// Its waveforms are the panel's own (OTP): the model takes them as times
// (the profile's update times), every pixel they drive reaching its colour
// with no net DC. What it counts is what a driver decides: in mode 2 a
// pixel whose 0x26 bit is not what the panel shows is driven by the wrong
// rule (a wrong drive: changed and not driven, or unchanged and driven).
// The picture as the module is mounted in Waveshare's landscape mode: gate
// line g is column x = g (295 - g with the driver output's TB bit), source s
// is row y = 127 - s. Deep sleep (0x10) is left to the emulator's pins.
export const SSD_LINE = 22;

export class SSD1680 {
  constructor(physical, opts = {}) {
    this.panel = physical;
    this.fullMs = opts.fullMs ?? 2000;
    this.fastMs = opts.fastMs ?? 300;
    this.ram24 = new Uint8Array(SSD_LINE * W);
    this.ram26 = new Uint8Array(SSD_LINE * W);
    this.seed = opts.seed ?? 7;
    this.totals = newTotals();
    this.defaults();
  }

  // At power-on the RAMs hold noise.
  noise() {
    const r = rng(this.seed++ * 2246822519);
    for (const ram of [this.ram24, this.ram26]) {
      for (let i = 0; i < ram.length; i++) ram[i] = r();
    }
  }

  defaults() {
    this.entry = 0x03; this.xs = 0; this.xe = SSD_LINE - 1; this.ys = 0; this.ye = W - 1;
    this.x = 0; this.y = 0; this.ctl2 = 0xff; this.tb = 0; this.lut = false;
  }

  ramByte(cmd, v) {
    const ram = cmd === 0x24 ? this.ram24 : this.ram26;
    if (this.x < SSD_LINE && this.y < W) ram[this.y * SSD_LINE + this.x] = v;
    const xUp = this.entry & 1, yUp = this.entry & 2, yFirst = this.entry & 4;
    const stepX = () => {
      if (xUp) { if (this.x >= this.xe) { this.x = this.xs; return true; } this.x++; }
      else { if (this.x <= this.xs) { this.x = this.xe; return true; } this.x--; }
      return false;
    };
    const stepY = () => {
      if (yUp) { if (this.y >= this.ye) { this.y = this.ys; return true; } this.y++; }
      else { if (this.y <= this.ys) { this.y = this.ye; return true; } this.y--; }
      return false;
    };
    if (yFirst) { if (stepY()) stepX(); } else if (stepX()) stepY();
  }

  data(c, i, v) {
    if (c === 0x24 || c === 0x26) this.ramByte(c, v);
    else if (c === 0x01 && i === 2) this.tb = v & 1;
    else if (c === 0x11 && i === 0) this.entry = v & 7;
    else if (c === 0x44) { if (i === 0) this.xs = v & 0x3f; else if (i === 1) this.xe = v & 0x3f; }
    else if (c === 0x45) {
      if (i === 0) this.ys = (this.ys & 0x100) | v; else if (i === 1) this.ys = (this.ys & 0xff) | ((v & 1) << 8);
      else if (i === 2) this.ye = (this.ye & 0x100) | v; else if (i === 3) this.ye = (this.ye & 0xff) | ((v & 1) << 8);
    }
    else if (c === 0x4e && i === 0) this.x = v & 0x3f;
    else if (c === 0x4f) { if (i === 0) this.y = (this.y & 0x100) | v; else if (i === 1) this.y = (this.y & 0xff) | ((v & 1) << 8); }
    else if (c === 0x22 && i === 0) this.ctl2 = v;
    else if (c === 0x32) this.lut = true;
  }

  // The activation (0x20): null when it only switches the clock or the
  // analog part ({busyMs}), else the refresh's report as UC8151.refresh's.
  activate() {
    const c = this.ctl2;
    if (c & 0x10) this.lut = true;
    if (!(c & 0x04)) return { busyMs: c & 0x40 ? 50 : 1 };
    const mode2 = !!(c & 0x08);
    const P = this.panel;
    const rep = { full: !mode2, partial: false, changed: 0, unchanged_driven: 0, not_reached: 0,
                  shows_wrong: 0, wrong_drives: 0, drive: null, drive_max: 0 };
    for (let g = 0; g < W; g++) {
      const x = this.tb ? W - 1 - g : g;
      for (let s = 0; s < H; s++) {
        const i = g * SSD_LINE + (s >> 3), sh = 7 - (s & 7);
        const p = (H - 1 - s) * W + x;
        const newInk = ((this.ram24[i] >> sh) & 1) ^ 1;
        const oldInk = ((this.ram26[i] >> sh) & 1) ^ 1;
        const shown = P.ink(p);
        if (shown !== newInk) rep.changed++;
        if (!this.lut) continue;          // no waveform loaded: nothing moves
        const driven = !mode2 || oldInk !== newInk;
        if (mode2 && oldInk !== shown) rep.wrong_drives++;
        if (mode2 && driven && shown === newInk) rep.unchanged_driven++;
        if (driven) P.b[p] = newInk;
        if (P.ink(p) !== newInk) rep.shows_wrong++;
      }
    }
    rep.ns = (mode2 ? this.fastMs : this.fullMs) * 1e6;
    count(this.totals, rep, P);
    rep.rows = P.rows();
    return rep;
  }
}
