#!/usr/bin/env python3
"""Compares two folders of scripts/example-reports.sh output figure by figure (sweeps too).

  scripts/compare-reports.py BEFORE_DIR AFTER_DIR [--tolerance 1e-12]

Where `diff -r` asks for identical bytes, this asks that every JSON number agree to a relative
tolerance (a change in how a figure is rounded, not in what it is), that everything else (strings,
keys, the structure, the other files) be identical, and prints the largest relative change. Exits
1 when a figure moved by more than the tolerance or anything else differs.
"""
import argparse
import csv
import json
import math
import pathlib
import sys


def compare(before, after, path, worst, problems):
    if isinstance(before, bool) or isinstance(after, bool) or not (
        isinstance(before, (int, float)) and isinstance(after, (int, float))
    ):
        if type(before) is not type(after):
            problems.append(f"{path}: {before!r} became {after!r}")
        elif isinstance(before, dict):
            if list(before) != list(after):
                problems.append(f"{path}: keys {list(before)} became {list(after)}")
            for key in before:
                if key in after:
                    compare(before[key], after[key], f"{path}.{key}", worst, problems)
        elif isinstance(before, list):
            if len(before) != len(after):
                problems.append(f"{path}: {len(before)} items became {len(after)}")
            for i, (b, a) in enumerate(zip(before, after)):
                compare(b, a, f"{path}[{i}]", worst, problems)
        elif before != after:
            problems.append(f"{path}: {before!r} became {after!r}")
        return
    if before == after:
        return
    scale = max(abs(before), abs(after))
    relative = abs(after - before) / scale if scale > 0 and math.isfinite(scale) else math.inf
    if relative > worst[0]:
        worst[:] = [relative, path, before, after]


def cell(text):
    """A CSV cell as a number where it is one, else as its text."""
    try:
        return float(text)
    except ValueError:
        return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before", type=pathlib.Path)
    parser.add_argument("after", type=pathlib.Path)
    parser.add_argument("--tolerance", type=float, default=1e-12)
    args = parser.parse_args()
    worst = [0.0, None, None, None]
    problems = []
    names = sorted(
        {str(p.relative_to(args.before)) for p in args.before.rglob("*") if p.is_file()}
        | {str(p.relative_to(args.after)) for p in args.after.rglob("*") if p.is_file()}
    )
    for name in names:
        b, a = args.before / name, args.after / name
        if not (b.exists() and a.exists()):
            problems.append(f"{name}: only in {'after' if a.exists() else 'before'}")
        elif name.endswith(".json"):
            compare(json.loads(b.read_text()), json.loads(a.read_text()), name, worst, problems)
        elif name.endswith(".jsonl") or name.endswith(".csv"):
            # A sweep's rows (JSON lines) and tables: cell by cell, numbers within the tolerance.
            before_lines, after_lines = b.read_text().splitlines(), a.read_text().splitlines()
            if len(before_lines) != len(after_lines):
                problems.append(f"{name}: {len(before_lines)} lines became {len(after_lines)}")
            for i, (bl, al) in enumerate(zip(before_lines, after_lines)):
                if name.endswith(".jsonl"):
                    compare(json.loads(bl), json.loads(al), f"{name}:{i + 1}", worst, problems)
                else:
                    compare([cell(c) for c in next(csv.reader([bl]))],
                            [cell(c) for c in next(csv.reader([al]))], f"{name}:{i + 1}", worst,
                            problems)
        elif b.read_bytes() != a.read_bytes():
            problems.append(f"{name}: differs")
    relative, path, before, after = worst
    print(f"{len(names)} files; largest relative change {relative:.3g}"
          + (f" at {path}: {before!r} -> {after!r}" if path else ""))
    for problem in problems[:50]:
        print(problem)
    if relative > args.tolerance:
        print(f"a figure moved by more than {args.tolerance:g}")
    return 1 if problems or relative > args.tolerance else 0


if __name__ == "__main__":
    sys.exit(main())
