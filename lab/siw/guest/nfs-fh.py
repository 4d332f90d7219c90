#!/usr/bin/env python3
"""Prints the NFSv3 file handles of the lab's export (`lab nfsd fh`): what a tester on the host needs to start
from, since the MOUNT protocol (RFC 1813 Appendix I) runs over TCP/UDP, not over RDMA.

usage: nfs-fh.py [--export /srv/nfs] [NAME...]
Asks rpc.mountd (port from rpcbind, RFC 1833) for the export's root file handle with MOUNTPROC3_MNT, then nfsd
(TCP 2049) for each NAME with NFSPROC3_LOOKUP (RFC 1813 §3.3.3), and prints one line per handle:
"PATH HEX". The root handle (fsid=1) is the same at every boot; the handles of files carry tmpfs inode numbers and
generations, which change with each boot of the guest.
"""
import argparse
import os
import socket
import struct
import sys

MOUNT_PROG, MOUNT_VERS, NFS_PROG, NFS_VERS, PMAP_PROG = 100005, 3, 100003, 3, 100000


def opaque(b):
    return struct.pack(">I", len(b)) + b + b"\0" * ((4 - len(b) % 4) % 4)


def call(host, port, prog, vers, proc, args):
    """One ONC RPC call (RFC 5531) over TCP with AUTH_SYS uid 0, from a reserved port; returns the results."""
    xid = int.from_bytes(os.urandom(4), "big")
    cred = struct.pack(">I", 0) + opaque(b"guest") + struct.pack(">III", 0, 0, 0)
    msg = struct.pack(">IIIIII", xid, 0, 2, prog, vers, proc) + struct.pack(">I", 1) + opaque(cred) \
        + struct.pack(">II", 0, 0) + args
    s = socket.socket()
    for p in range(1023, 600, -1):   # a reserved source port, as nfsd's "secure" exports would ask
        try:
            s.bind(("0.0.0.0", p))
            break
        except OSError:
            continue
    s.settimeout(10)
    s.connect((host, port))
    s.sendall(struct.pack(">I", 0x80000000 | len(msg)) + msg)
    data = b""
    while True:
        hdr = recv(s, 4)
        mark, = struct.unpack(">I", hdr)
        data += recv(s, mark & 0x7FFFFFFF)
        if mark & 0x80000000:
            break
    s.close()
    rxid, mtype, stat = struct.unpack_from(">III", data, 0)
    if rxid != xid or mtype != 1 or stat != 0:
        raise SystemExit(f"nfs-fh: RPC to {prog}/{vers} denied (reply stat {stat})")
    _flavor, vlen = struct.unpack_from(">II", data, 12)
    off = 20 + vlen + (4 - vlen % 4) % 4
    accept, = struct.unpack_from(">I", data, off)
    if accept != 0:
        raise SystemExit(f"nfs-fh: RPC to {prog}/{vers} proc {proc}: accept_stat {accept}")
    return data[off + 4:]


def recv(s, n):
    b = b""
    while len(b) < n:
        chunk = s.recv(n - len(b))
        if not chunk:
            raise SystemExit("nfs-fh: connection closed early")
        b += chunk
    return b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="10.0.2.15")
    ap.add_argument("--export", default="/srv/nfs")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    port, = struct.unpack(">I", call(a.host, 111, PMAP_PROG, 2, 3,
                                     struct.pack(">IIII", MOUNT_PROG, MOUNT_VERS, 6, 0))[:4])
    if port == 0:
        raise SystemExit("nfs-fh: rpc.mountd is not registered with rpcbind (lab nfsd start)")
    res = call(a.host, port, MOUNT_PROG, MOUNT_VERS, 1, opaque(a.export.encode()))
    status, n = struct.unpack_from(">II", res, 0)
    if status != 0:
        raise SystemExit(f"nfs-fh: MNT {a.export}: mountstat3 {status}")
    root = res[8:8 + n]
    print(a.export, root.hex())
    for name in a.names:
        res = call(a.host, 2049, NFS_PROG, NFS_VERS, 3, opaque(root) + opaque(name.encode()))
        status, = struct.unpack_from(">I", res, 0)
        if status != 0:
            print(f"{a.export}/{name} NFS3ERR {status}", file=sys.stderr)
            continue
        n, = struct.unpack_from(">I", res, 4)
        print(f"{a.export}/{name}", res[8:8 + n].hex())
    call(a.host, port, MOUNT_PROG, MOUNT_VERS, 3, opaque(a.export.encode()))   # UMNT: no rmtab entry left


if __name__ == "__main__":
    main()
