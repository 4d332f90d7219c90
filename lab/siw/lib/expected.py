"""Reads a golden analysis of pcaps/siw-conform (ID.expected, written by golden.py): what siw did and siw's own errors."""
import os


def siw_side(path):
    """(what siw did, siw's errors as '`check` (frame N)'); ("", []) when there is no such file. The tester is the
    client unless the header says it was the server (DUT-active scenarios), and siw's errors are the other side's."""
    if not os.path.exists(path):
        return "", []
    did, errors, tester_is_server = "", [], False
    for line in open(path):
        if line.startswith("# siw: "):
            did = line.split("|", 1)[1].strip() if "|" in line else ""
        if line.startswith("# tester: server"):
            tester_is_server = True
        if line.startswith("#") or not line.strip():
            continue
        sev, check, frame, direction = line.split()
        if sev == "error" and direction == ("c>s" if tester_is_server else "s>c"):
            errors.append(f"`{check}` (frame {frame})")
    return did, errors
