# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# the partitioned-inverse path (sptrsv_pinv): the same factors, solved as one SpMV per part of M_k = T_kk^{-1}[-E_k | I].
#    With the default fill limit (1: no fill) every row of M is row i of T scaled by 1/T_ii, which rounds differently
#    from a substitution only in the last bits: histories as compare_case checks them (1e-10). With fill allowed, M
#    holds products of T's entries: the same mathematics in another rounding, so pinv_its_case checks what the project
#    checks for other reorderings of the arithmetic: both runs converge for the same reason, ours in the native number
#    of iterations or one more or less, and ours reports a backward error within the tolerance (no fallback).
pinv_its_case() { # pinv_its_case NP PROG COMMON OURS_ONLY [SUB]
  local np=$1 prog=$2 common=$3 ours_only=$4 pre=${5:-} exe=$OUT/bin/$2 a=$OUT/native.out b=$OUT/ours.out cmd=()
  need_file "$exe" "see the build/programs test" || return 1
  [ "$np" -gt 1 ] && cmd=("${MPIEXEC[@]}" -n "$np")
  # shellcheck disable=SC2086
  prun "$a" "${cmd[@]}" "$exe" $common -${pre}pc_factor_mat_solver_type petsc -ksp_converged_reason || fail "native run failed" || return 1
  # shellcheck disable=SC2086
  prun "$b" "${cmd[@]}" "$exe" -dll_append "$LIB" $common -${pre}pc_factor_mat_solver_type sptrsv_pinv $ours_only -ksp_converged_reason -ksp_view -options_left || fail "sptrsv_pinv run failed" || return 1
  grep -q "package used to perform factorization: sptrsv_pinv" "$b" || fail "-ksp_view does not show sptrsv_pinv" || return 1
  ! grep -q "There are options you set that were not used" "$b" || fail "sptrsv_pinv run left options unused" || return 1
  grep -q "partitioned inverse in use" "$b" || fail "no 'partitioned inverse in use' line in -ksp_view" || return 1
  ! grep -q "solves fall back" "$b" || fail "a triangle fell back: the test wants the partitioned inverse" || return 1
  its_compare "$a" "$b"
}

# its_compare (tests/run-tests.sh) compares the two outputs

PINV_SOLVER=sptrsv_pinv
run_test ex2/pinv-ilu0 with_solver $PINV_SOLVER compare_case 1 ex2 "$EX2" ""
run_test ex2/pinv-icc0 with_solver $PINV_SOLVER compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" ""
run_test ex2/pinv-ilu1-fill4 pinv_its_case 1 ex2 "$EX2 -pc_factor_levels 1" "-mat_sptrsv_pinv_fill 4"
run_test ex2/pinv-icc1-cg-greedy-fill3 pinv_its_case 1 ex2 "-m 60 -n 60 -ksp_type cg -pc_type icc -pc_factor_levels 1" "-mat_sptrsv_pinv_parts greedy -mat_sptrsv_pinv_fill 3"
run_test ex2/pinv-bicg-transpose-fill8 pinv_its_case 1 ex2 "-m 40 -n 40 -ksp_type bicg -pc_type ilu" "-mat_sptrsv_pinv_fill 8"
run_test ex2/pinv-bjacobi-np2-fill2 pinv_its_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu" "-sub_mat_sptrsv_pinv_fill 2" sub_
run_test ex2/pinv-ilu0-nd-whole-inverse pinv_its_case 1 ex2 "-m 30 -n 30 -pc_type ilu -pc_factor_mat_ordering_type nd" "-mat_sptrsv_pinv_fill 1000"
run_test ex45/pinv-grid17-fill4 pinv_its_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu" "-mat_sptrsv_pinv_fill 4"
run_test ex19/pinv-newton-ilu0-fill3 pinv_its_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode" "-mat_sptrsv_pinv_fill 3"
run_test matrices/pinv-cryg2500-ilu1-fill2 pinv_its_case 1 mmsolve "-f $MATDIR/cryg2500.mtx.gz -ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8" "-mat_sptrsv_pinv_fill 2"
run_test ex2/options-file-ilu-pinv with_solver $PINV_SOLVER compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "-options_file $ROOT/petscconf-snippets/sptrsv_pinv.opts"
# the fallback: a tolerance no backward error meets sends every triangle to sptrsv_level, whose histories are PETSc's
run_test ex2/pinv-fallback-level with_solver $PINV_SOLVER compare_case 1 ex2 "$EX2" "-mat_sptrsv_pinv_fill 4 -mat_sptrsv_pinv_tol 1e-300"
PINV="-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv_pinv"
run_test view/pinv-ksp-view ours_grep ex2 "$PINV -mat_sptrsv_pinv_fill 2 -ksp_view" "schedule pinv: [0-9]+ levels" "partitioned inverse: [0-9]+ parts \(levels, fill limit 2\.?\), rows per part mean [0-9.]+ max [0-9]+; [0-9]+ group levels, 0 supernodes as groups" "inverse-applied blocks: [0-9]+ entries, [0-9.]+ x the substitution's 2640, longest row [0-9]+" "launches [0-9]+: [0-9]+ single-block runs holding [0-9]+ parts" "stability: backward error [0-9.e+-]+ \(substitution [0-9.e+-]+\), tolerance 2.220e-13 \(-mat_sptrsv_pinv_tol\): partitioned inverse in use"
run_test view/pinv-fallback-view ours_grep ex2 "$PINV -mat_sptrsv_pinv_fill 4 -mat_sptrsv_pinv_tol 1e-300 -ksp_view -info" "sptrsv_pinv: backward error [0-9.e+-]+ of the partitioned inverse of a 900-row lower triangle exceeds -mat_sptrsv_pinv_tol 1e-300 \(substitution: [0-9.e+-]+\): its solves fall back to sptrsv_(supernodal|level)" "tolerance 1.000e-300 \(-mat_sptrsv_pinv_tol\): exceeds the tolerance, solves fall back to sptrsv_(supernodal|level)" "fell back in 1 of 1 numeric phases"
run_test view/pinv-help ours_grep ex2 "$PINV -help" "-mat_sptrsv_pinv_parts <(now )?levels" "-mat_sptrsv_pinv_fill <(now )?1\.?" "-mat_sptrsv_pinv_tol <(now )?2.22045e-13" "-mat_sptrsv_pinv_threads <(now )?0[ >]" "-mat_sptrsv_graph"
# the numeric phase on threads (src/mat/paths/pinv/pinv_numeric.c): the view says how it ran, and M is bitwise the same on 1
# and 3 threads, so GMRES's residual history is identical (its one step's residual, near rounding, moves with any
# change of M's last bits)
PTHR="-da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -ksp_type gmres -ksp_rtol 1e-14 -pc_type lu -pc_factor_mat_ordering_type nd -pc_factor_mat_solver_type sptrsv_pinv -mat_sptrsv_pinv_fill 4"
run_test view/pinv-threads ours_grep ex45 "$PTHR -mat_sptrsv_pinv_threads 3 -ksp_view" "numeric phase: [0-9.e+-]+ s on 3 threads \(-mat_sptrsv_pinv_threads\): [0-9]+ segments, [1-9][0-9]* of them parallel, [1-9][0-9]* rows cut among the threads"
run_test view/pinv-threads-one ours_grep ex45 "$PTHR -mat_sptrsv_pinv_threads 1 -ksp_view" "numeric phase: [0-9.e+-]+ s on 1 thread \(-mat_sptrsv_pinv_threads\)"
pinv_threads_same() {
  local a=$OUT/t1.out b=$OUT/t3.out
  need_file "$OUT/bin/ex45" "see the build/programs test" || return 1
  # shellcheck disable=SC2086
  prun "$a" "$OUT/bin/ex45" -dll_append "$LIB" $PTHR -mat_sptrsv_pinv_threads 1 -ksp_monitor_true_residual || fail "1 thread: run failed" || return 1
  # shellcheck disable=SC2086
  prun "$b" "$OUT/bin/ex45" -dll_append "$LIB" $PTHR -mat_sptrsv_pinv_threads 3 -ksp_monitor_true_residual || fail "3 threads: run failed" || return 1
  grep -q "KSP preconditioned resid norm" "$a" || fail "no residual history" || return 1
  [ "$(grep 'KSP' "$a")" = "$(grep 'KSP' "$b")" ] || fail "the residual histories differ between 1 and 3 threads" || return 1
  say "$(grep -c 'KSP' "$a") residual lines identical on 1 and 3 threads"
}
run_test ex45/pinv-threads-same-history pinv_threads_same
run_test view/pinv-csc-error ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_pinv -sub_mat_sptrsv_format csc" "sptrsv_pinv reads rows only: -sub_mat_sptrsv_format csc is not supported"
run_test view/pinv-bad-fill ours_fails ex2 "$PINV -mat_sptrsv_pinv_fill 0.5" "-mat_sptrsv_pinv_fill must be >= 1, got 0.5"
run_test view/pinv-bad-threads ours_fails ex2 "$PINV -mat_sptrsv_pinv_threads -1" "-mat_sptrsv_pinv_threads must be >= 0, got -1"
run_test view/pinv-bad-tol ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_pinv -sub_mat_sptrsv_pinv_tol -1" "-sub_mat_sptrsv_pinv_tol must be > 0, got -1"
run_test view/pinv-bad-parts ours_fails ex2 "$PINV -mat_sptrsv_pinv_parts clever" "-mat_sptrsv_pinv_parts.*clever"
