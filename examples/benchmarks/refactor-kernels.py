#!/usr/bin/env python3
"""What one refactorization launches on the GPU, per path (run-refactor-profile-device.sh).

  refactor-kernels.py --per K PATH RUN.csv [PATH RUN.csv ...]
  refactor-kernels.py --per K PATH FEW.csv MANY.csv ...     (--diff: MANY ran K refactorizations more than FEW)

RUN.csv is Nsight Compute's CSV (--csv --print-units base, metric gpu__time_duration.sum) of K refactorizations (the
profiled range of check_longrun -profile_setups): per kernel name, launches and time / K are one refactorization's.
With --diff, two runs of the whole process that differ by K refactorizations: the difference / K. Prints, per path,
the kernels by time, their launches and microseconds per refactorization, and the total.
"""
import argparse
import csv
import sys


def kernels(path):
    """kernel name -> [launches, total ns] of one ncu CSV"""
    out = {}
    with open(path, newline="") as f:
        rows = [line for line in f if line.startswith('"')]
    for r in csv.DictReader(rows):
        if r.get("Metric Name") != "gpu__time_duration.sum":
            continue
        name = r["Kernel Name"].split("(")[0].split("<")[0].strip() or r["Kernel Name"]
        try:
            v = float(r["Metric Value"].replace(",", ""))
        except ValueError:
            continue
        k = out.setdefault(name, [0, 0.0])
        k[0] += 1
        k[1] += v
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per", type=int, required=True, help="refactorizations MANY has more than FEW")
    ap.add_argument("--diff", action="store_true", help="triples PATH FEW.csv MANY.csv")
    ap.add_argument("runs", nargs="+", help="PATH RUN.csv (or with --diff PATH FEW.csv MANY.csv), repeated")
    a = ap.parse_args()
    m = 3 if a.diff else 2
    if len(a.runs) % m:
        sys.exit("give PATH FEW.csv MANY.csv triples" if a.diff else "give PATH RUN.csv pairs")
    for i in range(0, len(a.runs), m):
        label, few, many = a.runs[i : i + 3] if a.diff else (a.runs[i], None, a.runs[i + 1])
        kf, km = (kernels(few) if few else {}), kernels(many)
        rows = []
        for name in dict.fromkeys(list(km) + list(kf)):
            n = (km.get(name, [0, 0.0])[0] - kf.get(name, [0, 0.0])[0]) / a.per
            t = (km.get(name, [0, 0.0])[1] - kf.get(name, [0, 0.0])[1]) / a.per / 1e3
            if n or abs(t) > 1e-3:
                rows.append((t, n, name))
        rows.sort(reverse=True)
        print(f"{label}: per refactorization ({a.per} more in {many} than in {few})" if few else f"{label}: per refactorization ({a.per} in {many})")
        print(f"  {'us':>9} {'launches':>9}  kernel")
        for t, n, name in rows:
            print(f"  {t:9.2f} {n:9.2f}  {name}")
        print(f"  {sum(r[0] for r in rows):9.2f} {sum(r[1] for r in rows):9.2f}  total")


if __name__ == "__main__":
    main()
