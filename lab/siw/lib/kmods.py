#!/usr/bin/env python3
"""Print the insmod order (dependencies first) for kernel modules of an unpacked Debian kernel image.

Debian's linux-image package ships no modules.dep (depmod makes it at install time) and the host may lack
kmod, so the dependencies are read from each module's .modinfo ELF section ("depends=a,b"). Modules may be
compressed (.ko.xz as Debian's 6.12 ships them, .ko.gz, .ko.zst); modules.builtin lists those built in.

usage: kmods.py MODULES_DIR NAME... ; extra modules (e.g. an out-of-tree siw.ko) may be given as paths.
"""
import gzip
import lzma
import os
import struct
import subprocess
import sys

SUFFIXES = (".ko", ".ko.xz", ".ko.gz", ".ko.zst")


def module_name(path):
    """siw for .../siw.ko or .../siw.ko.xz, with '-' and '_' equivalent."""
    base = os.path.basename(path)
    for suffix in SUFFIXES:
        if base.endswith(suffix):
            return base[:-len(suffix)].replace("-", "_")
    return base.replace("-", "_")


def read_module(path):
    """The module's ELF bytes, uncompressed."""
    if path.endswith(".ko.xz"):
        return lzma.open(path).read()
    if path.endswith(".ko.gz"):
        return gzip.open(path).read()
    if path.endswith(".ko.zst"):
        return subprocess.run(["zstd", "-qdc", path], check=True, capture_output=True).stdout
    with open(path, "rb") as f:
        return f.read()


def modinfo(path):
    """Returns the key=value strings of a module's .modinfo section (ELF64 little-endian only)."""
    data = read_module(path)
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise SystemExit(f"kmods: {path}: not an ELF64 module")
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
            if f.endswith(SUFFIXES):
                index[module_name(f)] = os.path.join(root, f)
    builtin = set()
    try:
        with open(os.path.join(moddir, "modules.builtin")) as f:
            builtin = {module_name(l.strip()) for l in f if l.strip()}
    except FileNotFoundError:
        pass
    for w in wanted:
        if os.path.sep in w:
            index[module_name(w)] = w
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
        visit(module_name(w), frozenset())
    print("\n".join(order))


if __name__ == "__main__":
    main()
