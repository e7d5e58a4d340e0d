#!/usr/bin/env python3
"""The table of window_hop.cu's CSV (run-trsv3d-breakdown-device.sh: window-hop.csv): microseconds per window step of
each variant, per number of chains P (windows waiting at once) and resident blocks per SM, and each variant's step over
the one-word handoff (`row`) of the same P and blocks. A variant whose relative error exceeds 1e-12 is marked FAILED.

  window-hop-table.py window-hop.csv
"""
import csv
import sys


def main():
    path = sys.argv[1]
    machine = ""
    diagonal = False  # window_hop since the seventeenth session: the 2-D grid by anti-diagonals, over W + P - 1
    rows = []
    with open(path) as f:
        lines = []
        for line in f:
            if line.startswith("#"):
                if "anti-diagonals" in line:
                    diagonal = True
                else:
                    machine = machine or line[1:].strip()
            elif line.strip():
                lines.append(line)
    for r in csv.DictReader(lines):
        if r.get("variant") and r["variant"] != "variant":
            rows.append(r)
    variants = list(dict.fromkeys(r["variant"] for r in rows))  # in first-seen order
    keys = list(dict.fromkeys((int(r["P"]), int(r["W"]), int(r["blocks_per_sm"])) for r in rows))
    if machine:
        print("Machine: " + machine + "\n")
    print("| chains P x windows W, blocks per SM | " + " | ".join(variants) + " |")
    print("|---|" + "---|" * len(variants))
    for k in keys:
        got = {r["variant"]: r for r in rows if (int(r["P"]), int(r["W"]), int(r["blocks_per_sm"])) == k}
        base = float(got["row"]["us_per_step"]) if "row" in got else None
        cells = []
        for v in variants:
            r = got.get(v)
            if not r:
                cells.append("")
                continue
            us = float(r["us_per_step"])
            err = float(r["rel_err"])
            cell = "%.3g us" % us + (" (%.1fx)" % (us / base) if base and v != "row" else "")
            cells.append(cell if err <= 1e-12 else "FAILED (error %.1e)" % err)
        print("| %d x %d, %d | " % k + " | ".join(cells) + " |")
    if diagonal:
        print("\nus: microseconds per window step along a chain (the least of the solves over W; window2, stack4 and stack8 over")
        print("W + P - 1, their 2-D grid's critical path, handed out by anti-diagonals); (Nx): over `row`, one word handed")
        print("from window to window, same P and blocks.")
    else:
        print("\nus: microseconds per window step along a chain (the least of the solves over W); (Nx): over `row`, one word handed")
        print("from window to window, same P and blocks. (window2, stack4, stack8: their 2-D grid handed out row by row, as")
        print("window_hop did before its anti-diagonal order)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
