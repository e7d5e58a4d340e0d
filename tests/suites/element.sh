# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# the element (synchronization-free) path: same factors, solves in dispatch order
run_test ex2/element-ilu0 with_solver sptrsv_element compare_case 1 ex2 "$EX2" ""
run_test ex2/element-ilu1-csc with_solver sptrsv_element compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "-mat_sptrsv_format csc"
run_test ex2/element-icc0 with_solver sptrsv_element compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" ""
run_test ex2/element-bjacobi-np2 with_solver sptrsv_element compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "" sub_
run_test ex45/element-grid17 with_solver sptrsv_element compare_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu -ksp_monitor" ""
run_test ex19/element-newton-ilu0-no-inode with_solver sptrsv_element compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" ""
run_test matrices/element-cryg2500-ilu1 with_solver sptrsv_element mm_compare cryg2500 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8"
