# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# i. complete LU (SuperLU) and Cholesky (CHOLMOD) factors solved by the plugin's paths (issue 13) ---------------------
#    lu_case PROG "ARGS" SOLVER: PROG with ARGS (-pc_type lu|cholesky ...) natively (MATSOLVERPETSC) and with SOLVER:
#    both exit 0; the same converged reasons and iteration counts of every linear (and nonlinear) solve (an exact
#    factor: 1 iteration for preonly or a Krylov method); the final relative true residual of each linear solve of ours
#    is at most max(10 x native's, 1e-12) (the factors differ: SuperLU pivots, PETSc does not, so the residuals agree
#    to rounding, not digit by digit); -ksp_view names SOLVER and shows the factor's line; no option left unused.
lu_case() {
  local args=$2 solver=$3 exe=$OUT/bin/$1 a=$OUT/native.out b=$OUT/ours.out
  need_file "$exe" "see the build/programs test" || return 1
  # shellcheck disable=SC2086
  prun "$a" "$exe" $args -pc_factor_mat_solver_type petsc -ksp_converged_reason -ksp_monitor_true_residual || fail "native run failed" || return 1
  # shellcheck disable=SC2086
  prun "$b" "$exe" -dll_append "$LIB" $args -pc_factor_mat_solver_type "$solver" -ksp_converged_reason -ksp_monitor_true_residual -ksp_view -options_left || fail "$solver run failed" || return 1
  grep -q "package used to perform factorization: $solver" "$b" || fail "-ksp_view does not show $solver" || return 1
  grep -Eq "factor (LU \(SuperLU|Cholesky \(CHOLMOD) [0-9.]+, ordering .*, nnz\(L\)=[0-9]+, nnz\(U\)=[0-9]+, supernodes=[0-9]+, mean supernode width [0-9.]+" "$b" || fail "-ksp_view lacks the factor line" || return 1
  ! grep -q "There are options you set that were not used" "$b" || fail "$solver run left options unused" || return 1
  python3 - "$a" "$b" <<'PY'
import re, sys
rea = re.compile(r'(Linear|Nonlinear) .*solve (converged|did not converge|diverged) due to (\S+) iterations (\d+)')
mon = re.compile(r'^\s*(\d+) KSP .*true resid norm \S+ \|\|r\(i\)\|\|/\|\|b\|\| (\S+)')
def parse(path):
    reasons, finals, last = [], [], None
    for line in open(path, errors='replace'):
        m = mon.match(line)
        if m:
            last = float(m.group(2))
        m = rea.search(line)
        if m:
            reasons.append(m.groups())
            if m.group(1) == 'Linear':
                finals.append(last)
                last = None
    return reasons, finals
(ra, fa), (rb, fb) = parse(sys.argv[1]), parse(sys.argv[2])
bad = []
if not ra:
    bad.append('no converged-reason line in the native output')
if ra != rb:
    bad.append('converged reasons / iterations differ:\n  native: %s\n  ours:   %s' % (ra[:6], rb[:6]))
worst = 0.0
for x, y in zip(fa, fb):
    if x is None or y is None:
        bad.append('a linear solve without a true residual line')
        break
    if not y <= max(10 * x, 1e-12):
        bad.append('relative true residual %.3e, native %.3e' % (y, x))
    worst = max(worst, y)
print('%d solves, reasons %s; worst relative true residual of ours %.2e (native %.2e)' % (len(fb), ', '.join(sorted(set(r[2] for r in rb))), worst, max([v for v in fa if v is not None] or [0])))
for x in bad[:10]:
    print('MISMATCH:', x)
sys.exit(1 if bad else 0)
PY
}

LU_EX2="-m 40 -n 40 -ksp_type preonly -pc_type lu"
CH_EX2="-m 40 -n 40 -ksp_type preonly -pc_type cholesky"
for p in level element syncfree locality pinv; do
  run_test "lu/ex2-preonly-lu-$p" lu_case ex2 "$LU_EX2" "sptrsv_$p"
  run_test "lu/ex2-preonly-cholesky-$p" lu_case ex2 "$CH_EX2" "sptrsv_$p"
done
run_test lu/ex2-preonly-lu-auto lu_case ex2 "$LU_EX2 -mat_sptrsv_auto_model h100" sptrsv
run_test lu/ex2-gmres-lu-colamd lu_case ex2 "-m 40 -n 40 -ksp_type gmres -pc_type lu -mat_sptrsv_lu_ordering colamd -mat_sptrsv_lu_pivot_threshold 0.1" sptrsv_level
run_test lu/ex2-cg-cholesky-amd lu_case ex2 "-m 40 -n 40 -ksp_type cg -pc_type cholesky -mat_sptrsv_cholesky_ordering amd" sptrsv_syncfree
run_test lu/ex2-bicg-transpose-lu-rcm lu_case ex2 "-m 30 -n 30 -ksp_type bicg -pc_type lu -pc_factor_mat_ordering_type rcm" sptrsv_locality
run_test lu/ex45-lu-grid12 lu_case ex45 "-da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -ksp_type gmres -pc_type lu" sptrsv_level
# the partitioned inverse on nested-dissection factors with their supernodes as groups (dense inverses allowed), fill 2
run_test lu/ex45-cholesky-nd-pinv-fill2 lu_case ex45 "-da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -ksp_type gmres -pc_type cholesky -pc_factor_mat_ordering_type nd -mat_sptrsv_pinv_fill 2" sptrsv_pinv
# the LU snippet (SuperLU in nested dissection, supernodal at its defaults) against PETSc's native LU
# the supernodal defaults on an ND LU (relaxed merging, checked inversion), and every block wider than 1 swept (a bound
# of 1): both
# solve as PETSc's LU does
run_test lu/ex45-lu-nd-supernodal-defaults lu_case ex45 "-da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -ksp_type gmres -pc_type lu -pc_factor_mat_ordering_type nd" sptrsv_supernodal
run_test lu/ex45-lu-nd-supernodal-swept lu_case ex45 "-da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -ksp_type gmres -pc_type lu -pc_factor_mat_ordering_type nd -mat_sptrsv_invert_diag_cond 1" sptrsv_supernodal
run_test lu/ex45-lu-snippet-supernodal lu_case ex45 "-da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -ksp_type gmres -options_file $ROOT/petscconf-snippets/lu-supernodal.opts" sptrsv_supernodal
run_test lu/ex45-lu-nd-pinv lu_case ex45 "-da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -ksp_type gmres -pc_type lu -pc_factor_mat_ordering_type nd" sptrsv_pinv
# Newton: the factor is refactored at every step (same pattern; SuperLU may pick other pivots: the triangles are
# then rebuilt and analysed again, which -ksp_view counts)
run_test lu/ex19-newton-lu lu_case ex19 "-da_grid_x 12 -da_grid_y 12 -ksp_type preonly -pc_type lu" sptrsv_element
run_test lu/mm-cryg2500-lu lu_case mmsolve "-f $MATDIR/cryg2500.mtx.gz -ksp_type gmres -ksp_rtol 1e-12 -pc_type lu" sptrsv_syncfree
# a matrix PETSc's own LU cannot factor (zero diagonal entries: no pivoting): SuperLU's pivots do, GMRES takes 1 step
run_test lu/mm-west0479-lu-pivoting ours_grep mmsolve "-f $MATDIR/west0479.mtx.gz -ksp_type gmres -ksp_rtol 1e-8 -pc_type lu -pc_factor_mat_solver_type sptrsv_level -ksp_converged_reason" "Linear solve converged due to CONVERGED_RTOL iterations 1$"
# the automatic choice holds the partitioned inverse to 100 eps (SPTRSV_AUTO_PINV_TOL) unless -mat_sptrsv_pinv_tol is
# given: olm1000's U under fill 4 has a backward error of 1.3e-13 (the substitution's: 8.1e-17), within pinv's own 1000 eps
PAUTO="-f $MATDIR/olm1000.mtx.gz -ksp_type gmres -pc_type lu -pc_factor_mat_ordering_type nd -pc_factor_mat_solver_type sptrsv -mat_sptrsv_auto_candidates pinv -mat_sptrsv_pinv_fill 4 -ksp_view"
run_test lu/auto-pinv-tol ours_grep mmsolve "$PAUTO" "stability: backward error [0-9.e+-]+ \(substitution [0-9.e+-]+\), tolerance 2\.220e-14 \(-mat_sptrsv_pinv_tol\): partitioned inverse in use" "stability: backward error 1\.[0-9]+e-13 \(substitution [0-9.e+-]+\), tolerance 2\.220e-14 \(-mat_sptrsv_pinv_tol\): exceeds the tolerance, solves fall back to sptrsv_supernodal"
run_test lu/auto-pinv-tol-given ours_grep mmsolve "$PAUTO -mat_sptrsv_pinv_tol 1e-12" "stability: backward error 1\.[0-9]+e-13 \(substitution [0-9.e+-]+\), tolerance 1\.000e-12 \(-mat_sptrsv_pinv_tol\): partitioned inverse in use"

LUO="-m 20 -n 20 -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type sptrsv_level"
run_test lu/ksp-view ours_grep ex2 "$LUO -ksp_view" "factor LU \(SuperLU 5\.[0-9]+\.[0-9]+, ordering nd \(PETSc's columns, SuperLU's partial pivoting, threshold 1\.?\), nnz\(L\)=[0-9]+, nnz\(U\)=[0-9]+, supernodes=[0-9]+, mean supernode width [0-9.]+, widest [0-9]+\)" "numeric factorizations 1; a new pivot order or pattern rebuilt the triangles and redid the analysis 0 times" "numeric factorization: host \(SuperLU" "schedule level"
run_test lu/ksp-view-cholesky ours_grep ex2 "-m 20 -n 20 -ksp_type preonly -pc_type cholesky -pc_factor_mat_solver_type sptrsv_element -mat_sptrsv_cholesky_ordering metis -ksp_view" "factor Cholesky \(CHOLMOD [0-9.]+, ordering metis \(CHOLMOD's\), nnz\(L\)=[0-9]+" "package used to perform factorization: sptrsv_element" "numeric factorizations 1 \(the pattern of a Cholesky factor does not change\), 1 of them in a host thread beside the analysis"
run_test lu/log-view ours_grep ex2 "$LUO -log_view" "^SpTrsvLUNumeric " "^SpTrsvDirectConv " "^MatLUFactorNum " "^SpTrsvSolve "
run_test lu/log-view-cholesky ours_grep ex2 "-m 20 -n 20 -ksp_type preonly -pc_type cholesky -pc_factor_mat_solver_type sptrsv_level -log_view" "^SpTrsvCholNumeric " "^MatCholFctrNum "
run_test lu/help ours_grep ex2 "$LUO -help" "-mat_sptrsv_lu_ordering <(now )?petsc" "-mat_sptrsv_lu_pivot_threshold <(now )?1\.?"
run_test lu/ksp-view-cholesky-no-overlap ours_grep ex2 "-m 20 -n 20 -ksp_type preonly -pc_type cholesky -pc_factor_mat_solver_type sptrsv_level -mat_sptrsv_cholesky_overlap 0 -ksp_view" "numeric factorizations 1 \(the pattern of a Cholesky factor does not change\), 0 of them in a host thread beside the analysis"
run_test lu/help-cholesky ours_grep ex2 "-m 20 -n 20 -ksp_type preonly -pc_type cholesky -pc_factor_mat_solver_type sptrsv_level -help" "-mat_sptrsv_cholesky_ordering <(now )?petsc" "-mat_sptrsv_cholesky_overlap: <TRUE"
run_test lu/info-fill ours_grep ex2 "$LUO -ksp_view" "factor fill ratio given [0-9.]+, needed [0-9.]+"
run_test lu/bad-threshold ours_fails ex2 "$LUO -mat_sptrsv_lu_pivot_threshold 2" "-mat_sptrsv_lu_pivot_threshold 2\.?: must be in \[0, 1\]"
run_test lu/bad-threshold-sub-prefix ours_fails ex2 "-m 20 -n 20 -pc_type bjacobi -sub_pc_type lu -sub_pc_factor_mat_solver_type sptrsv_level -sub_mat_sptrsv_lu_pivot_threshold -1" "-sub_mat_sptrsv_lu_pivot_threshold -1\.?: must be in \[0, 1\]"
