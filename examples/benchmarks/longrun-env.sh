# Sourced by the refactorization benchmarks (run-refactor-profile-device.sh, run-refactor-variants-device.sh), with ROOT
# (the repository root) set: longrun_prepare OUTDIR builds the plugin and tests/device/check_longrun through
# tests/device/run.sh (its longrun step at small counts, log in OUTDIR/build.log; a failed build prints its tail and
# returns nonzero), then sets the environment check_longrun runs in on the GPU machine: the carried PETSc, CUDA, Open MPI as
# root without a network, the carried SuperLU / CHOLMOD libraries, and CUDA_MODULE_LOADING=EAGER as run.sh's longrun step
# (with lazy loading a kernel loaded at the first switch of the learning choice shows as a 4.19 MB fall of the free
# memory, past check_longrun's tolerance: run of 2026-11-30, twentieth session). PETSC_OPTIONS is the caller's (run.sh
# sets -use_gpu_aware_mpi 0 only for itself).
# shellcheck shell=bash disable=SC2153 # ROOT is the caller's
longrun_prepare() {
  local outdir=$1
  OUT=$outdir/build SPTRSV_DEVICE_STEPS='longrun' SPTRSV_LONGRUN_ARGS="-faults 0 -n 16 -refactor 2 -solves 200 -pc_setups 1 -paths syncfree" \
    bash "$ROOT/tests/device/run.sh" >"$outdir/build.log" 2>&1 || { tail -n 30 "$outdir/build.log"; return 1; }
  export PETSC_DIR=${PETSC_DIR:-$ROOT/.petsc-cuda} CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
  export LD_LIBRARY_PATH=$PETSC_DIR/lib:$CUDA_HOME/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export CUDA_MODULE_LOADING=${CUDA_MODULE_LOADING:-EAGER}
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
  # shellcheck source=tests/device/direct-env.sh
  source "$ROOT/tests/device/direct-env.sh"
  sptrsv_direct_env "$ROOT" >/dev/null 2>&1
}
