# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# i. several ranks (issue 15): block Jacobi and ASM with every registered sptrsv_* sub-solver type against PETSc's own
#    sub-solvers on 2 ranks (residual histories to 1e-10, so the same iterations), PC gs on 2 ranks against PCSOR's local
#    sweeps, and the one-GPU-per-rank check (tests/device/check_multigpu.c) in its host mode: it skips, saying so, when
#    the objects ran on the host; its detection of shared GPUs runs on synthetic PCI bus ids (the GPUs: run-multigpu.sh)

# every sptrsv_* MatSolverType the plugin registers: sptrsv_<name> for each SPTRSV_PATH(name, NAME) line of
# include/petscsptrsv.h (a path's recipe adds its line there, docs/ARCHITECTURE.md), then the automatic MATSOLVERSPTRSV
MPI_TYPES=$(sed -n -e 's/^ *SPTRSV_PATH(\([a-z_]*\), [A-Z_]*).*/sptrsv_\1/p' -e 's/^#define MATSOLVERSPTRSV *"\(sptrsv\)".*/\1/p' include/petscsptrsv.h)
mpi_types_listed() {
  say "sptrsv_* types: $(echo $MPI_TYPES)"
  [ "$(echo "$MPI_TYPES" | wc -w)" -ge 5 ] || fail "expected at least 5 MatSolverTypes (level, element, syncfree, locality, sptrsv)" || return 1
  for t in sptrsv_level sptrsv_element sptrsv_syncfree sptrsv_locality sptrsv; do
    echo "$MPI_TYPES" | grep -qx "$t" || fail "$t missing from the list" || return 1
  done
}
run_test mpi/solver-types-listed mpi_types_listed
MPI_EX45="-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -ksp_monitor"
for t in $MPI_TYPES; do
  mpi_sub="-sub_mat_sptrsv_backend host"
  # the supernodal path's own kernels, not the sync-free schedule it hands these narrow ILU(0) blocks to by default
  [ "$t" = sptrsv_supernodal ] && mpi_sub="$mpi_sub -sub_mat_sptrsv_supernode_min_width 0"
  run_test "mpi/ex45-bjacobi-np2-$t" with_solver "$t" compare_case 2 ex45 "$MPI_EX45 -pc_type bjacobi -sub_pc_type ilu" "$mpi_sub" sub_
  run_test "mpi/ex45-asm-np2-$t" with_solver "$t" compare_case 2 ex45 "$MPI_EX45 -pc_type asm -sub_pc_type ilu" "$mpi_sub" sub_
done
# PC gs on 2 ranks: local sweeps of each rank's diagonal block, as PCSOR on a parallel matrix; and as ASM's sub-solver
run_test mpi/ex45-gs-local-np2 gs_case 2 ex45 "$MPI_EX45" "-pc_type sor" "-pc_type gs -pc_gs_backend host"
run_test mpi/ex45-asm-gs-np2 gs_case 2 ex45 "$MPI_EX45 -pc_type asm" "-sub_pc_type sor -sub_pc_sor_its 2" "-sub_pc_type gs -sub_pc_gs_its 2 -sub_pc_gs_backend host"

# multigpu_check EXPECT(pass|fail|skip) PATTERN NP ARGS...: tests/device/check_multigpu on NP ranks must exit 0 (pass, skip)
# or nonzero (fail) without a crash, with PATTERN (extended regex) in its output
multigpu_check() {
  local want=$1 pat=$2 np=$3 o=$OUT/multigpu.out rc
  shift 3
  need_file tests/device/check_multigpu "make unit-tests" || return 1
  prun "$o" "${MPIEXEC[@]}" -n "$np" tests/device/check_multigpu -n 12 "$@"
  rc=$?
  ! grep -q "Caught signal" "$o" || fail "check_multigpu crashed" || return 1
  [ $rc -lt 124 ] || fail "check_multigpu died (exit $rc)" || return 1
  case $want in
  pass) [ $rc = 0 ] && grep -q "^check_multigpu: PASS" "$o" || fail "expected PASS and exit 0, got exit $rc" || return 1 ;;
  skip) [ $rc = 0 ] && grep -q "^check_multigpu: no CUDA device, skipped" "$o" || fail "expected 'no CUDA device, skipped' and exit 0, got exit $rc" || return 1 ;;
  fail) [ $rc != 0 ] && grep -q "^check_multigpu: FAIL" "$o" || fail "expected FAIL and a nonzero exit, got exit $rc" || return 1 ;;
  esac
  grep -Eq -- "$pat" "$o" || fail "output lacks /$pat/"
}
MG_HOST="-sub_mat_sptrsv_backend host"
run_test mpi/check-multigpu-host-skip multigpu_check skip "^solve: CONVERGED" 2 $MG_HOST
run_test mpi/check-multigpu-host-require-cuda multigpu_check fail "-require_cuda, but a rank's objects ran on the host backend" 2 $MG_HOST -require_cuda
run_test mpi/check-multigpu-host-gs-asm-skip multigpu_check skip "rank 1: .* 1 plugin objects" 2 -ksp_type gmres -pc_type asm -sub_pc_type gs -sub_pc_gs_backend host
run_test mpi/check-multigpu-no-plugin-object multigpu_check fail "a rank has no petsc-sptrsv object" 2 -sub_pc_factor_mat_solver_type petsc
run_test mpi/check-multigpu-synthetic-distinct multigpu_check pass "2 ranks on 2 distinct GPUs, synthetic ids" 2 $MG_HOST -synthetic_pci 0000:01:00.0,0000:02:00.0
run_test mpi/check-multigpu-synthetic-shared multigpu_check fail "FAIL: node .*: 2 ranks share 1 GPU while the node has 2" 2 $MG_HOST -synthetic_pci 0000:01:00.0,0000:01:00.0
run_test mpi/check-multigpu-synthetic-shared-allowed multigpu_check pass "NOTE: .* allowed by -expect_distinct_gpus 0" 2 $MG_HOST -synthetic_pci 0000:01:00.0,0000:01:00.0 -expect_distinct_gpus 0
run_test mpi/check-multigpu-synthetic-one-gpu multigpu_check pass "2 ranks on 1 distinct GPU" 2 $MG_HOST -synthetic_pci 0000:01:00.0,0000:01:00.0 -synthetic_gpus 1
run_test mpi/check-multigpu-synthetic-hidden-gpu multigpu_check fail "2 ranks share 1 GPU while the node has 2" 2 $MG_HOST -synthetic_pci 0000:01:00.0,0000:01:00.0 -synthetic_gpus 1 -gpus_per_node 2
run_test mpi/check-multigpu-synthetic-foreign-buffer multigpu_check fail "FAIL: rank 1: 1 of its 2 device buffers are not memory of its GPU" 2 $MG_HOST -synthetic_pci 0000:01:00.0,0000:02:00.0 -synthetic_foreign 1
run_test mpi/check-multigpu-synthetic-np4-even multigpu_check pass "4 ranks on 2 distinct GPUs" 4 $MG_HOST -synthetic_pci a,b,a,b
run_test mpi/check-multigpu-synthetic-np4-uneven multigpu_check fail "3 of its 4 ranks on the GPU at PCI a" 4 $MG_HOST -synthetic_pci a,a,a,b
