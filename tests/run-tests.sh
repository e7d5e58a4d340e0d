#!/usr/bin/env bash
# petsc-sptrsv test suite (called by `make check`, after the library, examples and unit tests are built).
#
#   bash tests/run-tests.sh            run every test
#   bash tests/run-tests.sh REGEX      run only the tests whose name matches REGEX (bash =~), e.g. 'ex2/'
#   bash tests/run-tests.sh -l         list the test names
#
# Prints "ok N name" or "not ok N name" (failing output indented below) per test, "ok N name # SKIP reason" for a test
# that found something it needs missing (e.g. SLEPc), then "N passed, N failed" (", N skipped" when some were);
# exits nonzero iff a test failed. Full logs: tests/out/logs/<name>.log. Scratch builds: tests/out/.
# Environment: PETSC_DIR (default /usr/lib/petsc), SPTRSV_MATDIR (default tests/data/matrices: tests/data/matdir.sh),
# SPTRSV_TEST_TIMEOUT (seconds per command, default 300), PETSC_EXAMPLES_DIR (PETSc's examples/src), SLEPC_DIR (default
# /usr/lib/slepc), SLEPC_EXAMPLES_DIR (SLEPc's examples/src).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
ROOT=$(pwd)
export PETSC_DIR=${PETSC_DIR:-/usr/lib/petsc}
LIB=$ROOT/lib/libpetscsptrsv.so
OUT=$ROOT/tests/out
LOGS=$OUT/logs
. tests/data/matdir.sh # MATDIR: $SPTRSV_MATDIR, default tests/data/matrices
TMO=${SPTRSV_TEST_TIMEOUT:-300}
FILTER=""
LIST=0
case "${1:-}" in
  -l | --list) LIST=1 ;;
  -h | --help) sed -n '2,13p' "${BASH_SOURCE[0]}"; exit 0 ;;
  *) FILTER=${1:-} ;;
esac
mkdir -p "$LOGS"
[ -z "$FILTER" ] && [ "$LIST" = 0 ] && rm -f "$LOGS"/*.log # no stale logs of renamed tests
unset PETSC_OPTIONS # the comparisons must see only the options given here

# Open MPI: allow root (CI runs as root) and more ranks than cores
export OMPI_MCA_rmaps_base_oversubscribe=1
MPIEXEC=(mpiexec)
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
if mpiexec --version 2>&1 | grep -qiE "open ?mpi|openrte"; then
  MPIEXEC+=(--oversubscribe)
  [ "$(id -u)" = 0 ] && MPIEXEC+=(--allow-run-as-root)
fi

NTEST=0 NPASS=0 NFAIL=0 NSKIP=0
T_START=$(date +%s)

# run_test NAME COMMAND...: run COMMAND (a shell function or program) in a subshell, output to the log
run_test() {
  local name=$1
  shift
  if [ -n "$FILTER" ] && ! [[ $name =~ $FILTER ]]; then return 0; fi
  NTEST=$((NTEST + 1))
  if [ "$LIST" = 1 ]; then
    echo "$name"
    return 0
  fi
  local log=$LOGS/${name//\//_}.log rc=0 notes
  (set -o pipefail; "$@") >"$log" 2>&1 || rc=$?
  if [ $rc = 77 ]; then
    # skipped (the test found something it needs missing: SLEPc, a solver type's factorization); its reason is the
    # last "SKIP: " line of the log
    echo "ok $NTEST $name # SKIP $(sed -n 's/^SKIP: //p' "$log" | tail -n 1)"
    NSKIP=$((NSKIP + 1))
  elif [ $rc = 0 ]; then
    # a test that ran with some of its solver types absent says which ("skipped: ..." lines of the log)
    notes=$(sed -n 's/^skipped: //p' "$log" | awk '!seen[$0]++' | paste -sd';' - | sed 's/;/; /g')
    echo "ok $NTEST $name${notes:+ (skipped: $notes)}"
    NPASS=$((NPASS + 1))
  else
    echo "not ok $NTEST $name"
    # the full log keeps everything; here PETSc's long configure line and MPI_ABORT boilerplate are dropped
    grep -v -e 'PETSC ERROR: Configure options' -e 'PETSC ERROR: See https://petsc.org/release/faq/' \
      -e '^NOTE: invoking MPI_ABORT' -e '^You may or may not see output' -e '^exactly when Open MPI kills' \
      -e '^-----------------------------*$' "$log" >"$log.short"
    if [ "$(wc -l <"$log.short")" -gt 80 ]; then
      echo "    ... (last 80 lines; full log: ${log#"$ROOT"/})"
      tail -n 80 "$log.short" | sed 's/^/    /'
    else
      sed 's/^/    /' "$log.short"
    fi
    rm -f "$log.short"
    NFAIL=$((NFAIL + 1))
  fi
}

# the helpers the tests call and the argument sets several suites share
. "$ROOT/tests/suites/helpers.sh"

# ================================= the tests ======================================================
run_test build/library need_file "$LIB" "make lib"
# the suites (tests/suites/<name>.sh), in this order: unit tests; ex1, ex2_register and the demo script; PETSc's
# tutorials built; one per path (level, element, syncfree, locality, supernodal, pinv, auto = sptrsv); PC gs; LU and
# Cholesky factors; cusparse; the locality kernels (chain); scripts/compare.sh; real matrices; bad input; PC isai;
# several ranks; SLEPc; the benchmark harness
for suite in unit examples programs level element syncfree locality supernodal pinv auto gs lu cusparse chain compare \
  matrices bad isai mpi slepc bench; do
  . "$ROOT/tests/suites/$suite.sh"
done

[ "$LIST" = 1 ] && exit 0
echo "# $((NPASS + NFAIL + NSKIP)) tests in $(($(date +%s) - T_START)) s; logs in tests/out/logs/"
if [ "$NSKIP" = 0 ]; then echo "$NPASS passed, $NFAIL failed"; else echo "$NPASS passed, $NFAIL failed, $NSKIP skipped"; fi
[ "$NFAIL" = 0 ]
