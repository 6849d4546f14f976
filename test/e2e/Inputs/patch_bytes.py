# SPDX-License-Identifier: GPL-2.0
# patch_bytes.py IN OUT WHERE SIZE VALUE: copy a .bpfkeys section dump with a
# little-endian integer of SIZE bytes overwritten. WHERE is a byte offset or
# "<table>0.<field>": a field of the first entry of a table, located through
# the header (docs/abi.md section 5.2): key0, inst0, site0 and, in version 3,
# ref0 (reference) and refinsn0 (reference instruction).
import struct
import sys

src, dst, where, size, value = sys.argv[1:6]
data = bytearray(open(src, "rb").read())
size = int(size)
value = int(value, 0)
TABLES = {
    "key0": ("key_offset", ["name", "flags", "first_instance", "instance_count"]),
    "inst0": ("instance_offset", ["key", "program", "program_section", "flags",
                                  "first_site", "site_count"]),
    "site0": ("site_offset", ["function", "section", "function_start", "insn", "flags"]),
    "ref0": ("reference_offset", ["key", "program", "program_section", "first_insn",
                                  "insn_count"]),
    "refinsn0": ("reference_insn_offset", ["function", "section", "function_start", "insn"]),
}
if "." in where:
    table, field = where.split(".")
    hdr = struct.unpack_from("<IHHHHHHIIIIIIII", data, 0)
    offsets = {"key_offset": hdr[10], "instance_offset": hdr[11], "site_offset": hdr[12]}
    if hdr[1] == 3:
        refs = struct.unpack_from("<HHIIII", data, 48)
        offsets.update(reference_offset=refs[4], reference_insn_offset=refs[5])
    base, fields = TABLES[table]
    off = offsets[base] + 4 * fields.index(field)
else:
    off = int(where, 0)
data[off:off + size] = value.to_bytes(size, "little")
open(dst, "wb").write(bytes(data))
