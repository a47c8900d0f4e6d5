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
  that holds the text at M, else the smallest at L. At most ``MAX_BYTES``
  bytes (version 6-L); the caller pages a longer text.
- the data codewords (7.4.9-7.4.10), the Reed-Solomon error correction
  codewords in GF(256) (7.5.2), split into blocks and interleaved (7.6),
  the function patterns (6.3.3-6.3.6), the codewords' placement (7.7.3),
  the mask with the lowest penalty (7.8.2-7.8.3), the format information
  (7.9). No version information: that is for versions 7 and up.

Small on purpose: the tables are six bytes a column, the field's
logarithms are built when the module loads (512 bytes), and the symbol is
one bytearray of a byte a module (bit 0 dark, bit 1 a function module).
The masks and their penalties, the bulk of the work (eight masks over
1,681 modules at version 6), run in native code (viper) on the board; the
same functions run as plain Python on CPython, where the tests check
every symbol against a real decoder (zxing-cpp).
"""

try:
    import micropython
    from micropython import const
except ImportError:  # CPython (the tests): the viper functions as plain Python
    class micropython:  # noqa: N801 (the name the viper decorator is written with)
        @staticmethod
        def viper(f):
            return f

    def const(x):
        return x

    ptr8 = None  # (viper's type: an annotation only)

L = const(1)          # the error correction levels as the format information codes them
M = const(0)
VERSIONS = const(6)   # the largest version made
MAX_BYTES = const(134)  # the most bytes a symbol holds (version 6-L, no ECI)

_BYTE_MODE = const(4)     # mode indicators (Table 2)
_ECI_MODE = const(7)
_UTF8 = const(26)         # the ECI assignment number of UTF-8
_DARK = const(1)
_FUNCTION = const(2)

# Per version 1..6 (Table 9): codewords in all; per level, error correction
# codewords a block and blocks. At L and M up to version 6 all blocks of a
# symbol hold the same number of data codewords.
_TOTAL = b"\x1a\x2c\x46\x64\x86\xac"
_EC = {L: b"\x07\x0a\x0f\x14\x1a\x12", M: b"\x0a\x10\x1a\x12\x18\x10"}
_BLOCKS = {L: b"\x01\x01\x01\x01\x01\x02", M: b"\x01\x01\x01\x02\x02\x04"}

# GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1 (7.5.2): _EXP[i] = 2^i (twice
# over, so that a sum of two logarithms needs no modulo), _LOG its inverse.
_EXP = bytearray(512)
_LOG = bytearray(256)
_x = 1
for _i in range(255):
    _EXP[_i] = _EXP[_i + 255] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
del _x, _i


def size_of(version):
    """Modules a side (6.3.1)."""
    return 17 + 4 * version


def data_codewords(version, level):
    v = version - 1
    return _TOTAL[v] - _EC[level][v] * _BLOCKS[level][v]


def needs_eci(data):
    """Whether ``data`` has bytes beyond ASCII (then it is said to be UTF-8)."""
    for b in data:
        if b > 127:
            return True
    return False


def capacity(version, level, eci=False):
    """The bytes a symbol holds in one byte-mode segment (8-bit count: up
    to version 9), after an ECI designator if ``eci``."""
    return (data_codewords(version, level) * 8 - 12 - (12 if eci else 0)) // 8


def choose(data):
    """(version, level) for ``data``: the smallest version that holds it at
    M, else the smallest at L; None when version 6-L cannot."""
    eci = needs_eci(data)
    for level in (M, L):
        for version in range(1, VERSIONS + 1):
            if len(data) <= capacity(version, level, eci):
                return version, level
    return None


# -- the data codewords (7.4) --------------------------------------------------------

class _Bits:
    """A bit stream into a bytearray, most significant bit first."""

    def __init__(self, n):
        self.buf = bytearray(n)
        self.at = 0

    def put(self, value, bits):
        self.at = _put(self.buf, self.at, value, bits)


@micropython.viper
def _put(buf: ptr8, at: int, value: int, bits: int) -> int:
    i = bits - 1
    while i >= 0:
        if (value >> i) & 1:
            buf[at >> 3] = buf[at >> 3] | (0x80 >> (at & 7))
        at += 1
        i -= 1
    return at


def data_bits(data, version, level):
    """The data codewords: the segments, the terminator, padding to the
    codeword and the pad codewords 0xEC 0x11 in turn (7.4.9-7.4.10)."""
    n = data_codewords(version, level)
    out = _Bits(n)
    if needs_eci(data):
        out.put(_ECI_MODE, 4)
        out.put(_UTF8, 8)           # an assignment below 128: one byte, 0xxxxxxx
    out.put(_BYTE_MODE, 4)
    out.put(len(data), 8)
    for b in data:
        out.put(b, 8)
    out.at = min(out.at + 4, n * 8)     # the terminator: up to four 0 bits
    i = (out.at + 7) >> 3
    pad = 0xEC
    while i < n:
        out.buf[i] = pad
        pad ^= 0xEC ^ 0x11
        i += 1
    return out.buf


# -- error correction (7.5) -----------------------------------------------------------

def generator(degree):
    """The generator polynomial of ``degree`` error correction codewords,
    (x - 2^0)(x - 2^1)...(x - 2^(degree-1)), its coefficients highest
    power first without the leading 1, as logarithms (none is 0)."""
    g = bytearray(degree + 1)
    g[0] = 1
    for i in range(degree):
        # g *= (x + 2^i): from the top down, each coefficient gains the
        # one above it times 2^i
        for j in range(i + 1, 0, -1):
            c = g[j]
            g[j] = g[j - 1] ^ (_EXP[_LOG[c] + i] if c else 0)
        g[0] = _EXP[_LOG[g[0]] + i] if g[0] else 0
    # (computed lowest power first: reverse, drop the leading 1)
    out = bytearray(degree)
    for j in range(degree):
        out[j] = _LOG[g[degree - 1 - j]]
    return out


def remainder(data, start, count, gen):
    """The error correction codewords of ``data[start:start + count]``: the
    remainder of its polynomial times x^len(gen) divided by the generator
    (``generator``), by long division."""
    rem = bytearray(len(gen))
    _divide(data, start, count, gen, len(gen), rem, _EXP, _LOG)
    return rem


@micropython.viper
def _divide(data: ptr8, start: int, count: int, gen: ptr8, n: int, rem: ptr8, exp: ptr8, log: ptr8):
    # (remainder's long division, in native code on the board: some 2,400
    # steps a block at version 6)
    for k in range(start, start + count):
        factor = data[k] ^ rem[0]
        for j in range(n - 1):
            rem[j] = rem[j + 1]
        rem[n - 1] = 0
        if factor:
            lf = log[factor]
            for j in range(n):
                rem[j] = rem[j] ^ exp[gen[j] + lf]


def codewords(data, version, level):
    """The final sequence of codewords (7.6): the data codewords split into
    blocks, each block's error correction codewords, both interleaved a
    codeword of each block in turn."""
    v = version - 1
    dc = data_bits(data, version, level)
    blocks = _BLOCKS[level][v]
    ec = _EC[level][v]
    per = len(dc) // blocks     # (the same in every block up to version 6 at L and M)
    gen = generator(ec)
    out = bytearray(_TOTAL[v])
    eccs = [remainder(dc, b * per, per, gen) for b in range(blocks)]
    i = 0
    for k in range(per):
        for b in range(blocks):
            out[i] = dc[b * per + k]
            i += 1
    for k in range(ec):
        for b in range(blocks):
            out[i] = eccs[b][k]
            i += 1
    return out


# -- the symbol (6.3, 7.7) ------------------------------------------------------------

def _set(m, size, x, y, dark):
    m[y * size + x] = _FUNCTION | (_DARK if dark else 0)


def _finder(m, size, cx, cy):
    """A finder pattern centred at (cx, cy) with its separator (6.3.3-6.3.4):
    the squares at Chebyshev distance 2 and 4 are light."""
    for dy in range(-4, 5):
        for dx in range(-4, 5):
            x = cx + dx
            y = cy + dy
            if 0 <= x < size and 0 <= y < size:
                d = max(abs(dx), abs(dy))
                _set(m, size, x, y, d != 2 and d != 4)


def function_patterns(m, size, version):
    """The finder patterns and separators, the timing patterns, the
    alignment pattern (one, versions 2 to 6: 6.3.6, Annex E), the dark
    module, and the format information's modules reserved (drawn light
    here; ``format_bits`` sets them)."""
    for i in range(size):
        _set(m, size, 6, i, i % 2 == 0)
        _set(m, size, i, 6, i % 2 == 0)
    _finder(m, size, 3, 3)
    _finder(m, size, size - 4, 3)
    _finder(m, size, 3, size - 4)
    if version > 1:
        c = size - 7
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                _set(m, size, c + dx, c + dy, max(abs(dx), abs(dy)) != 1)
    format_bits(m, size, 0)
    _set(m, size, 8, size - 8, True)        # the dark module (7.9.1)


def format_bits(m, size, bits):
    """The 15 bits of format information in both places (7.9.1, Figure
    25): bit i (0 the least significant) around the top-left finder, and
    split between the other two."""
    for i in range(15):
        dark = (bits >> i) & 1
        # around the top left: bits 0-7 down column 8 (skipping the timing
        # row), bits 8-14 leftwards along row 8 (skipping its column)
        if i < 6:
            _set(m, size, 8, i, dark)
        elif i < 8:
            _set(m, size, 8, i + 1, dark)
        elif i == 8:
            _set(m, size, 7, 8, dark)
        else:
            _set(m, size, 14 - i, 8, dark)
        # the copy: bits 0-7 leftwards along row 8 from the right edge,
        # bits 8-14 down column 8 to the bottom edge
        if i < 8:
            _set(m, size, size - 1 - i, 8, dark)
        else:
            _set(m, size, 8, size - 15 + i, dark)


def format_info(level, mask):
    """The format information (7.9.1): the level's two bits and the mask's
    three, their BCH(15,5) code's ten check bits, XORed with 0x5412."""
    data = (level << 3) | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    return ((data << 10) | rem) ^ 0x5412


def place(m, size, cw):
    """The codewords' bits into the modules that are not function modules
    (7.7.3)."""
    _place(m, size, cw, len(cw) * 8)


@micropython.viper
def _place(m: ptr8, size: int, cw: ptr8, nbits: int):
    # Two columns at a time from the right, upwards then downwards,
    # stepping over the vertical timing pattern; the modules left over
    # (the remainder bits) stay light.
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
def _mask(m: ptr8, size: int, k: int):
    """XOR mask pattern ``k`` (Table 10; i the row, j the column) over the
    modules that are not function modules: applied twice, it is undone."""
    for i in range(size):
        for j in range(size):
            if k == 0:
                flip = (i + j) % 2 == 0
            elif k == 1:
                flip = i % 2 == 0
            elif k == 2:
                flip = j % 3 == 0
            elif k == 3:
                flip = (i + j) % 3 == 0
            elif k == 4:
                flip = (i // 2 + j // 3) % 2 == 0
            elif k == 5:
                flip = (i * j) % 2 + (i * j) % 3 == 0
            elif k == 6:
                flip = ((i * j) % 2 + (i * j) % 3) % 2 == 0
            else:
                flip = ((i + j) % 2 + (i * j) % 3) % 2 == 0
            p = i * size + j
            if flip and not (m[p] & 2):
                m[p] = m[p] ^ 1


@micropython.viper
def _line_penalty(m: ptr8, size: int, first: int, step: int, along: int) -> int:
    """Rules N1 and N3 (Table 11) over one row or column: the modules
    ``first + along * t`` for t in 0..size-1 (each line starts ``step``
    after the last). N1: a run of five or more modules of one colour
    scores 3, and 1 for each module past five. N3: each dark-light-dark-
    dark-dark-light-dark (1:1:3:1:1) with four light modules before or
    after it (outside the symbol counts as light) scores 40."""
    total = 0
    for line in range(size):
        base = first + line * step
        run = 0
        colour = -1
        for t in range(size):
            c = m[base + t * along] & 1
            if c == colour:
                run += 1
            else:
                if run >= 5:
                    total += run - 2
                colour = c
                run = 1
        if run >= 5:
            total += run - 2
        for t in range(size - 6):
            p = base + t * along
            if (m[p] & 1) and not (m[p + along] & 1) and (m[p + 2 * along] & 1) and (
                    m[p + 3 * along] & 1) and (m[p + 4 * along] & 1) and not (
                    m[p + 5 * along] & 1) and (m[p + 6 * along] & 1):
                before = 1
                for u in range(t - 4, t):
                    if u >= 0 and (m[base + u * along] & 1):
                        before = 0
                after = 1
                for u in range(t + 7, t + 11):
                    if u < size and (m[base + u * along] & 1):
                        after = 0
                if before or after:
                    total += 40
    return total


@micropython.viper
def _blocks_penalty(m: ptr8, size: int) -> int:
    """Rule N2: each 2x2 block of one colour scores 3 (blocks overlap)."""
    total = 0
    for i in range(size - 1):
        for j in range(size - 1):
            p = i * size + j
            c = m[p] & 1
            if (m[p + 1] & 1) == c and (m[p + size] & 1) == c and (m[p + size + 1] & 1) == c:
                total += 3
    return total


@micropython.viper
def _dark_count(m: ptr8, n: int) -> int:
    dark = 0
    for p in range(n):
        dark += m[p] & 1
    return dark


def penalty(m, size):
    """The mask's penalty score (7.8.3, Table 11): N1 and N3 along the rows
    and the columns, N2, and N4: 10 for every 5% the dark modules' share
    is away from half (a share within 45-55% scores nothing)."""
    n = size * size
    score = _line_penalty(m, size, 0, size, 1) + _line_penalty(m, size, 0, 1, size)
    score += _blocks_penalty(m, size)
    dark = _dark_count(m, n)
    k = (abs(dark * 20 - n * 10) + n - 1) // n - 1      # the whole 5% steps beyond the first
    return score + 10 * max(k, 0)


def encode(data, version=None, level=None):
    """The symbol of ``data`` (bytes): (modules a side, a bytearray of a
    byte a module, row by row, bit 0 dark). ``version`` and ``level`` as
    ``choose`` makes them when not given; ValueError when the text is too
    long for them."""
    if version is None:
        found = choose(data)
        if found is None:
            raise ValueError("%d bytes: more than a QR symbol of version %d holds" % (len(data), VERSIONS))
        version, level = found
    elif len(data) > capacity(version, level, needs_eci(data)):
        raise ValueError("%d bytes: more than version %d holds" % (len(data), version))
    size = size_of(version)
    m = bytearray(size * size)
    function_patterns(m, size, version)
    place(m, size, codewords(data, version, level))
    best = -1
    best_score = 0
    for k in range(8):
        _mask(m, size, k)
        format_bits(m, size, format_info(level, k))
        s = penalty(m, size)
        if best < 0 or s < best_score:
            best = k
            best_score = s
        _mask(m, size, k)
    _mask(m, size, best)
    format_bits(m, size, format_info(level, best))
    return size, m
