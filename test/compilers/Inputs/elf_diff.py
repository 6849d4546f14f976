#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
"""elf_diff.py DIR_A DIR_B NAME...: for each NAME, compares DIR_A/NAME with
DIR_B/NAME byte for byte and prints "NAME: identical" or "NAME: N byte(s)
differ in SECTION[, SECTION...]" (the ELF sections, or "headers", that hold
the differing bytes). Exits 1 if a file is missing or not ELF64."""
import struct
import sys


def sections(data):
    """(start, end, name) of each section with file contents."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError("not an ELF64 file")
    end = "<" if data[5] == 1 else ">"
    shoff, = struct.unpack_from(end + "Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x3A)
    headers = [struct.unpack_from(end + "IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    strtab = headers[shstrndx]
    names = data[strtab[4]:strtab[4] + strtab[5]]
    out = []
    for name, sh_type, _, _, offset, size, *_ in headers:
        if sh_type != 8 and size:  # SHT_NOBITS has no file contents
            label = names[name:names.index(b"\0", name)].decode()
            out.append((offset, offset + size, label))
    return out


def main():
    dir_a, dir_b, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    status = 0
    for name in names:
        try:
            a = open(f"{dir_a}/{name}", "rb").read()
            b = open(f"{dir_b}/{name}", "rb").read()
            where = sections(a)
        except (OSError, ValueError) as err:
            print(f"elf_diff.py: {name}: {err}", file=sys.stderr)
            status = 1
            continue
        if a == b:
            print(f"{name}: identical")
            continue
        if len(a) != len(b):
            print(f"{name}: sizes differ ({len(a)} and {len(b)} bytes)")
            continue
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        hit = []
        for i in diff:
            label = next((n for s, e, n in where if s <= i < e), "headers")
            if label not in hit:
                hit.append(label)
        print(f"{name}: {len(diff)} byte(s) differ in {', '.join(hit)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
