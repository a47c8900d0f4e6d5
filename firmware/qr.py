"""QR codes on the board: a text (bytes) in one QR Code symbol, as a phone's
camera reads it (ISO/IEC 18004:2015), for the end of a game's sheet
(firmware/flows/qr.py, firmware/screens/qr.py).

Only what the board needs, each step a function named after the standard's:

- one segment in byte mode (7.4.5), preceded by an ECI designator for
  UTF-8 (7.4.2, assignment 26) when the text is not plain ASCII. Why the
  ECI: without it a reader guesses the bytes' character set, and Persian
  or Mongolian in UTF-8 are also valid Shift JIS, a guess the iPhone's
  camera and ZXing have been seen to make; Apple's own generator writes
  UTF-8 with this ECI, ZXing and zxing-cpp read it, and Google's ML Kit
  reads UTF-8 either way. Plain ASCII goes without it, as every reader
  takes it.
- versions 1 to 6 at error correction level M or L (the largest symbol
  whose modules are 2 pixels on the 128-pixel panel: 41 modules and the
  4-module quiet zone, 98 pixels): ``choose`` takes the smallest version
  that holds the text at M, else the smallest at L. At most 134 bytes
  (version 6-L, 133 with the ECI); the caller pages a longer text.
- the data codewords (7.4.9-7.4.10), the Reed-Solomon error correction
  codewords in GF(256) (7.5.2), split into blocks and interleaved (7.6),
  the function patterns (6.3.3-6.3.6), the codewords' placement (7.7.3),
  the mask with the lowest penalty (7.8.2-7.8.3), the format information
  (7.9). No version information: that is for versions 7 and up.

Small on purpose, as its code is heap on the stock image (loaded with the
QR screen) and flash on the scorer's own: the tables are a few bytes, the
field's logarithms are built when the module loads (512 bytes), and the
symbol is one bytearray of a byte a module (bit 0 dark, bit 1 a function
module), which the caller may allocate where its heap has room
(``encode``'s ``into``). What runs over every module (the placement, the
masks, their penalties: eight masks over 1,681 modules at version 6) and
the Reed-Solomon division run in native code (viper) on the board, kept
to loops over bytes: no division (the RP2040 has no instruction for it,
and viper called the runtime for each), no calls; the rest is a few calls
to what MicroPython does in C (an int's bytes, slices). A version-6 code
takes the board some 90 ms (stock image, emulated clock). The same
functions run as plain Python on CPython, where the tests check every
symbol against a real decoder (zxing-cpp).
"""

# Few names at the module's level, on purpose: each is a slot of its
# globals, whose table grows by blocks while the module loads, and on a
# tight heap such a block (464 or 592 bytes on the unix port) was what ran
# out. MicroPython's compiler takes ``@micropython.viper`` itself, with no
# name to look up; CPython (the tests) runs the functions as plain Python.
import sys
if sys.implementation.name != "micropython":
    class micropython:  # noqa: N801 (the name the viper decorator is written with)
        @staticmethod
        def viper(f):
            return f

    def ptr8(x):  # (viper's type: an annotation, and a cast that is nothing here)
        return x
del sys

L = 1           # the error correction levels as the format information codes them
M = 0
VERSIONS = 6    # the largest version made

# Per level, per version 1..6 (Table 9): error correction codewords a
# block, blocks, data codewords in all (6 bytes each). At L and M up to
# version 6 all blocks of a symbol hold the same number of data codewords.
_SIZES = {L: b"\x07\x0a\x0f\x14\x1a\x12" b"\x01\x01\x01\x01\x01\x02" b"\x13\x22\x37\x50\x6c\x88",
          M: b"\x0a\x10\x1a\x12\x18\x10" b"\x01\x01\x01\x02\x02\x04" b"\x10\x1c\x2c\x40\x56\x6c"}

# The function patterns a row at a time, a byte a module (3 dark, 2 light:
# function modules): a finder pattern (6.3.3) between its separators
# (6.3.4), nine modules a row, and the separator's row (72 bytes); then the
# alignment pattern (6.3.6), five a row.
_PATTERNS = (b"\x02\x03\x03\x03\x03\x03\x03\x03\x02" b"\x02\x03\x02\x02\x02\x02\x02\x03\x02"
           b"\x02\x03\x02\x03\x03\x03\x02\x03\x02" b"\x02\x03\x02\x03\x03\x03\x02\x03\x02"
           b"\x02\x03\x02\x03\x03\x03\x02\x03\x02" b"\x02\x03\x02\x02\x02\x02\x02\x03\x02"
             b"\x02\x03\x03\x03\x03\x03\x03\x03\x02" b"\x02\x02\x02\x02\x02\x02\x02\x02\x02"
             b"\x03\x03\x03\x03\x03" b"\x03\x02\x02\x02\x03" b"\x03\x02\x03\x02\x03"
             b"\x03\x02\x02\x02\x03" b"\x03\x03\x03\x03\x03")

# The mask patterns (Table 10), with i the row and j the column: each is
# periodic in i with period 12 and in j with period 6 (its terms are i % 2,
# i % 3, i // 2 % 2, j % 2, j % 3, j // 3 % 2 and their products), so
# mask k is 12 bytes, byte i % 12 holding in bit j % 6 whether the module
# flips. A table rather than the formulas: native code on the RP2040 has no
# division, and viper called the runtime for each % (tests/firmware/test_qr.py
# checks it against the formulas).
_MASKS = (b"\x15\x2a\x15\x2a\x15\x2a\x15\x2a\x15\x2a\x15\x2a"
          b"\x3f\x00\x3f\x00\x3f\x00\x3f\x00\x3f\x00\x3f\x00"
          b"\x09\x09\x09\x09\x09\x09\x09\x09\x09\x09\x09\x09"
          b"\x09\x24\x12\x09\x24\x12\x09\x24\x12\x09\x24\x12"
          b"\x07\x07\x38\x38\x07\x07\x38\x38\x07\x07\x38\x38"
          b"\x3f\x01\x09\x15\x09\x01\x3f\x01\x09\x15\x09\x01"
          b"\x3f\x07\x1b\x15\x2d\x31\x3f\x07\x1b\x15\x2d\x31"
          b"\x15\x38\x31\x2a\x07\x0e\x15\x38\x31\x2a\x07\x0e")

# GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1 (7.5.2): _GF[i] = 2^i for i
# below 255, _GF[256 + x] the logarithm of x (a sum of two logarithms is
# taken modulo 255 by a subtraction).
_GF = bytearray(512)


def _field(gf):
    x = 1
    for i in range(255):
        gf[i] = x
        gf[256 + x] = i
        x <<= 1
        if x & 0x100:
            x ^= 0x11D


_field(_GF)
del _field      # (a name less: see above)


def size_of(version):
    """Modules a side (6.3.1)."""
    return 17 + 4 * version


def needs_eci(data):
    """Whether ``data`` has bytes beyond ASCII (then it is said to be UTF-8)."""
    return bool(data) and max(data) > 127


def capacity(version, level, eci=False):
    """The bytes a symbol holds in one byte-mode segment (8-bit count: up
    to version 9), after an ECI designator if ``eci``."""
    return (_SIZES[level][11 + version] * 8 - 12 - (12 if eci else 0)) // 8


def choose(data):
    """(version, level) for ``data``: the smallest version that holds it at
    M, else the smallest at L; None when version 6-L cannot."""
    eci = needs_eci(data)
    for level in (M, L):
        for version in range(1, VERSIONS + 1):
            if len(data) <= capacity(version, level, eci):
                return version, level
    return None


# -- error correction (7.5) -----------------------------------------------------------

def generator(degree):
    """The generator polynomial of ``degree`` error correction codewords,
    (x - 2^0)(x - 2^1)...(x - 2^(degree-1)), its coefficients highest
    power first without the leading 1, as logarithms (none is 0)."""
    gf = _GF
    g = bytearray(degree + 1)
    g[0] = 1
    for i in range(degree):
        # g *= (x + 2^i), lowest power first: from the top down, each
        # coefficient gains the one below it times 2^i (the one at 0: no
        # coefficient is 0)
        for j in range(i + 1, -1, -1):
            e = gf[256 + g[j]] + i
            c = gf[e - 255 if e >= 255 else e] if g[j] else 0
            g[j] = g[j - 1] ^ c if j else c
    return bytearray(gf[256 + g[degree - 1 - j]] for j in range(degree))


@micropython.viper
def _divide(data: ptr8, start: int, count: int, gen: ptr8, n: int, rem: ptr8, at: int, gf: ptr8):
    # The error correction codewords of data[start:start + count] into
    # rem[at:at + n]: the remainder of its polynomial times x^n divided by
    # the generator (``generator``), by long division.
    for k in range(start, start + count):
        factor = data[k] ^ rem[at]
        for j in range(n - 1):
            rem[at + j] = rem[at + j + 1]
        rem[at + n - 1] = 0
        if factor:
            lf = gf[256 + factor]
            for j in range(n):
                e = gen[j] + lf
                if e >= 255:
                    e -= 255
                rem[at + j] = rem[at + j] ^ gf[e]


def codewords(data, version, level):
    """The final sequence of codewords (7.4.9-7.6): the data codewords (the
    segments, the terminator, padding to the codeword and the pad
    codewords 0xEC 0x11 in turn) split into blocks, each block's error
    correction codewords, both interleaved a codeword of each block in
    turn.

    The data's bit stream is one integer, made and cut into bytes by
    MicroPython in C: the designators and the count, the bytes, then the
    terminator's four 0 bits and, with the ECI, the four more that end the
    codeword."""
    t = _SIZES[level]
    v = version - 1
    ec, blocks, n = t[v], t[6 + v], t[12 + v]
    k = len(data)
    if needs_eci(data):
        # 0111 (ECI), 00011010 (UTF-8, 26: one byte, 0xxxxxxx), 0100 (byte
        # mode), the count: 24 bits, the bytes, then eight 0 bits
        head, tail, length = 0x71A400 | k, 8, k + 4
    else:
        head, tail, length = 0x400 | k, 4, k + 2      # 0100 (byte mode), the count: 12 bits
    bits = ((head << 8 * k) | int.from_bytes(data, "big")) << tail
    dc = bytearray(bits.to_bytes(length, "big")[:n])
    dc += (b"\xec\x11" * (n // 2))[:n - len(dc)]
    per = n // blocks
    gen = generator(ec)
    ecc = bytearray(blocks * ec)
    for b in range(blocks):
        _divide(dc, b * per, per, gen, ec, ecc, b * ec, _GF)
    if blocks == 1:
        return dc + ecc
    out = bytearray(n + blocks * ec)
    i = 0
    for part, n in ((dc, per), (ecc, ec)):
        for k in range(n):
            for b in range(blocks):
                out[i] = part[b * n + k]
                i += 1
    return out


# -- the symbol (6.3, 7.7) ------------------------------------------------------------

def function_patterns(m, size, version):
    """The finder patterns and separators, the timing patterns, the
    alignment pattern (one, versions 2 to 6: 6.3.6, Annex E), the dark
    module, and the format information's modules reserved (drawn light
    here; ``format_bits`` sets them)."""
    for i in range(8, size - 8):     # (their ends are in the finders)
        m[6 * size + i] = m[i * size + 6] = 3 - (i & 1)
    for r in range(8):
        # row r of the top-left finder (its separator at the right), of
        # the top-right (at the left), and from the bottom up of the
        # bottom-left (at the top: the finder is symmetric)
        row = _PATTERNS[9 * r:9 * r + 9]
        p = r * size
        m[p:p + 8] = row[1:]
        m[p + size - 8:p + size] = row[:8]
        p = (size - 1 - r) * size
        m[p:p + 8] = row[1:]
    if version > 1:
        for r in range(5):
            p = (size - 9 + r) * size + size - 9
            m[p:p + 5] = _PATTERNS[72 + 5 * r:77 + 5 * r]
    format_bits(m, size, 0)
    m[(size - 8) * size + 8] = 3        # the dark module (7.9.1)


@micropython.viper
def format_bits(m: ptr8, size: int, bits: int):
    """The 15 bits of format information in both places (7.9.1, Figure
    25): bit i (0 the least significant) around the top-left finder, and
    split between the other two."""
    for i in range(15):
        v = 2 | ((bits >> i) & 1)
        # around the top left: bits 0-7 down column 8 (skipping the timing
        # row), bits 8-14 leftwards along row 8 (skipping its column)
        p = 8 * size + 14 - i
        if i < 6:
            p = i * size + 8
        elif i < 8:
            p = (i + 1) * size + 8
        elif i == 8:
            p = 8 * size + 7
        m[p] = v
        # the copy: bits 0-7 leftwards along row 8 from the right edge,
        # bits 8-14 down column 8 to the bottom edge
        p = (size - 15 + i) * size + 8
        if i < 8:
            p = 8 * size + size - 1 - i
        m[p] = v


def format_info(level, mask):
    """The format information (7.9.1): the level's two bits and the mask's
    three, their BCH(15,5) code's ten check bits, XORed with 0x5412."""
    data = (level << 3) | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    return ((data << 10) | rem) ^ 0x5412


@micropython.viper
def place(m: ptr8, size: int, cw: ptr8, nbits: int):
    """The codewords' bits (``nbits`` of ``cw``) into the modules that are
    not function modules (7.7.3): two columns at a time from the right,
    upwards then downwards, stepping over the vertical timing pattern; the
    modules left over (the remainder bits) stay light."""
    bit = 0
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = ((right + 1) & 2) == 0
        for k in range(size):
            y = k
            if upward:
                y = size - 1 - k
            for d in range(2):
                i = y * size + right - d
                if not (m[i] & 2):
                    if bit < nbits and (cw[bit >> 3] >> (7 - (bit & 7))) & 1:
                        m[i] = 1
                    bit += 1
        right -= 2


# -- masking (7.8) --------------------------------------------------------------------

@micropython.viper
def mask(m: ptr8, size: int, k: int):
    """XOR mask pattern ``k`` over the modules that are not function
    modules: applied twice, it is undone."""
    table = ptr8(_MASKS)
    at = 12 * k
    r = 0
    p = 0
    for i in range(size):
        bits = table[at + r]
        j6 = 0
        for j in range(size):
            if (bits >> j6) & 1 and not (m[p] & 2):
                m[p] = m[p] ^ 1
            p += 1
            j6 += 1
            if j6 == 6:
                j6 = 0
        r += 1
        if r == 12:
            r = 0


@micropython.viper
def penalty(m: ptr8, size: int) -> int:
    """The mask's penalty score (7.8.3, Table 11). Along each row and
    column, N1: a run of five or more modules of one colour scores 3, and
    1 for each module past five; N3: each dark-light-dark-dark-dark-light-
    dark (1:1:3:1:1) with four light modules before or after it (outside
    the symbol counts as light) scores 40, found in a window of the last
    15 modules (the four before, the seven, the four after). N2: each 2x2
    block of one colour scores 3 (blocks overlap). N4: 10 for every 5% the
    dark modules' share is away from half (within 45-55% nothing)."""
    total = 0
    for a in range(size):
        for d in range(2):
            p = a * size
            step = 1
            if d:
                p = a
                step = size
            run = 0
            colour = 2
            win = 0
            for t in range(size + 4):
                c = 0
                if t < size:
                    c = m[p] & 1
                    p += step
                    if c == colour:
                        run += 1
                    else:
                        if run >= 5:
                            total += run - 2
                        colour = c
                        run = 1
                win = ((win << 1) | c) & 0x7FFF
                if t >= 10 and ((win >> 4) & 0x7F) == 0x5D:
                    if (win & 0xF) == 0 or (win >> 11) == 0:
                        total += 40
            if run >= 5:
                total += run - 2
    n = size * size
    dark = 0
    for p in range(n):
        dark += m[p] & 1
    for i in range(size - 1):
        for j in range(size - 1):
            p = i * size + j
            c = m[p] & 1
            if (m[p + 1] & 1) == c and (m[p + size] & 1) == c and (m[p + size + 1] & 1) == c:
                total += 3
    dev = dark * 20 - n * 10
    if dev < 0:
        dev = 0 - dev
    k = 0
    while dev > n * (k + 1):
        k += 1
    return total + 10 * k


def encode(data, version=None, level=None, into=None):
    """The symbol of ``data`` (bytes): (modules a side, a bytearray of a
    byte a module, row by row, bit 0 dark). ``version`` and ``level`` as
    ``choose`` makes them when not given; ValueError when the text is too
    long for them. ``into``: a zeroed bytearray of at least as many bytes
    as the symbol has modules to build it in (the caller's, allocated
    where the heap had room), else a new one."""
    if version is None:
        found = choose(data)
        if found is None:
            raise ValueError("%d bytes: more than a QR symbol of version %d holds" % (len(data), VERSIONS))
        version, level = found
    elif len(data) > capacity(version, level, needs_eci(data)):
        raise ValueError("%d bytes: more than version %d holds" % (len(data), version))
    size = size_of(version)
    m = bytearray(size * size) if into is None else into
    function_patterns(m, size, version)
    cw = codewords(data, version, level)
    place(m, size, cw, len(cw) * 8)
    # each mask tried (and undone), the lowest penalty wins
    best = -1
    best_score = 0
    for k in range(8):
        mask(m, size, k)
        format_bits(m, size, format_info(level, k))
        s = penalty(m, size)
        if best < 0 or s < best_score:
            best = k
            best_score = s
        mask(m, size, k)
    mask(m, size, best)
    format_bits(m, size, format_info(level, best))
    return size, m
