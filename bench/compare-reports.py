#!/usr/bin/env python3
"""Compares two runs' JSON reports picture by picture, timings left out: the check that a
change reads nothing differently (BENCHMARKS.md, "Reading rebuild").

Make each run's reports with the binary before and after the change, over the same folders:

    for d in samples ../shared/corpus ../shared/data/photos/train \\
             ../shared/data/photos/games-pen ../shared/data/photos/games-pencil \\
             ../shared/data/screens-real; do
        BIN "$d" -f json -j 2 2>/dev/null
    done > RUN.jsonl

then `python3 bench/compare-reports.py BEFORE.jsonl AFTER.jsonl` prints how many pictures
differ and, for the first 20, which fields. Exit status 1 when any differs.
"""
import json
import signal
import sys


def reports(path):
    """Each picture's report by its input path, `timings_ms` dropped."""
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                report = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(report, dict) and "input" in report:
                report.pop("timings_ms", None)
                out[report["input"]] = report
    return out


def main():
    # A closed pipe (`| head`) ends the listing quietly.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = reports(sys.argv[1]), reports(sys.argv[2])
    names = sorted(set(before) | set(after))
    differ = [n for n in names if before.get(n) != after.get(n)]
    print(f"{len(before)} pictures before, {len(after)} after: {len(differ)} differ")
    for name in differ[:20]:
        a, b = before.get(name) or {}, after.get(name) or {}
        fields = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        print(f"  {name}: {', '.join(fields)}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
