#!/usr/bin/env bash
# Issue 33: Nsight Compute's figures of the runs dispatch's kernel (L and U solves of a 3-D ILU(0) factor, from bench)
# for several variants side by side, the kernel's SASS per instantiation (opcode counts), and the microbenchmark's
# replica (trsv3d_breakdown.cu, KRunProd) on the same grid, in one device call:
#
#   device run: bash examples/benchmarks/run-runs-ncu-device.sh        (carry: .petsc-cuda .carry/directlibs)
#
# Knobs: NCU_N (grid size, default 128), NCU_STENCIL (7 or 27, default 7), NCU_VARIANTS (bench -bench_syncfree
# entries, space separated, each profiled on its own, default runs-csr), NCU_SKIP (kernel launches of the production
# kernel skipped before the one profiled, default 3: under the profiler bench makes few solves, and 30 profiled nothing at 64^3), NCU_COUNT (launches profiled, default 2: an L and a U solve),
# NCU_SECTIONS (ncu's arguments instead of the metrics below, e.g. "--section WarpStateStats --section SourceCounters"),
# NCU_TAIL (lines kept of each report), NCU_SASS (1: the opcode counts of every runs-kernel instantiation in the
# plugin, and the SASS of NCU_SASS_KEEP's, default the R = 2 ones), NCU_REPLICA (0: skip the replica).
# Output ($OUT, default build/ncu-out): ncu.txt, sass-counts.txt, sass-*.txt.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
OUTDIR=${OUT:-$ROOT/build/ncu-out}
WORK=$ROOT/build/ncu
LOGDIR=$WORK/logs
SUMMARY=$OUTDIR/summary.txt
BUDGET=500
N=${NCU_N:-128}
STENCIL=${NCU_STENCIL:-7}
# shellcheck source=examples/benchmarks/device-common.sh
source "$ROOT/examples/benchmarks/device-common.sh"
finish() { cat "$SUMMARY"; exit "$FAILED"; }
device_init
device_prepare || finish
device_build_bench bench BENCH_SRC || finish
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
METRICS=gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__occupancy_limit_registers,launch__occupancy_limit_blocks,launch__occupancy_limit_warps,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_membar.ratio,smsp__average_warp_latency_issue_stalled_branch_resolving.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,sm__cycles_elapsed.avg.per_second
KREGEX='SpTrsvSyncFreeKernelILb[01]ELb0ELb1ELi[1-8]E' # the runs kernels: ELL false, NATURAL true, RUNS = R
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1); ncu: $NCU"
  for v in ${NCU_VARIANTS:-runs-csr}; do
    echo "## production: bench -lap3d ${N}x${N}x${N} -stencil $STENCIL, -bench_syncfree $v, the runs kernel (L then U)"
    timeout 200 "$NCU" --clock-control none --kernel-name-base mangled -k regex:"$KREGEX" --launch-skip "${NCU_SKIP:-3}" --launch-count "${NCU_COUNT:-2}" ${NCU_SECTIONS:---metrics $METRICS} \
      "$WORK/bench" -lap3d "${N}x${N}x${N}" -stencil "$STENCIL" -bench_paths syncfree -bench_syncfree "$v" -max_time 0.05 2>&1 | grep -v "^==PROF==" | grep -v '^ *[0-9]*\. _Z' | tail -n ${NCU_TAIL:-80}
  done
  if [ "${NCU_REPLICA:-1}" = 1 ]; then
    echo "## replica: trsv3d_breakdown $N, KRunProd<4, true, true>"
    "$CUDA_HOME/bin/nvcc" -O3 -std=c++17 -arch=sm_90 -o "$WORK/trsv3d_breakdown" examples/benchmarks/trsv3d_breakdown.cu -lcusparse
    TRSV3D_ONLY="rp" timeout 200 "$NCU" --clock-control none --kernel-name-base mangled -k regex:'KRunProdILi4ELb1ELb1E' --launch-skip 3 --launch-count 1 ${NCU_SECTIONS:---metrics $METRICS} \
      "$WORK/trsv3d_breakdown" "$N" 3 2>&1 | grep -v "^==PROF==" | tail -n ${NCU_TAIL:-30}
  fi
} >"$OUTDIR/ncu.txt" 2>&1
if [ "${NCU_SASS:-1}" = 1 ]; then # the SASS of the runs kernels in the plugin: one file per kept instantiation, opcode counts of all
  "$CUDA_HOME/bin/cuobjdump" -sass "$ROOT/lib/libpetscsptrsv.so" >"$WORK/sass.txt" 2>&1
  python3 - "$WORK/sass.txt" "$OUTDIR" "${NCU_SASS_KEEP:-ILb1ELb0ELb1ELi2E}" <<'EOF' >"$OUTDIR/sass-counts.txt" 2>&1
import re, sys, collections
src, outdir, keep = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
funcs, cur = {}, None
for line in open(src, errors="replace"):
    m = re.match(r"\s*Function : (\S+)", line)
    if m:
        cur = m.group(1) if "SpTrsvSyncFreeKernelILb" in m.group(1) and re.search(r"ELb0ELb1ELi[1-8]E", m.group(1)) else None
        if cur: funcs[cur] = []
        continue
    if cur: funcs[cur].append(line.rstrip())
classes = ["LDG", "LD.", "LDL", "STL", "STG", "ST.", "ATOM", "RED", "SHFL", "VOTE", "BRA", "BSSY", "BSYNC", "WARPSYNC", "BAR", "DFMA", "DMUL", "DADD", "ISETP", "IMAD", "SEL", "MOV", "NANOSLEEP", "MEMBAR", "CCTL", "FENCE"]
print("instantiation (UNIT, R, B, LEAN) | instructions | " + " | ".join(classes))
for f, lines in sorted(funcs.items()):
    ops = collections.Counter()
    n = 0
    for l in lines:
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)", l)
        if not m: continue
        op = m.group(2)
        n += 1
        for c in classes:
            if op.startswith(c) or (c.endswith(".") and op == c[:-1]): ops[c] += 1
    t = re.search(r"ILb([01])ELb0ELb1ELi(\d)ELi(\d+)ELb([01])E", f)
    print(f"{t.groups() if t else f} | {n} | " + " | ".join(str(ops[c]) for c in classes))
    if any(k in f for k in keep):
        name = "sass-" + "-".join(t.groups()) + ".txt" if t else "sass-other.txt"
        open(f"{outdir}/{name}", "w").write("\n".join(lines) + "\n")
EOF
fi
cat "$OUTDIR/ncu.txt"
cat "$OUTDIR/sass-counts.txt" 2>/dev/null
finish
