# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# the locality path (paper 004): sub-graphs of at most -mat_sptrsv_subgraph_rows rows, slots; same factors. Small caps
# split the grids into many sub-graphs and levels (the default holds these problems in one sub-graph)
LOC_ROWS="-mat_sptrsv_locality_kernel slots -mat_sptrsv_subgraph_rows" # the sub-graph (slot) kernel: small grids have a window the blocks kernel takes under auto
run_test ex2/locality-ilu0 with_solver sptrsv_locality compare_case 1 ex2 "$EX2" ""
run_test ex2/options-file-ilu-locality with_solver sptrsv_locality compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "-options_file $ROOT/petscconf-snippets/ilu-locality.opts"
run_test ex2/locality-ilu1-rows64 with_solver sptrsv_locality compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "$LOC_ROWS 64"
run_test ex2/locality-icc0-rows200 with_solver sptrsv_locality compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" "$LOC_ROWS 200"
run_test ex2/locality-bicg-transpose-rows300 with_solver sptrsv_locality compare_case 1 ex2 "-m 40 -n 40 -ksp_type bicg -pc_type ilu -ksp_monitor" "$LOC_ROWS 300"
run_test ex2/locality-bjacobi-np2 with_solver sptrsv_locality compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "-sub_mat_sptrsv_subgraph_rows 500" sub_
run_test ex2/locality-regions-ilu0-rows64 with_solver sptrsv_locality compare_case 1 ex2 "$EX2" "-mat_sptrsv_locality_partition regions $LOC_ROWS 64"
run_test ex2/locality-regions-bicg-transpose with_solver sptrsv_locality compare_case 1 ex2 "-m 40 -n 40 -ksp_type bicg -pc_type ilu -ksp_monitor" "-mat_sptrsv_locality_partition regions $LOC_ROWS 50"
run_test ex2/locality-ilu1-rcm-rows1 with_solver sptrsv_locality compare_case 1 ex2 "-m 30 -n 30 -ksp_type gmres -pc_type ilu -pc_factor_levels 1 -pc_factor_mat_ordering_type rcm -ksp_monitor" "$LOC_ROWS 1"
run_test ex45/locality-grid17-rows256 with_solver sptrsv_locality compare_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu -ksp_monitor" "$LOC_ROWS 256"
run_test ex19/locality-newton-ilu0-rows100 with_solver sptrsv_locality compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" "$LOC_ROWS 100"
run_test matrices/locality-cryg2500-ilu1-rows300 with_solver sptrsv_locality mm_compare cryg2500 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8 $LOC_ROWS 300"

# its -ksp_view, -help and messages
LOC="-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv_locality"
run_test view/locality-ksp-view ours_grep ex2 "$LOC -mat_sptrsv_locality_kernel slots -mat_sptrsv_subgraph_rows 100 -ksp_view" "schedule locality" "locality: [0-9]+ sub-graphs of at most 100 rows \(largest [0-9]+\), [0-9]+ sub-graph levels" "slots [0-9]+ \(at most [0-9]+ in a sub-graph, at most [0-9]+ rows in a slot\); entries internal [0-9.]+%, external [0-9.]+%" "partition: [0-9]+ components" "CUDA block: [0-9]+ threads, [0-9]+ lanes per row, at most [0-9]+ bytes of shared memory; launches staging nothing / pointers / entries: [0-9]+ / [0-9]+ / [0-9]+ \(-mat_sptrsv_locality_stage 2\)" "partitioner: (paper|regions) \(-mat_sptrsv_locality_partition auto\)" "  paper: [0-9]+ launches, sub-graphs per launch mean [0-9.]+ max [0-9]+, slots per sub-graph mean [0-9.]+, [0-9]+ slots on the critical path" "  regions: [0-9]+ launches" "  region rows tried \(predicted us\): [0-9]+: "
run_test view/locality-regions-ksp-view ours_grep ex2 "$LOC -mat_sptrsv_locality_kernel slots -mat_sptrsv_locality_partition regions -mat_sptrsv_subgraph_rows 100 -ksp_view" "partition: [0-9]+ components, regions of at most [0-9]+ rows: [0-9]+ regions, [0-9]+ components cut between regions, [0-9]+ pieces packed into another's sub-graph" "partitioner: regions \(-mat_sptrsv_locality_partition regions\)" "sub-graphs of at most 100 rows"
run_test view/locality-bad-partition ours_fails ex2 "$LOC -mat_sptrsv_locality_partition bogus" "mat_sptrsv_locality_partition"
run_test view/locality-help ours_grep ex2 "$LOC -help" "-mat_sptrsv_subgraph_rows <(now )?0" "-mat_sptrsv_graph" "-mat_sptrsv_locality_partition <(now )?auto" "-mat_sptrsv_locality_sms <(now )?132" "-mat_sptrsv_locality_stage <(now )?2" "-mat_sptrsv_locality_pack"
run_test view/locality-csc-error ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_locality -sub_mat_sptrsv_format csc" "sptrsv_locality reads rows only: -sub_mat_sptrsv_format csc is not supported"
run_test view/locality-bad-rows ours_fails ex2 "$LOC -mat_sptrsv_subgraph_rows -3" "-mat_sptrsv_subgraph_rows must be >= 0"
run_test view/locality-bad-stage ours_fails ex2 "$LOC -mat_sptrsv_locality_stage 3" "-mat_sptrsv_locality_stage must be 0, 1 or 2, got 3"
run_test view/locality-stage0-nopack ours_grep ex2 "$LOC -mat_sptrsv_locality_kernel slots -mat_sptrsv_locality_partition regions -mat_sptrsv_subgraph_rows 100 -mat_sptrsv_locality_stage 0 -mat_sptrsv_locality_pack 0 -ksp_view" "launches staging nothing / pointers / entries: [1-9][0-9]* / 0 / 0 \(-mat_sptrsv_locality_stage 0\)" ", 0 pieces packed into another's sub-graph"
