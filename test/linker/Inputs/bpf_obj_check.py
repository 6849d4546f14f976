#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Prints what a linked BPF object's side tables point at, for FileCheck.

  static-keys FILE   every .static_keys entry: the instruction at insn_off,
                     the jump target it encodes, and the key symbol
  jumptables FILE    every BPF.JT.* table: the function each entry lands in
  btf-ext FILE       every .BTF.ext func_info record and the symbol at its
                     offset; line_info and CO-RE record counts per section

Independent of bpfld's code: it reads the ELF with `struct` only.
"""
import struct
import sys


class Elf:
    def __init__(self, path):
        self.data = open(path, 'rb').read()
        d = self.data
        assert d[:4] == b'\x7fELF' and d[4] == 2 and d[5] == 1, 'not ELF64 LE'
        shoff, = struct.unpack_from('<Q', d, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
        self.sections = []
        for i in range(shnum):
            name, typ, flags, _addr, off, size, link, info, _align, entsize = \
                struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize)
            self.sections.append(dict(name=name, type=typ, flags=flags, off=off,
                                      size=size, link=link, info=info, index=i))
        strtab = self.sections[shstrndx]
        for s in self.sections:
            s['name'] = self.cstr(strtab['off'] + s['name'])
        self.symbols = []
        for s in self.sections:
            if s['type'] == 2:  # SHT_SYMTAB
                names = self.sections[s['link']]
                for j in range(s['size'] // 24):
                    n, info, other, shndx, value, size = struct.unpack_from(
                        '<IBBHQQ', d, s['off'] + j * 24)
                    self.symbols.append(dict(name=self.cstr(names['off'] + n), type=info & 15,
                                             bind=info >> 4, shndx=shndx, value=value,
                                             size=size))

    def cstr(self, off):
        end = self.data.index(b'\0', off)
        return self.data[off:end].decode()

    def section(self, name):
        for s in self.sections:
            if s['name'] == name:
                return s
        return None

    def contents(self, s):
        return self.data[s['off']:s['off'] + s['size']]

    def relocations(self, target_name):
        rels = []
        for s in self.sections:
            if s['type'] == 9 and self.sections[s['info']]['name'] == target_name:
                for j in range(s['size'] // 16):
                    off, info = struct.unpack_from('<QQ', self.data, s['off'] + j * 16)
                    rels.append((off, info & 0xffffffff, info >> 32))
        return rels

    def sym_name(self, sym):
        if sym['type'] == 3:  # STT_SECTION
            return self.sections[sym['shndx']]['name']
        return sym['name']

    def function_at(self, section_index, offset):
        for sym in self.symbols:
            if sym['type'] == 2 and sym['shndx'] == section_index and \
                    sym['value'] <= offset < sym['value'] + sym['size']:
                return '%s+%#x' % (sym['name'], offset - sym['value'])
        return '?+%#x' % offset


def static_keys(elf):
    sec = elf.section('.static_keys')
    data = elf.contents(sec)
    fields = {}
    for off, typ, sym in elf.relocations('.static_keys'):
        fields[off] = (typ, elf.symbols[sym])
    for entry in range(len(data) // 16):
        insn_off, target_off, flags = struct.unpack_from('<IIQ', data, entry * 16)
        _, code_sym = fields[entry * 16]
        _, target_sym = fields[entry * 16 + 4]
        _, key_sym = fields[entry * 16 + 8]
        code = elf.sections[code_sym['shndx']]
        insn = elf.data[code['off'] + insn_off:code['off'] + insn_off + 8]
        opcode, regs, off16, imm = struct.unpack('<BBhi', insn)
        jump = insn_off + 8 + 8 * (imm if opcode == 0x06 else off16)
        print('entry %d: %s insn_off=%#x (%s) opcode=%#04x target_off=%#x jumps_to=%#x %s key=%s flags=%d src_reg=%d' % (
            entry, elf.sym_name(code_sym), insn_off, elf.function_at(code['index'], insn_off),
            opcode, target_off, jump, 'ok' if jump == target_off and
            target_sym['shndx'] == code_sym['shndx'] else 'MISMATCH', key_sym['name'], flags,
            regs >> 4))


def jumptables(elf):
    sec = elf.section('.jumptables')
    users = {}
    for s in elf.sections:
        if s['flags'] & 4:  # SHF_EXECINSTR
            for off, typ, sym in elf.relocations(s['name']):
                users.setdefault(sym, set()).add(s['index'])
    for index, sym in enumerate(elf.symbols):
        if sym['shndx'] != sec['index'] or not sym['name'].startswith('BPF.JT.'):
            continue
        code = sorted(users.get(index, []))
        assert len(code) == 1, 'jump table used from %d sections' % len(code)
        targets = [struct.unpack_from('<Q', elf.data, sec['off'] + sym['value'] + 8 * i)[0]
                   for i in range(sym['size'] // 8)]
        print('%s in %s: %s' % (sym['name'], elf.sections[code[0]]['name'],
                                ' '.join(sorted({elf.function_at(code[0], t).split('+')[0]
                                                 for t in targets}))))


def btf_types(btf):
    magic, ver, flags, hdr_len, type_off, type_len, str_off, str_len = \
        struct.unpack_from('<HBBIIIII', btf, 0)
    types = btf[hdr_len + type_off:hdr_len + type_off + type_len]
    strs = btf[hdr_len + str_off:hdr_len + str_off + str_len]

    def s(o):
        return strs[o:strs.index(b'\0', o)].decode()
    names = [None]
    pos = 0
    extra = {1: 4, 6: 8, 13: 0}  # INT, ARRAY (12 bytes, but fixed), see below
    while pos < len(types):
        name_off, info, _ = struct.unpack_from('<III', types, pos)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        pos += 12
        pos += {1: 4, 3: 12, 4: 12 * vlen, 5: 12 * vlen, 6: 8 * vlen, 13: 8 * vlen,
                14: 4, 15: 12 * vlen, 17: 4, 19: 12 * vlen}.get(kind, 0)
        names.append((kind, s(name_off)))
    return names, s


def btf_ext(elf):
    btf = elf.contents(elf.section('.BTF'))
    ext = elf.contents(elf.section('.BTF.ext'))
    names, s = btf_types(btf)
    _, _, _, hdr_len, fo, fl, lo, ll, co, cl = struct.unpack_from('<HBBIIIIIII', ext, 0)
    for kind, off, length in (('func_info', fo, fl), ('line_info', lo, ll),
                              ('core_relo', co, cl)):
        if not length:
            continue
        pos = hdr_len + off
        rec_size, = struct.unpack_from('<I', ext, pos)
        pos += 4
        end = hdr_len + off + length
        while pos < end:
            sec_off, count = struct.unpack_from('<II', ext, pos)
            pos += 8
            sec_name = s(sec_off)
            sec = elf.section(sec_name)
            offsets = []
            for i in range(count):
                insn_off, type_id = struct.unpack_from('<II', ext, pos + i * rec_size)
                offsets.append(insn_off)
                if kind == 'func_info':
                    at = elf.function_at(sec['index'], insn_off)
                    print('func_info %s+%#x %s (symbol %s)' % (sec_name, insn_off,
                                                              names[type_id][1], at))
            if kind != 'func_info':
                inside = all(o < sec['size'] and o % 8 == 0 for o in offsets)
                print('%s %s: %d records, offsets %#x..%#x %s' % (
                    kind, sec_name, count, min(offsets), max(offsets),
                    'in range' if inside else 'OUT OF RANGE'))
            pos += count * rec_size


if __name__ == '__main__':
    {'static-keys': static_keys, 'jumptables': jumptables, 'btf-ext': btf_ext}[sys.argv[1]](
        Elf(sys.argv[2]))
