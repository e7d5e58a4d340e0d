# sourced by tests/run-tests.sh before the suites: the helpers the tests call (their output goes to the test's log)
# and the argument sets several suites share; not a program of its own
# shellcheck shell=bash disable=SC2154
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

# its_compare NATIVE OURS: the check of pinv_its_case on two outputs (every linear solve converged for the same reason,
# ours within one iteration of native); compare_case uses it where the automatic choice took a pinv fill variant or the locality path its blocks kernel
its_compare() {
  python3 - "$1" "$2" <<'PY'
import re, sys
def runs(path):
    out = []
    for line in open(path, errors='replace'):
        m = re.search(r'Linear solve (converged|did not converge|diverged) due to (\S+) iterations (\d+)', line)
        if m:
            out.append((m.group(1) + ' ' + m.group(2), int(m.group(3))))
    return out
na, ou = runs(sys.argv[1]), runs(sys.argv[2])
bad = []
if not na:
    bad.append('no converged-reason line in the native output')
if len(na) != len(ou):
    bad.append('native %d linear solves, ours %d' % (len(na), len(ou)))
for k, ((ra, ia), (rb, ib)) in enumerate(zip(na, ou)):
    if ra != rb or not ra.startswith('converged'):
        bad.append('solve %d: native %s, ours %s' % (k, ra, rb))
    if abs(ia - ib) > 1:
        bad.append('solve %d: native %d iterations, ours %d' % (k, ia, ib))
print('linear solves: native %s; ours %s' % ([i for _, i in na], [i for _, i in ou]))
for b in bad:
    print('MISMATCH:', b)
sys.exit(1 if bad else 0)
PY
}

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
  if grep -Eq "learning: started on pinv" "$b"; then
    # the learning choice started on pinv (its first solves through the partitioned inverse with fill: another rounding,
    # as above) before it switched: iterations compared
    say "the learning choice started on pinv: iterations compared (its_compare), not the histories to 1e-10"
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

# the ILU(0) run of ksp ex2 most path suites start from (60 x 60 grid, GMRES)
EX2="-m 60 -n 60 -ksp_type gmres -pc_type ilu -ksp_monitor"
