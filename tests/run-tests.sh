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

# ---- helpers used inside the tests (their output goes to the test's log) --------------------------
say() { printf '%s\n' "$*"; }
fail() {
  say "FAIL: $*"
  return 1
}
# prun OUTFILE COMMAND...: run, keep output in OUTFILE and the log, return its exit status
prun() {
  local out=$1
  shift
  say "\$ $*"
  timeout "$TMO" "$@" >"$out" 2>&1
  local rc=$?
  cat "$out"
  [ $rc = 124 ] && say "(timed out after ${TMO}s)"
  return $rc
}
need_file() { [ -e "$1" ] || fail "missing $1${2:+ ($2)}"; }
# skip REASON: end the test as skipped (exit status 77; run_test prints "ok N name # SKIP REASON"), e.g.
#   have_thing || skip "no thing" || return
skip() {
  say "SKIP: $*"
  return 77
}

# compare_monitors NATIVE OURS [RTOL]: the residual histories (-ksp_monitor, -snes_monitor) must have the same
# iterations and agree to RTOL (default 1e-10) relative; the converged-reason lines must be identical.
# With RTOL "measure" it prints only the worst relative difference (0 if the histories do not line up: inf).
compare_monitors() {
  python3 - "$1" "$2" "${3:-1e-10}" <<'PY'
import re, sys
num = r'([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|inf|-nan))'
mon = re.compile(r'^(\s*\d+) (KSP|SNES) (Residual|Function|preconditioned resid) norm ' + num)
rea = re.compile(r'(Linear|Nonlinear) .*solve (converged|did not converge|diverged).*')
def parse(path):
    hist, reasons = [], []
    for line in open(path, errors='replace'):
        m = mon.match(line)
        if m:
            hist.append((m.group(1).strip(), m.group(2), float(m.group(4))))
        m = rea.search(line)
        if m:
            reasons.append(m.group(0).strip())
    return hist, reasons
(ha, ra), (hb, rb) = parse(sys.argv[1]), parse(sys.argv[2])
measure = sys.argv[3] == 'measure'
tol = 0.0 if measure else float(sys.argv[3])
bad = []
if not ha:
    bad.append('no residual history in the native output')
if [(i, k) for i, k, _ in ha] != [(i, k) for i, k, _ in hb]:
    bad.append('iteration sequences differ: native %d monitor lines, ours %d' % (len(ha), len(hb)))
worst = 0.0
for (i, k, a), (_, _, b) in zip(ha, hb):
    rel = abs(a - b) / max(abs(a), abs(b), 1e-300)
    worst = max(worst, rel if rel == rel else float('inf'))
    if not rel <= tol:
        bad.append('%s %s iteration %s: native %.12e ours %.12e (rel diff %.2e)' % (k, 'residual', i, a, b, rel))
if ra != rb:
    bad.append('converged reasons differ:\n  native: %s\n  ours:   %s' % (ra, rb))
if not ra:
    bad.append('no converged-reason line')
if measure:
    aligned = ha and [(i, k) for i, k, _ in ha] == [(i, k) for i, k, _ in hb]
    print('%.3e' % (worst if aligned else float('inf')))
    sys.exit(0)
print('compared %d monitor lines (tolerance %.1e relative), worst relative difference %.2e; reasons: %s' % (min(len(ha), len(hb)), tol, worst, '; '.join(ra[-2:])))
for b in bad[:20]:
    print('MISMATCH:', b)
sys.exit(1 if bad else 0)
PY
}

# iterations reported by the last "Linear solve ... iterations N" line
last_its() { sed -n 's/.*Linear solve .* iterations \([0-9][0-9]*\).*/\1/p' "$1" | tail -n 1; }

# ---- a. unit tests ------------------------------------------------------------------------------
unit_test() { # unit_test BIN [ARGS...]
  local bin=$1
  shift
  say "\$ $bin $*"
  timeout "$TMO" "$bin" "$@" >"$OUT/unit.out" 2>&1
  local rc=$?
  cat "$OUT/unit.out"
  [ $rc = 0 ] || fail "exit status $rc$([ $rc = 124 ] && echo " (timed out after ${TMO}s)")" || return 1
  ! grep -q '^not ok' "$OUT/unit.out" || fail "a 'not ok' line in the output"
}

# ---- b. the demo program ------------------------------------------------------------------------
ex1_case() {
  local np=$1
  shift
  need_file examples/ex1 "make examples" || return 1
  local o=$OUT/ex1.out cmd=(examples/ex1)
  [ "$np" -gt 1 ] && cmd=("${MPIEXEC[@]}" -n "$np" examples/ex1)
  prun "$o" "${cmd[@]}" "$@" || fail "ex1 exited nonzero (it checks iterations and residual norms itself)" || return 1
  grep -q "^Check passed" "$o" || fail "no 'Check passed' line" || return 1
  grep -Eq '^sptrsv_level +[0-9]+ .* (host|cuda)' "$o" || fail "no sptrsv_level row with a backend (host|cuda)"
}

# the checks in ex1 can fail: a run that does not converge, residual norms that differ by more than -check_rtol
ex1_detects_mismatch() {
  need_file examples/ex1 "make examples" || return 1
  if prun "$OUT/ex1.out" examples/ex1 -n 8 -ksp_max_it 3; then fail "ex1 exited 0 although no run converged"; return 1; fi
  grep -q "^FAILED: sptrsv_level did not converge" "$OUT/ex1.out" || fail "no 'FAILED: sptrsv_level did not converge' line" || return 1
  if prun "$OUT/ex1.out" examples/ex1 -n 8 -check_rtol -1; then fail "ex1 exited 0 with -check_rtol -1"; return 1; fi
  grep -q "^FAILED: final residual norms of sptrsv_level" "$OUT/ex1.out" || fail "no 'FAILED: final residual norms' line"
}

# a program that registers the plugin's PC and solver type itself (no -dll_append, no SpTrsvInitializePackage)
register_case() {
  need_file examples/ex2_register "make examples" || return 1
  local o=$OUT/ex2_register.out
  prun "$o" examples/ex2_register "$@" || fail "ex2_register exited nonzero (it checks the iterations itself)" || return 1
  grep -q "^OK: registered by hand" "$o" || fail "no 'OK: registered by hand' line" || return 1
  grep -Eq '^ilu +sptrsv_level +[0-9]+ iterations, CONVERGED' "$o" || fail "no converged sptrsv_level row" || return 1
  grep -Eq '^isai +[0-9]+ iterations, CONVERGED' "$o" || fail "no converged isai row"
}

# ---- c. PETSc's own tutorials, native ILU vs ours -----------------------------------------------
find_examples() {
  local d
  for d in "${PETSC_EXAMPLES_DIR:-}" "$PETSC_DIR/share/petsc/examples/src" /usr/share/petsc/*/share/petsc/examples/src; do
    [ -n "$d" ] && [ -f "$d/ksp/ksp/tutorials/ex2.c" ] && { echo "$d"; return 0; }
  done
  return 1
}

build_programs() {
  local src
  src=$(find_examples) || fail "PETSc's tutorial sources not found (Debian package libpetsc3.18-dev-examples; or set PETSC_EXAMPLES_DIR)" || return 1
  mkdir -p "$OUT/bin"
  cp "$src/ksp/ksp/tutorials/ex2.c" "$src/ksp/ksp/tutorials/ex45.c" "$src/snes/tutorials/ex19.c" "$OUT/bin/"
  cat >"$OUT/bin/makefile" <<EOF
# generated by tests/run-tests.sh: PETSc's tutorials and tests/runs/*.c, built with PETSc's own rules
SPTRSV_ROOT = $ROOT
include \${PETSC_DIR}/lib/petsc/conf/variables
include \${PETSC_DIR}/lib/petsc/conf/rules
all: ex2 ex45 ex19 mmsolve
ex2: ex2.o
	\${CLINKER} -o \$@ \$^ \${PETSC_LIB}
ex45: ex45.o
	\${CLINKER} -o \$@ \$^ \${PETSC_LIB}
ex19: ex19.o
	\${CLINKER} -o \$@ \$^ \${PETSC_LIB}
mmsolve: \$(SPTRSV_ROOT)/tests/runs/mmsolve.c \$(SPTRSV_ROOT)/examples/common/mmload.c \$(SPTRSV_ROOT)/lib/libpetscsptrsv.so
	\${PCC} \${PCC_FLAGS} -I\$(SPTRSV_ROOT)/include \${PETSC_CC_INCLUDES} -o \$@ \$(SPTRSV_ROOT)/tests/runs/mmsolve.c \$(SPTRSV_ROOT)/examples/common/mmload.c -L\$(SPTRSV_ROOT)/lib -lpetscsptrsv -Wl,-rpath,\$(SPTRSV_ROOT)/lib \${PETSC_LIB}
EOF
  say "\$ make -C tests/out/bin -j2 all"
  make --no-print-directory -C "$OUT/bin" -j2 all
}

. "$ROOT/tests/suites/its_compare.sh" # its_compare NATIVE OURS (compare_case, tests/suites/pinv.sh)


# compare_case NP PROG COMMON_ARGS OURS_ONLY_ARGS [SUB]: run PROG natively and with our solver type ($SOLVER,
# default sptrsv_level); SUB=sub_ selects the sub-solver of block Jacobi. Ours must use every option given and
# show the solver.
compare_case() {
  local np=$1 prog=$2 common=$3 ours_only=$4 pre=${5:-} solver=${SOLVER:-sptrsv_level}
  local exe=$OUT/bin/$prog a=$OUT/native.out b=$OUT/ours.out cmd=()
  need_file "$exe" "see the build/programs test" || return 1
  [ "$np" -gt 1 ] && cmd=("${MPIEXEC[@]}" -n "$np")
  # shellcheck disable=SC2086
  prun "$a" "${cmd[@]}" "$exe" $common -${pre}pc_factor_mat_solver_type petsc -ksp_converged_reason || fail "native run failed" || return 1
  # shellcheck disable=SC2086
  prun "$b" "${cmd[@]}" "$exe" -dll_append "$LIB" $common -${pre}pc_factor_mat_solver_type "$solver" $ours_only -ksp_converged_reason -ksp_view -options_left || fail "$solver run failed" || return 1
  grep -q "package used to perform factorization: $solver" "$b" || fail "-ksp_view does not show $solver as the factorization package" || return 1
  ! grep -q "There are options you set that were not used" "$b" || fail "$solver run left options unused" || return 1
  say "native: $(last_its "$a") iterations; $solver: $(last_its "$b") iterations"
  if grep -Eq "automatic choice: pinv fill[0-9.]+ " "$b"; then
    # the cost model chose pinv with fill (a variant, e.g. fill4): M holds products of T's entries, the same mathematics
    # in another rounding; checked as tests/suites/pinv.sh checks fill (its_compare: same reasons, iterations +-1)
    say "the automatic choice took pinv with fill: iterations compared (its_compare), not the histories to 1e-10"
    its_compare "$a" "$b"
    return
  fi
  if grep -Eq "kernel: blocks \(-([a-z_]+_)?mat_sptrsv_locality_kernel" "$b"; then
    # the locality path ran its blocks kernel (inverted diagonal blocks applied to their coupling: products of T's
    # entries, the same mathematics in another rounding, amplified up to the blocks' condition numbers); as pinv with fill
    say "the locality path ran its blocks kernel: iterations compared (its_compare), not the histories to 1e-10"
    its_compare "$a" "$b"
    return
  fi
  local tol=1e-10
  if [ -n "${YARDSTICK:-}" ]; then
    # ill-conditioned problem: PETSc's own kernels with and without inodes (-mat_no_inode: other
    # summation orders, same mathematics) differ by d; ours may differ from native by at most max(1e-10, 10 d)
    # shellcheck disable=SC2086
    prun "$OUT/native2.out" "${cmd[@]}" "$exe" $common -${pre}pc_factor_mat_solver_type petsc -ksp_converged_reason -mat_no_inode >/dev/null || fail "native -mat_no_inode run failed" || return 1
    local d
    d=$(compare_monitors "$a" "$OUT/native2.out" measure)
    tol=$(python3 -c "print('%.3e' % max(1e-10, 10 * float('$d')))")
    say "yardstick: native vs native -mat_no_inode differ by $d relative; tolerance $tol"
  fi
  compare_monitors "$a" "$b" "$tol"
}

with_solver() { # with_solver SOLVER compare_case ...: the same comparison with another of our solver types
  local SOLVER=$1
  shift
  "$@"
}

# gs_case NP PROG COMMON SOR_ARGS GS_ARGS: PROG with PETSc's PCSOR options and with ours (PC gs, the plugin
# loaded by -dll_append): same iterations, residual histories to 1e-10; ours must use every option and
# -ksp_view must show the gs PC (its sweeps counted) wherever sor was used
gs_case() {
  local np=$1 prog=$2 common=$3 sor=$4 gs=$5 exe=$OUT/bin/$2 a=$OUT/native.out b=$OUT/ours.out cmd=()
  need_file "$exe" "see the build/programs test" || return 1
  [ "$np" -gt 1 ] && cmd=("${MPIEXEC[@]}" -n "$np")
  # shellcheck disable=SC2086
  prun "$a" "${cmd[@]}" "$exe" $common $sor -ksp_converged_reason -ksp_view || fail "PCSOR run failed" || return 1
  # shellcheck disable=SC2086
  prun "$b" "${cmd[@]}" "$exe" -dll_append "$LIB" $common $gs -ksp_converged_reason -ksp_view -options_left || fail "PC gs run failed" || return 1
  ! grep -q "There are options you set that were not used" "$b" || fail "PC gs run left options unused" || return 1
  local nsor ngs
  nsor=$(grep -c "type: sor" "$a") ngs=$(grep -c "type: gs" "$b")
  [ "$nsor" -gt 0 ] && [ "$nsor" = "$ngs" ] || fail "-ksp_view: $nsor PCs of type sor natively, $ngs of type gs in ours" || return 1
  ! grep -q "sweeps so far 0$" "$b" || fail "a gs PC was set up but never swept" || return 1
  say "PCSOR: $(last_its "$a") iterations; PC gs: $(last_its "$b") iterations ($ngs gs PCs)"
  compare_monitors "$a" "$b"
}

with_yardstick() { # with_yardstick compare_case ...: tolerance from PETSc's own rounding (see compare_case)
  local YARDSTICK=1
  "$@"
}

# the comparison itself must catch a difference: native ILU(0) vs native ILU(1), and natural vs ND ordering
runner_detects_difference() {
  local e=$OUT/bin/ex2
  need_file "$e" "see the build/programs test" || return 1
  prun "$OUT/a.out" "$e" -m 30 -n 30 -pc_type ilu -ksp_monitor -ksp_converged_reason >/dev/null || return 1
  prun "$OUT/b.out" "$e" -m 30 -n 30 -pc_type ilu -pc_factor_levels 1 -ksp_monitor -ksp_converged_reason >/dev/null || return 1
  prun "$OUT/c.out" "$e" -m 30 -n 30 -pc_type ilu -pc_factor_mat_ordering_type nd -ksp_monitor -ksp_converged_reason >/dev/null || return 1
  if compare_monitors "$OUT/a.out" "$OUT/b.out"; then fail "ILU(0) and ILU(1) histories compared equal"; return 1; fi
  if compare_monitors "$OUT/a.out" "$OUT/c.out"; then fail "ILU(0) natural and ND histories compared equal"; return 1; fi
  compare_monitors "$OUT/a.out" "$OUT/a.out" || fail "a history differs from itself"
}

ours_grep() { # ours_grep PROG "ARGS" PATTERN...: ours' output must contain every (extended regex) PATTERN
  local prog=$1 args=$2 o=$OUT/grep.out p
  shift 2
  need_file "$OUT/bin/$prog" "see the build/programs test" || return 1
  # shellcheck disable=SC2086
  prun "$o" "$OUT/bin/$prog" -dll_append "$LIB" $args || fail "run failed" || return 1
  for p in "$@"; do
    grep -Eq -- "$p" "$o" || fail "output lacks /$p/" || return 1
    say "found /$p/"
  done
}

# ---- d, e. real matrices and bad inputs through tests/runs/mmsolve.c ------------------------------
mm_compare() { # mm_compare MATRIX "KSP/PC ARGS"
  local f=$MATDIR/$1.mtx.gz
  need_file "$f" "matrix collection; set SPTRSV_MATDIR" || return 1
  compare_case 1 mmsolve "-f $f $2 -ksp_monitor" ""
}

# mm_both_fail SOURCE_ARGS PATTERN "KSP/PC ARGS": native and ours must both exit nonzero with PATTERN in
# their message (case-insensitive); ours must not crash (no signal, no "Caught signal")
mm_both_fail() {
  local src=$1 pat=$2 args=$3 exe=$OUT/bin/mmsolve a=$OUT/native.out b=$OUT/ours.out rc
  need_file "$exe" "see the build/programs test" || return 1
  # shellcheck disable=SC2086
  prun "$a" "$exe" $src $args -pc_factor_mat_solver_type petsc
  rc=$?
  [ $rc != 0 ] || fail "native run succeeded; the test expects an error" || return 1
  grep -qi -- "$pat" "$a" || fail "native message lacks '$pat'" || return 1
  # shellcheck disable=SC2086
  prun "$b" "$exe" -dll_append "$LIB" $src $args -pc_factor_mat_solver_type sptrsv_level
  rc=$?
  [ $rc != 0 ] || fail "sptrsv_level run succeeded; it must fail like the native one" || return 1
  [ $rc -lt 124 ] || fail "sptrsv_level run died (exit $rc): a crash or timeout, not an error" || return 1
  ! grep -q "Caught signal" "$b" || fail "sptrsv_level run crashed" || return 1
  grep -qi -- "$pat" "$b" || fail "sptrsv_level message lacks '$pat'"
}

# same_reason NP PROG "COMMON" "NATIVE" "OURS" REASON: failures behave as PETSc's own. PROG with the native
# arguments (no plugin) and with ours (the plugin loaded) must both exit 0 and print identical
# -ksp_converged_reason lines ("Linear solve ... due to R iterations N" and, for KSP_DIVERGED_PC_FAILED, "PC failed
# due to ..."), and the reason must be REASON (so a run that converges, or aborts, cannot pass)
same_reason() {
  local np=$1 prog=$2 common=$3 nat=$4 ours=$5 want=$6 exe=$OUT/bin/$2 a=$OUT/native.out b=$OUT/ours.out cmd=() ra rb
  need_file "$exe" "see the build/programs test" || return 1
  [ "$np" -gt 1 ] && cmd=("${MPIEXEC[@]}" -n "$np")
  # shellcheck disable=SC2086
  prun "$a" "${cmd[@]}" "$exe" $common $nat -ksp_converged_reason || fail "native run failed" || return 1
  # shellcheck disable=SC2086
  prun "$b" "${cmd[@]}" "$exe" -dll_append "$LIB" $common $ours -ksp_converged_reason || fail "our run failed (PETSc's own did not)" || return 1
  ra=$(grep -E "solve (converged|did not converge)|PC failed due to" "$a" | sed 's/ *$//')
  rb=$(grep -E "solve (converged|did not converge)|PC failed due to" "$b" | sed 's/ *$//')
  say "native: ${ra//$'\n'/ | }"
  say "ours:   ${rb//$'\n'/ | }"
  [ -n "$ra" ] || fail "no converged-reason line in the native output" || return 1
  [ "$ra" = "$rb" ] || fail "the converged reasons differ" || return 1
  grep -q "due to $want " "$a" || fail "the reason is not $want"
}

# both_fail PROG "COMMON" "NATIVE" "OURS" NATIVE_PATTERN OUR_PATTERN: where PETSc's own stops with an error, ours
# stops too (nonzero exit, no crash), each with a message matching its extended regex
both_fail() {
  local prog=$1 common=$2 nat=$3 ours=$4 npat=$5 opat=$6 exe=$OUT/bin/$1 a=$OUT/native.out b=$OUT/ours.out rc
  need_file "$exe" "see the build/programs test" || return 1
  # shellcheck disable=SC2086
  prun "$a" "$exe" $common $nat
  rc=$?
  [ $rc != 0 ] || fail "native run succeeded; the test expects an error" || return 1
  grep -Eq -- "$npat" "$a" || fail "native message lacks /$npat/" || return 1
  # shellcheck disable=SC2086
  prun "$b" "$exe" -dll_append "$LIB" $common $ours
  rc=$?
  [ $rc != 0 ] || fail "our run succeeded; it must stop with an error" || return 1
  [ $rc -lt 124 ] || fail "our run died (exit $rc): a crash or timeout, not an error" || return 1
  ! grep -q "Caught signal" "$b" || fail "our run crashed" || return 1
  grep -Eq -- "$opat" "$b" || fail "our message lacks /$opat/"
}

ours_fails() { # ours_fails PROG "ARGS" PATTERN: ours exits with a PETSc error (no crash) whose message matches PATTERN
  local prog=$1 args=$2 pat=$3 o=$OUT/ours.out rc
  need_file "$OUT/bin/$prog" "see the build/programs test" || return 1
  # shellcheck disable=SC2086
  prun "$o" "$OUT/bin/$prog" -dll_append "$LIB" $args
  rc=$?
  [ $rc != 0 ] || fail "run succeeded; it must stop with an error" || return 1
  [ $rc -lt 124 ] || fail "run died (exit $rc): a crash or timeout, not an error" || return 1
  ! grep -q "Caught signal" "$o" || fail "run crashed" || return 1
  grep -Eq -- "$pat" "$o" || fail "message lacks /$pat/"
}

mm_both_pass() { # mm_both_pass SOURCE_ARGS PATTERN "ARGS": both succeed and print the same text matching PATTERN
  local src=$1 pat=$2 args=$3 exe=$OUT/bin/mmsolve a=$OUT/native.out b=$OUT/ours.out
  need_file "$exe" "see the build/programs test" || return 1
  # shellcheck disable=SC2086
  prun "$a" "$exe" $src $args -pc_factor_mat_solver_type petsc || fail "native run failed" || return 1
  # shellcheck disable=SC2086
  prun "$b" "$exe" -dll_append "$LIB" $src $args -pc_factor_mat_solver_type sptrsv_level || fail "sptrsv_level run failed" || return 1
  grep -Eq -- "$pat" "$a" || fail "native output lacks /$pat/" || return 1
  grep -Eq -- "$pat" "$b" || fail "sptrsv_level output lacks /$pat/" || return 1
  [ "$(grep -Eo -- "$pat" "$a")" = "$(grep -Eo -- "$pat" "$b")" ] || fail "the /$pat/ parts differ"
}

# ================================= the tests ======================================================
run_test build/library need_file "$LIB" "make lib"

# a. unit tests
shopt -s nullglob
units=()
for src in tests/unit/test_*.c; do units+=("${src%.c}"); done
for bin in "${units[@]}"; do
  # the unit tests that read the test matrices take their directory as -matdir
  margs=()
  grep -q '"-matdir"' "$bin.c" && margs=(-matdir "$MATDIR")
  if [ -x "$bin" ]; then run_test "unit/${bin##*/}" unit_test "$bin" "${margs[@]}"
  else run_test "unit/${bin##*/}" fail "$bin.c is not built (make unit-tests)"; fi
done
shopt -u nullglob
# the fuzz driver of the sync-free kernels (tests/device/check_fuzz.c) on the host executors: random triangles of
# every shape (chains of 1e6 rows, 1e5 levels, dense and empty rows), every sync-free variant, with its schedule check
run_test unit/fuzz-syncfree-host unit_test tests/device/check_fuzz -backend host -cases 2000 -big_every 1000
# the device check of the multicolor sweeps (tests/device/check_multicolor.c) without a GPU: it builds, runs the host
# executor through every option set and value refresh, and the zero-diagonal failure (the comparisons need the GPU)
run_test unit/check-multicolor-host unit_test tests/device/check_multicolor -quick
# the long-run and leak check (tests/device/check_longrun.c) on the host backend: 10^3 refactorizations and 10^4 solves
# per path, 10^2 PC gs / PC isai setups, PETSc's tracing malloc: no host growth, results equal to PETSc's ILU/SOR, the
# factor lifetime rules (the GPU run is tests/device/run.sh's step longrun)
run_test unit/check-longrun-host unit_test tests/device/check_longrun -backend host -n 30 -refactor 1000 -solves 10000 -pc_setups 100 -malloc_debug
# hostile input (tests/fuzz/fuzz_input): 10^4 spoiled or valid Matrix Market / PETSc binary files through every sptrsv_*
# solver type, PC isai and PC gs, plus the (seed, case) pairs that once failed (-regression); the last line must
# report 0 failures (docs/TESTING.md, "Hostile input")
fuzz_input_case() {
  need_file tests/fuzz/fuzz_input "make unit-tests" || return 1
  unit_test tests/fuzz/fuzz_input "$@" || return 1
  grep -Eq '^fuzz_input: [0-9]+ cases, .* 0 failures$' "$OUT/unit.out" || fail "no 'fuzz_input: N cases ... 0 failures' line"
}
run_test unit/fuzz-input-host fuzz_input_case -backend host -seed 1 -cases 10000 -regression

# b. the demo program: it asserts iterations and residual norms of petsc vs sptrsv_level itself
run_test ex1/default-n12 ex1_case 1 -n 12
run_test ex1/laplace-ilu1 ex1_case 1 -n 10 -beta 0 -pc_factor_levels 1
run_test ex1/csc-rcm ex1_case 1 -n 10 -beta 50 -mat_sptrsv_format csc -pc_factor_mat_ordering_type rcm
run_test ex1/host ex1_case 1 -n 10 -solver_types petsc,sptrsv_level,sptrsv_level -mat_sptrsv_backend host
run_test ex1/bjacobi-np2 ex1_case 2 -n 12
run_test ex1/anisotropic-grid ex1_case 1 -da_grid_x 20 -da_grid_y 7 -da_grid_z 5 -beta 100
run_test ex1/detects-mismatch ex1_detects_mismatch
run_test register/ex2_register register_case -n 48

# c. PETSc's tutorials
run_test build/programs build_programs
run_test runner/compare-detects-difference runner_detects_difference
EX2="-m 60 -n 60 -ksp_type gmres -pc_type ilu -ksp_monitor"
run_test ex2/ilu0 compare_case 1 ex2 "$EX2" ""
run_test ex2/ilu2 compare_case 1 ex2 "$EX2 -pc_factor_levels 2" ""
run_test ex2/ilu1-rcm compare_case 1 ex2 "$EX2 -pc_factor_levels 1 -pc_factor_mat_ordering_type rcm" ""
run_test ex2/ilu0-nd compare_case 1 ex2 "$EX2 -pc_factor_mat_ordering_type nd" ""
run_test ex2/icc0 compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" ""
run_test ex2/icc1-cg compare_case 1 ex2 "-m 60 -n 60 -ksp_type cg -pc_type icc -pc_factor_levels 1 -ksp_monitor" ""
run_test ex2/format-csc compare_case 1 ex2 "$EX2" "-mat_sptrsv_format csc"
run_test ex2/backend-host compare_case 1 ex2 "$EX2" "-mat_sptrsv_backend host"
run_test ex2/ilu1-csc-host compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "-mat_sptrsv_format csc -mat_sptrsv_backend host"
run_test ex2/options-file-ilu compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "-options_file $ROOT/petscconf-snippets/ilu-level.opts"
run_test ex2/options-file-icc compare_case 1 ex2 "-m 60 -n 60 -pc_type icc -ksp_monitor" "-options_file $ROOT/petscconf-snippets/icc-level.opts"
run_test ex2/options-file-ilu-syncfree with_solver sptrsv_syncfree compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "-options_file $ROOT/petscconf-snippets/ilu-syncfree.opts"
run_test ex2/options-file-ilu-locality with_solver sptrsv_locality compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "-options_file $ROOT/petscconf-snippets/ilu-locality.opts"
run_test ex2/bjacobi-np2 compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "" sub_
run_test ex2/bjacobi-np2-ilu1-csc compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_levels 1 -ksp_monitor" "-sub_mat_sptrsv_format csc -sub_mat_sptrsv_backend host" sub_
run_test ex2/asm-np2 compare_case 2 ex2 "-m 40 -n 40 -ksp_type gmres -pc_type asm -sub_pc_type ilu -ksp_monitor" "" sub_
run_test ex45/default compare_case 1 ex45 "-pc_type ilu -ksp_monitor" ""
run_test ex45/grid17 compare_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu -ksp_monitor" ""
run_test ex45/grid17-bjacobi-np2 compare_case 2 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "" sub_
# Newton: the factor is refactored on the same pattern at every step
# ex19's Jacobians are ill-conditioned and have inodes (4 fields per node): PETSc's inode kernels round
# differently from its plain AIJ kernels (by up to 1e-5 here). Ours must match the plain kernels to 1e-10
# (-mat_no_inode on both sides), and the default (inode) native run within 10x PETSc's own inode/no-inode gap.
run_test ex19/newton-ilu0-no-inode compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" ""
run_test ex19/newton-ilu1-grashof-no-inode compare_case 1 ex19 "-da_grid_x 12 -da_grid_y 12 -grashof 1000 -pc_type ilu -pc_factor_levels 1 -mat_no_inode -snes_monitor -ksp_monitor" ""
run_test ex19/newton-ilu0-inode-yardstick with_yardstick compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -snes_monitor -ksp_monitor" ""
# the element (synchronization-free) path: same factors, solves in dispatch order
run_test ex2/element-ilu0 with_solver sptrsv_element compare_case 1 ex2 "$EX2" ""
run_test ex2/element-ilu1-csc with_solver sptrsv_element compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "-mat_sptrsv_format csc"
run_test ex2/element-icc0 with_solver sptrsv_element compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" ""
run_test ex2/element-bjacobi-np2 with_solver sptrsv_element compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "" sub_
run_test ex45/element-grid17 with_solver sptrsv_element compare_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu -ksp_monitor" ""
run_test ex19/element-newton-ilu0-no-inode with_solver sptrsv_element compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" ""
run_test matrices/element-cryg2500-ilu1 with_solver sptrsv_element mm_compare cryg2500 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8"

# the sync-free path (paper 001): warp-packed rows, ASAP or ALAP levels, CSR or warp-packed ELL; same factors
SF_ALAP="-mat_sptrsv_levels alap"
SF_ELL="-mat_sptrsv_storage warpell"
run_test ex2/syncfree-ilu0 with_solver sptrsv_syncfree compare_case 1 ex2 "$EX2" ""
run_test ex2/syncfree-ilu1-alap-warpell with_solver sptrsv_syncfree compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "$SF_ALAP $SF_ELL"
run_test ex2/syncfree-icc0-alap with_solver sptrsv_syncfree compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" "$SF_ALAP"
run_test ex2/syncfree-bjacobi-np2 with_solver sptrsv_syncfree compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "-sub_mat_sptrsv_storage warpell" sub_
run_test ex2/syncfree-natural-ilu1-rcm with_solver sptrsv_syncfree compare_case 1 ex2 "$EX2 -pc_factor_levels 1 -pc_factor_mat_ordering_type rcm" "-mat_sptrsv_dispatch natural"
run_test ex19/syncfree-natural-warpell-newton with_solver sptrsv_syncfree compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" "-mat_sptrsv_dispatch natural $SF_ELL"
run_test ex45/syncfree-grid17-warpell with_solver sptrsv_syncfree compare_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu -ksp_monitor" "$SF_ELL"
run_test ex19/syncfree-newton-ilu0-alap with_solver sptrsv_syncfree compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" "$SF_ALAP $SF_ELL"
run_test matrices/syncfree-cryg2500-ilu1-alap-warpell with_solver sptrsv_syncfree mm_compare cryg2500 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8 $SF_ALAP $SF_ELL"

# the locality path (paper 004): sub-graphs of at most -mat_sptrsv_subgraph_rows rows, slots; same factors. Small caps
# split the grids into many sub-graphs and levels (the default holds these problems in one sub-graph)
LOC_ROWS="-mat_sptrsv_locality_kernel slots -mat_sptrsv_subgraph_rows" # the sub-graph (slot) kernel: small grids have a window the blocks kernel takes under auto
run_test ex2/locality-ilu0 with_solver sptrsv_locality compare_case 1 ex2 "$EX2" ""
run_test ex2/locality-ilu1-rows64 with_solver sptrsv_locality compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "$LOC_ROWS 64"
run_test ex2/locality-icc0-rows200 with_solver sptrsv_locality compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" "$LOC_ROWS 200"
run_test ex2/locality-bicg-transpose-rows300 with_solver sptrsv_locality compare_case 1 ex2 "-m 40 -n 40 -ksp_type bicg -pc_type ilu -ksp_monitor" "$LOC_ROWS 300"
run_test ex2/locality-bjacobi-np2 with_solver sptrsv_locality compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "-sub_mat_sptrsv_subgraph_rows 500" sub_
run_test ex2/locality-regions-ilu0-rows64 with_solver sptrsv_locality compare_case 1 ex2 "$EX2" "-mat_sptrsv_locality_partition regions $LOC_ROWS 64"
run_test ex2/locality-regions-bicg-transpose with_solver sptrsv_locality compare_case 1 ex2 "-m 40 -n 40 -ksp_type bicg -pc_type ilu -ksp_monitor" "-mat_sptrsv_locality_partition regions $LOC_ROWS 50"
run_test ex2/locality-ilu1-rcm-rows1 with_solver sptrsv_locality compare_case 1 ex2 "-m 30 -n 30 -ksp_type gmres -pc_type ilu -pc_factor_levels 1 -pc_factor_mat_ordering_type rcm -ksp_monitor" "$LOC_ROWS 1"
run_test ex45/locality-grid17-rows256 with_solver sptrsv_locality compare_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu -ksp_monitor" "$LOC_ROWS 256"
run_test ex19/locality-newton-ilu0-rows100 with_solver sptrsv_locality compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" "$LOC_ROWS 100"
run_test matrices/locality-cryg2500-ilu1-rows300 with_solver sptrsv_locality mm_compare cryg2500 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8 $LOC_ROWS 300"

# the supernodal path (paper 002): runs of rows/columns as dense blocks (exact, merged, relaxed), push or pull, the
# inverted diagonal; same factors. Pull sums every row in PETSc's order; push and the inverse round differently.
# These small ILU factors have no supernode 16 rows wide, so the path hands them to the sync-free schedule by default:
# SN_BLOCKS keeps the dense-block kernels under test (the ND-ordered ILU(6) with relaxed merging has wider ones)
SN_MODE="-mat_sptrsv_supernode_mode"
SN_BLOCKS="-mat_sptrsv_supernode_min_width 0"
SN_DELEGATED="supernodes too narrow \(widest [0-9] < -mat_sptrsv_supernode_min_width 16\): solved by the sync-free schedule \(sptrsv_syncfree\)"
# sn_view_case WANT NP PROG COMMON OURS_ONLY [SUB]: compare_case, then ours' -ksp_view shows the delegation line and the
# nested sync-free solver's view (WANT 1), or the dense-block schedule and no delegation (WANT 0), for L and U
sn_view_case() {
  local want=$1 o=$OUT/ours.out
  shift
  compare_case "$@" || return 1
  if [ "$want" = 1 ]; then
    [ "$(grep -Ec -- "$SN_DELEGATED" "$o")" = 2 ] || fail "-ksp_view lacks the delegation line for L and U" || return 1
    [ "$(grep -Ec -- "^ +schedule syncfree: " "$o")" = 2 ] || fail "-ksp_view lacks the nested sync-free solvers' views" || return 1
  else
    ! grep -q "supernodes too narrow" "$o" || fail "a triangle was delegated to the sync-free schedule" || return 1
    [ "$(grep -Ec -- "levels of the supernodal DAG" "$o")" = 2 ] || fail "-ksp_view lacks the supernodal schedules of L and U" || return 1
  fi
  say "delegation as expected (want $want)"
}
run_test ex2/supernodal-ilu0 with_solver sptrsv_supernodal sn_view_case 0 1 ex2 "$EX2" "$SN_BLOCKS"
run_test ex2/supernodal-ilu0-delegated with_solver sptrsv_supernodal sn_view_case 1 1 ex2 "$EX2" ""
run_test ex2/supernodal-ilu2-pull-invert with_solver sptrsv_supernodal compare_case 1 ex2 "$EX2 -pc_factor_levels 2" "$SN_MODE pull -mat_sptrsv_invert_diag $SN_BLOCKS"
run_test ex2/supernodal-icc1-cg-push-merge with_solver sptrsv_supernodal compare_case 1 ex2 "-m 60 -n 60 -ksp_type cg -pc_type icc -pc_factor_levels 1 -ksp_monitor" "$SN_MODE push -mat_sptrsv_merge $SN_BLOCKS"
run_test ex2/supernodal-bicg-transpose-relax with_solver sptrsv_supernodal compare_case 1 ex2 "-m 40 -n 40 -ksp_type bicg -pc_type ilu -pc_factor_levels 1 -ksp_monitor" "-mat_sptrsv_supernode_relax 0.3 $SN_BLOCKS"
run_test ex2/supernodal-bjacobi-np2 with_solver sptrsv_supernodal compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "-sub_mat_sptrsv_invert_diag -sub_mat_sptrsv_supernode_min_width 0" sub_
run_test ex2/options-file-ilu-supernodal with_solver sptrsv_supernodal compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "-options_file $ROOT/petscconf-snippets/ilu-supernodal.opts $SN_BLOCKS"
run_test ex45/supernodal-grid13-ilu6-nd-relax with_solver sptrsv_supernodal sn_view_case 0 1 ex45 "-da_grid_x 13 -da_grid_y 13 -da_grid_z 13 -pc_type ilu -pc_factor_levels 6 -pc_factor_mat_ordering_type nd -ksp_monitor" "-mat_sptrsv_supernode_relax 0.5 -mat_sptrsv_supernode_cublas_width 16"
run_test ex19/supernodal-newton-ilu1-pull with_solver sptrsv_supernodal compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -pc_factor_levels 1 -mat_no_inode -snes_monitor -ksp_monitor" "$SN_MODE pull $SN_BLOCKS"
run_test matrices/supernodal-cryg2500-ilu1-merge with_solver sptrsv_supernodal mm_compare cryg2500 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8 -mat_sptrsv_merge $SN_BLOCKS"
# the partitioned-inverse path (tests/suites/pinv.sh)
. "$ROOT/tests/suites/pinv.sh"

# the automatic path (sptrsv): a path per triangle; on the host backend the host rule (level) unless a model or the
# fallback rule is asked for, which runs the GPU choices (syncfree, locality, ... host executors) on the same factors
AUTO_H100="-mat_sptrsv_auto_model h100"
run_test ex2/auto-ilu0 with_solver sptrsv compare_case 1 ex2 "$EX2" ""
run_test ex2/auto-ilu1-h100 with_solver sptrsv compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "$AUTO_H100"
run_test ex2/auto-icc0-none with_solver sptrsv compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" "-mat_sptrsv_auto_model none"
run_test ex2/auto-bicg-transpose-h100-solves100 with_solver sptrsv compare_case 1 ex2 "-m 40 -n 40 -ksp_type bicg -pc_type ilu -ksp_monitor" "$AUTO_H100 -mat_sptrsv_expected_solves 100"
run_test ex2/auto-bjacobi-np2 with_solver sptrsv compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "-sub_mat_sptrsv_auto_model h100" sub_
run_test ex2/auto-csc-h100 with_solver sptrsv compare_case 1 ex2 "$EX2" "-mat_sptrsv_format csc $AUTO_H100"
run_test ex2/auto-candidates-locality-element with_solver sptrsv compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "$AUTO_H100 -mat_sptrsv_auto_candidates locality,element"
run_test ex2/options-file-ilu-auto with_solver sptrsv compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "-options_file $ROOT/petscconf-snippets/ilu-auto.opts"
run_test ex45/auto-grid17-h100 with_solver sptrsv compare_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu -ksp_monitor" "$AUTO_H100"
run_test ex19/auto-newton-ilu0-h100 with_solver sptrsv compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" "$AUTO_H100"
run_test matrices/auto-cryg2500-ilu1-h100 with_solver sptrsv mm_compare cryg2500 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8 $AUTO_H100"
run_test matrices/auto-olm1000-ilu0-h100 with_solver sptrsv mm_compare olm1000 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -ksp_rtol 1e-8 $AUTO_H100"
run_test matrices/auto-olm1000-ilu0-rule with_solver sptrsv mm_compare olm1000 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -ksp_rtol 1e-8 -mat_sptrsv_auto_model none"

# f, g. PC gs (tests/suites/gs.sh)
. "$ROOT/tests/suites/gs.sh"

# i. LU (SuperLU) and Cholesky (CHOLMOD) factors through every path (tests/suites/lu.sh)
. "$ROOT/tests/suites/lu.sh"
# sptrsv_cusparse and the measured check of the automatic choice (tests/suites/cusparse.sh)
. "$ROOT/tests/suites/cusparse.sh"
# the locality path's chain kernel, -mat_sptrsv_locality_kernel (tests/suites/chain.sh)
. "$ROOT/tests/suites/chain.sh"

OURS="-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv_level"
run_test view/bad-option-sub-prefix ours_fails ex2 "-m 10 -n 10 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_level -sub_mat_sptrsv_fuse_passes 0" "-sub_mat_sptrsv_fuse_passes must be >= 1"
run_test view/ksp-view ours_grep ex2 "$OURS -ksp_view" "sptrsv_level" "[0-9]+ levels" "rows per level"
run_test view/log-view ours_grep ex2 "$OURS -log_view" "^SpTrsvSolve " "^SpTrsvSymbolic " "^SpTrsvNumeric " "^MatSolve "
run_test view/help ours_grep ex2 "$OURS -help" "-mat_sptrsv_backend" "-mat_sptrsv_format"
# device memory in -ksp_view (docs/USAGE.md, "Device memory"): none on the host backend; the cuSPARSE comparison needs
# the CUDA backend and says so; the option is listed by -help; PC gs and PC isai print their line too
run_test view/device-memory ours_grep ex2 "$OURS -mat_sptrsv_backend host -mat_sptrsv_compare_cusparse_memory -ksp_view -options_left" "device memory: none \(host backend\)" "cuSPARSE SpSV comparison: not computed \(the cuSPARSE comparison needs the CUDA backend\)" "There are no unused options"
run_test view/device-memory-help ours_grep ex2 "$OURS -help" "-mat_sptrsv_compare_cusparse_memory:? <(now )?FALSE"
run_test view/device-memory-gs ours_grep ex2 "-m 30 -n 30 -pc_type gs -pc_gs_backend host -ksp_view" "type: gs" "device memory: none \(host backend\)"
run_test view/device-memory-isai ours_grep ex2 "-m 12 -n 12 -pc_type isai -pc_isai_backend host -ksp_view" "type: isai" "  device memory: none \(host backend\)"
run_test view/factor-device-help ours_grep ex2 "$OURS -help" "-mat_sptrsv_factor_device:? <(now )?TRUE"
run_test view/factor-device-host ours_grep ex2 "$OURS -mat_sptrsv_backend host -mat_sptrsv_factor_device 1 -ksp_view" "numeric factorization: host \(the solves run on the host\)"
run_test view/factor-device-off ours_grep ex2 "$OURS -mat_sptrsv_backend host -mat_sptrsv_factor_device 0 -ksp_view" "numeric factorization: host"
run_test view/factor-device-icc ours_grep ex2 "-m 30 -n 30 -pc_type icc -pc_factor_mat_solver_type sptrsv_level -mat_sptrsv_factor_device 1 -ksp_view" "numeric factorization: host \(ICC factors on the host\)"
run_test view/help-sub-prefix ours_grep ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_level -help" "-sub_mat_sptrsv_backend"
SF="-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv_syncfree"
run_test view/syncfree-ksp-view ours_grep ex2 "$SF -mat_sptrsv_levels alap -mat_sptrsv_storage warpell -ksp_view" "schedule syncfree" "sync-free: level-order dispatch, ALAP levels, warp-packed ELL storage, [0-9]+ warps" "rows \(warps\) by lanes per row: 1: [0-9]+ \([0-9]+\), 2: [0-9]+" "warp-packed ELL: [0-9]+ slots \([0-9.]+% filled\)"
run_test view/syncfree-help ours_grep ex2 "$SF -help" "-mat_sptrsv_levels <now asap : formerly asap>" "-mat_sptrsv_storage <now csr : formerly csr>" "-mat_sptrsv_dispatch <now level : formerly level>" "-mat_sptrsv_spin_ns" "-mat_sptrsv_blocks_per_sm" "-mat_sptrsv_relabel <now auto : formerly auto>"
run_test view/syncfree-csc-error ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_syncfree -sub_mat_sptrsv_format csc" "sptrsv_syncfree reads rows only: -sub_mat_sptrsv_format csc is not supported"
run_test view/syncfree-bad-levels ours_fails ex2 "$SF -mat_sptrsv_levels late" "-mat_sptrsv_levels.*late"
LOC="-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv_locality"
run_test view/locality-ksp-view ours_grep ex2 "$LOC -mat_sptrsv_locality_kernel slots -mat_sptrsv_subgraph_rows 100 -ksp_view" "schedule locality" "locality: [0-9]+ sub-graphs of at most 100 rows \(largest [0-9]+\), [0-9]+ sub-graph levels" "slots [0-9]+ \(at most [0-9]+ in a sub-graph, at most [0-9]+ rows in a slot\); entries internal [0-9.]+%, external [0-9.]+%" "partition: [0-9]+ components" "CUDA block: [0-9]+ threads, [0-9]+ lanes per row, at most [0-9]+ bytes of shared memory; launches staging nothing / pointers / entries: [0-9]+ / [0-9]+ / [0-9]+ \(-mat_sptrsv_locality_stage 2\)" "partitioner: (paper|regions) \(-mat_sptrsv_locality_partition auto\)" "  paper: [0-9]+ launches, sub-graphs per launch mean [0-9.]+ max [0-9]+, slots per sub-graph mean [0-9.]+, [0-9]+ slots on the critical path" "  regions: [0-9]+ launches" "  region rows tried \(predicted us\): [0-9]+: "
run_test view/locality-regions-ksp-view ours_grep ex2 "$LOC -mat_sptrsv_locality_kernel slots -mat_sptrsv_locality_partition regions -mat_sptrsv_subgraph_rows 100 -ksp_view" "partition: [0-9]+ components, regions of at most [0-9]+ rows: [0-9]+ regions, [0-9]+ components cut between regions, [0-9]+ pieces packed into another's sub-graph" "partitioner: regions \(-mat_sptrsv_locality_partition regions\)" "sub-graphs of at most 100 rows"
run_test view/locality-bad-partition ours_fails ex2 "$LOC -mat_sptrsv_locality_partition bogus" "mat_sptrsv_locality_partition"
run_test view/locality-help ours_grep ex2 "$LOC -help" "-mat_sptrsv_subgraph_rows <(now )?0" "-mat_sptrsv_graph" "-mat_sptrsv_locality_partition <(now )?auto" "-mat_sptrsv_locality_sms <(now )?132" "-mat_sptrsv_locality_stage <(now )?2" "-mat_sptrsv_locality_pack"
run_test view/locality-csc-error ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_locality -sub_mat_sptrsv_format csc" "sptrsv_locality reads rows only: -sub_mat_sptrsv_format csc is not supported"
run_test view/locality-bad-rows ours_fails ex2 "$LOC -mat_sptrsv_subgraph_rows -3" "-mat_sptrsv_subgraph_rows must be >= 0"
run_test view/locality-bad-stage ours_fails ex2 "$LOC -mat_sptrsv_locality_stage 3" "-mat_sptrsv_locality_stage must be 0, 1 or 2, got 3"
run_test view/locality-stage0-nopack ours_grep ex2 "$LOC -mat_sptrsv_locality_kernel slots -mat_sptrsv_locality_partition regions -mat_sptrsv_subgraph_rows 100 -mat_sptrsv_locality_stage 0 -mat_sptrsv_locality_pack 0 -ksp_view" "launches staging nothing / pointers / entries: [1-9][0-9]* / 0 / 0 \(-mat_sptrsv_locality_stage 0\)" ", 0 pieces packed into another's sub-graph"
SN="-m 30 -n 30 -pc_type ilu -pc_factor_levels 2 -pc_factor_mat_solver_type sptrsv_supernodal"
run_test view/supernodal-ksp-view ours_grep ex2 "$SN -mat_sptrsv_supernode_relax 0.3 $SN_BLOCKS -ksp_view" "schedule supernodal" "supernodal: push \(columns\), [0-9]+ supernodes, width mean [0-9.]+ max [0-9]+, [0-9]+ levels of the supernodal DAG" "supernodal: pull \(rows\), [0-9]+ supernodes" "partition: [0-9]+ exact supernodes detected; merged 0 \(same structure\), [1-9][0-9]* \(relaxed\)" "stored entries [0-9]+, explicit zeros added [1-9][0-9]* \([0-9.]+%\), bytes [0-9.e+]+; diagonal blocks solved \(TRSV\)" "CUDA: [0-9]+ supernodes through cuBLAS \(widest [0-9]+\), [0-9]+ split over many blocks" "model \(H100 constants\): one solve [0-9]+ us, [0-9]+ launches" "model by level size: 1 supernode [0-9]+ levels"
run_test view/supernodal-help ours_grep ex2 "$SN -help" "-mat_sptrsv_supernode_mode <(now )?auto" "-mat_sptrsv_invert_diag" "-mat_sptrsv_merge" "-mat_sptrsv_supernode_relax" "-mat_sptrsv_supernode_cublas_width <(now )?256" "-mat_sptrsv_supernode_split <(now )?auto" "-mat_sptrsv_supernode_min_width <(now )?16[ :>]" "-mat_sptrsv_invert_diag_cond <(now )?1e\+06" "-mat_sptrsv_supernode_relax <(now )?-1\.?" "-mat_sptrsv_graph"
run_test view/supernodal-delegated-ksp-view ours_grep ex2 "$SN -mat_sptrsv_backend host -ksp_view -info" "$SN_DELEGATED" "^ +supernodal: push \(columns\), [0-9]+ supernodes, width mean 1\.[0-9]+ max [0-9]+$" "^ +supernodal: pull \(rows\), [0-9]+ supernodes, width mean 1\.[0-9]+ max [0-9]+$" "^ +schedule syncfree: [0-9]+ levels" "^ +sync-free: level-order dispatch" "sptrsv_supernodal: 900-row lower triangle, [0-9]+ supernodes, the widest [0-9] < -mat_sptrsv_supernode_min_width 16: no dense blocks" "sptrsv_supernodal: the solves of the 900-row upper triangle \(host backend\) are forwarded to a nested sptrsv_syncfree solver"
# the nested sync-free solver of a delegated triangle takes sync-free's own options through the supernodal factor (none unused)
run_test view/supernodal-delegated-syncfree-options ours_grep ex2 "$SN -mat_sptrsv_backend host -mat_sptrsv_levels alap -mat_sptrsv_max_lanes 8 -ksp_view -options_left" "$SN_DELEGATED" "^ +sync-free: level-order dispatch, ALAP levels" "There are no unused options"
run_test view/supernodal-bad-syncfree-option ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_supernodal -sub_mat_sptrsv_spin_ns -1" "-sub_mat_sptrsv_spin_ns must be in \[0, 1000000\], got -1"
run_test view/supernodal-bad-min-width ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_supernodal -sub_mat_sptrsv_supernode_min_width -1" "-sub_mat_sptrsv_supernode_min_width must be >= 0, got -1"
run_test view/supernodal-csc-error ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_supernodal -sub_mat_sptrsv_format csc" "sptrsv_supernodal reads rows only: -sub_mat_sptrsv_format csc is not supported"
# the defaults chosen from the triangle: SuperLU's ND LU of a 13^3 grid is filled (its separators are supernodes of 16
# rows and more): relaxed merging and the conditioning check of the inverted blocks, shown by -ksp_view; with a bound of
# 1 only blocks of kappa 1 (the 1 x 1 ones) are inverted and the others swept
SN_LU="-da_grid_x 13 -da_grid_y 13 -da_grid_z 13 -pc_type lu -pc_factor_mat_ordering_type nd -pc_factor_mat_solver_type sptrsv_supernodal"
SN_ICHK="inverted diagonal blocks: [0-9]+ of [1-9][0-9]* \(condition number at most"
run_test view/supernodal-lu-defaults ours_grep ex45 "$SN_LU -ksp_view" "partition: the factorization's [0-9]+ supernodes, .*\(relaxed\); relaxation 0.05 \(auto\)" "diagonal blocks inverted \(GEMV\) where well conditioned" "$SN_ICHK 1e\+06, -mat_sptrsv_invert_diag_cond; largest inverted [0-9.e+]+, largest [0-9.e+]+\); [0-9]+ solved by TRSV"
run_test view/supernodal-lu-cond-bound ours_grep ex45 "$SN_LU -mat_sptrsv_invert_diag_cond 1 -ksp_view" "inverted diagonal blocks: [0-9]+ of [1-9][0-9]* \(condition number at most 1\.?, -mat_sptrsv_invert_diag_cond; largest inverted 1\.?, largest [0-9.e+]+\); [1-9][0-9]* solved by TRSV"
run_test view/supernodal-lu-forced ours_grep ex45 "$SN_LU -mat_sptrsv_invert_diag -mat_sptrsv_supernode_relax 0 -ksp_view" "relaxed\); relaxation 0\.?$" "diagonal blocks inverted \(GEMV\)$"
# views name options with the factor's prefix (block Jacobi: -sub_)
run_test view/supernodal-sub-prefix-view ours_grep ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_levels 2 -sub_pc_factor_mat_solver_type sptrsv_supernodal -sub_mat_sptrsv_supernode_min_width 0 -ksp_view" "split: [0-9]+ supernodes in [0-9]+ levels \(-sub_mat_sptrsv_supernode_split auto\)"
run_test view/supernodal-bad-invert-cond ours_fails ex2 "$SN -mat_sptrsv_invert_diag_cond 0.5" "-mat_sptrsv_invert_diag_cond must be >= 1, got 0.5"
run_test view/supernodal-bad-relax ours_fails ex2 "$SN -mat_sptrsv_supernode_relax 1.5" "-mat_sptrsv_supernode_relax must be in \[0, 1\) \(or -1: auto\), got 1.5"
AUTO="-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv -mat_sptrsv_backend host"
run_test view/auto-ksp-view-host ours_grep ex2 "$AUTO -ksp_view" "package used to perform factorization: sptrsv$" "path sptrsv \(automatic: L sptrsv_level, U sptrsv_level\), format csr" "automatic choice: level \(host rule: level on the host backend" "features: rows 900, nnz 1740, levels \(critical path\) 59, rows per level mean 15.3 max 30, row length mean 1.93 max 2 \(spread 1.0\)" "rule order: level, syncfree, element, locality" "schedule level: 59 levels"
run_test view/auto-ksp-view-h100 ours_grep ex2 "$AUTO $AUTO_H100 -mat_sptrsv_expected_solves 50 -ksp_view" "automatic choice: pinv fill4 \(smallest predicted setup \+ 50 solves \(model h100\)\)" "predicted: pinv fill4 [0-9.]+ ms \(setup [0-9.]+ \+ 50 x solve [0-9.]+\), level [0-9.]+ ms \(setup [0-9.]+ \+ 50 x solve [0-9.]+\), [a-z]+ [0-9.]+ ms" "features: .* expected solves 50"
run_test view/auto-ksp-view-h100-solve ours_grep ex2 "$AUTO $AUTO_H100 -ksp_view" "automatic choice: [a-z]+( fill[0-9.]+)? \(smallest predicted solve time \(model h100\)\)" "predicted: [a-z]+( fill[0-9.]+)? [0-9.e-]+ ms \(setup [0-9.e-]+\), [a-z]+( fill[0-9.]+)? [0-9.e-]+ ms \(setup [0-9.e-]+\), [a-z]+( fill[0-9.]+)? [0-9.e-]+ ms \(setup [0-9.e-]+\), [a-z]+( fill[0-9.]+)? [0-9.e-]+ ms"
run_test view/auto-fallback-refused ours_grep ex2 "$AUTO -mat_sptrsv_auto_model none -mat_sptrsv_auto_candidates syncfree,level -mat_sptrsv_max_lanes 3 -ksp_view" "automatic choice: level \(fallback rule: sync-free; below 4 rows per level locality up to 29056 rows, level above\)" "rule order: syncfree \[refused\], level" "syncfree refused the triangle: -mat_sptrsv_max_lanes must be 1, 2, 4, 8, 16 or 32, got 3"
run_test view/auto-help ours_grep ex2 "$AUTO -help" "-mat_sptrsv_expected_solves <(now )?0" "-mat_sptrsv_auto_candidates" "-mat_sptrsv_auto_model <(now )?auto" "-mat_sptrsv_subgraph_rows" "-mat_sptrsv_levels"
run_test view/auto-bad-candidate ours_fails ex2 "$AUTO -mat_sptrsv_auto_candidates level,bogus" "-mat_sptrsv_auto_candidates: bogus is not a path \(paths: level,element,syncfree,locality(,[a-z]+)*\)"
run_test view/auto-bad-model ours_fails ex2 "$AUTO -mat_sptrsv_auto_model a100" "-mat_sptrsv_auto_model a100: no such cost model \(auto, none, h100, h200\)"
run_test view/auto-bad-solves ours_fails ex2 "$AUTO -mat_sptrsv_expected_solves -2" "-mat_sptrsv_expected_solves -2: must be 0 \(unknown\) or a positive count"
run_test view/auto-csc-no-candidate ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv -sub_mat_sptrsv_format csc -sub_mat_sptrsv_auto_candidates syncfree,locality" "sptrsv: no candidate path solves ILU factors in format csc on the host backend \(-sub_mat_sptrsv_auto_candidates\)"

# h. scripts/compare.sh: one program run with PETSc's solver and with the plugin's paths, one table
#    compare_script "ARGS": compare.sh --paths "$CMP_PATHS" -- ex2 ARGS exits 0 and prints one row per run (petsc first,
#    then the paths in order), every run converged, the sptrsv_* rows have the native row's iterations, every time
#    cell is "SECONDS (RATIOx)" and the first row's ratios are 1.00x
CMP_PATHS="sptrsv_level sptrsv_element sptrsv_syncfree sptrsv_locality gs isai"
compare_script() {
  local o=$OUT/compare.out
  need_file "$OUT/bin/ex2" "see the build/programs test" || return 1
  # shellcheck disable=SC2086
  prun "$o" bash scripts/compare.sh --paths "$CMP_PATHS" -- "$OUT/bin/ex2" $1 || fail "compare.sh exited nonzero" || return 1
  # shellcheck disable=SC2086
  python3 - "$o" petsc $CMP_PATHS <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
want = sys.argv[2:]
hdr = [i for i, l in enumerate(lines) if l.startswith("run ")]
if len(hdr) != 1:
    sys.exit("FAIL: expected one table header line ('run ...'), found %d" % len(hdr))
rows = []
for l in lines[hdr[0] + 2:]:
    if not l.strip() or l.startswith("("):
        break
    rows.append(re.split(r"\s{2,}", l.strip()))
names = [r[0] for r in rows]
bad = []
if names != want:
    bad.append("rows %s, expected one per run: %s" % (names, want))
cell = re.compile(r"^\d\.\d{3}e[-+]\d\d \((\d+\.\d\d)x\)$")
for r in rows:
    if len(r) != 7:
        bad.append("row %s has %d columns, expected 7" % (r[0], len(r)))
        continue
    if not r[2].startswith("CONVERGED"):
        bad.append("%s did not converge: %s" % (r[0], r[2]))
    for c in r[3:]:
        m = cell.match(c)
        if not m:
            bad.append("%s: time cell '%s' is not 'SECONDS (RATIOx)'" % (r[0], c))
        elif r is rows[0] and m.group(1) != "1.00":
            bad.append("first row's ratio is %sx, expected 1.00x" % m.group(1))
its = {r[0]: r[1] for r in rows if len(r) > 1}
for p in ("sptrsv_level", "sptrsv_element", "sptrsv_syncfree", "sptrsv_locality"):
    if p in its and its[p] != its.get("petsc"):
        bad.append("%s took %s iterations, petsc %s" % (p, its[p], its.get("petsc")))
print("rows: %s; iterations: %s" % (", ".join(names), ", ".join("%s %s" % kv for kv in its.items())))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
}

# compare.sh's bad invocations: no "--" before the program, no program, an unknown path: exit 2 with a usage message
compare_script_usage() {
  local o=$OUT/compare.out rc
  prun "$o" bash scripts/compare.sh "$OUT/bin/ex2" -m 10 -n 10
  rc=$?
  [ $rc = 2 ] || fail "exit $rc without --, expected 2" || return 1
  grep -q "^usage: scripts/compare.sh .* -- ./app ARGS" "$o" || fail "no usage line without --" || return 1
  grep -q "missing -- \|expected options, then --" "$o" || fail "the message does not say -- is missing" || return 1
  prun "$o" bash scripts/compare.sh --paths sptrsv_level --
  rc=$?
  [ $rc = 2 ] && grep -q "no program after --" "$o" || fail "no program after --: exit $rc" || return 1
  prun "$o" bash scripts/compare.sh --paths "sptrsv_level nosuchpath" -- "$OUT/bin/ex2"
  rc=$?
  [ $rc = 2 ] && grep -q "unknown path 'nosuchpath'" "$o" || fail "unknown path: exit $rc"
}
run_test compare/ex2-table compare_script "-m 20 -n 20 -ksp_type gmres -pc_type ilu"
run_test compare/usage compare_script_usage

# d. real matrices (SuiteSparse, $MATDIR: tests/data/matrices); b = A*ones. Settings chosen so PETSc's ILU/ICC converge
#    bcsstk13 and 494_bus are ill-conditioned: with ICC, CG's rounding grows until the histories part after
#    ~31 iterations (ours and PETSc's ICC round differently), so the ICC runs compare a fixed budget of
#    iterations; bcsstk13 has inodes: ILU(1) compares with -mat_no_inode (see ex19)
GM="-ksp_type gmres -ksp_gmres_restart 30 -ksp_max_it 2000"
CG="-ksp_type cg -ksp_max_it 2000"
run_test matrices/bcsstk13-icc0-cg-30its mm_compare bcsstk13 "$CG -pc_type icc -ksp_max_it 30"
run_test matrices/bcsstk13-ilu0 mm_compare bcsstk13 "$GM -pc_type ilu -ksp_rtol 1e-4"
run_test matrices/bcsstk13-ilu1-rcm-60its mm_compare bcsstk13 "$GM -pc_type ilu -pc_factor_levels 1 -pc_factor_mat_ordering_type rcm -ksp_max_it 60 -mat_no_inode"
run_test matrices/bcsstk13-ilu1-rcm-inode-yardstick with_yardstick mm_compare bcsstk13 "$GM -pc_type ilu -pc_factor_levels 1 -pc_factor_mat_ordering_type rcm -ksp_max_it 60"
run_test matrices/494_bus-icc0-cg-35its mm_compare 494_bus "$CG -pc_type icc -ksp_max_it 35"
run_test matrices/494_bus-icc1-cg-30its mm_compare 494_bus "$CG -pc_type icc -pc_factor_levels 1 -ksp_max_it 30"
run_test matrices/494_bus-ilu2 mm_compare 494_bus "$GM -pc_type ilu -pc_factor_levels 2 -ksp_rtol 1e-8"
run_test matrices/cryg2500-ilu1 mm_compare cryg2500 "$GM -ksp_gmres_restart 100 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8"
run_test matrices/watt_2-ilu0 mm_compare watt_2 "$GM -pc_type ilu -ksp_rtol 1e-8"
run_test matrices/olm1000-ilu0 mm_compare olm1000 "$GM -pc_type ilu -ksp_rtol 1e-8"
# ILU needs a stored diagonal: PETSc stops with "Matrix is missing diagonal entry"; so must we
run_test matrices/west0479-missing-diagonal mm_both_fail "-f $MATDIR/west0479.mtx.gz" "diagonal" "$GM -pc_type ilu"
run_test matrices/nnc1374-missing-diagonal mm_both_fail "-f $MATDIR/nnc1374.mtx.gz" "diagonal" "$GM -pc_type ilu"

# e. bad inputs: failures behave as PETSc's own ILU/ICC (the factor records a zero pivot, PCSetUp marks the PC
#    failed, KSP stops with DIVERGED_PC_FAILED; errors only with -ksp_error_if_not_converged, ours naming the row)
ZP="-ksp_type gmres -pc_type ilu"
run_test bad/zero-pivot-error both_fail mmsolve "-builtin zeropivot $ZP -ksp_error_if_not_converged" "-pc_factor_mat_solver_type petsc" "-pc_factor_mat_solver_type sptrsv_level" "Zero pivot row 1 value 0" "Zero pivot in row 1 of the factored matrix \(row 1 of the input\): \|pivot\| 0\. <= tolerance"
run_test bad/zero-pivot-default same_reason 1 mmsolve "-builtin zeropivot $ZP" "-pc_factor_mat_solver_type petsc" "-pc_factor_mat_solver_type sptrsv_level" DIVERGED_PC_FAILED
run_test bad/zero-pivot-default-element same_reason 1 mmsolve "-builtin zeropivot $ZP" "-pc_factor_mat_solver_type petsc" "-pc_factor_mat_solver_type sptrsv_element" DIVERGED_PC_FAILED
run_test bad/zero-pivot-default-syncfree same_reason 1 mmsolve "-builtin zeropivot $ZP" "-pc_factor_mat_solver_type petsc" "-pc_factor_mat_solver_type sptrsv_syncfree" DIVERGED_PC_FAILED
run_test bad/zero-pivot-default-locality same_reason 1 mmsolve "-builtin zeropivot $ZP" "-pc_factor_mat_solver_type petsc" "-pc_factor_mat_solver_type sptrsv_locality" DIVERGED_PC_FAILED
run_test bad/zero-pivot-cg same_reason 1 mmsolve "-builtin zeropivotsym -ksp_type cg -pc_type ilu" "-pc_factor_mat_solver_type petsc" "-pc_factor_mat_solver_type sptrsv_level" DIVERGED_PC_FAILED
run_test bad/zero-pivot-icc-no-shift same_reason 1 mmsolve "-builtin zeropivotsym -ksp_type cg -pc_type icc -pc_factor_shift_type none" "-pc_factor_mat_solver_type petsc" "-pc_factor_mat_solver_type sptrsv_level" DIVERGED_PC_FAILED
run_test bad/zero-pivot-bjacobi-np2 same_reason 2 ex2 "-m 8 -n 8 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_zeropivot 10" "-sub_pc_factor_mat_solver_type petsc" "-sub_pc_factor_mat_solver_type sptrsv_level" DIVERGED_PC_FAILED
# an Inf made by the factorization of a finite matrix (overflow): PETSc's ILU does not look, its solve returns NaN
run_test bad/overflow-nanorinf same_reason 1 mmsolve "-builtin overflow $ZP" "-pc_factor_mat_solver_type petsc" "-pc_factor_mat_solver_type sptrsv_level" DIVERGED_NANORINF
run_test bad/overflow-error both_fail mmsolve "-builtin overflow $ZP -ksp_error_if_not_converged" "-pc_factor_mat_solver_type petsc" "-pc_factor_mat_solver_type sptrsv_level" "not converged due to Nan or Inf" "Factor has an Inf/NaN value at \(1, 0\)"
run_test bad/zero-pivot-shift-nonzero mm_both_pass "-builtin zeropivot" "^Reason CONVERGED[A-Z_]* iterations [0-9]+" "-ksp_type gmres -pc_type ilu -pc_factor_shift_type nonzero"
run_test bad/nonsquare mm_both_fail "-builtin nonsquare" "square" "-ksp_type gmres -pc_type ilu"
run_test bad/empty-n0 mm_both_pass "-builtin empty" "^Reason [A-Z_]+ iterations 0 " "-ksp_type gmres -pc_type ilu"
run_test bad/empty-n0-icc mm_both_pass "-builtin empty" "^Reason [A-Z_]+ iterations 0 " "-ksp_type gmres -pc_type icc"

# g. PC isai (tests/suites/isai.sh)
. "$ROOT/tests/suites/isai.sh"

# i. several ranks: bjacobi/asm sub-solvers and PC gs on 2 ranks, the one-GPU-per-rank check (tests/suites/mpi.sh)
. "$ROOT/tests/suites/mpi.sh"
# j. SLEPc: shift-and-invert eigensolves with our solver types against PETSc's factorization (tests/suites/slepc.sh)
. "$ROOT/tests/suites/slepc.sh"

# k. the benchmark harness on the host: its error column (tests/suites/bench.sh)
. "$ROOT/tests/suites/bench.sh"

# the demo script
run_test demo/demo.sh bash examples/demo.sh

[ "$LIST" = 1 ] && exit 0
echo "# $((NPASS + NFAIL + NSKIP)) tests in $(($(date +%s) - T_START)) s; logs in tests/out/logs/"
if [ "$NSKIP" = 0 ]; then echo "$NPASS passed, $NFAIL failed"; else echo "$NPASS passed, $NFAIL failed, $NSKIP skipped"; fi
[ "$NFAIL" = 0 ]
