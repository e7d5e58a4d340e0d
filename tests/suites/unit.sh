# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# a. unit tests: every tests/unit/test_*, and the host runs of the device checks and the fuzz drivers
unit_test() { # unit_test BIN [ARGS...]
  local bin=$1
  shift
  say "\$ $bin $*"
  timeout "$TMO" "$bin" "$@" >"$OUT/unit.out" 2>&1
  local rc=$?
  cat "$OUT/unit.out"
  [ $rc = 0 ] || fail "exit status $rc$([ $rc = 124 ] && echo " (timed out after ${TMO}s)")" || return 1
  ! grep -q '^not ok' "$OUT/unit.out" || fail "a 'not ok' line in the output"
}

shopt -s nullglob
units=()
for src in tests/unit/test_*.c; do units+=("${src%.c}"); done
for bin in "${units[@]}"; do
  # the unit tests that read the test matrices take their directory as -matdir
  margs=()
  grep -q '"-matdir"' "$bin.c" && margs=(-matdir "$MATDIR")
  if [ -x "$bin" ]; then run_test "unit/${bin##*/}" unit_test "$bin" "${margs[@]}"
  else run_test "unit/${bin##*/}" fail "$bin.c is not built (make unit-tests)"; fi
done
shopt -u nullglob
# the fuzz driver of the sync-free kernels (tests/device/check_fuzz.c) on the host executors: random triangles of
# every shape (chains of 1e6 rows, 1e5 levels, dense and empty rows), every sync-free variant, with its schedule check
run_test unit/fuzz-syncfree-host unit_test tests/device/check_fuzz -backend host -cases 2000 -big_every 1000
# the device check of every path's CUDA executor (tests/device/check_kernels.c) without a GPU: its list of
# configurations covers every registered path (a path silently left out of the device check fails here: the guards that
# once hid all but two paths), its host comparisons (host csc and every path's host executor against host csr) pass
# with comparisons made, and a filter that leaves nothing to compare fails
check_kernels_nothing() {
  need_file tests/device/check_kernels "make unit-tests" || return 1
  local rc=0
  timeout "$TMO" tests/device/check_kernels -cases no_such_case >"$OUT/ck.out" 2>&1 || rc=$?
  cat "$OUT/ck.out"
  [ $rc != 0 ] || fail "check_kernels passed with nothing compared" || return 1
  grep -q "FAIL: no comparison ran" "$OUT/ck.out" || fail "no 'FAIL: no comparison ran' line"
}
check_kernels_host() {
  need_file tests/device/check_kernels "make unit-tests" || return 1
  unit_test tests/device/check_kernels "$@" || return 1
  grep -Eq "^[1-9][0-9]* passed, 0 failed" "$OUT/unit.out" || fail "no comparison passed"
}
run_test unit/check-kernels-configs unit_test tests/device/check_kernels -list_configs -assume_cuda
run_test unit/check-kernels-host check_kernels_host -cases lap2d5_64x64,lap3d27_16x16x16_rcm,banded2_2000,bayer10 -nrhs 1 -matdir "$MATDIR"
run_test unit/check-kernels-nothing-fails check_kernels_nothing
# the device check of the multicolor sweeps (tests/device/check_multicolor.c) without a GPU: it builds, runs the host
# executor through every option set and value refresh, and the zero-diagonal failure (the comparisons need the GPU)
run_test unit/check-multicolor-host unit_test tests/device/check_multicolor -quick
# the long-run and leak check (tests/device/check_longrun.c) on the host backend: 10^3 refactorizations and 10^4 solves
# per path, 10^2 PC gs / PC isai setups, PETSc's tracing malloc: no host growth, results equal to PETSc's ILU/SOR, the
# factor lifetime rules (the GPU run is tests/device/run.sh's step longrun)
run_test unit/check-longrun-host unit_test tests/device/check_longrun -backend host -n 30 -refactor 1000 -solves 10000 -pc_setups 100 -malloc_debug
# the same with 10 applies after each refactorization (a Newton / time-step workload: -solves_per_setup, which the GPU
# run uses to time the paths against PETSc's cusparse), sync-free and the learning choice, which may switch paths then
run_test unit/check-longrun-host-interleaved unit_test tests/device/check_longrun -backend host -n 30 -refactor 200 -solves 2000 -solves_per_setup 10 -pc_setups 10 -paths syncfree,sptrsv -malloc_debug
# hostile input (tests/fuzz/fuzz_input): 10^4 spoiled or valid Matrix Market / PETSc binary files through every sptrsv_*
# solver type, PC isai and PC gs, plus the (seed, case) pairs that once failed (-regression); the last line must
# report 0 failures (docs/TESTING.md, "Hostile input")
fuzz_input_case() {
  need_file tests/fuzz/fuzz_input "make unit-tests" || return 1
  unit_test tests/fuzz/fuzz_input "$@" || return 1
  grep -Eq '^fuzz_input: [0-9]+ cases, .* 0 failures$' "$OUT/unit.out" || fail "no 'fuzz_input: N cases ... 0 failures' line"
}
run_test unit/fuzz-input-host fuzz_input_case -backend host -seed 1 -cases 10000 -regression
