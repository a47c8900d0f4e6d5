"""Program-counter samples turned into function names, with the symbols of
the firmware's ELF file (pyelftools), for the benchmark's profile."""

import bisect
import os


def elf_for(image_path):
    """The ELF beside a ``.uf2``/``.bin`` image (same name), or None."""
    stem = os.path.splitext(image_path)[0]
    p = stem + ".elf"
    return p if os.path.isfile(p) else None


def load(elf_path):
    """Sorted (start, end, name) of the ELF's functions."""
    from elftools.elf.elffile import ELFFile
    out = []
    with open(elf_path, "rb") as f:
        elf = ELFFile(f)
        tab = elf.get_section_by_name(".symtab")
        if tab is None:
            return out
        for sym in tab.iter_symbols():
            if sym["st_info"]["type"] != "STT_FUNC" or not sym.name:
                continue
            start = sym["st_value"] & ~1          # Thumb bit
            out.append((start, start + max(sym["st_size"], 2), sym.name))
    out.sort()
    return out


def name_of(table, starts, pc):
    i = bisect.bisect_right(starts, pc) - 1
    if i >= 0 and table[i][0] <= pc < table[i][1]:
        return table[i][2]
    if pc < 0x4000:
        return "(boot ROM)"
    if 0x20000000 <= pc < 0x20042000:
        return "(RAM code)"
    return "0x%08x" % pc


def top_functions(counts, elf_path, n=15):
    """The ``n`` functions with the most samples: [{"function", "percent"}]."""
    if not counts:
        return []
    table = load(elf_path) if elf_path else []
    starts = [t[0] for t in table]
    by = {}
    for pc, c in counts.items():
        name = name_of(table, starts, pc) if table else "0x%08x" % pc
        by[name] = by.get(name, 0) + c
    total = sum(by.values())
    ranked = sorted(by.items(), key=lambda kv: -kv[1])[:n]
    return [{"function": k, "percent": round(100.0 * v / total, 1)} for k, v in ranked]
