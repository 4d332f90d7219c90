#!/usr/bin/env python3
"""Regenerates the *.events files beside this script from real captures (needs tshark).

Each file lists, in frame order, what the MPA layer hands the sink model for one capture:
  START  frame stream dir  -  -  <the whole MPA Request/Reply, hex>
  FPDU   frame stream dir  ulpdu_length crc  <first 96 octets of the ULPDU, hex>
  CLOSE  frame stream dir  FIN|RST  -  -
dir is C2S or S2C (the client sent the SYN); crc is 1 or 0 when the CRC was negotiated (C bit in either start
frame) and checked here (CRC32c, least significant octet first on the wire as siw and tshark have it), - otherwise.
The frame of an FPDU or start frame is the one that carried its last octet. Bytes come from
`tshark -z follow,tcp,raw` (the reassembled stream), frame boundaries from tcp.seq/tcp.len, so the files do not
depend on tshark's iWARP dissectors. Markers are not supported (none of the captures use them).

usage: make_fixtures.py PCAP... OUT_DIR
"""
import os
import subprocess
import sys

KEEP = 96


def tshark(*args):
    return subprocess.run(["tshark", *args], check=True, capture_output=True, text=True).stdout


def crc32c(data):
    crc = 0xFFFFFFFF
    table = crc32c.table
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t.append(c)
    return t


crc32c.table = _table()


def follow(pcap, stream):
    out = tshark("-r", pcap, "-qz", f"follow,tcp,raw,{stream}")
    data = {0: bytearray(), 1: bytearray()}
    ports = {}
    for line in out.splitlines():
        if line.startswith("Node 0:"):
            ports[0] = int(line.rsplit(":", 1)[1])
        elif line.startswith("Node 1:"):
            ports[1] = int(line.rsplit(":", 1)[1])
        else:
            body = line.strip()
            if body and all(c in "0123456789abcdef" for c in body):
                data[1 if line.startswith("\t") else 0].extend(bytes.fromhex(body))
    return data, ports


def main(pcaps, out_dir):
    version = tshark("-v").splitlines()[0]
    for pcap in pcaps:
        rows = [l.split("\t") for l in tshark("-r", pcap, "-T", "fields", "-e", "frame.number", "-e", "tcp.stream",
                                               "-e", "tcp.srcport", "-e", "tcp.seq", "-e", "tcp.len", "-e",
                                               "tcp.flags.syn", "-e", "tcp.flags.ack", "-e", "tcp.flags.fin", "-e",
                                               "tcp.flags.reset").splitlines()]
        rows = [r for r in rows if r[1]]
        events = []
        for stream in sorted({int(r[1]) for r in rows}):
            srows = [r for r in rows if int(r[1]) == stream]
            syn = [r for r in srows if r[5] in ("1", "True") and r[6] in ("0", "False")]
            client_port = int(syn[0][2]) if syn else int(srows[0][2])
            data, ports = follow(pcap, stream)
            per_dir = {}
            for node, port in ports.items():
                d = "C2S" if port == client_port else "S2C"
                # [start, end) of stream offsets per frame (tcp.seq is relative: 1 is the first data octet)
                segs = [(int(r[3]) - 1, int(r[3]) - 1 + int(r[4]), int(r[0])) for r in srows
                        if int(r[2]) == port and int(r[4]) > 0]
                closes = [(int(r[0]), "RST" if r[8] in ("1", "True") else "FIN") for r in srows
                          if int(r[2]) == port and (r[7] in ("1", "True") or r[8] in ("1", "True"))]
                per_dir[d] = (bytes(data[node]), segs, closes)

            def frame_of(d, offset):
                for s, e, f in per_dir[d][1]:
                    if s <= offset < e:
                        return f
                raise SystemExit(f"{pcap}: no frame holds offset {offset} of {d}")

            crc_on = False
            frames = {}
            for d, (buf, segs, closes) in per_dir.items():
                pd = int.from_bytes(buf[18:20], "big")
                if buf[16] & 0x40:
                    crc_on = True
                frames[d] = pd
            for d, (buf, segs, closes) in per_dir.items():
                pd = frames[d]
                end = 20 + pd
                events.append((frame_of(d, end - 1), 0, f"START\t{frame_of(d, end - 1)}\t{stream}\t{d}\t-\t-\t"
                               + buf[:end].hex()))
                pos = end
                while pos + 2 <= len(buf):
                    n = int.from_bytes(buf[pos:pos + 2], "big")
                    total = 2 + n + (-(2 + n) % 4) + 4
                    if pos + total > len(buf):
                        break
                    fpdu = buf[pos:pos + total]
                    ulpdu = fpdu[2:2 + n]
                    crc = "-"
                    if crc_on:
                        crc = "1" if crc32c(fpdu[:-4]) == int.from_bytes(fpdu[-4:], "little") else "0"
                    f = frame_of(d, pos + total - 1)
                    events.append((f, 1, f"FPDU\t{f}\t{stream}\t{d}\t{n}\t{crc}\t{ulpdu[:KEEP].hex()}"))
                    pos += total
                for f, kind in closes:
                    events.append((f, 2, f"CLOSE\t{f}\t{stream}\t{d}\t{kind}\t-\t-"))
        events.sort(key=lambda e: (e[0], e[1]))
        name = os.path.basename(pcap).rsplit(".", 1)[0] + ".events"
        with open(os.path.join(out_dir, name), "w") as out:
            out.write(f"# generated by make_fixtures.py from {os.path.basename(pcap)} with {version}\n")
            out.write("kind\tframe\tstream\tdir\ta\tb\thex\n")
            for e in events:
                out.write(e[2] + "\n")


if __name__ == "__main__":
    main(sys.argv[1:-1], sys.argv[-1])
