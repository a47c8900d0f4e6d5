"""The board's QR encoder (firmware/qr.py) against a real decoder, zxing-cpp:
random texts at every version (1-6) and level (L, M) it makes, plain ASCII
and UTF-8 (with its ECI), each symbol drawn as the screen draws it and
read back byte for byte, with the version and level it was made at. The
same texts are encoded on the MicroPython unix port, in native code (this
file is its script there too: run as ``micropython test_qr.py TREE CASES
OUT``), and must give the very same symbols.

The standard's own figures are checked too: the byte capacities of Table 7,
a generator polynomial of Annex A, the mask's penalty against a plain
reading of Table 11."""

import sys

CASES_PER = 6       # random texts per version, level and kind (ASCII, UTF-8)


def _mp_main(argv):
    """On MicroPython: encode each case of the file CASES (lines "version
    level hex"), write each symbol to OUT (lines "size hex")."""
    import binascii
    sys.path.insert(0, argv[1])
    from firmware import qr
    out = open(argv[3], "w")
    for line in open(argv[2]):
        v, lvl, h = line.split()
        size, m = qr.encode(binascii.unhexlify(h), int(v), int(lvl))
        out.write("%d %s\n" % (size, binascii.hexlify(m).decode()))
    out.close()
    print("ok")


if __name__ == "__main__" and sys.implementation.name == "micropython":
    _mp_main(sys.argv)
else:
    import os
    import random
    import subprocess

    import pytest

    HERE = os.path.dirname(os.path.abspath(__file__))
    zxingcpp = pytest.importorskip("zxingcpp")
    from firmware import qr

    # Letters of the board's scripts: Latin with marks, Cyrillic, Persian.
    _UTF8_LETTERS = "abc Åäŵíó БатцэгӨү فاطمهزرایی۰۱۲"

    def _text(rnd, limit, utf8):
        """A random text of at most ``limit`` bytes (UTF-8: with at least
        one letter beyond ASCII)."""
        n = rnd.randint(1, limit)
        if not utf8:
            return bytes(rnd.randint(32, 126) for _ in range(n))
        s = ""
        while True:
            c = rnd.choice(_UTF8_LETTERS)
            if len((s + c).encode()) > n:
                break
            s += c
        if not qr.needs_eci(s.encode()):
            s = "ф"
        return s.encode()

    def cases(seed=34):
        """[(version, level, text)]: per version, level and kind, texts of
        random lengths and one that fills the symbol."""
        rnd = random.Random(seed)
        out = []
        for v in range(1, qr.VERSIONS + 1):
            for lvl in (qr.L, qr.M):
                for utf8 in (False, True):
                    cap = qr.capacity(v, lvl, utf8)
                    for k in range(CASES_PER):
                        t = _text(rnd, cap, utf8)
                        if k == 0 and not utf8:
                            t = bytes(rnd.randint(32, 126) for _ in range(cap))
                        out.append((v, lvl, t))
        return out

    def picture(size, m, scale=2):
        """The symbol as the board's screen draws it: ``scale`` pixels a
        module, a light quiet zone of four modules."""
        from PIL import Image
        n = (size + 8) * scale
        img = Image.new("L", (n, n), 255)
        px = img.load()
        for y in range(size):
            for x in range(size):
                if m[y * size + x] & 1:
                    for a in range(scale):
                        for b in range(scale):
                            px[(x + 4) * scale + a, (y + 4) * scale + b] = 0
        return img

    def read(img):
        """(bytes, version, level, with ECI) of the one QR code in ``img``."""
        got = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCode,
                                     text_mode=zxingcpp.TextMode.HexECI)
        assert len(got) == 1, "%d codes read" % len(got)
        r = got[0]
        return (r.bytes, int(r.extra["Version"]), r.extra["ECLevel"],
                r.text.startswith("5D 51 32"))          # "]Q2": model 2 with ECI

    LEVEL = {qr.L: "L", qr.M: "M"}

    @pytest.mark.parametrize("v", range(1, qr.VERSIONS + 1))
    def test_zxing_reads_every_version_and_level(v):
        for ver, lvl, text in cases():
            if ver != v:
                continue
            size, m = qr.encode(text, ver, lvl)
            assert size == 17 + 4 * v
            got, version, level, eci = read(picture(size, m))
            assert got == text
            assert (version, level) == (v, LEVEL[lvl])
            assert eci == qr.needs_eci(text)

    def test_the_same_symbols_on_micropython(tmp_path, mpy_tree):
        """The unix port (the masks in viper) makes exactly CPython's symbols."""
        from pipkeeper.paths import micropython_binary
        import binascii
        cs = cases()
        (tmp_path / "cases").write_text("".join("%d %d %s\n" % (v, lvl, t.hex()) for v, lvl, t in cs))
        r = subprocess.run([micropython_binary(), "-X", "heapsize=160K", os.path.abspath(__file__),
                            mpy_tree, str(tmp_path / "cases"), str(tmp_path / "out")],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr
        lines = (tmp_path / "out").read_text().split("\n")
        for (v, lvl, text), line in zip(cs, lines):
            size, h = line.split()
            assert (int(size), binascii.unhexlify(h)) == qr.encode(text, v, lvl)
        assert len([x for x in lines if x]) == len(cs)

    def test_a_symbol_built_in_the_callers_bytearray_is_the_same():
        text = b"pipkeeper q008-0001"
        size, m = qr.encode(text)
        into = bytearray(qr.size_of(qr.VERSIONS) ** 2)
        got = qr.encode(text, into=into)
        assert got[0] == size and got[1] is into and into[:size * size] == m

    def test_capacities_are_the_standards():
        # ISO/IEC 18004 Table 7, byte mode, L and M
        table = {1: (17, 14), 2: (32, 26), 3: (53, 42), 4: (78, 62), 5: (106, 84), 6: (134, 106)}
        for v, (at_l, at_m) in table.items():
            assert qr.capacity(v, qr.L) == at_l
            assert qr.capacity(v, qr.M) == at_m
            # the ECI designator (12 bits) costs two bytes at most
            assert at_l - 2 <= qr.capacity(v, qr.L, True) < at_l
        assert qr.capacity(qr.VERSIONS, qr.L) == 134

    def test_choose_takes_m_then_l_smallest_first():
        assert qr.choose(b"x" * 14) == (1, qr.M)
        assert qr.choose(b"x" * 15) == (2, qr.M)
        assert qr.choose(b"x" * 106) == (6, qr.M)
        assert qr.choose(b"x" * 107) == (6, qr.L)
        assert qr.choose(b"x" * 79) == (5, qr.M)       # (not 4-L, which holds 78)
        assert qr.choose(b"x" * 134) == (6, qr.L)
        assert qr.choose(b"x" * 135) is None
        assert qr.choose("ф".encode() * 52) == (6, qr.M)       # 104 bytes and the ECI
        assert qr.choose("ф".encode() * 53) == (6, qr.L)       # 106: the ECI leaves room for 105
        with pytest.raises(ValueError):
            qr.encode(b"x" * 135)

    def test_a_generator_polynomial_of_annex_a():
        # 7 error correction codewords: x^7 + a^87 x^6 + a^229 x^5 + a^146 x^4
        # + a^149 x^3 + a^238 x^2 + a^102 x + a^21
        assert list(qr.generator(7)) == [87, 229, 146, 149, 238, 102, 21]

    def _reference_penalty(m, size):
        """Table 11 read plainly (N3 once a pattern with light on either side)."""
        def at(x, y):
            return m[y * size + x] & 1
        lines = [[at(x, y) for x in range(size)] for y in range(size)]
        lines += [[at(x, y) for y in range(size)] for x in range(size)]
        score = 0
        for line in lines:
            run = 1
            for i in range(1, size + 1):
                if i < size and line[i] == line[i - 1]:
                    run += 1
                    continue
                if run >= 5:
                    score += 3 + run - 5
                run = 1
            padded = [0] * 4 + line + [0] * 4
            for i in range(size - 6):
                if line[i:i + 7] == [1, 0, 1, 1, 1, 0, 1] and (
                        padded[i:i + 4] == [0] * 4 or padded[i + 11:i + 15] == [0] * 4):
                    score += 40
        for y in range(size - 1):
            for x in range(size - 1):
                if at(x, y) == at(x + 1, y) == at(x, y + 1) == at(x + 1, y + 1):
                    score += 3
        dark = sum(m[i] & 1 for i in range(size * size))
        share = dark * 100 / (size * size)
        k = 0
        while abs(share - 50) > 5 * (k + 1):
            k += 1
        return score + 10 * k

    def test_the_penalty_is_table_11s_and_the_lowest_wins():
        rnd = random.Random(7)
        for v in (1, 4, 6):
            text = bytes(rnd.randint(32, 126) for _ in range(qr.capacity(v, qr.M)))
            size, best = qr.encode(text, v, qr.M)
            scores = []
            for k in range(8):
                m = bytearray(size * size)
                qr.function_patterns(m, size, v)
                cw = qr.codewords(text, v, qr.M)
                qr.place(m, size, cw, len(cw) * 8)
                qr.mask(m, size, k)
                qr.format_bits(m, size, qr.format_info(qr.M, k))
                assert qr.penalty(m, size) == _reference_penalty(m, size)
                scores.append((qr.penalty(m, size), k, bytes(m)))
            assert bytes(best) == min(scores)[2]

    def test_the_mask_table_is_table_10s_formulas():
        formulas = [lambda i, j: (i + j) % 2 == 0, lambda i, j: i % 2 == 0,
                    lambda i, j: j % 3 == 0, lambda i, j: (i + j) % 3 == 0,
                    lambda i, j: (i // 2 + j // 3) % 2 == 0,
                    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
                    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
                    lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0]
        size = qr.size_of(qr.VERSIONS)
        for k, flips in enumerate(formulas):
            m = bytearray(size * size)
            m[5] = m[size + 3] = 2          # function modules: never flipped
            qr.mask(m, size, k)
            for i in range(size):
                for j in range(size):
                    want = flips(i, j) and (i, j) not in ((0, 5), (1, 3))
                    assert (m[i * size + j] & 1) == want, (k, i, j)

    def test_format_information_of_the_standard():
        # Annex C's example: level M, mask 101 -> 100000011001110
        assert qr.format_info(qr.M, 5) == 0b100000011001110
