#!/usr/bin/env python3
"""Splits what `rddp analyze` finds in an interop recording between rddp peer and siw.

usage: sides.py RDDP PCAP PEER_SIDE   (PEER_SIDE: client or server, the side rddp peer played)
Prints rddp peer's warnings and errors (exit 1 if any) and siw's as findings (they do not fail the step: the RFC is
the referee and they are reported, but interop is about rddp peer).
"""
import json
import subprocess
import sys

rddp, pcap, side = sys.argv[1:4]
run = subprocess.run([rddp, "analyze", "--format", "json", "--fail-on", "never", pcap], capture_output=True, text=True)
if run.returncode not in (0, 3):  # 3: nothing to analyse (no iWARP traffic), still a JSON report
    raise subprocess.CalledProcessError(run.returncode, run.args, run.stdout, run.stderr)
out = run.stdout
ours = "client-to-server" if side == "client" else "server-to-client"
bad = 0
for v in json.loads(out).get("violations", []):
    if v.get("severity") not in ("warning", "error"):
        continue
    who = "rddp peer" if v.get("direction") == ours else "siw"
    print(f'  {who}: {v["severity"]} {v["check"]} stream {v.get("stream")} frame {v.get("frame")}: {v["message"]}'
          f' [{v["rfc"]} {v["section"]}]')
    if who == "rddp peer":
        bad += 1
sys.exit(1 if bad else 0)
