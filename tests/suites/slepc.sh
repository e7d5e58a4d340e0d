# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# h. SLEPc (issue 13): shift-and-invert eigensolves, -st_type sinvert, whose ST factorization is PETSc's own and then each
#    of our solver types (-st_pc_factor_mat_solver_type sptrsv_*): the converged eigenvalues must agree to 1e-10
#    relative. Two drivers:
#    - tests/slepc/eps_sinvert (built by make unit-tests when a SLEPc is found): every solver type in one process, the
#      reference first; a type that is not registered or lacks the factorization prints a "skipped: " line (run_test
#      shows them on the ok line); a test where no sptrsv_* type could run is reported skipped, not passed;
#    - SLEPc's own tutorials from Debian's libslepc3.18-dev-examples (eps ex13: generalized Laplacian; ex7: a pencil
#      from PETSc binary files), native against each of our types, eigenvalues from -eps_view_values ::ascii_matlab.
#    Without SLEPc (SLEPC_DIR, default /usr/lib/slepc) every test here is skipped.
#    Direct factorizations (lu, cholesky) run once the solver types have them (branch lu-direct); the ilu/icc cases
#    (GMRES to 1e-13 inside the shift-and-invert) run today.
SLEPC_DIR=${SLEPC_DIR:-/usr/lib/slepc}
EPS_SINVERT=$ROOT/tests/slepc/eps_sinvert
# every path of the registry and sptrsv ('all'), plus the paths announced by issue 13 that may not exist yet
EPS_TYPES=all,sptrsv_supernodal,sptrsv_pinv

slepc_found() { [ -f "$SLEPC_DIR/include/slepceps.h" ]; }
find_slepc_examples() {
  local d
  for d in "${SLEPC_EXAMPLES_DIR:-}" "$SLEPC_DIR/share/slepc/examples/src" /usr/share/slepc/*/share/slepc/examples/src; do
    [ -n "$d" ] && [ -f "$d/eps/tutorials/ex13.c" ] && { echo "$d"; return 0; }
  done
  return 1
}
# SLEPc's small test matrices (bfw62a/b: a 62 x 62 nonsymmetric generalized pencil), shipped with the examples
find_slepc_datafiles() {
  local src
  src=$(find_slepc_examples) || return 1
  [ -f "$src/../../datafiles/matrices/bfw62a.petsc" ] && (cd "$src/../../datafiles/matrices" && pwd)
}

# eps_case ARGS...: tests/slepc/eps_sinvert with ARGS, petsc first, then every type of EPS_TYPES
eps_case() {
  local o=$OUT/eps.out n
  slepc_found || skip "no SLEPc at SLEPC_DIR=$SLEPC_DIR (Debian package slepc-dev)" || return
  need_file "$EPS_SINVERT" "make unit-tests builds it when SLEPc is found" || return 1
  prun "$o" "$EPS_SINVERT" -solver_types "petsc,$EPS_TYPES" "$@" || fail "eps_sinvert exited nonzero (it compares the eigenvalues itself)" || return 1
  grep -q "^Check passed" "$o" || fail "no 'Check passed' line" || return 1
  n=$(sed -n 's/^Check passed: \([0-9]*\) solver type.*/\1/p' "$o")
  [ "${n:-0}" -gt 0 ] || skip "no sptrsv_* solver type has this factorization yet ($(grep -c '^skipped: ' "$o") skipped lines)" || return
  say "$n solver types compared with petsc"
}

# eps_controls: the comparison itself with direct factorizations that exist today, PETSc's other packages (SuperLU,
# UMFPACK, CHOLMOD: other orderings and pivots, the same eigenvalues) against PETSc's own: -require_run, nothing skipped
eps_controls() {
  local o=$OUT/eps.out
  slepc_found || skip "no SLEPc at SLEPC_DIR=$SLEPC_DIR (Debian package slepc-dev)" || return
  need_file "$EPS_SINVERT" "make unit-tests builds it when SLEPc is found" || return 1
  prun "$o" "$EPS_SINVERT" -solver_types petsc,superlu,umfpack -problem lap3d -n 10 -beta 20 -require_run || fail "lu controls failed" || return 1
  ! grep -q "^skipped: " "$o" || fail "a control was skipped (Debian's PETSc has SuperLU and UMFPACK)" || return 1
  prun "$o" "$EPS_SINVERT" -solver_types petsc,cholmod -f "$MATDIR/494_bus.mtx.gz" -require_run || fail "cholesky control failed" || return 1
  ! grep -q "^skipped: " "$o" || fail "a control was skipped (Debian's PETSc has CHOLMOD)"
}

# eps_detects: the checks can fail: -check_rtol -1, a backward-error bound of 0, -require_run with nothing to compare,
# -require_backend with a backend no factor runs on, an option nothing used
eps_detects() {
  local o=$OUT/eps.out
  slepc_found || skip "no SLEPc at SLEPC_DIR=$SLEPC_DIR (Debian package slepc-dev)" || return
  need_file "$EPS_SINVERT" "make unit-tests builds it when SLEPc is found" || return 1
  if prun "$o" "$EPS_SINVERT" -solver_types petsc,sptrsv_level -factor icc -n 12 -check_rtol -1; then fail "exited 0 with -check_rtol -1"; return 1; fi
  grep -q "^FAILED: the eigenvalues of sptrsv_level differ from petsc's" "$o" || fail "no 'FAILED: the eigenvalues' line" || return 1
  if prun "$o" "$EPS_SINVERT" -solver_types petsc,sptrsv_level -factor icc -n 12 -check_residual 0; then fail "exited 0 with -check_residual 0"; return 1; fi
  grep -q "^FAILED: sptrsv_level: backward error" "$o" || fail "no 'FAILED: ... backward error' line" || return 1
  # (its "skipped:" line is expected here: renamed, so that run_test does not list it as a solver type left out)
  if prun "$o" "$EPS_SINVERT" -solver_types petsc,sptrsv_nosuchpath -n 12 -require_run | sed 's/^skipped: /expected: skipped: /'; then fail "exited 0 with -require_run and nothing compared"; return 1; fi
  grep -q "^skipped: sptrsv_nosuchpath not registered" "$o" || fail "no 'skipped: sptrsv_nosuchpath not registered' line" || return 1
  grep -q "^FAILED: no solver type was compared" "$o" || fail "no 'FAILED: no solver type was compared' line" || return 1
  if prun "$o" "$EPS_SINVERT" -solver_types petsc,sptrsv_level -factor icc -n 12 -require_backend nosuchbackend; then fail "exited 0 with -require_backend nosuchbackend"; return 1; fi
  grep -q "^FAILED: sptrsv_level ran on backend host, not nosuchbackend" "$o" || fail "no 'FAILED: ... ran on backend' line" || return 1
  # the ST's factor reads -st_mat_sptrsv_*: an unprefixed plugin option is never used, which must not pass unnoticed
  if prun "$o" "$EPS_SINVERT" -solver_types petsc,sptrsv_level -factor icc -n 12 -mat_sptrsv_backend host; then fail "exited 0 with an unused -mat_sptrsv_backend"; return 1; fi
  grep -q "^FAILED: 1 option set but not used" "$o" || fail "no 'FAILED: 1 option set but not used' line"
}

# ---- SLEPc's tutorials ---------------------------------------------------------------------------------------------------
build_slepc_tutorials() {
  local src
  slepc_found || skip "no SLEPc at SLEPC_DIR=$SLEPC_DIR (Debian package slepc-dev)" || return
  src=$(find_slepc_examples) || fail "SLEPc's tutorial sources not found (Debian package libslepc3.18-dev-examples; or set SLEPC_EXAMPLES_DIR)" || return 1
  mkdir -p "$OUT/slepc-bin"
  cp "$src/eps/tutorials/ex2.c" "$src/eps/tutorials/ex7.c" "$src/eps/tutorials/ex13.c" "$OUT/slepc-bin/"
  cat >"$OUT/slepc-bin/makefile" <<'EOF'
# generated by tests/suites/slepc.sh: SLEPc's eps tutorials ex2, ex7 and ex13, built with SLEPc's own rules
include ${SLEPC_DIR}/lib/slepc/conf/slepc_common
all: ex2 ex7 ex13
ex2: ex2.o
	${CLINKER} -o $@ $^ ${SLEPC_EPS_LIB}
ex7: ex7.o
	${CLINKER} -o $@ $^ ${SLEPC_EPS_LIB}
ex13: ex13.o
	${CLINKER} -o $@ $^ ${SLEPC_EPS_LIB}
EOF
  say "\$ make -C tests/out/slepc-bin all"
  make --no-print-directory -C "$OUT/slepc-bin" SLEPC_DIR="$SLEPC_DIR" PETSC_DIR="$PETSC_DIR" all
}

# compare_eigs NATIVE OURS [RTOL]: the eigenvalues printed by -eps_view_values ::ascii_matlab (every converged one) agree
# to RTOL (default 1e-10) relative, each of the native ones matched with the nearest unused one of ours; both runs
# converged ("Linear eigensolve converged") with at least the requested number
compare_eigs() {
  python3 - "$1" "$2" "${3:-1e-10}" <<'PY'
import re, sys
num = r'[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|inf)'
val = re.compile(r'^\s*(' + num + r')\s*(?:([-+]\s*' + num[5:] + r')i)?\s*$')
def parse(path):
    vals, block, nev, conv = [], False, None, None
    for line in open(path, errors='replace'):
        if re.match(r'^Lambda_EPS_\w+ = \[', line): block = True; continue
        if block and line.strip().startswith('];'): block = False; continue
        if block:
            m = val.match(line)
            if m: vals.append(complex(float(m.group(1)), float(m.group(2).replace(' ', '')) if m.group(2) else 0.0))
            continue
        m = re.search(r'Number of requested eigenvalues: (\d+)', line)
        if m: nev = int(m.group(1))
        m = re.search(r'Linear eigensolve converged \((\d+) eigenpairs?\)', line)
        if m: conv = int(m.group(1))
    return vals, nev, conv
(va, nev, ca), (vb, _, cb) = parse(sys.argv[1]), parse(sys.argv[2])
tol, bad = float(sys.argv[3]), []
if ca is None or cb is None: bad.append('no "Linear eigensolve converged" line (native %s, ours %s)' % (ca, cb))
if nev is None: bad.append('no "Number of requested eigenvalues" line in the native output')
elif len(va) < nev or len(vb) < nev: bad.append('fewer eigenvalues than requested (%d): native %d, ours %d' % (nev, len(va), len(vb)))
used, worst = set(), 0.0
for a in va[:nev or 0]:
    cand = [(abs(a - b) / max(abs(a), 1e-300), j) for j, b in enumerate(vb) if j not in used]
    if not cand: break
    d, j = min(cand); used.add(j); worst = max(worst, d)
    if not d <= tol: bad.append('native eigenvalue %r: nearest of ours %r, rel diff %.2e' % (a, vb[j], d))
print('compared %d eigenvalues (of %s requested; native %d converged, ours %d), worst relative difference %.2e (tolerance %.1e)' % (len(used), nev, len(va), len(vb), worst, tol))
for b in bad[:20]: print('MISMATCH:', b)
sys.exit(1 if bad else 0)
PY
}

# slepc_tutorial PROG FACTOR "ARGS": PROG (ex7 or ex13) natively and then with each of our solver types that has FACTOR
# (lu, cholesky, ilu, icc: -st_pc_type FACTOR); every option used, -eps_view names our type, eigenvalues as native's
slepc_tutorial() {
  local factor=$2 args=$3 exe=$OUT/slepc-bin/$1 a=$OUT/native.out b=$OUT/ours.out q=$OUT/query.out types t n=0
  slepc_found || skip "no SLEPc at SLEPC_DIR=$SLEPC_DIR (Debian package slepc-dev)" || return
  need_file "$exe" "see the slepc/build-tutorials test" || return 1
  need_file "$EPS_SINVERT" "make unit-tests builds it when SLEPc is found" || return 1
  # which of our types have FACTOR (the query names the ones that do not in "skipped:" lines)
  prun "$q" "$EPS_SINVERT" -query -factor "$factor" -n 4 -solver_types "petsc,$EPS_TYPES" || fail "eps_sinvert -query failed" || return 1
  types=$(sed -n 's/^available: \(sptrsv[a-z_]*\) .*/\1/p' "$q")
  [ -n "$types" ] || skip "no sptrsv_* solver type has $factor yet ($(grep -c '^skipped: ' "$q") skipped lines)" || return
  # shellcheck disable=SC2086
  prun "$a" "$exe" $args -st_type sinvert -st_pc_type "$factor" -st_pc_factor_mat_solver_type petsc -eps_view_values ::ascii_matlab || fail "native run failed" || return 1
  for t in $types; do
    # shellcheck disable=SC2086
    prun "$b" "$exe" -dll_append "$LIB" $args -st_type sinvert -st_pc_type "$factor" -st_pc_factor_mat_solver_type "$t" -eps_view_values ::ascii_matlab -eps_view -options_left || fail "$t run failed" || return 1
    grep -q "package used to perform factorization: $t" "$b" || fail "-eps_view does not show $t as the factorization package" || return 1
    ! grep -q "There are options you set that were not used" "$b" || fail "$t run left options unused" || return 1
    say "$t:"
    compare_eigs "$a" "$b" || fail "$t: eigenvalues differ from native's" || return 1
    n=$((n + 1))
  done
  say "$n solver types compared with petsc"
}

# slepc_tutorial_written NAME FACTOR "ARGS" GENERATOR_ARGS...: eps ex7 on a pencil written by eps_sinvert -write_binary
slepc_tutorial_written() {
  local f=$OUT/slepc-bin/$1.bin factor=$2 args=$3
  shift 3
  slepc_found || skip "no SLEPc at SLEPC_DIR=$SLEPC_DIR (Debian package slepc-dev)" || return
  need_file "$EPS_SINVERT" "make unit-tests builds it when SLEPc is found" || return 1
  mkdir -p "$OUT/slepc-bin"
  prun "$OUT/write.out" "$EPS_SINVERT" -write_binary "$f" "$@" || fail "eps_sinvert -write_binary failed" || return 1
  slepc_tutorial ex7 "$factor" "-f1 $f -f2 $f.B $args"
}

# ================================= the tests ======================================================
ETOL="-eps_tol 1e-12"
# inner iterative solves (ILU/ICC preconditioned GMRES to 1e-13): our ILU(0)/ICC(0) triangles inside shift-and-invert,
# every path today
run_test slepc/lap2d-ghep-icc eps_case -problem lap2d -n 30 -factor icc
run_test slepc/lap3d-gnhep-ilu eps_case -problem lap3d -n 12 -beta 20 -factor ilu
run_test slepc/lap2d-hep-ilu-target eps_case -problem lap2d -n 24 -generalized 0 -factor ilu -eps_target 0.3
# direct factorizations (the subject of issue 13): generated GHEP and GNHEP pencils, shipped SPD matrices, SLEPc's bfw62
run_test slepc/lap2d-ghep-cholesky eps_case -problem lap2d -n 30 -factor cholesky
run_test slepc/lap2d-ghep-lu eps_case -problem lap2d -n 30 -factor lu
run_test slepc/lap3d-gnhep-lu eps_case -problem lap3d -n 12 -beta 20 -factor lu
run_test slepc/494_bus-hep-cholesky eps_case -f "$MATDIR/494_bus.mtx.gz" -factor cholesky
run_test slepc/bcsstk13-hep-cholesky eps_case -f "$MATDIR/bcsstk13.mtx.gz" -factor cholesky
run_test slepc/bcsstk13-hep-lu eps_case -f "$MATDIR/bcsstk13.mtx.gz" -factor lu
bfw62_case() { # bfw62_case ARGS...: eps_case on SLEPc's bfw62a/b pencil (from the examples package)
  local d
  slepc_found || skip "no SLEPc at SLEPC_DIR=$SLEPC_DIR (Debian package slepc-dev)" || return
  d=$(find_slepc_datafiles) || fail "SLEPc's datafiles/matrices/bfw62a.petsc not found (Debian package libslepc3.18-dev-examples)" || return 1
  eps_case -f "$d/bfw62a.petsc" -fB "$d/bfw62b.petsc" "$@"
}
run_test slepc/bfw62-gnhep-ilu bfw62_case -factor ilu
run_test slepc/bfw62-gnhep-lu bfw62_case -factor lu
run_test slepc/controls-superlu-umfpack-cholmod eps_controls
run_test slepc/detects-mismatch eps_detects
# SLEPc's tutorials, native against ours
run_test slepc/build-tutorials build_slepc_tutorials
# compare_eigs itself catches a difference: ex13 on a 20 x 20 and a 20 x 21 grid
slepc_compare_detects() {
  local e=$OUT/slepc-bin/ex13
  slepc_found || skip "no SLEPc at SLEPC_DIR=$SLEPC_DIR (Debian package slepc-dev)" || return
  need_file "$e" "see the slepc/build-tutorials test" || return 1
  # shellcheck disable=SC2086
  prun "$OUT/a.out" "$e" -n 20 -eps_nev 4 -st_type sinvert -eps_target 0 $ETOL -eps_view_values ::ascii_matlab >/dev/null || return 1
  # shellcheck disable=SC2086
  prun "$OUT/b.out" "$e" -n 20 -m 21 -eps_nev 4 -st_type sinvert -eps_target 0 $ETOL -eps_view_values ::ascii_matlab >/dev/null || return 1
  if compare_eigs "$OUT/a.out" "$OUT/b.out"; then fail "the eigenvalues of two different grids compared equal"; return 1; fi
  compare_eigs "$OUT/a.out" "$OUT/a.out" || fail "a run's eigenvalues differ from themselves"
}
run_test slepc/compare-detects-difference slepc_compare_detects
run_test slepc/ex13-icc slepc_tutorial ex13 icc "-n 20 -eps_nev 4 -eps_target 0 $ETOL -st_ksp_type gmres -st_ksp_rtol 1e-13"
run_test slepc/ex13-cholesky slepc_tutorial ex13 cholesky "-n 20 -eps_nev 4 -eps_target 0 $ETOL"
run_test slepc/ex13-lu slepc_tutorial ex13 lu "-n 20 -m 25 -eps_nev 4 -eps_target 0 $ETOL"
ex7_bfw62() { # ex7_bfw62 FACTOR "ARGS": eps ex7 on SLEPc's bfw62a/b
  local d
  slepc_found || skip "no SLEPc at SLEPC_DIR=$SLEPC_DIR (Debian package slepc-dev)" || return
  d=$(find_slepc_datafiles) || fail "SLEPc's datafiles/matrices/bfw62a.petsc not found (Debian package libslepc3.18-dev-examples)" || return 1
  slepc_tutorial ex7 "$1" "-f1 $d/bfw62a.petsc -f2 $d/bfw62b.petsc $2"
}
run_test slepc/ex7-bfw62-ilu ex7_bfw62 ilu "-eps_nev 4 -eps_target 0 $ETOL -st_ksp_type gmres -st_ksp_rtol 1e-13"
run_test slepc/ex7-bfw62-lu ex7_bfw62 lu "-eps_nev 4 -eps_target 0 $ETOL"
run_test slepc/ex7-lap2d-gnhep-ilu slepc_tutorial_written lap2d-gnhep ilu "-eps_nev 6 -eps_target 0 $ETOL -st_ksp_type gmres -st_ksp_rtol 1e-13" -problem lap2d -n 24 -beta 10
# the benchmark of record's SLEPc case (examples/benchmarks/run-e2e-device.sh, eps ex2 by shift-and-invert with Cholesky)
# read by its tables: make-performance-md.py e2e takes EPSSolve, the eigensolver's reason and iterations and the
# eigenvalues; e2e-table.py counts EPSSolve as the time to solution and fails a run whose eigenvalues differ from the
# reference's (a run of ours on a 40 x 41 grid, as a wrong answer would be). Here PETSc's own factorization stands in
# for cusparse (the host has no GPU).
slepc_e2e_table() {
  local e=$OUT/slepc-bin/ex2 d=$OUT/e2e-eps st csv t
  local a=(-n 40 -m 40 -st_type sinvert -eps_target 0 -eps_nev 8 -eps_tol 1e-10 -st_ksp_type preonly -eps_view_values ::ascii_matlab -log_view -st_pc_type cholesky -st_pc_factor_mat_ordering_type nd)
  slepc_found || skip "no SLEPc at SLEPC_DIR=$SLEPC_DIR (Debian package slepc-dev)" || return
  need_file "$e" "see the slepc/build-tutorials test" || return 1
  rm -rf "$d" && mkdir -p "$d"
  prun "$d/e2e-eps2-cusparse_r1.log" "$e" "${a[@]}" -st_pc_factor_mat_solver_type petsc >/dev/null || fail "reference run failed" || return 1
  for st in sptrsv sptrsv_supernodal; do
    prun "$d/e2e-eps2-${st}_r1.log" "$e" "${a[@]}" -dll_append "$LIB" -st_pc_factor_mat_solver_type "$st" >/dev/null || fail "$st run failed" || return 1
  done
  prun "$d/e2e-eps2-sptrsv_level_r1.log" "$e" "${a[@]}" -m 41 -dll_append "$LIB" -st_pc_factor_mat_solver_type sptrsv_level >/dev/null || fail "the run on another grid failed" || return 1
  csv=$d/e2e.csv
  python3 "$ROOT/examples/benchmarks/make-performance-md.py" e2e --csv "$csv" "$d"/e2e-*.log >/dev/null || fail "make-performance-md.py e2e failed" || return 1
  python3 - "$csv" <<'PY' || fail "the CSV does not hold the eigensolve's fields" || return 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 4, rows
for r in rows:
    assert r["status"] == "ok" and r["reason"] == "CONVERGED_TOL" and int(r["iterations"]) > 0, r
    assert float(r["eps_solve_s"]) > 0 and len(r["eigenvalues"].split(";")) >= 8, r
print("CSV: 4 eigensolves, reason, iterations, EPSSolve and eigenvalues read")
PY
  t=$(python3 "$ROOT/examples/benchmarks/e2e-table.py" --csv "$csv") || fail "e2e-table.py failed" || return 1
  printf '%s\n' "$t"
  grep -q '^| eps2 | [0-9]* / [0-9]* | [0-9.e-]* | [0-9.e-]* | \*\*[0-9.]*x\*\* |' <<<"$t" || fail "sptrsv's run did not count" || return 1
  grep -q 'FAILED (eigenvalues differ from cusparse' <<<"$t" || fail "the run on another grid was not failed by its eigenvalues" || return 1
  grep -q 'runs that broke the error rule: 1$' <<<"$t" || fail "the summary does not count the failed run"
}
run_test slepc/e2e-table-eps slepc_e2e_table
run_test slepc/ex7-lap2d-ghep-cholesky slepc_tutorial_written lap2d-ghep cholesky "-eps_nev 6 -eps_target 0 $ETOL" -problem lap2d -n 24
