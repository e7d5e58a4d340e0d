#!/usr/bin/env bash
# auto-features.sh OUT.csv [CSV...]: the triangle features the automatic path choice reads (n, strict nonzeros, levels,
# widest level, longest row of L and U of ILU(0), natural ordering), for every matrix named in the benchmark CSVs
# (default: docs/perf-data/paths-run1-bench.csv syncfree-run7-bench.csv locality-run1-bench.csv element-run8-bench.csv),
# measured by bench's host reference (no GPU needed: the analysis is plain C). Labels: lapDS_GRID[_ex2] (generated
# Laplacians), chain_N (bidiagonal chain), otherwise a matrix of tests/data/matrices (SPTRSV_MATDIR). Output: bench's CSV
# rows (host-reference, matsolve-sptrsv-host); examples/benchmarks/fit-auto-model.py --features reads them.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: auto-features.sh OUT.csv [bench CSV...]}
shift
if [ $# = 0 ]; then set -- "$ROOT"/docs/perf-data/{paths-run1,syncfree-run7,locality-run1,element-run8}-bench.csv; fi
. "$ROOT/tests/data/matdir.sh"
BENCH=$ROOT/examples/benchmarks/bench
[ -x "$BENCH" ] || { echo "build bench first: make examples" >&2; exit 1; }
rm -f "$OUT"
for label in $(cut -d, -f1 "$@" | grep -v '^label$' | awk '!seen[$0]++'); do
  case $label in
    lap2d*) s=${label#lap2d}; s=${s%%_*}; g=${label#lap2d?_}; g=${g%_ex2}; args=(-lap2d "$g" -stencil "$s") ;;
    lap3d*) s=${label#lap3d}; s=${s%%_*}; g=${label#lap3d*_}; g=${g%_ex2}; args=(-lap3d "$g" -stencil "$s") ;;
    chain_*) args=(-lap2d "${label#chain_}x1" -stencil 5) ;;
    *) [ -f "$MATDIR/$label.mtx.gz" ] || { echo "skip $label: no $MATDIR/$label.mtx.gz" >&2; continue; }; args=(-mtx "$MATDIR/$label.mtx.gz") ;;
  esac
  echo "features: $label (${args[*]})" >&2
  "$BENCH" "${args[@]}" -label "$label" -csv "$OUT" -host_time 1e-6 -reps 1 -min_reps 1 >/dev/null
done
