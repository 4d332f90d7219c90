#!/usr/bin/env python3
"""Print the insmod order (dependencies first) for kernel modules of an unpacked Debian kernel image.

Debian's linux-image package ships no modules.dep (depmod makes it at install time) and the host may lack
kmod, so the dependencies are read from each module's .modinfo ELF section ("depends=a,b").

usage: kmods.py MODULES_DIR NAME... ; extra modules (e.g. an out-of-tree siw.ko) may be given as paths.
"""
import os
import struct
import sys


def modinfo(path):
    """Returns the key=value strings of a module's .modinfo section (ELF64 little-endian only)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise SystemExit(f"kmods: {path}: not an ELF64 module (compressed modules are not supported)")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = []
    for i in range(shnum):
        name, _type, _flags, _addr, off, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        sections.append((name, off, size))
    strtab_off = sections[shstrndx][1]
    for name, off, size in sections:
        end = data.index(b"\0", strtab_off + name)
        if data[strtab_off + name:end] == b".modinfo":
            return [s.decode("utf-8", "replace") for s in data[off:off + size].split(b"\0") if s]
    return []


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    moddir, wanted = sys.argv[1], sys.argv[2:]
    index = {}  # module name (with '-' and '_' equivalent) -> path
    for root, _dirs, files in os.walk(moddir):
        for f in files:
            if f.endswith(".ko"):
                index[f[:-3].replace("-", "_")] = os.path.join(root, f)
    builtin = set()
    try:
        with open(os.path.join(moddir, "modules.builtin")) as f:
            builtin = {os.path.basename(l.strip())[:-3].replace("-", "_") for l in f if l.strip()}
    except FileNotFoundError:
        pass
    for w in wanted:
        if os.path.sep in w:
            index[os.path.basename(w)[:-3].replace("-", "_")] = w
    order, seen = [], set()

    def visit(name, chain):
        name = name.replace("-", "_")
        if name in seen or name in builtin:
            return
        if name in chain:
            raise SystemExit(f"kmods: dependency cycle at {name}")
        path = index.get(name)
        if path is None:
            raise SystemExit(f"kmods: module {name} not found under {moddir}")
        for kv in modinfo(path):
            if kv.startswith("depends="):
                for dep in filter(None, kv[len("depends="):].split(",")):
                    visit(dep, chain | {name})
        seen.add(name)
        order.append(path)

    for w in wanted:
        visit(os.path.basename(w)[:-3] if w.endswith(".ko") else w, frozenset())
    print("\n".join(order))


if __name__ == "__main__":
    main()
