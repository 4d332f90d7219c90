#!/usr/bin/env python3
"""`lab check`: the lab's own verdicts, for CI, until rddp conform runs against it.

Each case drives the DUT (siw in the guest) and compares what it did with the running kernel's expected.json
(kernels/SERIES/expected.json). A case whose
observation differs from the expected one fails ("a changed verdict is a failure"). Steps that depend on timing
(rping -s is restarted after each connection) are retried a bounded number of times; the report says so.

usage: check.py LAB_SCRIPT --expected FILE [--json FILE]      (run by `lab check`, the lab up)
"""
import argparse
import hashlib
import hmac
import json
import os
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE = os.path.join(HERE, "mpa_probe.py")
RETRIES = 3


def run(cmd, timeout=60):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s"


def probe_client(port, *flags):
    rc, out, err = run([sys.executable, PROBE, "client", str(port), *flags], 20)
    try:
        return json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": (err or out).strip()[-300:]}


def passive_case(lab, port, flags, keys):
    """An MPA Request from the host to rping -s in the guest; the Reply's fields in keys are the verdict."""
    for attempt in range(1, RETRIES + 1):
        got = probe_client(port, *flags)
        if "error" not in got:
            return {k: got.get(k) for k in keys}, attempt
        time.sleep(1.0)  # rping -s restarts after each connection
    return {"error": got["error"]}, RETRIES


def active_case(lab, host_port, guest_port):
    """siw's rping client connects to 10.0.2.100 (guestfwd) where a probe server on the host answers."""
    for attempt in range(1, RETRIES + 1):
        result = {}

        def serve():
            rc, out, err = run([sys.executable, PROBE, "server", str(host_port), "--timeout", "25"], 40)
            try:
                result.update(json.loads(out.strip().splitlines()[-1]))
            except (ValueError, IndexError):
                result["error"] = (err or out).strip()[-300:]
        t = threading.Thread(target=serve)
        t.start()
        time.sleep(1.0)  # the probe server must listen before the guest connects
        run([lab, "exec", "--timeout", "20", "--", "rping", "-c", "-a", "10.0.2.100", "-p", str(guest_port),
             "-C", "1"], 40)
        t.join(45)
        if "error" not in result and result:
            keep = ["rev", "enhanced", "m", "c", "r", "ird", "ord", "peer_to_peer"]
            out = {k: result.get(k) for k in keep}
            out["sends_after_reply"] = result.get("octets_after_reply", 0) > 0
            return out, attempt
        time.sleep(1.0)
    return {"error": result.get("error", "no result")}, RETRIES


def control_case(lab, env):
    """The agent's control channel from the host, through the forward: nothing but hello without the token, the
    challenge-response with it (the agent proving it back), and no start on 0.0.0.0 without a token."""
    out = {}
    rc, _, err = run([lab, "agent", "start"], 90)
    if rc:
        return {"error": f"agent start: {err.strip()[-300:]}"}
    try:
        port = int(env["RDDP_LAB_HOSTFWD_AGENT"].split(">")[0].rsplit(":", 1)[1])
        with open(env["RDDP_LAB_AGENT_TOKEN"]) as f:
            secret = bytes.fromhex(f.read().strip())
        s = socket.create_connection(("127.0.0.1", port), timeout=20)
        rf = s.makefile("rb")

        def call(req):
            s.sendall(json.dumps(req).encode() + b"\n")
            line = rf.readline()
            return json.loads(line) if line else {}
        out["unauthenticated register"] = call({"op": "register", "length": 4096}).get("error", {}).get("code")
        cn = os.urandom(32)
        ch = call({"op": "hello", "version": 2, "client": "check", "client_nonce": cn.hex()})
        sn = bytes.fromhex(ch.get("challenge", ""))
        mac = lambda label: hmac.new(secret, sn + cn + label, hashlib.sha256).digest()
        h = call({"op": "hello", "version": 2, "client": "check", "client_nonce": cn.hex(),
                  "proof": mac(b"rddp-dut-control-v2 client").hex()})
        out["hello with the token"] = h.get("auth") if h.get("ok") else h.get("error", {}).get("code")
        out["the agent proves the token"] = hmac.compare_digest(mac(b"rddp-dut-control-v2 server"),
                                                                bytes.fromhex(h.get("server_proof", "")))
        call({"op": "bye"})
        s.close()
    except (OSError, ValueError, KeyError) as ex:
        out["error"] = repr(ex)[:300]
    finally:
        run([lab, "agent", "stop"])
    rc, o, e = run([lab, "exec", "--timeout", "60", "--", "python3", "/run/lab/agent/rddp-dut-agent", "--control",
                    "0.0.0.0:7199", "--device", "siw0", "--no-kmsg"], 90)
    out["no token on 0.0.0.0"] = "refused" if rc not in (0, 124, 125) and "not a loopback address" in o + e else \
        f"exit {rc}: {(o + e).strip()[-200:]}"
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lab")
    ap.add_argument("--json")
    ap.add_argument("--expected", required=True)
    a = ap.parse_args()
    env = dict(l.split("=", 1) for l in run([a.lab, "env"])[1].splitlines() if "=" in l)
    iwarp = int(env["RDDP_LAB_HOSTFWD_IWARP"].split(">")[0].rsplit(":", 1)[1])
    tester_guest = int(env["RDDP_LAB_GUESTFWD_TESTER"].split(">")[0].rsplit(":", 1)[1])
    tester_host = int(env["RDDP_LAB_GUESTFWD_TESTER"].split(">")[1].rsplit(":", 1)[1])
    try:
        with open(a.expected) as f:
            expected = json.load(f)
    except OSError as e:
        sys.exit(f"check: no expected verdicts for this kernel: {e} (RDDP_LAB_BASELINES=DIR names another folder)")

    observed, retries = {}, {}
    rc, _, err = run([a.lab, "rping", "start"])
    if rc:
        sys.exit(f"check: cannot start rping -s in the guest: {err.strip()}")
    time.sleep(1.0)
    keys = ["key", "rev", "enhanced", "m", "c", "r", "ird", "ord", "peer_to_peer"]
    cases = {
        "passive rev 2 enhanced: siw's Reply": ([], keys),
        "passive rev 2 with C=1: siw turns CRC on": (["--crc"], ["rev", "c", "r"]),
        "passive rev 2 with M=1: siw refuses Markers": (["--markers"], ["rev", "m", "r"]),
        "passive rev 1: siw answers rev 1": (["--rev", "1"], ["rev", "enhanced", "r", "pd_length"]),
    }
    for name, (flags, k) in cases.items():
        observed[name], retries[name] = passive_case(a.lab, iwarp, flags, k)
        time.sleep(0.5)
    run([a.lab, "rping", "stop"])
    name = "active: siw's rping client's Request"
    observed[name], retries[name] = active_case(a.lab, tester_host, tester_guest)

    name = "agent control channel from the host (token, challenge-response)"
    observed[name], retries[name] = control_case(a.lab, env), 1

    name = "agent smoke test (two agents through DUT-CONTROL)"
    for attempt in range(1, 3):
        rc, out, err = run([a.lab, "agent-smoke"], 300)
        last = (out.strip().splitlines() or [""])[-1]
        if rc == 0:
            break
    observed[name], retries[name] = {"summary": last if rc == 0 else (last or err.strip()[-300:])}, attempt

    passed = failed = 0
    for name, got in observed.items():
        want = expected.get(name)
        ok = want == got
        passed, failed = passed + ok, failed + (not ok)
        note = f" (after {retries[name]} tries)" if retries[name] > 1 else ""
        print(f"{'ok    ' if ok else 'FAILED'} {name}{note}")
        if not ok:
            print(f"       expected {json.dumps(want)}\n       observed {json.dumps(got)}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"observed": observed, "retries": retries}, f, indent=1)
    print(f"siw-lab: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
