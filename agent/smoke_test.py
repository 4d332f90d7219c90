#!/usr/bin/env python3
"""Smoke test of two DUT agents through the DUT control protocol (standard library only).

Agent A listens, agent B connects (both on the same RNIC or on two hosts), then: Send, Send with SE, RDMA Write,
RDMA Read with read_mem checks, Send with Invalidate, local invalidation, the ops the device does not support,
an RDMA Write to a bad STag and to an invalidated STag (what each side reports is printed, not judged: it is what
the device does), manual accept with private data both ways, a reject, an orderly close and a reset. And the control
channel's guards (docs/dut-control.md version 2, docs/security.md): an unauthenticated client gets nothing but hello, a
wrong token is refused, a silent client is closed at the hello timeout without keeping anyone out, a second client
is refused while a session is busy, deep nesting is refused, requests beyond the memory cap give resource-limit,
and a client gets in right after bye. And companion sessions (when the agent serves more than one, caps.sessions): a
companion joins with the holder's ticket, a wrong ticket and one session too many are refused, each session's poll
and events take only its own QPs', a listener of another session's port is refused, a companion's reset destroys
only what it made, and the holder's end ends its companions and what they made.

usage: smoke_test.py --a HOST:PORT --b HOST:PORT --host IP_OF_A [--port 7777] [--token-file F] [--json FILE]
(--token-file: the agents' --token-file, the same for both). Must-pass checks count in the closing
"N passed, N failed" line; observations are printed with "observed:".
"""
import argparse
import hashlib
import hmac
import json
import os
import socket
import sys
import time

CLIENT_LABEL = b"rddp-dut-control-v2 client"
SERVER_LABEL = b"rddp-dut-control-v2 server"


def mac(secret, server_nonce, client_nonce, label):
    return hmac.new(secret, server_nonce + client_nonce + label, hashlib.sha256).digest()


class Client:
    def __init__(self, name, addr, secret=None):
        host, port = addr.rsplit(":", 1)
        self.name = name
        self.addr = addr
        self.secret = secret
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self.sock.settimeout(90)
        self.rfile = self.sock.makefile("rb")
        self.n = 0

    def hello(self, client="smoke_test", secret=None, join=None):
        """hello of version 2: the challenge answered with the token (when the agent asks); the answer, or the
        error answer. The agent's own proof is checked. join: a holder's ticket, in both hellos (a companion)."""
        secret = secret if secret is not None else self.secret
        cn = os.urandom(32)
        extra = {"join": join} if join is not None else {}
        r = self.call("hello", version=2, client=client, client_nonce=cn.hex(), **extra)
        if not r.get("ok") or "challenge" not in r:
            return r
        if secret is None:
            return {"ok": False, "error": {"code": "unauthorized", "message": "the agent needs a token"}}
        sn = bytes.fromhex(r["challenge"])
        r = self.call("hello", version=2, client=client, client_nonce=cn.hex(),
                      proof=mac(secret, sn, cn, CLIENT_LABEL).hex(), **extra)
        if r.get("ok") and not hmac.compare_digest(mac(secret, sn, cn, SERVER_LABEL),
                                                   bytes.fromhex(r.get("server_proof", ""))):
            raise SystemExit(f"{self.name}: the agent did not prove it has the token")
        return r

    def raw(self, text):
        """Sends text as it is and returns the answer line as JSON, or None when the agent closed."""
        self.sock.sendall(text.encode())
        line = self.rfile.readline()
        return json.loads(line) if line else None

    def closed_within(self, seconds):
        """Seconds until the agent closes this connection (None if it does not within the given time)."""
        t0 = time.monotonic()
        self.sock.settimeout(seconds)
        try:
            while self.rfile.readline():
                pass
        except (socket.timeout, TimeoutError):
            return None
        except OSError:
            pass
        return round(time.monotonic() - t0, 2)

    def close(self):
        """Closes the connection for real (the agent sees it end: the reader made by makefile holds the socket too)."""
        for f in (lambda: self.sock.shutdown(socket.SHUT_RDWR), self.rfile.close, self.sock.close):
            try:
                f()
            except OSError:
                pass

    def call(self, op, **fields):
        self.n += 1
        req = {"op": op, "id": self.n, **fields}
        self.sock.sendall(json.dumps(req).encode() + b"\n")
        line = self.rfile.readline()
        if not line:
            raise SystemExit(f"{self.name}: the agent closed the session after {op}")
        resp = json.loads(line)
        if resp.get("id") != self.n:
            raise SystemExit(f"{self.name}: answer id {resp.get('id')} for request {self.n}")
        return resp

    def ok(self, op, **fields):
        r = self.call(op, **fields)
        if not r.get("ok"):
            raise SystemExit(f"{self.name}: {op} failed: {r.get('error')}")
        return r


class Report:
    def __init__(self):
        self.passed = self.failed = 0
        self.observed = {}

    def check(self, what, cond, detail=""):
        if cond:
            self.passed += 1
            print(f"  ok      {what}")
        else:
            self.failed += 1
            print(f"  FAILED  {what} {detail}")

    def observe(self, key, value):
        self.observed[key] = value
        print(f"  observed: {key}: {json.dumps(value)}")


def drain(c, qp=None, want=1, timeout_ms=3000):
    fields = {"max": 32, "min": want, "timeout_ms": timeout_ms}
    if qp is not None:
        fields["qp"] = qp
    return c.ok("poll", **fields)["completions"]


def events(c, timeout_ms=500):
    return c.ok("events", max=64, timeout_ms=timeout_ms)["events"]


def connect_pair(a, b, host, port, r, accept="auto", **connect_fields):
    lst = a.ok("listen", port=port, host="0.0.0.0", accept=accept, recv={"count": 8, "length": 256}, ird=4, ord=4)
    cb = b.call("connect", host=host, port=port, timeout_ms=10000, recv={"count": 8, "length": 256}, ird=4, ord=4,
                **connect_fields)
    return lst, cb


def code(resp):
    return (resp or {}).get("error", {}).get("code")


def guards(r, args, secret, a, ha):
    """The control channel's guards, against agent A while session a holds it."""
    print("the control channel: authentication, squatting, bounds")
    c = Client("X", args.a)
    answers = [code(c.call(op, length=4096, host="127.0.0.1", port=9)) for op in ("register", "reset", "bye", "poll")]
    r.check("an unauthenticated client gets unauthorized for every op but hello", answers == ["unauthorized"] * 4,
            answers)
    old = c.call("hello", version=1, client="old")
    r.check("a version 1 hello gets not-supported naming version 2",
            code(old) == "not-supported" and old.get("version") == 2, old)
    if secret is not None:
        wrong = bytes(b ^ 0x5A for b in secret)
        got = c.hello(secret=wrong)
        r.check("a wrong token is refused and the connection closed",
                code(got) == "unauthorized" and c.closed_within(3) is not None, got)
    c.close()
    # a squatter: connects and says nothing; the session of A goes on meanwhile
    sq = Client("S", args.a)
    t0 = time.monotonic()
    r.check("A's session is served while a squatter waits", a.ok("events", max=1).get("ok"))
    took = sq.closed_within(15)
    r.observe("squatter closed after (s)", None if took is None else round(time.monotonic() - t0, 1))
    r.check("a silent client is closed within the hello timeout (5 s)", took is not None and took <= 8, took)
    sq.close()
    # a second authenticated client while A's session is in use
    c = Client("Y", args.a, secret)
    t0 = time.monotonic()
    got = c.hello()
    r.check("a second client is refused quickly while the session is in use",
            code(got) == "state" and time.monotonic() - t0 < 3, got)
    c.close()
    deep = a.raw('{"op":"events","x":' + "[" * 100 + "]" * 100 + "}\n")
    r.check("a request nested 100 deep is refused as bad-request", code(deep) == "bad-request", deep)
    r.check("and the session goes on", a.ok("events", max=1).get("ok"))
    caps = ha["caps"]
    cap = caps.get("max_memory")
    r.check("hello reports the memory cap", isinstance(cap, int) and cap > 0, caps)
    big = a.call("register", length=caps["max_mr_size"] + 1, access=["local_write"])
    r.check("a region over the cap gets resource-limit", code(big) in ("resource-limit", "bad-request"), big)
    if isinstance(cap, int) and cap <= 256 << 20:
        half = cap // 2 + 4096
        first = a.call("register", length=half, access=["local_write"], fill="5a")
        second = a.call("register", length=half, access=["local_write"])
        r.check("two regions of more than half the cap: the second gets resource-limit",
                first.get("ok") and code(second) == "resource-limit", (first.get("error"), second))
        if first.get("ok"):
            r.check("a big region is filled with its pattern",
                    a.ok("read_mem", mr=first["mr"], offset=half - 4, length=4)["data"] == "5a" * 4)
            a.ok("deregister", mr=first["mr"])
    a.ok("reset")


def companions(r, args, secret, a, b, ha):
    """Companion sessions of agent A beside its holder a (docs/dut-control.md, Sessions); B connects to them."""
    print("companion sessions")
    n = ha["caps"].get("sessions", 1)
    ticket = ha.get("ticket")
    r.observe("caps.sessions", n)
    if n < 2 or not ticket:
        r.check("one session at a time: no ticket", n == 1 and ticket is None, (n, ticket))
        return
    r.check("the holder's hello answer has a ticket", isinstance(ticket, str) and len(ticket) >= 32, ticket)
    bad = Client("J?", args.a, secret)
    got = bad.hello(join="00" + ticket[2:])
    r.check("a wrong ticket is refused with state and the connection closed",
            code(got) == "state" and bad.closed_within(3) is not None, got)
    bad.close()
    c = Client("C", args.a, secret)
    hc = c.hello(join=ticket)
    r.check("a companion joins with the holder's ticket", hc.get("ok") and "ticket" not in hc and
            hc.get("caps", {}).get("sessions") == n, hc.get("error") or hc.get("ticket"))
    if not hc.get("ok"):
        c.close()
        return
    port = args.port + 1
    hm = a.ok("register", length=64, access=["local_write"], fill="a5")
    lst = c.ok("listen", port=port, host="0.0.0.0", recv={"count": 8, "length": 256}, ird=4, ord=4)
    theirs = a.call("listen", port=port, host="0.0.0.0")
    r.check("the holder's listen on the companion's port is refused with state", code(theirs) == "state", theirs)
    cb = b.call("connect", host=args.host, port=port, timeout_ms=10000, recv={"count": 8, "length": 256}, ird=4, ord=4)
    r.check("B connects to the companion's listener", cb.get("ok"), cb)
    qc = None
    if cb.get("ok"):
        cc = c.ok("accept", listener=lst["listener"], timeout_ms=5000)
        qc, qb = cc["qp"], cb["qp"]
        b.ok("post_send", qp=qb, opcode="send", data="636f6d70")
        drain(b, qb)
        stolen = a.ok("poll", max=32, min=1, timeout_ms=1000)["completions"]
        r.check("the holder's poll without qp does not take the companion's completion",
                not any(x.get("qp") == qc for x in stolen), stolen)
        got = drain(c, None)
        r.check("the companion's poll without qp takes it",
                any(x.get("qp") == qc and x.get("data") == "636f6d70" for x in got), got)
        ea, ec = events(a, 300), events(c, 500)
        r.check("the holder's events have none of the companion's QP", not any(ev.get("qp") == qc for ev in ea), ea)
        r.check("the companion's events have its QP's", any(ev.get("qp") == qc for ev in ec), ec)
    cm = c.ok("register", length=64, access=["local_write"], fill="5a")
    c.ok("reset")
    r.check("the companion's reset destroys its QP and region",
            (qc is None or code(a.call("qp", qp=qc)) == "not-found") and
            code(a.call("read_mem", mr=cm["mr"], length=1)) == "not-found")
    r.check("and leaves the holder's region", a.ok("read_mem", mr=hm["mr"], length=2)["data"] == "a5a5")
    mine = a.call("listen", port=port, host="0.0.0.0")
    r.check("and frees its port: the holder listens there now", mine.get("ok"), mine)
    # up to caps.sessions in all, then one more is refused
    more = []
    for i in range(n - 2):
        x = Client(f"C{i}", args.a, secret)
        more.append((x, x.hello(join=ticket)))
    extra = Client("C+", args.a, secret)
    got = extra.hello(join=ticket)
    r.check(f"{n - 1} companions join, one more is refused with state",
            all(h.get("ok") for _, h in more) and code(got) == "state", (got, [h.get("error") for _, h in more]))
    extra.close()
    for x, h in more:
        if h.get("ok"):
            x.call("bye")
        x.close()
    c.ok("bye")
    c.close()
    a.ok("reset")
    b.ok("reset")


def holder_end(r, args, secret):
    """The holder goes away (no bye): its companions end with it, and what they made is destroyed."""
    print("companion sessions: the holder's end")
    h = Client("H", args.a, secret)
    hh = h.hello()
    if not hh.get("ok") or not hh.get("ticket"):
        r.observe("holder's end not tested", hh.get("error") or "no ticket (one session at a time)")
        h.close()
        return
    c = Client("HC", args.a, secret)
    if not c.hello(join=hh["ticket"]).get("ok"):
        r.check("a companion joins", False)
        return
    port = args.port + 2
    c.ok("listen", port=port, host="0.0.0.0", recv={"count": 2, "length": 64})
    cm = c.ok("register", length=64, access=["local_write"])
    h.close()
    r.check("the holder's end closes its companion's connection", c.closed_within(10) is not None)
    c.close()
    n = Client("N", args.a, secret)
    hn = n.hello()
    r.check("the next tester gets in", hn.get("ok"), hn)
    if hn.get("ok"):
        r.check("and finds nothing of the companion's: its region is gone and its port free",
                code(n.call("read_mem", mr=cm["mr"], length=1)) == "not-found" and
                n.call("listen", port=port, host="0.0.0.0").get("ok"))
        n.call("bye")
    n.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--host", required=True, help="the address B connects to (A's RNIC address)")
    ap.add_argument("--port", type=int, default=7777)
    ap.add_argument("--token-file", help="the agents' token file (their --token-file)")
    ap.add_argument("--json", help="write the observations here")
    args = ap.parse_args()
    secret = None
    if args.token_file:
        with open(args.token_file) as f:
            secret = bytes.fromhex(f.read().strip())
    r = Report()
    a, b = Client("A", args.a, secret), Client("B", args.b, secret)
    t0 = time.monotonic()

    print("hello")
    ha, hb = a.hello(), b.hello()
    if not ha.get("ok") or not hb.get("ok"):
        raise SystemExit(f"hello failed: A {ha.get('error')}, B {hb.get('error')}")
    r.observe("device", ha["device"])
    r.observe("caps", ha["caps"])
    r.check("hello answers version 2", ha["version"] == 2 and hb["version"] == 2)
    r.check("hello is authenticated as asked",
            ha.get("auth") == ("hmac-sha256" if secret else "none") and hb.get("auth") == ha.get("auth"), ha.get("auth"))
    r.check("a wrong version is refused", a.call("hello", version=99).get("error", {}).get("code") == "not-supported")
    r.check("unknown ops give unknown-op", a.call("frobnicate").get("error", {}).get("code") == "unknown-op")
    guards(r, args, secret, a, ha)
    companions(r, args, secret, a, b, ha)

    print("connection 1: auto accept")
    lst, cb = connect_pair(a, b, args.host, args.port, r)
    r.check("B connects", cb.get("ok"), cb)
    if not cb.get("ok"):
        raise SystemExit(1)
    ca = a.ok("accept", listener=lst["listener"], timeout_ms=5000)
    qa, qb = ca["qp"], cb["qp"]
    r.observe("connect answer (B, active)", cb)
    r.observe("accept answer (A, passive)", ca)
    r.check("both sides rts", ca["state"] == "rts" and cb["state"] == "rts")
    huge = a.call("post_recv", qp=qa, length=64 << 20, count=64)
    r.check("64 receives of 64 MiB without a region get resource-limit", code(huge) == "resource-limit", huge)
    ma = a.ok("register", length=4096, access=["local_write", "remote_read", "remote_write"], fill="00")
    mb = b.ok("register", length=4096, access=["local_write", "remote_read", "remote_write"], fill="ab")
    r.check("register fills the buffer", b.ok("read_mem", mr=mb["mr"], offset=0, length=4)["data"] == "abababab")

    b.ok("post_send", qp=qb, opcode="send", data="68656c6c6f")
    sb = drain(b, qb)
    rb = drain(a, qa)
    r.check("send completes on B", [c["status"] for c in sb] == ["success"] and sb[0]["opcode"] == "send", sb)
    r.check("A receives 'hello'", rb and rb[0]["opcode"] == "recv" and rb[0]["data"] == "68656c6c6f", rb)
    b.ok("post_send", qp=qb, opcode="send", data="", solicited=True)
    sb, rb = drain(b, qb), drain(a, qa)
    r.check("zero-length Send with SE", sb and sb[0]["status"] == "success" and rb and rb[0]["byte_len"] == 0,
            (sb, rb))

    to_a = int(ma["to"], 16)
    b.ok("post_send", qp=qb, opcode="write", data="cafebabe" * 4, remote={"stag": ma["stag"], "to": hex(to_a + 16)})
    sb = drain(b, qb)
    r.check("write completes", sb and sb[0]["status"] == "success" and sb[0]["opcode"] == "write", sb)
    r.check("write placed at offset 16",
            a.ok("read_mem", mr=ma["mr"], offset=0, length=48)["data"] == "00" * 16 + "cafebabe" * 4 + "00" * 16)
    a.ok("write_mem", mr=ma["mr"], offset=1024, data=bytes(range(64)).hex())
    b.ok("post_send", qp=qb, opcode="read", local={"mr": mb["mr"], "offset": 2048}, length=64,
         remote={"stag": ma["stag"], "to": hex(to_a + 1024)})
    sb = drain(b, qb)
    r.check("read completes", sb and sb[0]["status"] == "success" and sb[0]["opcode"] == "read", sb)
    r.check("read brought the bytes",
            b.ok("read_mem", mr=mb["mr"], offset=2048, length=64)["data"] == bytes(range(64)).hex())
    r.check("no events on a clean run besides established",
            all(ev["type"] == "established" for ev in events(a, 0) + events(b, 0)))

    for opcode, extra in (("fetch_add", {"local": {"mr": mb["mr"], "offset": 0}, "add": "0x1"}),
                          ("cmp_swap", {"local": {"mr": mb["mr"], "offset": 0}, "compare": "0x0", "swap": "0x1"}),
                          ("immediate", {"imm": "0x1234"})):
        res = b.call("post_send", qp=qb, opcode=opcode, remote={"stag": ma["stag"], "to": ma["to"]}, **extra)
        r.observe(f"post_send {opcode}", res.get("error") or res)
        if not res.get("ok"):
            r.check(f"{opcode}: refused as not-supported when caps say so",
                    res["error"]["code"] == "not-supported" and not ha["caps"]["atomics" if opcode != "immediate"
                                                                               else "immediate"])
        else:
            r.observe(f"{opcode} completions", drain(b, qb) + drain(a, qa, want=0, timeout_ms=300))

    # Send with Invalidate of A's region: A's receive says which STag went; a Write to it must then fail.
    mi = a.ok("register", length=256, access=["local_write", "remote_write"], fill="11")
    b.ok("post_send", qp=qb, opcode="send_inv", data="696e76", invalidate_stag=mi["stag"])
    sb, rb = drain(b, qb), drain(a, qa)
    r.check("send_inv completes on B", sb and sb[0]["status"] == "success", sb)
    r.observe("send_inv receive on A", rb)
    r.check("A's receive of the Send with Invalidate succeeds", rb and rb[0]["status"] == "success", rb)
    if ha["caps"].get("reports_invalidated_stag", True):
        r.check("A's receive names the invalidated STag", rb and rb[0].get("invalidated_stag") == mi["stag"], rb)

    print("error case 1: RDMA Write to a bad STag")
    bad = (ma["stag"] ^ 0x5a5a5a00) & 0xFFFFFFFF
    b.ok("post_send", qp=qb, opcode="write", data="ff" * 8, remote={"stag": bad, "to": ma["to"]})
    sb = drain(b, qb, want=1, timeout_ms=5000)
    time.sleep(0.5)
    ea, eb = events(a, 1000), events(b, 1000)
    ra = drain(a, qa, want=0, timeout_ms=500)
    r.observe("bad STag: B (writer) completions", sb)
    r.observe("bad STag: B events", eb)
    r.observe("bad STag: A (target) completions", ra)
    r.observe("bad STag: A events", ea)
    r.observe("bad STag: qp states", {"A": a.ok("qp", qp=qa)["state"], "B": b.ok("qp", qp=qb)["state"]})
    r.check("the writer sees an error completion or event",
            any(c["status"] != "success" for c in sb) or any(ev["type"] != "established" for ev in eb), (sb, eb))
    r.check("A's region is untouched", a.ok("read_mem", mr=ma["mr"], offset=0, length=16)["data"] == "00" * 16)
    if ha["caps"].get("kernel_log_events"):
        r.check("B reports the Terminate it received (kernel log)",
                any(ev["type"] == "terminate_received" and ev.get("qp") == qb for ev in eb), eb)
    a.ok("reset")
    b.ok("reset")

    local_inv = ha["caps"]["local_invalidate"]
    print("connection 2: " + ("local" if local_inv else "remote (Send with Invalidate)") +
          " invalidation, then a Write to the invalidated STag")
    lst, cb = connect_pair(a, b, args.host, args.port, r)
    r.check("B connects again after reset", cb.get("ok"), cb)
    ca = a.ok("accept", listener=lst["listener"], timeout_ms=5000)
    qa, qb = ca["qp"], cb["qp"]
    ma = a.ok("register", length=4096, access=["local_write", "remote_write"], fill="00")
    if local_inv:
        inv = a.call("invalidate", qp=qa, stag=ma["stag"], timeout_ms=3000)
        r.observe("local invalidate on A", inv)
        r.check("local invalidation completes", inv.get("ok") and inv.get("status") == "success", inv)
    else:
        r.check("local invalidation is refused as not-supported",
                a.call("invalidate", qp=qa, stag=ma["stag"]).get("error", {}).get("code") == "not-supported")
        b.ok("post_send", qp=qb, opcode="send_inv", data="", invalidate_stag=ma["stag"])
        r.check("remote invalidation: both sides complete",
                [c["status"] for c in drain(b, qb)] == ["success"] and
                [c["status"] for c in drain(a, qa)] == ["success"])
    b.ok("post_send", qp=qb, opcode="write", data="ee" * 8, remote={"stag": ma["stag"], "to": ma["to"]})
    sb = drain(b, qb, want=1, timeout_ms=5000)
    time.sleep(0.5)
    ea, eb = events(a, 1000), events(b, 1000)
    r.observe("invalidated STag: B completions", sb)
    r.observe("invalidated STag: B events", eb)
    r.observe("invalidated STag: A events", ea)
    r.check("the Write to the invalidated STag breaks the connection",
            any(ev["type"] in ("disconnected", "qp_access_err", "qp_fatal") for ev in ea + eb), (ea, eb))
    r.check("the invalidated region is untouched",
            a.ok("read_mem", mr=ma["mr"], offset=0, length=8)["data"] == "00" * 8)
    a.ok("reset")
    b.ok("reset")

    print("connection 3: manual accept with private data both ways, then an orderly close")
    lst = a.ok("listen", port=args.port, accept="manual", recv={"count": 4, "length": 64})
    import threading
    out = {}
    th = threading.Thread(target=lambda: out.update(b=b.call("connect", host=args.host, port=args.port,
                                                                 timeout_ms=10000, private_data="0102030405")))
    th.start()
    ca = a.call("accept", listener=lst["listener"], timeout_ms=8000, private_data="0a0b0c", ird=2, ord=2,
                recv={"count": 0, "length": 0})
    th.join(15)
    cb = out.get("b", {})
    r.observe("manual accept (A)", ca)
    r.observe("connect (B)", cb)
    r.check("manual accept establishes", ca.get("ok") and cb.get("ok"), (ca, cb))
    if ca.get("ok") and cb.get("ok"):
        r.check("A got B's private data", ca["mpa"]["private_data"] == "0102030405", ca["mpa"])
        r.check("B got A's private data", cb["mpa"]["private_data"] == "0a0b0c", cb["mpa"])
        # receives into a registered region: receive i lands at offset + i*length
        mr = a.ok("register", length=256, access=["local_write"], fill="00")
        ids = a.ok("post_recv", qp=ca["qp"], mr=mr["mr"], offset=100, length=16, count=2)["wr_ids"]
        b.ok("post_send", qp=cb["qp"], opcode="send", data="61626364")
        b.ok("post_send", qp=cb["qp"], opcode="send", data="6566")
        rc = drain(a, ca["qp"], want=2)
        drain(b, cb["qp"], want=2)
        r.check("receives into a region complete in order", [c["wr_id"] for c in rc] == ids and
                all(c["status"] == "success" and "data" not in c for c in rc), rc)
        r.check("received bytes at offset + i*length",
                a.ok("read_mem", mr=mr["mr"], offset=100, length=32)["data"] == "61626364" + "00" * 12 + "6566" + "00" * 14)
        r.check("deregister", a.call("deregister", mr=mr["mr"]).get("ok") and
                a.call("read_mem", mr=mr["mr"], length=1).get("error", {}).get("code") == "not-found")
        cl = b.ok("close", qp=cb["qp"])
        time.sleep(1)
        ea, eb = events(a, 2000), events(b, 2000)
        r.observe("orderly close by B: A events", ea)
        r.observe("orderly close by B: B events", eb)
        r.check("A sees the disconnect", any(ev["type"] == "disconnected" for ev in ea), ea)
        r.observe("states after close", {"A": a.ok("qp", qp=ca["qp"])["state"], "B": b.ok("qp", qp=cb["qp"])["state"]})

    print("connection 4: reject")
    th = threading.Thread(target=lambda: out.update(b=b.call("connect", host=args.host, port=args.port,
                                                                 timeout_ms=10000)))
    th.start()
    ca = a.call("accept", listener=lst["listener"], timeout_ms=8000, reject=True, private_data="dead")
    th.join(15)
    r.observe("reject (A)", ca)
    r.observe("rejected connect (B)", out.get("b"))
    r.check("a rejected connect fails on B", not out.get("b", {}).get("ok", True))
    r.observe("B events after reject", events(b, 500))

    print("reset and bye")
    r.check("reset", a.call("reset").get("ok") and b.call("reset").get("ok"))
    mb = a.ok("register", length=4096, access=["local_write"])
    r.check("bye", a.call("bye").get("ok") and b.call("bye").get("ok"))
    # bye cleaned up before it answered: a client that comes at once gets in, and finds nothing left
    again = Client("A2", args.a, secret)
    h = again.hello()
    r.check("a client gets in right after bye", h.get("ok"), h)
    if h.get("ok"):
        r.check("and the old session's regions are gone", code(again.call("read_mem", mr=mb["mr"], length=1)) ==
                "not-found")
        again.call("bye")
    again.close()
    holder_end(r, args, secret)
    r.observe("seconds", round(time.monotonic() - t0, 1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(r.observed, f, indent=1)
    print(f"{r.passed} passed, {r.failed} failed")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
