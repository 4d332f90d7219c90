#!/usr/bin/env python3
"""Waiver reasons of a siw baseline from the run that wrote it (lab conform --write-baseline --publish-captures).

usage: reasons.py SERIES REPORT_DIR BASELINE CAPTURES_DIR

Every failure of BASELINE gets the reason "siw SERIES: what siw did; siw's errors as `check` (frame N); the
tester's notes", from REPORT_DIR/report.json and the golden analyses in CAPTURES_DIR (the frames are the published
capture's). A reason carried over from an older baseline would name that run's reaction and frames; this one names
the run the baseline records. The file keeps its layout (json.dumps, indent 2).
"""
import json
import os
import sys

from expected import siw_side

series, report, baseline, captures = sys.argv[1:5]
results = {s["id"]: s for s in json.load(open(os.path.join(report, "report.json")))["scenarios"]}


with open(baseline) as f:
    doc = json.load(f)
for sid, entry in doc["scenarios"].items():
    r = results.get(sid)
    if entry.get("verdict") != "fail" or r is None:
        continue
    parts = []
    for p in [*(r.get("observed") or "").split("; ")[:1], *siw_side(os.path.join(captures, sid + ".expected"))[1],
              *(r.get("observed") or "").split("; ")[1:], *r.get("notes", [])]:
        if p and p not in parts:
            parts.append(p)
    entry["reason"] = f"siw {series}: " + "; ".join(parts)
with open(baseline, "w") as f:
    f.write(json.dumps(doc, indent=2) + "\n")
