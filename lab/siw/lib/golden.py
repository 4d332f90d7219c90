#!/usr/bin/env python3
"""Golden analyses of the per-scenario recordings of a `rddp conform` report (lab conform --publish-captures).

For every pcaps/<id>.pcapng of the report: copies it to DEST and writes DEST/<id>.expected with every warning and
error `rddp analyze` finds, one per line as "severity check-id frame direction" (c>s: client to server), under a
header naming the scenario, its verdict, what siw did and which side the tester was (the client, unless siw opened the
connection: DUT-active scenarios, where the tester listens on port 7174). The analyzer test over pcaps/siw-conform
checks the files stay exactly so.
"""
import json
import os
import shutil
import subprocess
import sys

rddp, report, dest = sys.argv[1:4]
results = {s["id"]: s for s in json.load(open(os.path.join(report, "report.json")))["scenarios"]}
for name in sorted(os.listdir(os.path.join(report, "pcaps"))):
    if not name.endswith(".pcapng"):
        continue
    sid = name[: -len(".pcapng")]
    src = os.path.join(report, "pcaps", name)
    shutil.copy(src, os.path.join(dest, name))
    run = subprocess.run([rddp, "analyze", "--format", "json", "--fail-on", "never", src], capture_output=True, text=True)
    if run.returncode not in (0, 3):  # 3: nothing to analyse (no iWARP traffic), still a JSON report
        raise subprocess.CalledProcessError(run.returncode, run.args, run.stdout, run.stderr)
    out = run.stdout
    a = json.loads(out)
    lines = []
    for v in a.get("violations", []):
        if v.get("severity") in ("warning", "error"):
            d = v.get("direction")
            lines.append(f'{v["severity"]} {v["check"] if "check" in v else v.get("id")} {v.get("frame", 0)} '
                         f'{"c>s" if d == "client-to-server" else "s>c" if d else "-"}')
    r = results.get(sid, {})
    streams = a.get("streams", [])
    dut_active = bool(streams) and str(streams[0].get("server", "")).endswith(":7174")
    tester = "server (s>c)" if dut_active else "client (c>s)"
    with open(os.path.join(dest, sid + ".expected"), "w") as f:
        f.write(f"# {sid}: {r.get('title', '')}\n")
        f.write(f"# siw: {r.get('verdict', '?')} {r.get('grade') or ''} | {r.get('observed', '')}\n")
        f.write(f"# tester: {tester}\n")
        f.write("# severity check-id frame direction (c>s: client to server); info lines are not listed\n")
        for l in lines:
            f.write(l + "\n")
# The run's facts the compatibility matrix prints beside the verdicts (lib/matrix.py): when, against what, totals.
full = json.load(open(os.path.join(report, "report.json")))
summary = full.get("summary", {})
with open(os.path.join(dest, "run.json"), "w") as f:
    json.dump({"kernel": os.environ.get("RDDP_LAB_GUEST_KERNEL", ""), "started": full["suite"]["started"], "tester": full["suite"].get("version", ""),
               "dut": full["dut"]["description"], "summary": summary.get("text", ""),
               "coverage": summary.get("coverage", {}).get("text", "")}, f, indent=1)
    f.write("\n")
print(f"golden analyses of {len(results)} scenarios in {dest}", file=sys.stderr)
