# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# the level path (sptrsv_level) on PETSc's tutorials: native ILU/ICC vs ours
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

# the level path's -ksp_view, -log_view, -help and messages; device memory and the numeric factorization in -ksp_view
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
run_test view/factor-device-help ours_grep ex2 "$OURS -help" "-mat_sptrsv_factor_device:? <(now )?TRUE" "-mat_sptrsv_factor_device_order <(now )?level" "-mat_sptrsv_factor_device_rows <(now )?shared : formerly shared> .*\(choose one of\) global shared" "-mat_sptrsv_factor_device_blocks_per_sm <(now )?-1 : formerly -1>"
run_test view/factor-device-rows-bad ours_fails ex2 "$OURS -mat_sptrsv_factor_device_rows bogus" "Unknown option bogus for -mat_sptrsv_factor_device_rows"
run_test view/factor-device-bps-bad ours_fails ex2 "$OURS -mat_sptrsv_factor_device_blocks_per_sm 17" "-mat_sptrsv_factor_device_blocks_per_sm must be in \[-1, 16\] \(-1: automatic; 0: no cap; 16 blocks of 4 warps fill a multiprocessor\), got 17"
run_test view/factor-device-host ours_grep ex2 "$OURS -mat_sptrsv_backend host -mat_sptrsv_factor_device 1 -ksp_view" "numeric factorization: host \(the solves run on the host\)"
run_test view/factor-device-off ours_grep ex2 "$OURS -mat_sptrsv_backend host -mat_sptrsv_factor_device 0 -ksp_view" "numeric factorization: host"
run_test view/factor-device-icc ours_grep ex2 "-m 30 -n 30 -pc_type icc -pc_factor_mat_solver_type sptrsv_level -mat_sptrsv_factor_device 1 -ksp_view" "numeric factorization: host \(ICC factors on the host\)"
run_test view/help-sub-prefix ours_grep ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_level -help" "-sub_mat_sptrsv_backend"
