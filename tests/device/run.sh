#!/usr/bin/env bash
# Device check of the CUDA backend, for a GPU machine with the CUDA toolkit, Open MPI and LAPACK but no
# PETSc and no network (Ubuntu 24.04, CUDA 13, H100). Run from anywhere:
#
#   bash tests/device/run.sh
#
# It uses a carried CUDA PETSc install (PETSC_DIR, default ./.petsc-cuda: a stripped copy made by
# scripts/build-petsc-cuda.sh --carry; its configuration files are relocated to where it lies), builds
# the plugin (make WITH_CUDA=1 lib) and tests/device/check_kernels.c, runs the check on the generated
# matrices and on every .mtx.gz of SPTRSV_MATDIR (default tests/data/matrices), the multicolor sweeps of PC gs and the
# exact ordering's device value refresh (tests/device/check_multicolor.c, CUDA against the host executor), the LU / Cholesky
# factors of SuperLU / CHOLMOD through every path's CUDA executor (tests/unit/test_direct.c -backend cuda; needs
# .carry/directlibs from scripts/carry-direct-libs.sh, carried beside .petsc-cuda), then runs compute-sanitizer
# (memcheck, racecheck, synccheck: must be clean; initcheck: advisory) on two small cases. With a carried CUDA SLEPc
# (.slepc-cuda, scripts/build-slepc-cuda.sh --carry) it also runs SLEPc's shift-and-invert with every sptrsv_* solver
# type on the CUDA backend (steps slepc, slepc-timing: tests/device/slepc.sh).
# Logs and a summary go to $OUT (when set) or tests/out/device. Exit status 0 iff every required step passed.
# Step longrun (tests/device/check_longrun.c): long runs and leaks (issue 15): refactorizations, solves, PC gs / PC isai
# setups with the device memory measured before and after, and injected allocation faults.
# SPTRSV_DEVICE_STEPS (an extended regex of step names) runs only those steps (the builds always run), to split the
# check over several device calls; SPTRSV_CHECK_KERNELS_TIMEOUT (default 540 s) bounds each check-kernels step.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
ROOT=$(pwd)
LOGDIR=${OUT:-$ROOT/tests/out/device}
mkdir -p "$LOGDIR" "$ROOT/build/device"
SUMMARY=$LOGDIR/summary.txt
: >"$SUMMARY"
T0=$(date +%s)
FAILED=0
export PETSC_DIR=${PETSC_DIR:-$ROOT/.petsc-cuda}
export PETSC_ARCH=
# shellcheck source=tests/data/matdir.sh
. "$ROOT/tests/data/matdir.sh" # MATDIR: $SPTRSV_MATDIR, default tests/data/matrices
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH
export LD_LIBRARY_PATH=$PETSC_DIR/lib:$CUDA_HOME/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Open MPI singleton runs as root, on a machine with no network
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
# Ubuntu's Open MPI is not CUDA-aware: a CUDA PETSc aborts in PetscInitialize without this
export PETSC_OPTIONS="-use_gpu_aware_mpi 0"
# The LU (SuperLU) and Cholesky (CHOLMOD) factors: the GPU machine has neither package (tests/device/direct-env.sh)
# shellcheck source=tests/device/direct-env.sh
source "$ROOT/tests/device/direct-env.sh"
DIRECT=$ROOT/.carry/directlibs
sptrsv_direct_env "$ROOT"

say() { echo "=== [$(($(date +%s) - T0)) s] $*" | tee -a "$LOGDIR/run.log"; }
# record STEP STATUS SECONDS LOG
record() { printf '%-28s %-9s %6s s  %s\n' "$1" "$2" "$3" "$4" >>"$SUMMARY"; }
finish() {
  say "done"
  echo
  echo "---------------- device check summary ($(($(date +%s) - T0)) s) ----------------"
  printf '%-28s %-9s %8s  %s\n' step status time log
  cat "$SUMMARY"
  if [ "$FAILED" = 0 ]; then echo "DEVICE CHECK: PASS"; else echo "DEVICE CHECK: FAIL"; fi
  [ "$FAILED" = 0 ]
  exit $?
}
# step NAME REQUIRED(1|0) TIMEOUT COMMAND...: run, log, record
step() {
  local name=$1 required=$2 tmo=$3
  shift 3
  local log=$LOGDIR/$name.log t rc
  # SPTRSV_DEVICE_STEPS (an extended regex): run only the matching steps (builds always run), e.g. to split the check
  # over two device calls
  case "$name" in build-* | relocate-*) ;; *)
    if [ -n "${SPTRSV_DEVICE_STEPS:-}" ] && ! [[ "$name" =~ ^(${SPTRSV_DEVICE_STEPS})$ ]]; then
      record "$name" SKIPPED 0 "not in SPTRSV_DEVICE_STEPS"
      return 0
    fi ;;
  esac
  t=$(date +%s)
  say "$name: $*"
  if [ "$(type -t "$1")" = function ]; then ("$@") >"$log" 2>&1; else timeout "$tmo" "$@" >"$log" 2>&1; fi
  rc=$?
  tail -n 60 "$log"
  local status=PASS
  if [ $rc != 0 ]; then
    if [ "$required" = 1 ]; then status=FAIL; FAILED=1; else status=ADVISORY; fi
    [ $rc = 124 ] && status="$status(timeout)"
  fi
  record "$name" "$status" "$(($(date +%s) - t))" "$log"
  return $rc
}

# ---- environment ---------------------------------------------------------------------------------
say "environment"
{
  uname -a
  nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv 2>&1 || echo "nvidia-smi: not available"
  nvcc --version 2>&1 | tail -n 2
  command -v mpicc && mpicc --showme:version 2>&1
  if [ -d "$DIRECT/lib" ]; then
    echo "direct solvers: $DIRECT (fallbacks linked: $(find "$ROOT/build/device/directfallback" -mindepth 1 -printf '%f '))"
    ldd "$DIRECT/lib/libsuperlu.so.5" "$DIRECT/lib/libcholmod.so.3" 2>&1 | grep "not found" || echo "direct solvers: every dependency found"
  else
    echo "direct solvers: no .carry/directlibs (scripts/carry-direct-libs.sh): LU/Cholesky factors are built out"
  fi
} 2>&1 | tee -a "$LOGDIR/run.log"
MISSING=""
command -v nvcc >/dev/null 2>&1 || MISSING="$MISSING nvcc($CUDA_HOME/bin)"
command -v mpicc >/dev/null 2>&1 || MISSING="$MISSING mpicc(Open MPI compiler wrapper: install libopenmpi-dev / openmpi-bin)"
command -v make >/dev/null 2>&1 || MISSING="$MISSING make"
[ -f "$PETSC_DIR/lib/petsc/conf/variables" ] || MISSING="$MISSING PETSc($PETSC_DIR/lib/petsc/conf/variables: carry .petsc-cuda made by scripts/build-petsc-cuda.sh --carry)"
if [ -n "$MISSING" ]; then
  say "MISSING:$MISSING"
  record environment FAIL 0 "$LOGDIR/run.log"
  FAILED=1
  finish
fi
record environment PASS 0 "$LOGDIR/run.log"

# ---- relocate the carried PETSc: its conf files name the prefix it was installed into ---------------
# shellcheck source=tests/device/petsc-relocate.sh
source "$ROOT/tests/device/petsc-relocate.sh"
step relocate-petsc 1 60 relocate_petsc || finish

# ---- build the plugin -----------------------------------------------------------------------------
# PETSc >= 3.19's rules declare "clean::"; a makefile with "clean:" cannot be read with them. Until the
# makefile handles it, build through a copy with the double-colon rule (the makefile itself is untouched).
MAKEFILE=makefile
if make -n -f makefile WITH_CUDA=1 lib >"$LOGDIR/make-n.log" 2>&1; then :; elif grep -q "both : and :: entries" "$LOGDIR/make-n.log"; then
  sed 's/^clean: sptrsv-clean/clean:: sptrsv-clean/' makefile >build/device/makefile
  MAKEFILE=build/device/makefile
  say "NOTE: makefile's 'clean:' clashes with PETSc's 'clean::' rule; building with $MAKEFILE (clean:: patched)"
fi
MAKE=(make -f "$MAKEFILE" WITH_CUDA=1 CUDA_HOME="$CUDA_HOME" -j"$(nproc)")
step build-plugin 1 300 "${MAKE[@]}" lib || finish
# The Matrix Market reader needs zlib (header and library); a CUDA PETSc does not link it itself.
ZTEST=build/device/ztest
printf '#include <zlib.h>\nint main(void){return gzopen("x","rb") != 0;}\n' >$ZTEST.c
if mpicc $ZTEST.c -o $ZTEST -lz >/dev/null 2>&1; then MM_SRC=examples/common/mmload.c MM_FLAGS='' ZLIB=-lz
elif mpicc $ZTEST.c -o $ZTEST -l:libz.so.1 >/dev/null 2>&1; then MM_SRC=examples/common/mmload.c MM_FLAGS='' ZLIB=-l:libz.so.1
else
  MM_SRC='' MM_FLAGS=-DSPTRSV_NO_MMLOAD ZLIB=''
  say "NOTE: zlib (zlib.h + libz) not usable: check_kernels is built without the Matrix Market reader (generated cases only)"
  record matrix-market-files ADVISORY 0 "no zlib.h/libz: install zlib1g-dev"
fi
# shellcheck disable=SC2016 # make expands these
step build-check 1 120 "${MAKE[@]}" MM_SRC="$MM_SRC" MM_FLAGS="$MM_FLAGS" ZLIB="$ZLIB" --eval='build/device/check_kernels: tests/device/check_kernels.c tests/device/check_cases.c tests/device/check_cases.h tests/device/check_sweeps.c tests/device/check_sweeps.h tests/device/check_isai.c tests/device/check_isai.h $(STENCIL_SRC) $(MM_SRC) $(SPTRSV_AR) ; $(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) $(MM_FLAGS) -o $@ tests/device/check_kernels.c tests/device/check_cases.c tests/device/check_sweeps.c tests/device/check_isai.c $(STENCIL_SRC) $(MM_SRC) $(SPTRSV_AR) $(LINK_LIBS) $(CUDA_LIBS) $(ZLIB)' build/device/check_kernels || finish
CHECK=$ROOT/build/device/check_kernels
# the device check of the GPU numeric ILU (-mat_sptrsv_factor_device)
# shellcheck disable=SC2016 # make expands these
step build-check-factor 1 120 "${MAKE[@]}" MM_SRC="$MM_SRC" MM_FLAGS="$MM_FLAGS" ZLIB="$ZLIB" --eval='build/device/check_factor: tests/device/check_factor.c $(STENCIL_SRC) $(MM_SRC) $(SPTRSV_AR) ; $(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) $(MM_FLAGS) -o $@ tests/device/check_factor.c $(STENCIL_SRC) $(MM_SRC) $(SPTRSV_AR) $(LINK_LIBS) $(CUDA_LIBS) $(ZLIB)' build/device/check_factor || finish
CHECKF=$ROOT/build/device/check_factor
# the fuzz driver of the sync-free kernels (watchdog: a solve that hangs ends it with the case's seed)
step build-fuzz 1 120 "${MAKE[@]}" tests/device/check_fuzz || finish
FUZZ=$ROOT/tests/device/check_fuzz
# the device check of the sync-free analysis on the GPU (schedules bit for bit against the host analysis, solves)
step build-analysis 1 120 "${MAKE[@]}" tests/device/check_analysis || finish
ANALYSIS=$ROOT/tests/device/check_analysis

# the multicolor sweeps of PC gs and the exact ordering's GPU refresh (CUDA against the host, cusparse matrices read in place)
step build-multicolor 1 120 "${MAKE[@]}" tests/device/check_multicolor || finish
MCCHECK=$ROOT/tests/device/check_multicolor

# the LU (SuperLU) / Cholesky (CHOLMOD) factors solved by every path on the GPU (tests/unit/test_direct.c -backend cuda);
# needs .carry/directlibs (scripts/carry-direct-libs.sh) and the Matrix Market reader's zlib
DIRECTCHECK=""
if [ -d "$DIRECT/lib" ] && [ -n "$MM_SRC" ]; then
  # shellcheck disable=SC2016 # make expands these
  step build-direct 1 120 "${MAKE[@]}" ZLIB="$ZLIB" --eval='build/device/test_direct: tests/unit/test_direct.c $(STENCIL_SRC) examples/common/mmload.c $(SPTRSV_AR) ; $(PCC) $(PCC_FLAGS) $(WARN) $(SPTRSV_CPP) -o $@ tests/unit/test_direct.c $(STENCIL_SRC) examples/common/mmload.c $(SPTRSV_AR) $(LINK_LIBS) $(CUDA_LIBS) $(ZLIB)' build/device/test_direct && DIRECTCHECK=$ROOT/build/device/test_direct
else
  record build-direct SKIPPED 0 "no .carry/directlibs (scripts/carry-direct-libs.sh) or no zlib"
fi
# the long-run and leak check (issue 15): refactorizations, solves, PC gs / PC isai setups, device memory before and after
step build-longrun 1 120 "${MAKE[@]}" tests/device/check_longrun || finish
LONGRUN=$ROOT/tests/device/check_longrun
# SLEPc (issue 13): a carried CUDA SLEPc (SLEPC_DIR, default ./.slepc-cuda: scripts/build-slepc-cuda.sh --carry),
# relocated like PETSc, and tests/slepc/eps_sinvert built against it; without one the slepc steps are skipped (ADVISORY),
# or fail when SPTRSV_DEVICE_STEPS names them
export SLEPC_DIR=${SLEPC_DIR:-$ROOT/.slepc-cuda}
SLEPC_BUILT=0
if [ -f "$SLEPC_DIR/include/slepceps.h" ]; then
  # shellcheck source=tests/device/slepc-relocate.sh
  source "$ROOT/tests/device/slepc-relocate.sh"
  export LD_LIBRARY_PATH=$SLEPC_DIR/lib:$LD_LIBRARY_PATH
  if step relocate-slepc 1 60 relocate_slepc && step build-slepc 1 120 "${MAKE[@]}" SLEPC_DIR="$SLEPC_DIR" tests/slepc/eps_sinvert; then SLEPC_BUILT=1; fi
fi

# ---- the comparison ------------------------------------------------------------------------------
MATARGS=()
if [ -d "$MATDIR" ]; then MATARGS=(-matdir "$MATDIR"); else say "no matrix directory $MATDIR: generated matrices only"; fi
# every configuration of every case, in four steps that each fit one device call (41 configurations took more than 470 s
# in one; the last three shapes' 18 cases more than 556 s beside four other steps): check-kernels the generated stencils
# and the first chain, check-kernels-rest the last chain, the element-only shapes and the bands of 20000 rows,
# check-kernels-blocks the block diagonals and the smaller bands, check-kernels-files the Matrix Market files, the sweeps,
# PC gs and PC isai; SPTRSV_DEVICE_STEPS='check-kernels.*' runs all four
CK_ALL=$("$CHECK" -list "${MATARGS[@]}" 2>/dev/null | tr '\n' ' ')
CK_HEAD=$(for c in $CK_ALL; do case "$c" in lap* | chain_bidiag*) echo "$c" ;; esac; done | paste -sd, -)
CK_REST=$(for c in $CK_ALL; do case "$c" in chain_tridiag* | elem_* | banded*_20000) echo "$c" ;; esac; done | paste -sd, -)
CK_BLOCKS=$(for c in $CK_ALL; do case "$c" in banded*_20000) ;; banded* | blockdiag*) echo "$c" ;; esac; done | paste -sd, -)
CK_FILES=$(for c in $CK_ALL; do case "$c" in lap* | chain_* | elem_* | banded* | blockdiag*) ;; *) echo "$c" ;; esac; done | paste -sd, -)
step check-kernels 1 "${SPTRSV_CHECK_KERNELS_TIMEOUT:-540}" "$CHECK" "${MATARGS[@]}" -cases "$CK_HEAD"
step check-kernels-rest 1 "${SPTRSV_CHECK_KERNELS_TIMEOUT:-540}" "$CHECK" "${MATARGS[@]}" -cases "$CK_REST"
step check-kernels-blocks 1 "${SPTRSV_CHECK_KERNELS_TIMEOUT:-540}" "$CHECK" "${MATARGS[@]}" -cases "$CK_BLOCKS"
step check-kernels-files 1 "${SPTRSV_CHECK_KERNELS_TIMEOUT:-540}" "$CHECK" "${MATARGS[@]}" -cases "$CK_FILES"
if [ -f "$LOGDIR/check-kernels.log" ] && ! grep -q "CUDA backend available" "$LOGDIR/check-kernels.log"; then
  say "the CUDA backend was NOT available: the GPU comparisons did not run"
  record cuda-backend-available FAIL 0 "$LOGDIR/check-kernels.log"
  FAILED=1
fi

# ---- the sync-free analysis on the GPU against the host analysis -----------------------------------------
step check-analysis 1 300 "$ANALYSIS" -matdir "$ROOT/tests/data/matrices"
if [ -f "$LOGDIR/check-analysis.log" ] && ! grep -q "CUDA backend available" "$LOGDIR/check-analysis.log"; then
  record check-analysis-ran FAIL 0 "$LOGDIR/check-analysis.log"
  FAILED=1
fi

# ---- the GPU numeric ILU against the host numeric ILU (a hang ends in the step's timeout) ------------
step check-factor 1 300 "$CHECKF" "${MATARGS[@]}"
# the defaults are each row in its warp's shared memory and the automatic residency cap; the same with at most 2 blocks
# of the elimination resident per SM (-mat_sptrsv_factor_device_blocks_per_sm 2: few warps, the ticket order's deadlock
# freedom with most rows' warps not yet started), and with the rows in place and no cap
step check-factor-shared 1 300 "$CHECKF" -rows shared -bps 2 "${MATARGS[@]}"
step check-factor-global 1 300 "$CHECKF" -rows global -bps 0 "${MATARGS[@]}"

# ---- the multicolor sweeps of PC gs on the GPU against the host executor ----------------------------------
step check-multicolor 1 300 "$MCCHECK" -require_cuda

# ---- LU / Cholesky factors of SuperLU / CHOLMOD through every path's CUDA executor, against PETSc's own factors ------
if [ -n "$DIRECTCHECK" ]; then
  step check-direct 1 300 "$DIRECTCHECK" -backend cuda -matdir "$ROOT/tests/data/matrices"
fi
# ---- long runs and leaks on the GPU (issue 15): per path 3000 refactorizations and 30000 solves (SPTRSV_LONGRUN_ARGS
# to change: check_longrun's own defaults, 10^4 and 10^5 per path, took 50-120 s a path on the H200 of 2026-11-30 and
# did not fit the step's limit), 10^3 PC gs / PC isai setups, the matrix as MATSEQAIJCUSPARSE, 60 injected allocation
# faults per path; the plugin's device bytes must not change, the GPU's free memory by at most 4 MB. The free memory is
# the whole GPU's: run this step with the GPU to itself (not beside other groups of run-groups.sh, where another
# process's allocations move it). CUDA_MODULE_LOADING=EAGER: the driver loads every kernel's code at start; with lazy
# loading (CUDA's default) a path that the learning choice switches to loads its kernels then, and the code's pages
# (2 MB each) showed as a further fall of the GPU's free memory there (4.19 MB with the GPU ILU's shared rows and
# residency cap, past the tolerance; 2.1 MB with EAGER, as without them: docs/perf-data/refactor-variants-2026-11-30.txt) ----------
# shellcheck disable=SC2086 # SPTRSV_LONGRUN_ARGS is a list of options
step longrun 1 400 env CUDA_MODULE_LOADING=EAGER "$LONGRUN" -backend cuda -aijcusparse -faults 60 ${SPTRSV_LONGRUN_ARGS:--refactor 3000 -solves 30000}

# ---- the fuzz check: SPTRSV_FUZZ_CASES random triangles (default 1000) from seed SPTRSV_FUZZ_SEED (default 1), every
# sync-free variant, watchdog. 1000 cases fit the limit: 1100 in 480 s on the H200 with the GPU shared (2026-11-30); a
# call moves the seed to cover more ----------
step fuzz-syncfree 1 480 "$FUZZ" -cases "${SPTRSV_FUZZ_CASES:-1000}" -seed "${SPTRSV_FUZZ_SEED:-1}" -timeout 10

# ---- the supernodal path (paper 002) alone: its configurations on small, filled (wide supernodes, cuBLAS) and chain
# cases, and its fuzz variants (SPTRSV_DEVICE_STEPS='check-supernodal|fuzz-supernodal|sanitizer-.*-supernodal')
SN_CASES=(-only_solver sptrsv_supernodal -cases lap2d5_64x64,lap3d7_32x32x32,lap3d27_16x16x16_rcm,lap2d5_96x96_nd_ilu40,lap3d7_20x20x20_nd_ilu30,lap2d9_256x256,chain_tridiag_100000)
step check-supernodal 1 300 "$CHECK" "${SN_CASES[@]}"
step fuzz-supernodal 1 300 "$FUZZ" -only_path supernodal -cases "${SPTRSV_FUZZ_CASES_SUPERNODAL:-1500}" -timeout 10
# ---- SLEPc: shift-and-invert EPSSolve with every sptrsv_* type on the CUDA backend against PETSc's factorization ---------
# (tests/device/slepc.sh: eigenvalues to 1e-10 relative; slepc-timing: EPSSolve seconds per path, advisory)
# shellcheck source=tests/device/slepc.sh
source "$ROOT/tests/device/slepc.sh"
if [ "$SLEPC_BUILT" = 1 ]; then
  step slepc 1 180 slepc_check
  step slepc-timing 0 300 slepc_timing
else
  for s in slepc slepc-timing; do
    if [ -n "${SPTRSV_DEVICE_STEPS:-}" ] && [[ "$s" =~ ^(${SPTRSV_DEVICE_STEPS})$ ]] && [ "$s" = slepc ]; then
      record "$s" FAIL 0 "no SLEPc built (SLEPC_DIR=$SLEPC_DIR: carry .slepc-cuda, scripts/build-slepc-cuda.sh --carry)"
      FAILED=1
    else
      record "$s" ADVISORY 0 "no SLEPc built (SLEPC_DIR=$SLEPC_DIR: carry .slepc-cuda, scripts/build-slepc-cuda.sh --carry)"
    fi
  done
fi
# ---- the partitioned inverse (sptrsv_pinv) alone, one short call: SPTRSV_DEVICE_STEPS='pinv-.*' --------------------
#      its kernels against the host on small Laplacians and the dense-row shape (every configuration of check_kernels,
#      pinv's among them), its fuzz variants (no fill, fill 4, greedy fill 2; watchdog), memcheck on one small case
PINV_CASES=(-only_solver sptrsv_pinv -cases lap2d5_64x64,lap3d7_32x32x32,lap3d27_16x16x16_rcm,elem_denserow_5000,lap3d7_20x20x20_nd_ilu30 -nrhs 1)
step pinv-kernels 1 240 "$CHECK" "${PINV_CASES[@]}"
step pinv-fuzz 1 240 "$FUZZ" -only_path pinv -cases "${SPTRSV_FUZZ_PINV_CASES:-2000}" -big_every 500 -timeout 10
PINV_SAN=$(command -v compute-sanitizer || echo "$CUDA_HOME/bin/compute-sanitizer")
[ -x "$PINV_SAN" ] && step pinv-memcheck 1 180 "$PINV_SAN" --tool memcheck --error-exitcode 97 "$CHECK" -only_solver sptrsv_pinv -cases lap3d7_32x32x32 -nrhs 1

# ---- the locality path alone, one short call: SPTRSV_DEVICE_STEPS='locality-.*' ------------------------------------
#      every locality configuration of check_kernels (default: entries staged, regions packed; stage 0 without packing,
#      the kernel of locality run 2; 64-row regions at stage 1; the paper's partition) on Laplacians of every stencil,
#      the dense-row shape and the shipped matrices with long rows (adder_dcop_05, rajat19, bp_1200) and wide DAGs
#      (bayer10, nnc1374); then memcheck, racecheck (the staged shared memory) and synccheck on three of them
LOC_CASES=(-only_solver sptrsv_locality -cases lap2d5_64x64,lap2d5_512x512,lap2d9_256x256,lap3d7_32x32x32,lap3d27_16x16x16_rcm,elem_denserow_5000,adder_dcop_05,rajat19,bp_1200,bayer10,nnc1374,watt_2,cryg2500 -nrhs 1 "${MATARGS[@]}")
LOC_SMALL=(-only_solver sptrsv_locality -cases lap2d5_64x64,lap3d27_16x16x16_rcm,elem_denserow_5000,adder_dcop_05 -nrhs 1 "${MATARGS[@]}")
# racecheck: a grid and the long rows only (the four cases above outlast the step's 180 s under racecheck)
LOC_RACE=(-only_solver sptrsv_locality -cases lap2d5_64x64,adder_dcop_05 -nrhs 1 "${MATARGS[@]}")
step locality-kernels 1 240 "$CHECK" "${LOC_CASES[@]}"
LOC_SAN=$(command -v compute-sanitizer || echo "$CUDA_HOME/bin/compute-sanitizer")
if [ -x "$LOC_SAN" ]; then
  step locality-memcheck 1 180 "$LOC_SAN" --tool memcheck --error-exitcode 97 "$CHECK" "${LOC_SMALL[@]}"
  step locality-racecheck 1 300 "$LOC_SAN" --tool racecheck --error-exitcode 97 "$CHECK" "${LOC_RACE[@]}"
  step locality-synccheck 1 180 "$LOC_SAN" --tool synccheck --error-exitcode 97 "$CHECK" "${LOC_SMALL[@]}"
fi

# ---- the locality path's chain kernel, one short call: SPTRSV_DEVICE_STEPS='chain-.*' ------------------------------
#      every locality configuration and the chain kernel forced (-with_chain) on banded matrices of every window width,
#      block-diagonal ones (several groups per warp, 4 accumulators per lane, interleaved components) and the chains;
#      then memcheck, racecheck and synccheck on small ones
CHAIN_CASES=(-only_solver sptrsv_locality -with_chain -cases banded1_20000,banded2_20000,banded8_20000,banded32_20000,blockdiag8_100000,blockdiag32_100000,blockdiag100_25000,blockdiag16_perm_50000,chain_bidiag_100000,chain_tridiag_100000 -nrhs 1 "${MATARGS[@]}")
CHAIN_SMALL=(-only_solver sptrsv_locality -with_chain -cases banded2_2000,banded32_3000,blockdiag100_2500,blockdiag16_perm_5000 -nrhs 1 "${MATARGS[@]}")
# racecheck: the chain kernel (-only_tag lch) on two of them (every locality configuration on them did 10 comparisons in
# the step's 180 s: the sub-graph kernels have their racecheck in locality-racecheck, the blocks kernel in blocks-racecheck); then the chain
# kernel alone (-only_tag lch) on long chains (groups of at least SPTRSV_CHAIN_LONG_ROWS rows: the longer loads ahead)
CHAIN_RACE=(-only_solver sptrsv_locality -with_chain -only_tag lch -cases banded2_2000,blockdiag16_perm_5000 -nrhs 1 "${MATARGS[@]}")
CHAIN_LONG=(-only_solver sptrsv_locality -with_chain -only_tag lch -cases banded1_20000,banded8_20000,banded32_20000 -nrhs 1 "${MATARGS[@]}")
# racecheck serializes the kernel's shared-memory accesses: chains of 20000 rows outlasted 180 s; 4500 rows are still one
# group above SPTRSV_CHAIN_LONG_ROWS (4096: the longer loads ahead), on the narrowest and the widest band
CHAIN_LONG_RACE=(-only_solver sptrsv_locality -with_chain -only_tag lch -cases banded1_4500,banded32_4500 -nrhs 1 "${MATARGS[@]}")
step chain-kernels 1 240 "$CHECK" "${CHAIN_CASES[@]}"
if [ -x "$LOC_SAN" ]; then
  step chain-memcheck 1 180 "$LOC_SAN" --tool memcheck --error-exitcode 97 "$CHECK" "${CHAIN_SMALL[@]}"
  step chain-racecheck 1 180 "$LOC_SAN" --tool racecheck --error-exitcode 97 "$CHECK" "${CHAIN_RACE[@]}"
  step chain-synccheck 1 180 "$LOC_SAN" --tool synccheck --error-exitcode 97 "$CHECK" "${CHAIN_SMALL[@]}"
  step chain-long-memcheck 1 180 "$LOC_SAN" --tool memcheck --error-exitcode 97 "$CHECK" "${CHAIN_LONG[@]}"
  step chain-long-racecheck 1 180 "$LOC_SAN" --tool racecheck --error-exitcode 97 "$CHECK" "${CHAIN_LONG_RACE[@]}"
  step chain-long-synccheck 1 180 "$LOC_SAN" --tool synccheck --error-exitcode 97 "$CHECK" "${CHAIN_LONG[@]}"
fi
# ---- the locality path's blocks kernel (inverted diagonal blocks along the chains): SPTRSV_DEVICE_STEPS='blocks-.*' ----
#      its three configurations (-lbk: the model's block size with a graph, -lbc: a bound of 3 on kappa so that blocks
#      solved by substitution mix with inverted ones, -lb128: blocks of 128 rows) on the chain cases, then the sanitizers
BLOCKS_TAGS=lbk,lbc,lb128
step blocks-kernels 1 240 "$CHECK" "${CHAIN_CASES[@]}" -only_tag "$BLOCKS_TAGS"
if [ -x "$LOC_SAN" ]; then
  step blocks-memcheck 1 180 "$LOC_SAN" --tool memcheck --error-exitcode 97 "$CHECK" "${CHAIN_SMALL[@]}" -only_tag "$BLOCKS_TAGS"
  step blocks-racecheck 1 180 "$LOC_SAN" --tool racecheck --error-exitcode 97 "$CHECK" "${CHAIN_RACE[@]}" -only_tag "$BLOCKS_TAGS"
  step blocks-synccheck 1 180 "$LOC_SAN" --tool synccheck --error-exitcode 97 "$CHECK" "${CHAIN_SMALL[@]}" -only_tag "$BLOCKS_TAGS"
fi

# ---- sptrsv_cusparse and the automatic choice's measured check, one short call: SPTRSV_DEVICE_STEPS='cusparse-.*' ------
#      cuSPARSE's SpSV behind our factors against the host (host values, the GPU numeric ILU's device values, transposes,
#      several right-hand sides) on Laplacians, the dense-row shape and shipped matrices; the automatic choice with
#      -mat_sptrsv_auto_measure 1 (a triangle may change paths at the first numeric factorization); memcheck of both
#      (racecheck: the path has no kernel with shared memory; its one kernel of ours is a gather)
CUSP_CASES=(-cases lap2d5_64x64,lap3d7_32x32x32,lap3d27_16x16x16_rcm,elem_denserow_5000,bayer10,bp_1200,west0479,olm1000 "${MATARGS[@]}")
step cusparse-kernels 1 240 "$CHECK" -only_solver sptrsv_cusparse "${CUSP_CASES[@]}"
step cusparse-auto-kernels 1 240 "$CHECK" -only_solver sptrsv "${CUSP_CASES[@]}"
CUSP_SAN=$(command -v compute-sanitizer || echo "$CUDA_HOME/bin/compute-sanitizer")
if [ -x "$CUSP_SAN" ]; then
  step cusparse-memcheck 1 180 "$CUSP_SAN" --tool memcheck --error-exitcode 97 "$CHECK" -only_solver sptrsv_cusparse -cases lap3d7_32x32x32,bp_1200 -nrhs 1 "${MATARGS[@]}"
  step cusparse-auto-memcheck 1 180 "$CUSP_SAN" --tool memcheck --error-exitcode 97 "$CHECK" -only_solver sptrsv -cases lap2d5_64x64,bp_1200 -nrhs 1 "${MATARGS[@]}"
fi

# ---- compute-sanitizer on small cases (fused segments + separate launches + graphs, perms) ---------
SAN=$(command -v compute-sanitizer || echo "$CUDA_HOME/bin/compute-sanitizer")
# shellcheck disable=SC2054 # one comma-separated option value
SMALL=(-cases lap2d5_64x64,lap3d7_32x32x32,lap3d27_16x16x16_rcm,elem_denserow_5000,gs,isai -gs_quick -nrhs 1)
# memcheck and racecheck of every configuration (about 100 comparisons per case) do not fit one step: on the H200 with
# the GPU shared by four checks, memcheck did 142 comparisons and racecheck 75 in 180 s; each runs in two steps (the
# 3-D stencils apart), synccheck (355 comparisons in 119 s) in one
SMALL_2D=(-cases lap2d5_64x64,elem_denserow_5000,gs,isai -gs_quick -nrhs 1)
SMALL_3D=(-cases lap3d7_32x32x32,lap3d27_16x16x16_rcm -nrhs 1)
SMALL_2D_NO_ISAI=(-cases lap2d5_64x64,elem_denserow_5000,gs -gs_quick -nrhs 1)
if [ -x "$SAN" ]; then
  step sanitizer-memcheck 1 400 "$SAN" --tool memcheck --error-exitcode 97 "$CHECK" "${SMALL_2D[@]}"
  step sanitizer-memcheck-3d 1 400 "$SAN" --tool memcheck --error-exitcode 97 "$CHECK" "${SMALL_3D[@]}"
  # racecheck looks for shared-memory hazards: the isai case is left out because its SpMVs are cuSPARSE's own
  # csrmv kernels, where racecheck reports hazards of the library (our isai kernel uses no shared memory; memcheck,
  # synccheck and initcheck still run it)
  # (and, on the H200 of 2026-11-29, racecheck of every configuration did 100 comparisons of a case in 330 s: without the
  # paths that racecheck steps of their own cover on the same 2-D case, locality-racecheck and
  # sanitizer-racecheck-supernodal, and without cuSPARSE's own SpSV kernels, a step checks 23 of the 50 configurations;
  # the 3-D step keeps locality and supernodal, which no other racecheck step runs on a 3-D grid)
  step sanitizer-racecheck 1 400 "$SAN" --tool racecheck --error-exitcode 97 "$CHECK" "${SMALL_2D_NO_ISAI[@]}" -skip_solver sptrsv_locality,sptrsv_supernodal,sptrsv_cusparse
  # (the two 3-D cases in one racecheck step did 121 of their ~200 comparisons in 400 s: one step each)
  step sanitizer-racecheck-3d 1 400 "$SAN" --tool racecheck --error-exitcode 97 "$CHECK" -cases lap3d7_32x32x32 -nrhs 1 -skip_solver sptrsv_cusparse
  step sanitizer-racecheck-3d27 1 400 "$SAN" --tool racecheck --error-exitcode 97 "$CHECK" -cases lap3d27_10x10x10_rcm -nrhs 1 -skip_solver sptrsv_cusparse
  step sanitizer-synccheck 1 180 "$SAN" --tool synccheck --error-exitcode 97 "$CHECK" "${SMALL[@]}"
  step sanitizer-memcheck-factor 1 300 "$SAN" --tool memcheck --error-exitcode 97 "$CHECKF" -quick -rows global -bps 0
  step sanitizer-synccheck-factor 1 300 "$SAN" --tool synccheck --error-exitcode 97 "$CHECKF" -quick -rows global -bps 0
  step sanitizer-memcheck-factor-shared 1 300 "$SAN" --tool memcheck --error-exitcode 97 "$CHECKF" -quick -rows shared -bps 2
  step sanitizer-racecheck-factor-shared 1 300 "$SAN" --tool racecheck --error-exitcode 97 "$CHECKF" -quick -rows shared -bps 2
  step sanitizer-memcheck-multicolor 1 180 "$SAN" --tool memcheck --error-exitcode 97 "$MCCHECK" -require_cuda -quick
  step sanitizer-racecheck-multicolor 1 180 "$SAN" --tool racecheck --error-exitcode 97 "$MCCHECK" -require_cuda -quick
  # (memcheck of 40 fuzz cases did not end in 300 s, twice, where synccheck took 53 s: memcheck 12 cases, racecheck 8,
  # each case's progress printed)
  step sanitizer-memcheck-fuzz 1 400 "$SAN" --tool memcheck --error-exitcode 97 "$FUZZ" -cases 12 -big_every 0 -timeout 60 -progress 1
  step sanitizer-synccheck-fuzz 1 300 "$SAN" --tool synccheck --error-exitcode 97 "$FUZZ" -cases 40 -big_every 0 -timeout 60 -progress 1
  step sanitizer-racecheck-fuzz 1 400 "$SAN" --tool racecheck --error-exitcode 97 "$FUZZ" -cases 8 -big_every 0 -timeout 60 -progress 1
  step sanitizer-memcheck-analysis 1 300 "$SAN" --tool memcheck --error-exitcode 97 "$ANALYSIS" -random 10 -matdir /nonexistent
  [ -n "$DIRECTCHECK" ] && step sanitizer-memcheck-direct 1 300 "$SAN" --tool memcheck --error-exitcode 97 "$DIRECTCHECK" -backend cuda -quick
  SN_SMALL=(-only_solver sptrsv_supernodal -cases lap2d5_64x64,lap2d5_96x96_nd_ilu40 -nrhs 1 -no_refactor)
  step sanitizer-memcheck-supernodal 1 180 "$SAN" --tool memcheck --error-exitcode 97 "$CHECK" "${SN_SMALL[@]}"
  step sanitizer-racecheck-supernodal 1 180 "$SAN" --tool racecheck --error-exitcode 97 "$CHECK" "${SN_SMALL[@]}"
  step sanitizer-synccheck-supernodal 1 180 "$SAN" --tool synccheck --error-exitcode 97 "$CHECK" "${SN_SMALL[@]}"
  step sanitizer-initcheck 0 180 "$SAN" --tool initcheck --error-exitcode 97 "$CHECK" "${SMALL[@]}"
else
  say "compute-sanitizer not found ($SAN)"
  record sanitizers FAIL 0 "$LOGDIR/run.log"
  FAILED=1
fi
finish
