# patch_bytes.py IN OUT WHERE SIZE VALUE: copy a .bpfkeys section dump with a
# little-endian integer of SIZE bytes overwritten. WHERE is a byte offset or
# "site0.<field>" / "inst0.<field>" (field of the first site / instance,
# located through the header, docs/abi.md section 5.2).
import struct
import sys

src, dst, where, size, value = sys.argv[1:6]
data = bytearray(open(src, "rb").read())
size = int(size)
value = int(value, 0)
if where.startswith("site0.") or where.startswith("inst0."):
    table, field = where.split(".")
    hdr = struct.unpack_from("<IHHHHHHIIIIIIII", data, 0)
    inst_off, site_off = hdr[11], hdr[12]
    fields = {"site0": (site_off, ["function", "section", "function_start", "insn", "flags"]),
              "inst0": (inst_off, ["key", "program", "program_section", "flags",
                                   "first_site", "site_count"])}[table]
    off = fields[0] + 4 * fields[1].index(field)
else:
    off = int(where, 0)
data[off:off + size] = value.to_bytes(size, "little")
open(dst, "wb").write(bytes(data))
