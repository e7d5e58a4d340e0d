# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# The locality path's chain kernel (-mat_sptrsv_locality_kernel auto|slots|chain; include/sptrsv/paths/locality.h, "The
# chain kernel"). ex2 -m M -n N numbers the grid row by row (row I depends on I-1 and I-N): its ILU(0) factors are
# banded with reach N, so -n 4 gives a window of 8 rows and -n 200 a reach no window of at most 128 rows holds. On the
# host backend the chain kernel runs the rows in the chain order, each summed in column order: histories as
# compare_case checks them. The unit test is tests/unit/test_locality_chain.c; the GPU side is tests/device.

# kernel_compare KERNEL REQUESTED NP "COMMON" "OURS_ONLY" [SUB]: compare_case with sptrsv_locality, then ours' -ksp_view
# must show that KERNEL ran for L and U (not just that the option was read), requested as REQUESTED (a regex)
kernel_compare() {
  local kernel=$1 requested=$2 np=$3 common=$4 ours_only=$5 pre=${6:-} n
  with_solver sptrsv_locality compare_case "$np" ex2 "$common" "$ours_only" "$pre" || return 1
  # (the view names the option without the factor's prefix: accepted either way)
  n=$(grep -cE "kernel: $kernel \(-(${pre})?mat_sptrsv_locality_kernel $requested\)" "$OUT/ours.out")
  [ "$n" -ge 2 ] || fail "-ksp_view shows the $kernel kernel for $n triangles, expected L and U" || return 1
  say "-ksp_view: the $kernel kernel for $n triangles"
}
# chain_compare NP "COMMON" "OURS_ONLY" [SUB]: the chain kernel, forced
chain_compare() { kernel_compare chain chain "$@"; }

CHAIN_BAND="-m 2000 -n 4 -ksp_type gmres -ksp_gmres_restart 30 -pc_type ilu -ksp_monitor"
run_test chain/ex2-banded-gmres30-ilu0 chain_compare 1 "$CHAIN_BAND" "-mat_sptrsv_locality_kernel chain"
# a two-wide strip (reach 2; with -n 1 ILU(0) is exact and the histories are rounding noise) with ICC and CG, and the
# transpose solves of BiCG (the upper triangle's order runs backwards)
run_test chain/ex2-strip-cg-icc0 chain_compare 1 "-m 2000 -n 2 -ksp_type cg -pc_type icc -ksp_monitor" "-mat_sptrsv_locality_kernel chain"
run_test chain/ex2-banded-bicg-transpose chain_compare 1 "-m 500 -n 8 -ksp_type bicg -pc_type ilu -ksp_monitor" "-mat_sptrsv_locality_kernel chain"
# block Jacobi on 2 ranks, the option with the sub-solver's prefix
run_test chain/ex2-bjacobi-np2-sub-prefix chain_compare 2 "-m 1000 -n 6 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "-sub_mat_sptrsv_locality_kernel chain" sub_
CHAIN="-pc_type ilu -pc_factor_mat_solver_type sptrsv_locality"
run_test chain/ksp-view ours_grep ex2 "-m 2000 -n 4 $CHAIN -mat_sptrsv_locality_kernel chain -ksp_view -options_left" "kernel: chain \(-mat_sptrsv_locality_kernel chain\)" "^ +chain: 1 components, reach 4 rows, window 8 rows \(8 lanes x 1 accumulators\), [0-9]+ lane groups, longest [0-9]+ rows, predicted [0-9.e+]+ us" "There are no unused options"
# a forced chain on a 2-D problem whose reach (200) no window holds: an error naming the option; auto falls back to slots
run_test chain/2d-forced-error ours_fails ex2 "-m 10 -n 200 $CHAIN -mat_sptrsv_locality_kernel chain" "-mat_sptrsv_locality_kernel chain: a row depends on a row 200 places before it in the chain order .*use -mat_sptrsv_locality_kernel slots or auto"
run_test chain/2d-auto-slots ours_grep ex2 "-m 10 -n 200 $CHAIN -ksp_view -ksp_converged_reason" "kernel: slots \(-mat_sptrsv_locality_kernel auto\)" "chain: 1 components, reach 200 rows: no window of at most 128 rows holds it" "Linear solve converged"
run_test chain/help ours_grep ex2 "-m 30 -n 30 $CHAIN -help" "-mat_sptrsv_locality_kernel <(now )?auto( : formerly auto)?> .*auto slots chain"
# the same under block Jacobi: the analysis's message names the option with the factor's prefix, as the user typed it
run_test chain/2d-forced-error-sub-prefix ours_fails ex2 "-m 10 -n 200 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_locality -sub_mat_sptrsv_locality_kernel chain" "-sub_mat_sptrsv_locality_kernel chain: a row depends on a row 200 places before it in the chain order .*use -sub_mat_sptrsv_locality_kernel slots or auto"
run_test chain/bad-value ours_fails ex2 "-m 30 -n 30 $CHAIN -mat_sptrsv_locality_kernel foo" "Unknown option foo for -mat_sptrsv_locality_kernel"

# ---- the blocks kernel (-mat_sptrsv_locality_kernel blocks; include/sptrsv/paths/locality.h, "The blocks kernel") ------
# The host executor runs the kernel's arithmetic (every diagonal block inverted and applied to its coupling): the same
# mathematics as the substitution in another rounding, so the iterations are compared (its_compare), as for pinv with
# fill; -ksp_view must show the blocks kernel for L and U. The unit test is tests/unit/test_locality_blocks.c; the GPU
# side is tests/device (steps blocks-*).
blocks_compare() { kernel_compare blocks "(blocks|auto)" "$@"; }
run_test blocks/ex2-banded-gmres30-ilu0 blocks_compare 1 "$CHAIN_BAND" "-mat_sptrsv_locality_kernel blocks"
run_test blocks/ex2-banded-rows128 blocks_compare 1 "$CHAIN_BAND" "-mat_sptrsv_locality_kernel blocks -mat_sptrsv_locality_block_rows 128"
# a bound of 1 on the blocks' condition number: every block with an entry inside is solved by substitution
run_test blocks/ex2-banded-cond1-substitution blocks_compare 1 "$CHAIN_BAND" "-mat_sptrsv_locality_kernel blocks -mat_sptrsv_locality_block_cond 1"
run_test blocks/ex2-strip-cg-icc0 blocks_compare 1 "-m 2000 -n 2 -ksp_type cg -pc_type icc -ksp_monitor" "-mat_sptrsv_locality_kernel blocks"
run_test blocks/ex2-banded-bicg-transpose blocks_compare 1 "-m 500 -n 8 -ksp_type bicg -pc_type ilu -ksp_monitor" "-mat_sptrsv_locality_kernel blocks"
run_test blocks/ex2-bjacobi-np2-sub-prefix blocks_compare 2 "-m 1000 -n 6 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "-sub_mat_sptrsv_locality_kernel blocks" sub_
run_test blocks/ksp-view ours_grep ex2 "-m 2000 -n 4 $CHAIN -mat_sptrsv_locality_kernel blocks -mat_sptrsv_locality_block_rows 32 -ksp_view -options_left" "kernel: blocks \(-mat_sptrsv_locality_kernel blocks\)" "^ +blocks: 250 of 32 rows \(32 lanes x 1 accumulators\), coupling 4 columns, longest group 250 blocks, storage [0-9.]+ times the triangle's, predicted [0-9.e+]+ us" "^ +inverted diagonal blocks: 250 of 250 \(condition number at most 1e\+06, -mat_sptrsv_locality_block_cond; largest inverted [0-9.e+]+, largest [0-9.e+]+\); 0 solved by substitution" "There are no unused options"
run_test blocks/ksp-view-cond1 ours_grep ex2 "-m 2000 -n 4 $CHAIN -mat_sptrsv_locality_kernel blocks -mat_sptrsv_locality_block_rows 32 -mat_sptrsv_locality_block_cond 1 -ksp_view" "^ +inverted diagonal blocks: 0 of 250 \(condition number at most 1\.?, -mat_sptrsv_locality_block_cond; largest inverted 0\.?, largest [0-9.e+]+\); 250 solved by substitution"
run_test blocks/2d-forced-error ours_fails ex2 "-m 10 -n 200 $CHAIN -mat_sptrsv_locality_kernel blocks" "-mat_sptrsv_locality_kernel blocks: a row depends on a row 200 places before it in the chain order .*use -mat_sptrsv_locality_kernel slots or auto"
run_test blocks/bad-rows ours_fails ex2 "-m 30 -n 4 $CHAIN -mat_sptrsv_locality_kernel blocks -mat_sptrsv_locality_block_rows 4" "-mat_sptrsv_locality_block_rows 4: a block must be a power of two from the window, 8 rows \(reach 4\), up to 128 rows"
run_test blocks/bad-rows-sub-prefix ours_fails ex2 "-m 30 -n 4 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv_locality -sub_mat_sptrsv_locality_block_rows 48" "-sub_mat_sptrsv_locality_block_rows 48: a block must be a power of two"
run_test blocks/bad-cond ours_fails ex2 "-m 30 -n 4 $CHAIN -mat_sptrsv_locality_block_cond 0.5" "-mat_sptrsv_locality_block_cond must be >= 1, got 0.5"
run_test blocks/help ours_grep ex2 "-m 30 -n 30 $CHAIN -help" "-mat_sptrsv_locality_kernel <(now )?auto( : formerly auto)?> .*auto slots chain blocks" "-mat_sptrsv_locality_block_cond <(now )?1e\+06" "-mat_sptrsv_locality_block_rows <(now )?0"
