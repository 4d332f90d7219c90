#!/usr/bin/env python3
"""Host side of the lab's command channel (see guest/lab-cmdd.py): one request per connection, bounded waits.

usage: labcmd.py [--port P] [--host H] ping [--wait SECONDS]
       labcmd.py exec [--timeout S] -- CMD [ARG...]     (one argument: run by /bin/sh -c)
       labcmd.py spawn NAME -- CMD [ARG...]
       labcmd.py stop NAME [--timeout S]
       labcmd.py services
       labcmd.py get REMOTE LOCAL
       labcmd.py put LOCAL REMOTE [--mode OCTAL]
Exit codes: exec gives the command's own (124 when it timed out, as timeout(1) does); 125 when the guest could
not be reached or refused the request.
"""
import argparse
import base64
import json
import os
import socket
import sys
import time

UNREACHABLE = 125


class LabError(Exception):
    pass


def call(host, port, req, wait):
    """Sends one request and returns the response; every socket step has a deadline."""
    try:
        with socket.create_connection((host, port), timeout=5) as s:
            s.settimeout(wait)
            s.sendall(json.dumps(req).encode() + b"\n")
            buf = bytearray()
            deadline = time.monotonic() + wait
            while not buf.endswith(b"\n"):
                if time.monotonic() > deadline:
                    raise LabError(f"no answer from the guest within {wait:.0f} s")
                chunk = s.recv(1 << 20)
                if not chunk:
                    break
                buf += chunk
    except (OSError, socket.timeout) as e:
        raise LabError(f"cannot reach the guest's command channel at {host}:{port}: {e}")
    if not buf:
        raise LabError(f"the guest's command channel at {host}:{port} closed without answering")
    resp = json.loads(buf)
    if not resp.get("ok"):
        raise LabError(f"guest: {resp.get('error')}")
    return resp


def argv_request(cmd):
    return {"sh": cmd[0]} if len(cmd) == 1 else {"argv": cmd}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=int(os.environ.get("RDDP_LAB_CMD_PORT", "7170")))
    sub = ap.add_subparsers(dest="op", required=True)
    p = sub.add_parser("ping")
    p.add_argument("--wait", type=float, default=0, help="keep trying this many seconds")
    p = sub.add_parser("exec")
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    p = sub.add_parser("spawn")
    p.add_argument("name")
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    p = sub.add_parser("stop")
    p.add_argument("name")
    p.add_argument("--timeout", type=float, default=5)
    sub.add_parser("services")
    p = sub.add_parser("get")
    p.add_argument("remote")
    p.add_argument("local")
    p = sub.add_parser("put")
    p.add_argument("local")
    p.add_argument("remote")
    p.add_argument("--mode", default="644")
    a = ap.parse_args()
    if getattr(a, "cmd", None) and a.cmd[0] == "--":
        a.cmd = a.cmd[1:]
    try:
        if a.op == "ping":
            deadline = time.monotonic() + a.wait
            while True:
                try:
                    print(f"guest up {call(a.host, a.port, {'op': 'ping'}, 5)['uptime']:.1f} s")
                    return 0
                except LabError:
                    if time.monotonic() >= deadline:
                        raise
                    time.sleep(0.5)
        if a.op == "exec":
            if not a.cmd:
                raise LabError("exec needs a command")
            r = call(a.host, a.port, dict(op="exec", timeout=a.timeout, **argv_request(a.cmd)), a.timeout + 15)
            sys.stdout.buffer.write(base64.b64decode(r["stdout"]))
            sys.stderr.buffer.write(base64.b64decode(r["stderr"]))
            if r["timed_out"]:
                print(f"labcmd: the command timed out after {a.timeout:.0f} s and was killed", file=sys.stderr)
                return 124
            rc = r["rc"]
            return rc if rc >= 0 else 128 - rc  # killed by a signal: as a shell reports it
        if a.op == "spawn":
            if not a.cmd:
                raise LabError("spawn needs a command")
            r = call(a.host, a.port, dict(op="spawn", name=a.name, **argv_request(a.cmd)), 20)
            print(f"{a.name}: pid {r['pid']}, log {r['log']} (in the guest)")
        elif a.op == "stop":
            r = call(a.host, a.port, {"op": "stop", "name": a.name, "timeout": a.timeout}, a.timeout + 15)
            print(f"{a.name}: " + (f"stopped (exit {r['rc']})" if r["stopped"] else "was not running"))
        elif a.op == "services":
            for name, s in sorted(call(a.host, a.port, {"op": "services"}, 10)["services"].items()):
                print(f"{name}: pid {s['pid']} " + ("running" if s["running"] else f"exited {s['rc']}"))
        elif a.op == "get":
            offset, size = 0, None
            tmp = a.local + ".part"
            with open(tmp, "wb") as f:
                while size is None or offset < size:
                    r = call(a.host, a.port, {"op": "get", "path": a.remote, "offset": offset}, 60)
                    data = base64.b64decode(r["data"])
                    size = r["size"]
                    if not data:
                        break
                    f.write(data)
                    offset += len(data)
            os.replace(tmp, a.local)
        elif a.op == "put":
            with open(a.local, "rb") as f:
                data = f.read()
            call(a.host, a.port, {"op": "put", "path": a.remote, "data": base64.b64encode(data).decode(),
                                  "mode": int(a.mode, 8)}, 60)
        return 0
    except LabError as e:
        print(f"labcmd: {e}", file=sys.stderr)
        return UNREACHABLE


if __name__ == "__main__":
    sys.exit(main())
