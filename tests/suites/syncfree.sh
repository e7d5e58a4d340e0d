# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# the sync-free path (paper 001): warp-packed rows, ASAP or ALAP levels, CSR or warp-packed ELL; same factors
SF_ALAP="-mat_sptrsv_levels alap"
SF_ELL="-mat_sptrsv_storage warpell"
run_test ex2/syncfree-ilu0 with_solver sptrsv_syncfree compare_case 1 ex2 "$EX2" ""
run_test ex2/options-file-ilu-syncfree with_solver sptrsv_syncfree compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "-options_file $ROOT/petscconf-snippets/ilu-syncfree.opts"
run_test ex2/syncfree-ilu1-alap-warpell with_solver sptrsv_syncfree compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "$SF_ALAP $SF_ELL"
run_test ex2/syncfree-icc0-alap with_solver sptrsv_syncfree compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" "$SF_ALAP"
run_test ex2/syncfree-bjacobi-np2 with_solver sptrsv_syncfree compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "-sub_mat_sptrsv_storage warpell" sub_
run_test ex2/syncfree-natural-ilu1-rcm with_solver sptrsv_syncfree compare_case 1 ex2 "$EX2 -pc_factor_levels 1 -pc_factor_mat_ordering_type rcm" "-mat_sptrsv_dispatch natural"
run_test ex19/syncfree-natural-warpell-newton with_solver sptrsv_syncfree compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" "-mat_sptrsv_dispatch natural $SF_ELL"
run_test ex45/syncfree-runs-grid17 with_solver sptrsv_syncfree compare_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu -ksp_monitor" "-mat_sptrsv_dispatch runs"
run_test ex45/syncfree-runs-ilu1-box with_solver sptrsv_syncfree compare_case 1 ex45 "-da_grid_x 40 -da_grid_y 6 -da_grid_z 5 -pc_type ilu -pc_factor_levels 1 -ksp_monitor" "-mat_sptrsv_dispatch runs"
run_test ex2/syncfree-runs-icc0 with_solver sptrsv_syncfree compare_case 1 ex2 "-m 300 -n 20 -ksp_type cg -pc_type icc -ksp_monitor" "-mat_sptrsv_dispatch runs"
run_test ex45/syncfree-grid17-warpell with_solver sptrsv_syncfree compare_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu -ksp_monitor" "$SF_ELL"
run_test ex19/syncfree-newton-ilu0-alap with_solver sptrsv_syncfree compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" "$SF_ALAP $SF_ELL"
run_test matrices/syncfree-cryg2500-ilu1-alap-warpell with_solver sptrsv_syncfree mm_compare cryg2500 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8 $SF_ALAP $SF_ELL"

# its -ksp_view, -help and messages
SF="-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv_syncfree"
run_test view/syncfree-ksp-view ours_grep ex2 "$SF -mat_sptrsv_levels alap -mat_sptrsv_storage warpell -ksp_view" "schedule syncfree" "sync-free: level-order dispatch, ALAP levels, warp-packed ELL storage, [0-9]+ warps" "rows \(warps\) by lanes per row: 1: [0-9]+ \([0-9]+\), 2: [0-9]+" "warp-packed ELL: [0-9]+ slots \([0-9.]+% filled\)"
run_test view/syncfree-help ours_grep ex2 "$SF -help" "-mat_sptrsv_levels <now asap : formerly asap>" "-mat_sptrsv_storage <now csr : formerly csr>" "-mat_sptrsv_dispatch <now level : formerly level>" "-mat_sptrsv_run_rows <now 1 : formerly 1>" "-mat_sptrsv_run_poll <now all : formerly all>" "-mat_sptrsv_block_warps <now 0 : formerly 0>" "-mat_sptrsv_spin_ns" "-mat_sptrsv_blocks_per_sm" "-mat_sptrsv_relabel <now auto : formerly auto>"
run_test view/syncfree-csc-error ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_syncfree -sub_mat_sptrsv_format csc" "sptrsv_syncfree reads rows only: -sub_mat_sptrsv_format csc is not supported"
run_test view/syncfree-runs-ksp-view ours_grep ex2 "-m 30 -n 40 -pc_type ilu -pc_factor_mat_solver_type sptrsv_syncfree -mat_sptrsv_dispatch runs -ksp_view" "sync-free: runs dispatch, no levels, CSR storage, 60 warps" "runs: 60 windows of 20.0 rows on average \(up to 1 rows per lane\), 1140 rows chained to the row before them in the warp; critical path 31 windows \(69 levels\)"
run_test view/syncfree-runs-poll-all ours_grep ex2 "-m 30 -n 40 -pc_type ilu -pc_factor_mat_solver_type sptrsv_syncfree -mat_sptrsv_dispatch runs -ksp_view" "waiting lanes poll without pause, every lane polls its own words \(-mat_sptrsv_run_poll all\)" "60 warps of 32 threads in blocks of 1 warp"
run_test view/syncfree-runs-poll-lane ours_grep ex2 "-m 30 -n 40 -pc_type ilu -pc_factor_mat_solver_type sptrsv_syncfree -mat_sptrsv_dispatch runs -mat_sptrsv_run_poll lane -mat_sptrsv_block_warps 4 -ksp_view" "waiting lanes poll without pause, one lane polls the latest word \(-mat_sptrsv_run_poll lane\)" "60 warps of 32 threads in blocks of 4 warps"
run_test view/syncfree-block-warps-bad ours_fails ex2 "$SF -mat_sptrsv_block_warps 3" "-mat_sptrsv_block_warps must be 0 \(automatic\), 1, 2 or 4, got 3"
run_test view/syncfree-runs-poll-bad ours_fails ex2 "$SF -mat_sptrsv_dispatch runs -mat_sptrsv_run_poll some" "Unknown option some for -mat_sptrsv_run_poll"
run_test view/syncfree-runs-warpell-error ours_fails ex2 "$SF -mat_sptrsv_dispatch runs -mat_sptrsv_storage warpell" "-mat_sptrsv_dispatch runs reads CSR: it cannot be combined with -mat_sptrsv_storage warpell"
run_test view/syncfree-runs-bad-rows ours_fails ex2 "$SF -mat_sptrsv_dispatch runs -mat_sptrsv_run_rows 3" "-mat_sptrsv_run_rows must be 1, 2, 4 or 8, got 3"
run_test view/syncfree-bad-levels ours_fails ex2 "$SF -mat_sptrsv_levels late" "-mat_sptrsv_levels.*late"
