# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# sptrsv_cusparse (cusparseSpSV behind the plugin's factors) and the measured check of the automatic choice. On the host
# backend the path's solves run the rows in level order, the arithmetic of sptrsv_level: histories as compare_case
# checks them. The GPU side (cuSPARSE itself) is checked by tests/device (check_kernels: -cusparse).
CUSP_SOLVER=sptrsv_cusparse
run_test ex2/cusparse-ilu0 with_solver $CUSP_SOLVER compare_case 1 ex2 "$EX2" ""
run_test ex2/cusparse-icc0 with_solver $CUSP_SOLVER compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" ""
run_test ex2/cusparse-bicg-transpose with_solver $CUSP_SOLVER compare_case 1 ex2 "-m 40 -n 40 -ksp_type bicg -pc_type ilu -ksp_monitor" ""
run_test ex2/cusparse-bjacobi-np2-ilu1 with_solver $CUSP_SOLVER compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_levels 1 -ksp_monitor" "" sub_
run_test ex2/options-file-ilu-cusparse with_solver $CUSP_SOLVER compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "-options_file $ROOT/petscconf-snippets/ilu-cusparse.opts"
run_test lu/ex45-lu-nd-cusparse lu_case ex45 "-da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -ksp_type gmres -pc_type lu -pc_factor_mat_ordering_type nd" sptrsv_cusparse
CUSP="-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv_cusparse"
run_test view/cusparse-ksp-view ours_grep ex2 "$CUSP -ksp_view" "package used to perform factorization: sptrsv_cusparse" "schedule cusparse: 59 levels" "GPU solve: cusparseSpSV \(CSR with the diagonal stored, 32-bit indices, CUSPARSE_SPSV_ALG_DEFAULT\); host: rows in level order"
run_test view/cusparse-csc-error ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_cusparse -sub_mat_sptrsv_format csc" "sptrsv_cusparse reads rows only: -sub_mat_sptrsv_format csc is not supported"
# the measured check: off on the host by default (-ksp_view says why); given explicitly it runs the mechanism on the host
# (the chosen path's host executor against sptrsv_cusparse's), keeps one of them, and the solves stay PETSc's
AUTO="-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv"
run_test view/auto-measure-host-default ours_grep ex2 "$AUTO -mat_sptrsv_auto_learn 0 -ksp_view" "measured check: none on the host backend"
run_test view/auto-measure-host-view ours_grep ex2 "$AUTO -mat_sptrsv_auto_measure 1 -mat_sptrsv_auto_candidates syncfree,cusparse -ksp_view -info" "measured at the first numeric factorization: syncfree [0-9.e+-]+ ms per solve, cusparse [0-9.e+-]+ ms: (kept|cuSPARSE faster, the triangle runs sptrsv_cusparse)" "sptrsv: L triangle, syncfree [0-9.e+-]+ ms per solve, cusparse [0-9.e+-]+ ms \([0-9]+ solves per round\)"
run_test view/auto-measure-off-few-solves ours_grep ex2 "$AUTO -mat_sptrsv_expected_solves 10 -ksp_view" "measured check: off \(-mat_sptrsv_auto_measure 0; off by default when -mat_sptrsv_expected_solves is given\)"
run_test view/auto-measure-off-prefix ours_grep ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv -sub_mat_sptrsv_auto_learn 0 -sub_mat_sptrsv_auto_measure 0 -ksp_view" "measured check: off \(-sub_mat_sptrsv_auto_measure 0; off by default when -sub_mat_sptrsv_expected_solves is given\)"
run_test view/auto-measure-help ours_grep ex2 "$AUTO -help" "-mat_sptrsv_auto_measure: <(TRUE|FALSE) : (TRUE|FALSE)> CUDA: at the first numeric factorization time each triangle.s chosen path against cuSPARSE.s SpSV"
run_test ex2/auto-measure-host-histories with_solver sptrsv compare_case 1 ex2 "$EX2" "-mat_sptrsv_auto_measure 1 -mat_sptrsv_auto_candidates level,cusparse"
run_test ex2/auto-measure-bicg-transpose with_solver sptrsv compare_case 1 ex2 "-m 40 -n 40 -ksp_type bicg -pc_type ilu -ksp_monitor" "-mat_sptrsv_auto_measure 1 -mat_sptrsv_auto_candidates element,cusparse"
run_test view/auto-measure-candidates-without-cusparse ours_grep ex2 "$AUTO -mat_sptrsv_auto_measure 1 -mat_sptrsv_auto_candidates level,syncfree -ksp_view" "measured check: none \(cusparse is not among the candidates, -mat_sptrsv_auto_candidates\)" "automatic choice: level"
# the model's runner-up (locality's blocks kernel and level, predicted within 4x of each other) is timed before
# cuSPARSE; the faster stays and the solves stay PETSc's
RUNNER="-mat_sptrsv_auto_model h100 -mat_sptrsv_auto_measure 1 -mat_sptrsv_auto_candidates level,locality,syncfree,cusparse"
run_test view/auto-measure-runner-up ours_grep ex2 "$AUTO $RUNNER -ksp_view -info" "measured runner-up: (locality|level) [0-9.e+-]+ ms per solve, the model's choice [0-9.e+-]+ ms: (the runner-up replaced it|the choice kept)" "sptrsv: L triangle, (level [0-9.e+-]+ ms per solve, locality|locality [0-9.e+-]+ ms per solve, level) [0-9.e+-]+ ms \([0-9]+ solves per round\)"
run_test ex2/auto-measure-runner-up-histories with_solver sptrsv compare_case 1 ex2 "$EX2" "$RUNNER"
