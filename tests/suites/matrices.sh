# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
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
