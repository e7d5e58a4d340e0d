#!/usr/bin/env python3
"""The table of examples/benchmarks/run-refactor-variants-device.sh: per variant of the GPU ILU's options and per ILU(0)
path of its check_longrun log, microseconds per refactorization and per solve, the difference to PETSc's cusparse from the
same log, and the ratio PETSc cusparse / ours (> 1: ours faster), plus the largest difference to PETSc's host ILU.

    refactor-variants-table.py NAME LOG [NAME LOG ...]
"""
import re
import sys

HEAD = re.compile(r"^ILU\(0\) (\S+(?: cusparse)?): ")
TIMES = re.compile(r"setups(?: with their applies)? [\d.]+ s \(([\d.]+) us each\), applies [\d.]+ s \(([\d.]+) us each\); result vs PETSc's \S+ (\S+)")


def parse(path):
    rows, label = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = HEAD.match(line)
            if m:
                label = m.group(1)
                continue
            m = TIMES.search(line)
            if m and label:
                rows[label] = (float(m.group(1)), float(m.group(2)), float(m.group(3)))
                label = None
    return rows


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        sys.exit(__doc__)
    print(f"{'variant':<12} {'path':<18} {'us/refactor':>12} {'PETSc us':>9} {'ratio':>6} {'us/solve':>9} {'PETSc us':>9} {'ratio':>6} {'vs ilu':>9}")
    for name, path in zip(argv[0::2], argv[1::2]):
        rows = parse(path)
        ref = rows.get("PETSc cusparse")
        if not rows:
            print(f"{name:<12} (no result: see {path})")
        for label, (s, a, err) in rows.items():
            if label == "PETSc cusparse":
                continue
            rs = f"{ref[0] / s:6.2f}" if ref and s > 0 else "     -"
            ra = f"{ref[1] / a:6.2f}" if ref and a > 0 else "     -"
            pr = f"{ref[0]:9.1f}" if ref else "        -"
            pa = f"{ref[1]:9.1f}" if ref else "        -"
            print(f"{name:<12} {label:<18} {s:12.1f} {pr} {rs} {a:9.1f} {pa} {ra} {err:9.2e}")


if __name__ == "__main__":
    main(sys.argv[1:])
