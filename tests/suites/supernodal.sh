# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
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

# its -ksp_view, -help and messages
SN="-m 30 -n 30 -pc_type ilu -pc_factor_levels 2 -pc_factor_mat_solver_type sptrsv_supernodal"
run_test view/supernodal-ksp-view ours_grep ex2 "$SN -mat_sptrsv_supernode_relax 0.3 $SN_BLOCKS -ksp_view" "schedule supernodal" "supernodal: push \(columns\), [0-9]+ supernodes, width mean [0-9.]+ max [0-9]+, [0-9]+ levels of the supernodal DAG" "supernodal: pull \(rows\), [0-9]+ supernodes" "partition: [0-9]+ exact supernodes detected; merged 0 \(same structure\), [1-9][0-9]* \(relaxed\)" "stored entries [0-9]+, explicit zeros added [1-9][0-9]* \([0-9.]+%\), bytes [0-9.e+]+; diagonal blocks solved \(TRSV\)" "CUDA: [0-9]+ supernodes through cuBLAS \(widest [0-9]+\), [0-9]+ split over many blocks" "model \(H100 constants\): one solve [0-9]+ us, [0-9]+ launches" "model by level size: 1 supernode [0-9]+ levels"
run_test view/supernodal-help ours_grep ex2 "$SN -help" "-mat_sptrsv_supernode_mode <(now )?auto" "-mat_sptrsv_invert_diag" "-mat_sptrsv_merge" "-mat_sptrsv_supernode_relax" "-mat_sptrsv_supernode_cublas_width <(now )?256" "-mat_sptrsv_supernode_split <(now )?auto" "-mat_sptrsv_supernode_min_width <(now )?16[ :>]" "-mat_sptrsv_invert_diag_cond <(now )?1e\+06" "-mat_sptrsv_supernode_relax <(now )?-1\.?" "-mat_sptrsv_graph"
run_test view/supernodal-delegated-ksp-view ours_grep ex2 "$SN -mat_sptrsv_backend host -ksp_view -info" "$SN_DELEGATED" "^ +supernodal: push \(columns\), [0-9]+ supernodes, width mean 1\.[0-9]+ max [0-9]+$" "^ +supernodal: pull \(rows\), [0-9]+ supernodes, width mean 1\.[0-9]+ max [0-9]+$" "^ +schedule syncfree: [0-9]+ levels" "^ +sync-free: level-order dispatch" "sptrsv_supernodal: 900-row lower triangle, [0-9]+ supernodes, the widest [0-9] < -mat_sptrsv_supernode_min_width 16: no dense blocks" "sptrsv_supernodal: the solves of the 900-row upper triangle \(host backend\) are forwarded to a nested sptrsv_syncfree solver"
# the nested sync-free solver of a delegated triangle takes sync-free's own options through the supernodal factor (none unused)
run_test view/supernodal-delegated-syncfree-options ours_grep ex2 "$SN -mat_sptrsv_backend host -mat_sptrsv_levels alap -mat_sptrsv_max_lanes 8 -ksp_view -options_left" "$SN_DELEGATED" "^ +sync-free: level-order dispatch, ALAP levels" "There are no unused options"
run_test view/supernodal-bad-syncfree-option ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_supernodal -sub_mat_sptrsv_spin_ns -2" "-sub_mat_sptrsv_spin_ns must be in \[-1, 1000000\] \(-1: automatic\), got -2"
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
