#!/usr/bin/env bash
# Several steps of tests/device/run.sh in one device call, as parallel processes sharing the GPU:
#
#   bash tests/device/run-groups.sh 'check-kernels' 'locality-.*' 'sanitizer-(memcheck|racecheck)'
#
# One run.sh builds first (no step), then each argument (an extended regex of step names, as SPTRSV_DEVICE_STEPS) runs
# in its own run.sh process with its logs in $TMPDIR/sptrsv-groups/gN, all of them within RUN_GROUPS_WALL seconds
# (default 570) from the start. The steps' timings are not their own (the GPU and the host are shared); their results
# are. Output ($OUT, default tests/out/device-groups): summaries.txt (each group's steps that ran, and the
# "passed/failed", configuration-count and sanitizer summary lines of their logs), logs.tar.gz. Exit status 0 iff every
# group's run.sh passed.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
DEST=${OUT:-$PWD/tests/out/device-groups}
WORK=${TMPDIR:-/tmp}/sptrsv-groups
WALL=${RUN_GROUPS_WALL:-570}
T0=$(date +%s)
rm -rf "$WORK"
mkdir -p "$DEST" "$WORK"
# the long-run step checks the whole GPU's free memory: beside another group, that process's allocations move it
if [ $# -gt 1 ]; then
  for g in "$@"; do
    if [[ longrun =~ ^($g)$ ]]; then echo "warning: step longrun runs beside other groups: its GPU free-memory checks are not its own (run it alone)"; fi
  done
fi
OUT=$WORK/g0 SPTRSV_DEVICE_STEPS='none' bash tests/device/run.sh >"$WORK/g0.out" 2>&1
echo "build: $(($(date +%s) - T0)) s"
LEFT=$((WALL - ($(date +%s) - T0)))
i=0
pids=()
for g in "$@"; do
  i=$((i + 1))
  OUT=$WORK/g$i SPTRSV_DEVICE_STEPS="$g" timeout $((LEFT - 2 * i)) bash tests/device/run.sh >"$WORK/g$i.out" 2>&1 &
  pids+=($!)
  sleep 2
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
echo "groups: $(($(date +%s) - T0)) s"
for j in $(seq 1 "$i"); do
  echo "== g$j: ${!j}"
  grep -v "SKIPPED\|^build-\|^relocate\|^environment\|^slepc.*no SLEPc" "$WORK/g$j/summary.txt" 2>/dev/null
  grep -H "passed, .* failed\|FAIL: no comparison\|configurations$\|SUMMARY" "$WORK/g$j"/*.log 2>/dev/null | grep -v "/run.log:" | sed "s|$WORK/||"
  # a step stopped at its own limit (FAIL(timeout)) or at the groups' wall (no line in summary.txt) prints no summary
  # line: how far it got (comparisons passed and failed, fuzz progress, sanitizer reports) from its log
  for s in "$WORK/g$j"/*.log; do
    [ -f "$s" ] || continue
    st=$(basename "$s" .log)
    case "$st" in build-* | relocate-* | run | make-n) continue ;; esac
    if grep -q "^$st .*FAIL(timeout)" "$WORK/g$j/summary.txt" 2>/dev/null; then how="at its limit"
    elif ! grep -q "^$st " "$WORK/g$j/summary.txt" 2>/dev/null; then how="at the groups' wall"
    else continue; fi
    echo "g$j/$st stopped $how: $(grep -c 'PASS$' "$s") comparisons passed, $(grep -c 'FAIL' "$s") failed, $(grep -c 'Race reported\|ERROR SUMMARY: [1-9]\|Invalid __\|Barrier error' "$s") sanitizer reports; last progress: $(grep '^\.\.\. ' "$s" | tail -n 1)"
  done
done | tee "$DEST/summaries.txt"
tar -czf "$DEST/logs.tar.gz" -C "$WORK" . 2>/dev/null
exit $rc
