#!/usr/bin/env python3
"""The lab guest's command daemon: the host's only way to run things in the guest.

One JSON request per TCP connection, one JSON response, then the connection closes: a client that dies cannot
leave the daemon half-way through a stream. Every request carries its own timeout; nothing here waits forever.

Requests (all byte strings are base64):
  {"op":"ping"}                                   -> {"ok":true,"uptime":s}
  {"op":"exec","argv":[..]|"sh":"..","timeout":s,"stdin":b64}
                                                  -> {"ok":true,"rc":n,"stdout":b64,"stderr":b64,"timed_out":bool}
  {"op":"spawn","name":"rping","sh":"..."|"argv":[..]}   start a named background service (output in
                                                  /run/lab/NAME.log); a running one of that name is stopped first
  {"op":"stop","name":"rping","timeout":s}        SIGINT, then SIGTERM, then SIGKILL to its process group
  {"op":"services"}                               -> {"services":{"name":{"pid":n,"running":bool,"rc":n|null}}}
  {"op":"get","path":p,"offset":n,"length":n}     -> {"data":b64,"size":total}
  {"op":"put","path":p,"data":b64,"mode":0o755,"append":bool}
"""
import argparse
import base64
import json
import os
import signal
import socket
import socketserver
import subprocess
import threading
import time

MAX_OUTPUT = 16 << 20        # bytes kept of a command's stdout/stderr each
MAX_TIMEOUT = 3600
MAX_CHUNK = 8 << 20          # bytes per get
REQUEST_READ_TIMEOUT = 30    # seconds to receive a whole request line
ENV = dict(os.environ, PATH="/usr/sbin:/usr/bin:/sbin:/bin", HOME="/root")

services = {}                # name -> Popen
services_lock = threading.Lock()


def b64(data):
    return base64.b64encode(data).decode("ascii")


def kill_group(proc, timeout):
    """Stops a process group politely, then firmly; returns its exit code (None if it would not die)."""
    for sig, wait in ((signal.SIGINT, timeout), (signal.SIGTERM, 2), (signal.SIGKILL, 2)):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue
    return proc.poll()


def command(req):
    if "argv" in req:
        return [str(a) for a in req["argv"]]
    if "sh" in req:
        return ["/bin/sh", "-c", str(req["sh"])]
    raise ValueError("argv or sh is required")


def op_exec(req):
    timeout = min(float(req.get("timeout", 30)), MAX_TIMEOUT)
    stdin = base64.b64decode(req.get("stdin", ""))
    proc = subprocess.Popen(command(req), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=req.get("cwd", "/"), env=ENV, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_group(proc, 1)
        out, err = proc.communicate()
    return {"rc": proc.returncode, "timed_out": timed_out,
            "stdout": b64(out[-MAX_OUTPUT:]), "stderr": b64(err[-MAX_OUTPUT:])}


def op_spawn(req):
    name = str(req["name"])
    if not name.replace("-", "").replace("_", "").isalnum():
        raise ValueError("service names are letters, digits, - and _")
    with services_lock:
        old = services.pop(name, None)
    if old is not None:
        kill_group(old, 3)
    log = open(f"/run/lab/{name}.log", "wb")  # a fresh log: callers wait for lines in it
    proc = subprocess.Popen(command(req), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            cwd=req.get("cwd", "/"), env=ENV, start_new_session=True)
    log.close()
    with services_lock:
        services[name] = proc
    return {"pid": proc.pid, "log": f"/run/lab/{name}.log"}


def op_stop(req):
    with services_lock:
        proc = services.pop(str(req["name"]), None)
    if proc is None:
        return {"stopped": False}
    rc = kill_group(proc, min(float(req.get("timeout", 5)), 60))
    return {"stopped": True, "rc": rc}


def op_services(_req):
    with services_lock:
        return {"services": {n: {"pid": p.pid, "running": p.poll() is None, "rc": p.poll()}
                             for n, p in services.items()}}


def op_get(req):
    path = req["path"]
    offset = int(req.get("offset", 0))
    length = min(int(req.get("length", MAX_CHUNK)), MAX_CHUNK)
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        f.seek(offset)
        return {"data": b64(f.read(length)), "size": size}


def op_put(req):
    path = req["path"]
    os.makedirs(os.path.dirname(path) or "/", exist_ok=True)
    with open(path, "ab" if req.get("append") else "wb") as f:
        f.write(base64.b64decode(req.get("data", "")))
    os.chmod(path, int(req.get("mode", 0o644)))
    return {}


def op_ping(_req):
    with open("/proc/uptime") as f:
        return {"uptime": float(f.read().split()[0])}


OPS = {"ping": op_ping, "exec": op_exec, "spawn": op_spawn, "stop": op_stop, "services": op_services,
       "get": op_get, "put": op_put}


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        self.connection.settimeout(REQUEST_READ_TIMEOUT)
        try:
            line = self.rfile.readline(64 << 20)
            req = json.loads(line)
            fn = OPS.get(req.get("op"))
            resp = {"ok": False, "error": f"unknown op {req.get('op')!r}"} if fn is None else dict(ok=True, **fn(req))
        except (socket.timeout, ConnectionError):
            return
        except Exception as e:  # any failure becomes an answer, never a dead daemon
            resp = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        self.connection.settimeout(60)
        try:
            self.wfile.write(json.dumps(resp).encode() + b"\n")
        except OSError:
            pass


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=7100)
    args = ap.parse_args()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    with Server(("0.0.0.0", args.port), Handler) as srv:
        try:
            with open("/dev/console", "w") as c:
                c.write(f"lab: ready (command daemon on port {args.port}, uptime {op_ping(None)['uptime']} s)\n")
        except OSError:
            pass
        srv.serve_forever()


if __name__ == "__main__":
    main()
