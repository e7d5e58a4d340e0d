# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# b. the demo program (examples/ex1: it asserts iterations and residual norms of petsc vs sptrsv_level itself),
#    the program that registers the plugin by hand, and the demo script
ex1_case() {
  local np=$1
  shift
  need_file examples/ex1 "make examples" || return 1
  local o=$OUT/ex1.out cmd=(examples/ex1)
  [ "$np" -gt 1 ] && cmd=("${MPIEXEC[@]}" -n "$np" examples/ex1)
  prun "$o" "${cmd[@]}" "$@" || fail "ex1 exited nonzero (it checks iterations and residual norms itself)" || return 1
  grep -q "^Check passed" "$o" || fail "no 'Check passed' line" || return 1
  grep -Eq '^sptrsv_level +[0-9]+ .* (host|cuda)' "$o" || fail "no sptrsv_level row with a backend (host|cuda)"
}

# the checks in ex1 can fail: a run that does not converge, residual norms that differ by more than -check_rtol
ex1_detects_mismatch() {
  need_file examples/ex1 "make examples" || return 1
  if prun "$OUT/ex1.out" examples/ex1 -n 8 -ksp_max_it 3; then fail "ex1 exited 0 although no run converged"; return 1; fi
  grep -q "^FAILED: sptrsv_level did not converge" "$OUT/ex1.out" || fail "no 'FAILED: sptrsv_level did not converge' line" || return 1
  if prun "$OUT/ex1.out" examples/ex1 -n 8 -check_rtol -1; then fail "ex1 exited 0 with -check_rtol -1"; return 1; fi
  grep -q "^FAILED: final residual norms of sptrsv_level" "$OUT/ex1.out" || fail "no 'FAILED: final residual norms' line"
}

# a program that registers the plugin's PC and solver type itself (no -dll_append, no SpTrsvInitializePackage)
register_case() {
  need_file examples/ex2_register "make examples" || return 1
  local o=$OUT/ex2_register.out
  prun "$o" examples/ex2_register "$@" || fail "ex2_register exited nonzero (it checks the iterations itself)" || return 1
  grep -q "^OK: registered by hand" "$o" || fail "no 'OK: registered by hand' line" || return 1
  grep -Eq '^ilu +sptrsv_level +[0-9]+ iterations, CONVERGED' "$o" || fail "no converged sptrsv_level row" || return 1
  grep -Eq '^isai +[0-9]+ iterations, CONVERGED' "$o" || fail "no converged isai row"
}

run_test ex1/default-n12 ex1_case 1 -n 12
run_test ex1/laplace-ilu1 ex1_case 1 -n 10 -beta 0 -pc_factor_levels 1
run_test ex1/csc-rcm ex1_case 1 -n 10 -beta 50 -mat_sptrsv_format csc -pc_factor_mat_ordering_type rcm
run_test ex1/host ex1_case 1 -n 10 -solver_types petsc,sptrsv_level,sptrsv_level -mat_sptrsv_backend host
run_test ex1/bjacobi-np2 ex1_case 2 -n 12
run_test ex1/anisotropic-grid ex1_case 1 -da_grid_x 20 -da_grid_y 7 -da_grid_z 5 -beta 100
run_test ex1/detects-mismatch ex1_detects_mismatch
run_test register/ex2_register register_case -n 48
# the demo script: petsc beside sptrsv (the automatic choice), and on the host backend the line that says it is the
# reference executor
demo_case() {
  local o=$OUT/demo.out
  prun "$o" bash examples/demo.sh "$@" || fail "the demo exited nonzero (ex1 checks iterations and residual norms)" || return 1
  grep -Eq '^sptrsv +[0-9]+ .* (host|cuda)$' "$o" || fail "no sptrsv row with a backend (host|cuda)" || return 1
  if grep -Eq '^sptrsv +[0-9]+ .* host$' "$o"; then
    grep -q "^No GPU was used: the sptrsv row ran on the host backend, the plugin's reference executor" "$o" || fail "a host run without the line that says the host backend is the reference executor"
  fi
}
run_test demo/demo.sh demo_case
