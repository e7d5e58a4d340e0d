# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# g. PC isai ------------------------------------------------------------------------------------------
#    (incomplete sparse approximate inverses of ILU/ICC/BILU factors; host build: apply = two SpMVs)
#    isai_exact: N T - I is strictly (block) triangular, hence nilpotent, so enough relaxation steps
#    (-pc_isai_relaxation_steps) turn PC isai into the exact factor solves: the same iterations as PETSc's
#    ILU/ICC (BAIJ: MATSEQBAIJ ILU), histories to TOL (default 1e-10; ill-conditioned Jacobians and
#    matrices, where substitution and inverse round differently, get a looser TOL but the same iterations).
#    isai_powers: PETSc's ILU and PC isai with k = 1, 2, 3 (no relaxation): every run converges, the
#    iterations are logged, and k = 3 needs no more iterations than k = 1.
isai_exact() { # isai_exact NP PROG "COMMON" "NATIVE" "ISAI" [TOL] [PATTERN in ours' output]
  local np=$1 prog=$2 common=$3 nat=$4 ours=$5 tol=${6:-1e-10} pat=${7:-} exe=$OUT/bin/$2 a=$OUT/native.out b=$OUT/ours.out cmd=()
  need_file "$exe" "see the build/programs test" || return 1
  [ "$np" -gt 1 ] && cmd=("${MPIEXEC[@]}" -n "$np")
  # shellcheck disable=SC2086
  prun "$a" "${cmd[@]}" "$exe" $common $nat -ksp_converged_reason || fail "native run failed" || return 1
  # shellcheck disable=SC2086
  prun "$b" "${cmd[@]}" "$exe" -dll_append "$LIB" $common $ours -ksp_converged_reason -ksp_view -options_left || fail "PC isai run failed" || return 1
  ! grep -q "There are options you set that were not used" "$b" || fail "PC isai run left options unused" || return 1
  grep -q "type: isai" "$b" || fail "-ksp_view does not show PC isai" || return 1
  [ -z "$pat" ] || grep -Eq -- "$pat" "$b" || fail "PC isai output lacks /$pat/" || return 1
  say "native: $(last_its "$a") iterations; isai: $(last_its "$b") iterations (last solve)"
  compare_monitors "$a" "$b" "$tol"
}

# total linear iterations of a run (every "Linear solve converged ... iterations N"); fails if one did not converge
isai_total_its() {
  ! grep -q "Linear solve did not converge" "$1" || return 1
  sed -n 's/.*Linear solve converged .* iterations \([0-9][0-9]*\).*/\1/p' "$1" | awk '{s += $1} END {if (NR == 0) exit 1; print s}'
}

isai_powers() { # isai_powers PROG "COMMON" "NATIVE" "ISAI"
  local prog=$1 common=$2 nat=$3 ours=$4 exe=$OUT/bin/$1 o=$OUT/ours.out k its line first=""
  need_file "$exe" "see the build/programs test" || return 1
  # shellcheck disable=SC2086
  prun "$OUT/native.out" "$exe" $common $nat -ksp_converged_reason >/dev/null || fail "native run failed" || return 1
  line="native: $(isai_total_its "$OUT/native.out") iterations"
  for k in 1 2 3; do
    # shellcheck disable=SC2086
    prun "$o" "$exe" -dll_append "$LIB" $common $ours -pc_isai_power "$k" -ksp_converged_reason >/dev/null || fail "PC isai k=$k failed" || return 1
    its=$(isai_total_its "$o") || fail "PC isai k=$k: a linear solve did not converge" || return 1
    line="$line; isai k=$k: $its"
    [ -n "$first" ] || first=$its
  done
  say "$line (total linear iterations)"
  [ "$its" -le "$first" ] || fail "PC isai k=3 needs $its iterations, k=1 $first"
}

run_test isai/ex2-k4-relax8-exact isai_exact 1 ex2 "-m 20 -n 20 -ksp_monitor" "-pc_type ilu" "-pc_type isai -pc_isai_power 4 -pc_isai_relaxation_steps 8"
# BiCG applies the transpose of the preconditioner too (PCApplyTranspose: N_L^T N_U^T, transposed relaxation)
run_test isai/ex2-bicg-transpose-exact isai_exact 1 ex2 "-m 20 -n 20 -ksp_type bicg -ksp_monitor" "-pc_type ilu" "-pc_type isai -pc_isai_power 4 -pc_isai_relaxation_steps 8"
run_test isai/ex2-ilu2-long-path-exact isai_exact 1 ex2 "-m 30 -n 30 -ksp_monitor" "-pc_type ilu -pc_factor_levels 2" "-pc_type isai -pc_isai_levels 2 -pc_isai_power 4 -pc_isai_relaxation_steps 12" 1e-10 "long path \(> 32 blocks\): [1-9][0-9]* of 900 columns"
run_test isai/ex2-icc-exact isai_exact 1 ex2 "-m 30 -n 30 -ksp_monitor" "-pc_type icc" "-pc_type isai -pc_isai_factor_type icc -pc_isai_power 4 -pc_isai_relaxation_steps 12"
run_test isai/ex2-bjacobi-np2-exact isai_exact 2 ex2 "-m 30 -n 30 -ksp_monitor -pc_type bjacobi" "-sub_pc_type ilu" "-sub_pc_type isai -sub_pc_isai_power 4 -sub_pc_isai_relaxation_steps 12"
run_test isai/ex2-powers isai_powers ex2 "-m 60 -n 60" "-pc_type ilu" "-pc_type isai"
run_test isai/ex2-bs3-powers isai_powers ex2 "-m 30 -n 30" "-pc_type ilu" "-pc_type isai -pc_isai_block_size 3"
run_test isai/ex2-bs5-powers isai_powers ex2 "-m 30 -n 30" "-pc_type ilu" "-pc_type isai -pc_isai_block_size 5"
# ex19 (4 fields per node): BILU with block size 4 on -dm_mat_type baij; its AIJ matrix carries block size 4,
# which PC isai uses by default (the same factor as PETSc's BAIJ ILU); -pc_isai_block_size 1: scalar ILU
I19="-da_grid_x 16 -da_grid_y 16 -snes_monitor -ksp_monitor"
run_test isai/ex19-baij-exact isai_exact 1 ex19 "$I19 -dm_mat_type baij" "-pc_type ilu" "-pc_type isai -pc_isai_power 4 -pc_isai_relaxation_steps 8" 1e-4 "factor BILU\(0\), block size 4"
run_test isai/ex19-aij-blocks-vs-baij-exact isai_exact 1 ex19 "$I19" "-dm_mat_type baij -pc_type ilu" "-pc_type isai -pc_isai_power 4 -pc_isai_relaxation_steps 8" 1e-4 "factor BILU\(0\), block size 4"
run_test isai/ex19-scalar-exact isai_exact 1 ex19 "$I19 -mat_no_inode" "-pc_type ilu" "-pc_type isai -pc_isai_block_size 1 -pc_isai_power 4 -pc_isai_relaxation_steps 8" 1e-4 "factor ILU\(0\), block size 1"
run_test isai/ex19-baij-powers isai_powers ex19 "$I19 -dm_mat_type baij" "-pc_type ilu" "-pc_type isai"
# shared matrices with block sizes 2, 4 (PETSc's BAIJ ILU converges on these; b = A * ones)
IM="-ksp_type gmres -ksp_max_it 2000 -ksp_rtol 1e-8"
run_test isai/watt_2-bs4-exact isai_exact 1 mmsolve "-f $MATDIR/watt_2.mtx.gz -mat_type baij -mat_block_size 4 $IM -ksp_monitor" "-pc_type ilu" "-pc_type isai -pc_isai_power 4 -pc_isai_relaxation_steps 10" 1e-5
run_test isai/watt_2-aij-bs4-vs-baij isai_exact 1 mmsolve "-f $MATDIR/watt_2.mtx.gz $IM -ksp_monitor -pc_type isai -pc_isai_power 2" "-mat_type baij -mat_block_size 4" "-pc_isai_block_size 4" 1e-7
run_test isai/watt_2-bs2-powers isai_powers mmsolve "-f $MATDIR/watt_2.mtx.gz -mat_type baij -mat_block_size 2 $IM" "-pc_type ilu" "-pc_type isai"
run_test isai/watt_2-bs4-powers isai_powers mmsolve "-f $MATDIR/watt_2.mtx.gz -mat_type baij -mat_block_size 4 $IM" "-pc_type ilu" "-pc_type isai"
run_test isai/494_bus-bs2-powers isai_powers mmsolve "-f $MATDIR/494_bus.mtx.gz -mat_type baij -mat_block_size 2 $IM" "-pc_type ilu" "-pc_type isai"
run_test isai/view ours_grep ex2 "-m 30 -n 30 -pc_type isai -pc_isai_power 2 -ksp_view" "type: isai" "N_L ~ L\^-1 on S\(\|L\|\^2\)" "L: [0-9]+ blocks \(diagonal included\), N_L: [0-9]+ blocks" "long path \(> 32 blocks\): 0 of 900 columns" "setup time: factor .* column solves" "seqaij matrices"
run_test isai/ex19-refactor-view ours_grep ex19 "-da_grid_x 16 -da_grid_y 16 -dm_mat_type baij -pc_type isai -ksp_view" "factor BILU\(0\), block size 4" "numeric setups 2" "seqbaij matrices"
run_test isai/log-view ours_grep ex2 "-m 30 -n 30 -pc_type isai -log_view" "^SpTrsvISAISetup " "^SpTrsvISAIApply " "^PCApply "
run_test isai/help ours_grep ex2 "-m 30 -n 30 -pc_type isai -help" "-pc_isai_power" "-pc_isai_levels" "-pc_isai_block_size" "-pc_isai_relaxation_steps" "-pc_isai_backend" "-pc_isai_gpu_factor" "-pc_isai_gpu_bsr" "-pc_isai_shift_type"
# a zero pivot fails PC isai as it fails PETSc's ILU (scalar, and block ILU against PETSc's BAIJ ILU): the same
# converged reason (DIVERGED_PC_FAILED); with -ksp_error_if_not_converged an error naming the (block) row
run_test isai/bad-zero-pivot same_reason 1 mmsolve "-builtin zeropivot -ksp_type gmres" "-pc_type ilu" "-pc_type isai" DIVERGED_PC_FAILED
run_test isai/bad-zero-pivot-error ours_fails mmsolve "-builtin zeropivot -ksp_type gmres -pc_type isai -ksp_error_if_not_converged" "Zero pivot in row 1 of the factored matrix"
run_test isai/bad-singular-block same_reason 1 mmsolve "-builtin singularblock -ksp_type gmres" "-mat_type baij -mat_block_size 2 -pc_type ilu" "-pc_type isai -pc_isai_block_size 2" DIVERGED_PC_FAILED
run_test isai/bad-singular-block-baij same_reason 1 mmsolve "-builtin singularblock -mat_type baij -mat_block_size 2 -ksp_type gmres" "-pc_type ilu" "-pc_type isai" DIVERGED_PC_FAILED
run_test isai/bad-singular-block-error ours_fails mmsolve "-builtin singularblock -ksp_type gmres -pc_type isai -pc_isai_block_size 2 -ksp_error_if_not_converged" "diagonal block of block row 1 \(rows 2 to 3\).*singular"
run_test isai/bad-singular-block-baij-error ours_fails mmsolve "-builtin singularblock -mat_type baij -mat_block_size 2 -ksp_type gmres -pc_type isai -ksp_error_if_not_converged" "diagonal block of block row 1 \(rows 2 to 3\).*singular"
run_test isai/bad-zero-pivot-view ours_grep mmsolve "-builtin zeropivot -ksp_type gmres -pc_type isai -ksp_view" "last numeric setup FAILED: zero pivot in row 1 of the factor"
run_test isai/bad-missing-diagonal ours_fails mmsolve "-f $MATDIR/west0479.mtx.gz -ksp_type gmres -pc_type isai" "missing diagonal entry in row [0-9]+"
run_test isai/bad-block-size ours_fails mmsolve "-f $MATDIR/494_bus.mtx.gz -ksp_type gmres -pc_type isai -pc_isai_block_size 3" "not a multiple of the block size 3"
run_test isai/bad-power ours_fails ex2 "-m 10 -n 10 -pc_type isai -pc_isai_power 5" "outside 1 \.\. 4"
# the GPU apply uses PETSc's cuSPARSE matrices: asking for it from a PETSc without CUDA must say so (with a CUDA PETSc,
# tests/device/check_isai.c compares it with the host apply)
if ! grep -q "define PETSC_HAVE_CUDA 1" "${PETSC_DIR:-/usr/lib/petsc}/include/petscconf.h" 2>/dev/null; then
  run_test isai/backend-cuda-needs-cuda-petsc ours_fails ex2 "-m 10 -n 10 -pc_type isai -pc_isai_backend cuda" "needs a PETSc configured with CUDA"
  # the message names the option as the user typed it, with the PC's prefix
  run_test isai/backend-cuda-prefixed-option ours_fails ex2 "-m 10 -n 10 -pc_type bjacobi -sub_pc_type isai -sub_pc_isai_backend cuda" "-sub_pc_isai_backend cuda requested, but .*needs a PETSc configured with CUDA"
fi
run_test isai/options-file ours_grep ex2 "-m 12 -n 12 -options_file $ROOT/petscconf-snippets/isai.opts -ksp_view -ksp_converged_reason" "type: isai" "N_L ~ L\^-1 on S\(\|L\|\^1\)" "Linear solve converged"
run_test isai/view-host-backend ours_grep ex2 "-m 12 -n 12 -pc_type isai -ksp_view" "backend host \(requested auto\): column solves on the host; apply: 2 SpMVs with seqaij matrices"
# ---- end of g. PC isai -------------------------------------------------------------------------------
