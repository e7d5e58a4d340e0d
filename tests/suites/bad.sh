# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
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
