#!/usr/bin/env python3
"""A minimal MPA (RFC 5044 / RFC 6581) peer on the host, to check the lab's forwards without the Java tester.

  mpa_probe.py client PORT [--rev N] [--markers] [--crc] [--no-enhanced] [--ird N --ord N]
      connects to 127.0.0.1:PORT (a hostfwd to the DUT), sends an MPA Request, prints the Reply as JSON
  mpa_probe.py server PORT [--timeout S]
      accepts one connection on 127.0.0.1:PORT (the guest reaches it at 10.0.2.100 through guestfwd), prints the
      MPA Request as JSON, answers rev 2 enhanced IRD/ORD 1/1 with the C bit of the Request, reads what follows
      for a second, then closes

Exit 0 when an MPA frame was exchanged, 1 otherwise. Every socket step has a timeout.
"""
import argparse
import json
import socket
import struct
import sys
import time

REQ, REP = b"MPA ID Req Frame", b"MPA ID Rep Frame"


def read_exact(s, n, deadline):
    buf = b""
    while len(buf) < n:
        s.settimeout(max(0.05, deadline - time.monotonic()))
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError(f"closed after {len(buf)} of {n} octets")
        buf += chunk
    return buf


def parse(frame, pd):
    flags, rev = frame[16], frame[17]
    out = {"key": frame[:16].decode("ascii", "replace"), "m": bool(flags & 0x80), "c": bool(flags & 0x40),
           "r": bool(flags & 0x20), "enhanced": bool(flags & 0x10), "rev": rev, "pd_length": len(pd),
           "private_data": pd.hex()}
    if out["enhanced"] and len(pd) >= 4:
        ird, ord_ = struct.unpack(">HH", pd[:4])
        out.update(ird=ird & 0x3FFF, ord=ord_ & 0x3FFF, peer_to_peer=bool(ird & 0x8000),
                   rtr={"send": bool(ord_ & 0x2000), "write": bool(ord_ & 0x8000), "read": bool(ord_ & 0x4000)})
    return out


def frame(key, m, c, r, enhanced, rev, pd):
    flags = (0x80 if m else 0) | (0x40 if c else 0) | (0x20 if r else 0) | (0x10 if enhanced else 0)
    return key + bytes([flags, rev]) + struct.pack(">H", len(pd)) + pd


def read_frame(s, deadline):
    head = read_exact(s, 20, deadline)
    pd = read_exact(s, struct.unpack(">H", head[18:20])[0], deadline)
    return head, pd


def client(a):
    deadline = time.monotonic() + a.timeout
    pd = struct.pack(">HH", a.ird, a.ord) if not a.no_enhanced and a.rev == 2 else b""
    with socket.create_connection(("127.0.0.1", a.port), timeout=a.timeout) as s:
        s.sendall(frame(REQ, a.markers, a.crc, False, not a.no_enhanced and a.rev == 2, a.rev, pd))
        try:
            head, rpd = read_frame(s, deadline)
        except (EOFError, OSError) as ex:
            print(json.dumps({"error": f"no MPA Reply: {ex}"}))
            return 1
        print(json.dumps(parse(head, rpd)))
        return 0


def server(a):
    deadline = time.monotonic() + a.timeout
    with socket.socket() as ls:
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("127.0.0.1", a.port))
        ls.listen(1)
        ls.settimeout(a.timeout)
        try:
            s, _ = ls.accept()
        except socket.timeout:
            print(json.dumps({"error": f"no connection within {a.timeout} s"}))
            return 1
        with s:
            try:
                head, pd = read_frame(s, deadline)
            except (EOFError, OSError) as ex:
                print(json.dumps({"error": f"no MPA Request: {ex}"}))
                return 1
            req = parse(head, pd)
            s.sendall(frame(REP, False, req["c"], False, req["enhanced"], 2 if req["rev"] == 2 else 1,
                            struct.pack(">HH", 1, 1) if req["enhanced"] else b""))
            after = b""
            try:  # the first FPDU the DUT sends after the Reply (rping's client sends a Send)
                s.settimeout(1.5)
                after = s.recv(4096)
            except OSError:
                pass
            req["octets_after_reply"] = len(after)
            print(json.dumps(req))
            return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["client", "server"])
    ap.add_argument("port", type=int)
    ap.add_argument("--rev", type=int, default=2)
    ap.add_argument("--markers", action="store_true")
    ap.add_argument("--crc", action="store_true")
    ap.add_argument("--no-enhanced", action="store_true")
    ap.add_argument("--ird", type=int, default=1)
    ap.add_argument("--ord", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10)
    a = ap.parse_args()
    return client(a) if a.mode == "client" else server(a)


if __name__ == "__main__":
    sys.exit(main())
