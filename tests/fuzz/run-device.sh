#!/usr/bin/env bash
# The hostile-input fuzz driver on a GPU machine (docs/TESTING.md, "Hostile input"): relocates the carried CUDA PETSc
# (PETSC_DIR, default ./.petsc-cuda from scripts/build-petsc-cuda.sh --carry), builds the plugin and tests/fuzz/fuzz_input
# with WITH_CUDA=1, and runs it with -backend cuda. Arguments go to the driver (default: -seed 1 -cases 1000 -regression).
#
#   bash tests/fuzz/run-device.sh                     # 10^3 cases on the GPU
#   bash tests/fuzz/run-device.sh -seed 2 -cases 5000
#
# Exit status: the driver's (0 iff no failure). Its output also goes to $OUT/fuzz-device.log when OUT is set.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
export PETSC_DIR=${PETSC_DIR:-$PWD/.petsc-cuda} PETSC_ARCH=
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH LD_LIBRARY_PATH=$PETSC_DIR/lib:$CUDA_HOME/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export PETSC_OPTIONS="-use_gpu_aware_mpi 0" # Debian/Ubuntu Open MPI is not CUDA-aware
[ -f "$PETSC_DIR/lib/petsc/conf/variables" ] || { echo "no PETSc at $PETSC_DIR (carry .petsc-cuda)"; exit 2; }
# shellcheck source=tests/device/petsc-relocate.sh
source tests/device/petsc-relocate.sh
relocate_petsc || exit 2
mkdir -p build/device
MAKEFILE=makefile # PETSc >= 3.19 declares "clean::" (see tests/device/run.sh)
if ! make -n -f makefile WITH_CUDA=1 lib >build/device/fuzz-make-n.log 2>&1 && grep -q "both : and :: entries" build/device/fuzz-make-n.log; then
  sed 's/^clean: sptrsv-clean/clean:: sptrsv-clean/' makefile >build/device/makefile
  MAKEFILE=build/device/makefile
fi
make -f "$MAKEFILE" WITH_CUDA=1 CUDA_HOME="$CUDA_HOME" -j"$(nproc)" lib tests/fuzz/fuzz_input >build/device/fuzz-build.log 2>&1 ||
  { tail -n 30 build/device/fuzz-build.log; echo "build failed"; exit 2; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
[ $# -gt 0 ] || set -- -seed 1 -cases 1000 -regression
tests/fuzz/fuzz_input -backend cuda "$@" 2>&1 | tee "${OUT:-build/device}/fuzz-device.log"
exit "${PIPESTATUS[0]}"
