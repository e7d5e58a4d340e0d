#!/bin/bash
# The locality path's blocks kernel on the GPU, one device call (issue 14; include/sptrsv/paths/locality.h, "The blocks
# kernel"): first its device checks (tests/device/run.sh, the steps BLK_STEPS, default blocks-kernels: the GPU against
# the host on the chain cases), then the strong-locality benchmark of paper 004 (run-supernodal-pinv-device.sh's sets
# BLK_SETS, default olm1000, the banded and block-diagonal matrices and the chain) with every kernel of the locality
# path (auto, chain and blocks forced), sync-free and the partitioned inverse beside cuSPARSE SpSV, and its tables.
#   OUT=DIR [BLK_STEPS=REGEX] [BLK_CHECK_TIMEOUT=330] [BLK_SETS="..."] [BLK_BUDGET=220] [BLK_LOCALITY=auto,auto-kc,auto-kb]
#     bash examples/benchmarks/run-blocks-device.sh
# (BLK_LOCALITY: bench's -bench_locality list, e.g. auto-kb-b32 for blocks of 32 rows forced)
# BLK_STEPS=none skips the checks. The CSV is $OUT/bench/supernodal-pinv.csv.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
OUT=${OUT:-$(pwd)/tests/out/blocks-device}
mkdir -p "$OUT"
if [ "${BLK_STEPS:-blocks-kernels}" != none ]; then
  SPTRSV_DEVICE_STEPS=${BLK_STEPS:-blocks-kernels} OUT=$OUT/check timeout "${BLK_CHECK_TIMEOUT:-330}" bash tests/device/run.sh >"$OUT/check.out" 2>&1
  echo "device check: exit status $?"
  grep -vE 'SKIPPED' "$OUT/check/summary.txt" 2>/dev/null
  for f in "$OUT"/check/blocks-*.log; do [ -f "$f" ] && { echo "--- $f"; grep -E 'not ok|FAIL|passed|ERROR SUMMARY|error' "$f" | tail -n 8; }; done
fi
OUT=$OUT/bench BENCH_BUDGET=${BLK_BUDGET:-220} SN_STEP_TIMEOUT=${BLK_STEP_TIMEOUT:-60} BENCH_MAX_TIME=0.05 \
  SN_SETS="${BLK_SETS:-mtx=olm1000 locality chain}" \
  SN_BENCH="-bench_paths syncfree,locality,pinv -bench_syncfree asap-csr -bench_pinv_fill 1,4 -bench_locality ${BLK_LOCALITY:-auto,auto-kc,auto-kb}" \
  BENCH_ARGS="-bench_matsolve_type sptrsv" bash examples/benchmarks/run-supernodal-pinv-device.sh >"$OUT/bench.out" 2>&1
echo "bench: exit status $?"
tail -n 25 "$OUT/bench.out"
CSV=$OUT/bench/supernodal-pinv.csv
if [ -f "$CSV" ]; then
  V=syncfree-asap-csr,locality-csr-graph$(for l in $(echo "${BLK_LOCALITY:-auto,auto-kc,auto-kb}" | tr , ' '); do [ "$l" = auto ] || printf ',locality-csr-graph-%s' "$l"; done),pinv-fill1,pinv-fill4
  python3 examples/benchmarks/variant-table.py "$CSV" --kind LU --variants "$V" --bound
  python3 examples/benchmarks/variant-table.py "$CSV" --kind L --variants "$V" --bound
  echo "label kind variant median_ms vs_cusparse setup_ms max_rel_err"
  grep -E ',(L|LU),' "$CSV" | awk -F, '{print $1, $2, $3, $9, $17, $19, $21}' | grep -E 'locality|pinv|cusparse' 
fi
