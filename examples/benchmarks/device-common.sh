# Sourced by the device benchmark scripts (run-device.sh, run-gs-device.sh): the environment of a device run,
# its time-budgeted steps, and the builds they share. The caller sets ROOT (repository root), BUDGET (seconds),
# WORK (its build folder), LOGDIR, SUMMARY and OUTDIR, defines finish(), then calls device_init and device_prepare.
#
# Knobs (environment): PETSC_DIR (default ./.petsc-cuda), SPTRSV_MATDIR (default tests/data/matrices, the matrices
# shipped with the repository: tests/data/matdir.sh), SPTRSV_TUTORIALS (./.carry/tutorials), CUDA_HOME (/usr/local/cuda).
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # variables used by, or set by, the sourcing scripts

# device_init: paths, the carried PETSc, CUDA and Open MPI settings; T0 and FAILED
device_init() {
  T0=$(date +%s)
  FAILED=0
  rm -rf "$LOGDIR"
  mkdir -p "$OUTDIR" "$LOGDIR" "$WORK"
  : >"$SUMMARY"
  export PETSC_DIR=${PETSC_DIR:-$ROOT/.petsc-cuda}
  export PETSC_ARCH=
  # shellcheck source=tests/data/matdir.sh
  . "$ROOT/tests/data/matdir.sh" # MATDIR: $SPTRSV_MATDIR, default tests/data/matrices
  TUTDIR=${SPTRSV_TUTORIALS:-$ROOT/.carry/tutorials}
  CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
  export PATH=$CUDA_HOME/bin:$PATH
  export LD_LIBRARY_PATH=$PETSC_DIR/lib:$CUDA_HOME/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  # Open MPI singleton runs as root, on a machine with no network
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
  # Ubuntu's Open MPI is not CUDA-aware: a CUDA PETSc aborts in PetscInitialize without this
  export PETSC_OPTIONS="-use_gpu_aware_mpi 0"
  # the LU and Cholesky factors' libraries (bench -bench_factor lu|cholesky)
  # shellcheck source=tests/device/direct-env.sh
  source "$ROOT/tests/device/direct-env.sh"
  sptrsv_direct_env "$ROOT" >>"$LOGDIR/run.log" 2>&1
}

elapsed() { echo $(($(date +%s) - T0)); }
left() { echo $((BUDGET - $(elapsed))); }
say() { echo "=== [$(elapsed) s] $*" | tee -a "$LOGDIR/run.log"; }
# record STEP STATUS SECONDS
record() { printf '%-40s %-16s %5s s\n' "$1" "$2" "$3" >>"$SUMMARY"; }

# step NAME REQUIRED(1|0) TIMEOUT COMMAND...: run with its log in $LOGDIR/NAME.log, within the budget
step() {
  local name=$1 required=$2 tmo=$3 l t rc status
  shift 3
  l=$(left)
  if [ "$l" -le 15 ]; then
    say "$name: SKIPPED (time budget of $BUDGET s spent)"
    record "$name" "SKIPPED(budget)" 0
    return 125
  fi
  [ "$tmo" -gt $((l - 5)) ] && tmo=$((l - 5))
  say "$name (timeout $tmo s)"
  echo "+ $*" >"$LOGDIR/$name.log"
  t=$(date +%s)
  if [ "$(type -t "$1")" = function ]; then ("$@") >>"$LOGDIR/$name.log" 2>&1; else timeout "$tmo" "$@" >>"$LOGDIR/$name.log" 2>&1; fi
  rc=$?
  status=PASS
  if [ $rc != 0 ]; then
    if [ "$required" = 1 ]; then status=FAIL; FAILED=1; else status=ADVISORY; fi
    [ $rc = 124 ] && status="$status(timeout)"
    tail -n 15 "$LOGDIR/$name.log"
  fi
  record "$name" "$status" "$(($(date +%s) - t))"
  return $rc
}

# device_machine: one line naming the GPU, CUDA, PETSc, OS and CPU of this run
device_machine() {
  echo "$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -n 1); CUDA $(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p'); PETSc $(sed -n 's/^#define PETSC_VERSION_\(MAJOR\|MINOR\|SUBMINOR\) *\([0-9]*\).*/\2/p' "$PETSC_DIR/include/petscversion.h" 2>/dev/null | paste -sd.); $(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release 2>/dev/null); $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)${OPENBLAS_NUM_THREADS:+; OPENBLAS_NUM_THREADS=$OPENBLAS_NUM_THREADS}"
}

# device_prepare: check the tools, relocate the carried PETSc, build the plugin (make WITH_CUDA=1 lib) and find zlib for
# the Matrix Market reader (sets MAKE, MM_SRC, MM_FLAGS, ZLIB). Returns nonzero when the run cannot go on.
device_prepare() {
  local missing="" ztest=$WORK/ztest
  say "environment"
  {
    uname -a
    nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total,clocks.max.memory --format=csv 2>&1 || echo "nvidia-smi: not available"
    nvcc --version 2>&1 | tail -n 2
    command -v mpicc && mpicc --showme:version 2>&1
    lscpu 2>/dev/null | sed -n '/^Model name/p;/^CPU(s)/p'
  } >>"$LOGDIR/run.log" 2>&1
  command -v mpicc >/dev/null 2>&1 || missing="$missing mpicc"
  command -v make >/dev/null 2>&1 || missing="$missing make"
  command -v python3 >/dev/null 2>&1 || missing="$missing python3"
  [ -f "$PETSC_DIR/lib/petsc/conf/variables" ] || missing="$missing PETSc($PETSC_DIR/lib/petsc/conf/variables: carry .petsc-cuda)"
  if [ -n "$missing" ]; then
    say "MISSING:$missing"
    record environment FAIL 0
    FAILED=1
    return 1
  fi
  record environment PASS 0

  # the carried PETSc's conf files name the prefix it was installed into (as tests/device/run.sh)
  # shellcheck source=tests/device/petsc-relocate.sh
  source "$ROOT/tests/device/petsc-relocate.sh"
  step relocate-petsc 1 60 relocate_petsc || return 1

  local makefile=makefile
  mkdir -p build/device
  if make -n -f makefile WITH_CUDA=1 lib >"$LOGDIR/make-n.log" 2>&1; then :; elif grep -q "both : and :: entries" "$LOGDIR/make-n.log"; then
    sed 's/^clean: sptrsv-clean/clean:: sptrsv-clean/' makefile >build/device/makefile
    makefile=build/device/makefile
    say "NOTE: makefile's 'clean:' clashes with PETSc's 'clean::' rule; building with $makefile"
  fi
  # the dry run above recorded this build as the selected one: forget it, so that a library linked against another PETSc
  # (a build tree used with two PETSc installs) is relinked
  rm -f build/.selected
  MAKE=(make -f "$makefile" WITH_CUDA=1 CUDA_HOME="$CUDA_HOME" -j"$(nproc)")
  step build-plugin 1 300 "${MAKE[@]}" lib || return 1
  # the Matrix Market reader needs zlib (header and library); a CUDA PETSc does not link it itself
  printf '#include <zlib.h>\nint main(void){return gzopen("x","rb") != 0;}\n' >"$ztest.c"
  if mpicc "$ztest.c" -o "$ztest" -lz >/dev/null 2>&1; then MM_SRC=examples/common/mmload.c MM_FLAGS='' ZLIB=-lz
  elif mpicc "$ztest.c" -o "$ztest" -l:libz.so.1 >/dev/null 2>&1; then MM_SRC=examples/common/mmload.c MM_FLAGS='' ZLIB=-l:libz.so.1
  else
    MM_SRC='' MM_FLAGS=-DSPTRSV_NO_MMLOAD ZLIB=''
    say "NOTE: zlib (zlib.h + libz) not usable: the benchmarks are built without the Matrix Market reader (generated matrices only)"
    record matrix-market-files "SKIPPED(no zlib)" 0
  fi
  return 0
}

# device_build_bench PROG SRCVAR: link the benchmark program PROG into $WORK/PROG from the makefile's source list SRCVAR
# (BENCH_SRC, BENCH_GS_SRC), with or without the Matrix Market reader
device_build_bench() {
  local prog=$1 srcvar=$2 target=${WORK#"$ROOT"/}/$1
  # shellcheck disable=SC2016 # make expands these
  step "build-$prog" 1 120 "${MAKE[@]}" MM_SRC="$MM_SRC" MM_FLAGS="$MM_FLAGS" ZLIB="$ZLIB" --eval="$target: \$($srcvar) \$(MM_SRC) \$(SPTRSV_AR) ; \$(PCC) \$(PCC_FLAGS) \$(WARN) \$(SPTRSV_CPP) \$(MM_FLAGS) -o \$@ \$($srcvar) \$(MM_SRC) \$(SPTRSV_AR) \$(LINK_LIBS) \$(CUDA_LIBS) \$(ZLIB)" "$target"
}

# device_build_c NAME [CFLAGS [LIBS]]: one carried tutorial file $TUTDIR/NAME.c against libpetsc (plus CFLAGS and LIBS)
# into $WORK/NAME, step build-NAME: how every tutorial builds
device_build_c() {
  local name=$1 target=${WORK#"$ROOT"/}/$1
  # shellcheck disable=SC2016 # make expands these
  step "build-$name" 1 120 "${MAKE[@]}" TUT="$TUTDIR" XCFLAGS="${2:-}" XLIBS="${3:-}" --eval="$target: \$(TUT)/$name.c ; \$(PCC) \$(PCC_FLAGS) \$(PETSC_CC_INCLUDES) \$(XCFLAGS) -o \$@ \$(TUT)/$name.c \$(XLIBS) \$(LINK_LIBS) \$(CUDA_LIBS)" "$target"
}

# device_build_tutorial EX [SRCDIR]: PETSc's tutorial EX.c (carried in $TUTDIR; SRCDIR, its folder in PETSc's source,
# only names where to copy it from: default src/ksp/ksp/tutorials, src/snes/tutorials for snes ex19) into $WORK/EX.
# Nonzero when missing or failed.
device_build_tutorial() {
  local ex=$1 srcdir=${2:-src/ksp/ksp/tutorials}
  if [ ! -f "$TUTDIR/$ex.c" ]; then
    say "NOTE: $TUTDIR/$ex.c missing: no end-to-end runs with it (copy PETSc 3.26.1's $srcdir/$ex.c there; an install has it in share/petsc/examples/$srcdir)"
    record "build-$ex" "FAIL(no source)" 0
    FAILED=1
    return 1
  fi
  device_build_c "$ex"
}

# device_build_slepc_tutorial EX: SLEPc's eps tutorial EX.c (carried as $TUTDIR/slepc-EX.c: copy SLEPc 3.26.1's
# src/eps/tutorials/EX.c, an install has it in share/slepc/examples) into $WORK/slepc-EX, against the carried CUDA SLEPc
# (SLEPC_DIR, default ./.slepc-cuda: scripts/build-slepc-cuda.sh --carry; only its include/ and lib/ are used, so it
# needs no relocation). Nonzero, with a NOTE and a SKIPPED line, when either is missing: the SLEPc cases are then left out.
device_build_slepc_tutorial() {
  local ex=$1 slepc=${SLEPC_DIR:-$ROOT/.slepc-cuda}
  if [ ! -f "$TUTDIR/slepc-$ex.c" ] || [ ! -f "$slepc/include/slepceps.h" ] || [ ! -e "$slepc/lib/libslepc.so" ]; then
    say "NOTE: no SLEPc tutorial run: needs $TUTDIR/slepc-$ex.c and a CUDA SLEPc at $slepc (carry .slepc-cuda)"
    record "build-slepc-$ex" "SKIPPED(no SLEPc)" 0
    return 1
  fi
  export LD_LIBRARY_PATH=$slepc/lib:$LD_LIBRARY_PATH
  device_build_c "slepc-$ex" "-I$slepc/include" "-L$slepc/lib -Wl,-rpath,$slepc/lib -lslepc"
}

# device_bandwidth LOG: the device bandwidth a benchmark program measured (empty when none)
device_bandwidth() {
  sed -n 's/^device bandwidth: \([0-9.]*\) GB\/s.*/\1/p' "$1" 2>/dev/null | head -n 1
}
