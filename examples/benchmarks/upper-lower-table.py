#!/usr/bin/env python3
"""Lower and upper solve times of one variant in two bench CSVs (U = the LU row's time - the L row's), and U / L within
each run: how a change treated the two triangles (locality run 5: the inverse diagonals staged in shared memory).

  python3 examples/benchmarks/upper-lower-table.py OLD.csv NEW.csv LABEL,LABEL,... [VARIANT]   (default locality-csr-graph)
"""
import csv
import sys

VARIANT = sys.argv[4] if len(sys.argv) > 4 else "locality-csr-graph"

def read(p):
    t = {}
    for r in csv.DictReader(open(p)):
        if r["variant"] == VARIANT: t[(r["label"], r["kind"])] = float(r["median_ms"])
    return t
a, b = read(sys.argv[1]), read(sys.argv[2])
print("| matrix | run 3 L ms | run 3 U ms | U / L | run 5 L ms | run 5 U ms | U / L |")
print("|---|---|---|---|---|---|---|")
for lab in sys.argv[3].split(","):
    row = [lab]
    for t in (a, b):
        L, LU = t[(lab, "L")], t[(lab, "LU")]
        row += ["%.3f" % L, "%.3f" % (LU - L), "%.2f" % ((LU - L) / L)]
    print("| " + " | ".join(row) + " |")
