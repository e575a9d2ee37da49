#!/usr/bin/env python3
"""Counts the reading's numbers, the one way BENCHMARKS.md quotes them (issue 58).

- Named constants in the reading (cells, authors, recognize, correct, pencil, tuning.rs, read/): every
  `const NAME:` line, at any indent, in non-test code (a file's lines before its first
  `#[cfg(test)]`; `tests.rs` files left out).
- Decimal literals: every number with a decimal point (`0.5`, `1.0`, `1e-3` is not one) in the
  non-test code of src/ outside puzzle/, app/ and batch/, comments and strings left out.

Run from the repository's root: `python3 bench/count-numbers.py [-v]` (-v: per file, and the
literals' values by frequency).
"""
import collections
import pathlib
import re
import sys

READING = ("src/pipeline/cells", "src/pipeline/authors", "src/pipeline/recognize", "src/pipeline/correct",
           "src/pipeline/pencil", "src/pipeline/tuning.rs", "src/read")
OUTSIDE = ("src/puzzle", "src/app", "src/batch")
CONST = re.compile(r"\s*(pub(\([^)]*\))?\s+)?const\s+[A-Z_0-9]+\s*:")
DECIMAL = re.compile(r"(?<![\w.])\d[\d_]*\.\d[\d_]*(?:e-?\d+)?(?:f32|f64)?\b")


def non_test_lines(path):
    for line in path.read_text().splitlines():
        if line.strip().startswith("#[cfg(test)]"):
            return
        yield line


def code_of(line):
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    return line.split("//")[0]


def main():
    files = sorted(p for p in pathlib.Path("src").rglob("*.rs") if p.name != "tests.rs")
    consts = {str(p): sum(1 for l in non_test_lines(p) if CONST.match(l))
              for p in files if str(p).startswith(READING)}
    values = collections.Counter()
    decimals = {}
    for p in files:
        if str(p).startswith(OUTSIDE):
            continue
        found = [m for l in non_test_lines(p) for m in DECIMAL.findall(code_of(l))]
        decimals[str(p)] = len(found)
        values.update(re.sub("f32|f64", "", m) for m in found)
    print("named constants in the reading:", sum(consts.values()))
    print("decimal literals outside puzzle/, app/, batch/:", sum(decimals.values()))
    if "-v" in sys.argv:
        for name, table in (("constants", consts), ("decimals", decimals)):
            print(f"\n{name} by file:")
            for path, n in sorted(table.items(), key=lambda kv: -kv[1]):
                if n:
                    print(f"{n:5} {path}")
        print("\ndecimal values by frequency:", values.most_common(30))


if __name__ == "__main__":
    main()
