# Sourced by tests/device/run.sh and examples/benchmarks/device-common.sh: the run-time environment of the plugin's LU
# (SuperLU) and Cholesky (CHOLMOD) factors on the GPU machine, which has neither package (docs/TESTING.md).
#
# sptrsv_direct_env ROOT
#   - .carry/directlibs (scripts/carry-direct-libs.sh): the makefile builds against it when it is there; the loader
#     finds the libraries' own dependencies through LD_LIBRARY_PATH, and a runtime library that ldd finds missing
#     here (libgomp, ...) through a link to the carried copy in lib/fallback;
#   - .carry/openblas.tar.xz (scripts/carry-openblas.sh), optional: Debian's OpenBLAS (pthreads), unpacked into
#     build/device/openblas and put first on LD_LIBRARY_PATH, so that libblas.so.3 (PETSc's, LAPACK's and CHOLMOD's
#     BLAS) is OpenBLAS instead of the machine's reference BLAS. Only the speed of the host factorizations changes
#     (CHOLMOD's supernodal Cholesky of a 64^3 Laplacian: minutes -> seconds); no solve of ours calls the BLAS on the
#     host. SPTRSV_OPENBLAS=0 leaves it out.
# shellcheck shell=bash
sptrsv_direct_env() {
  local root=$1 direct=$1/.carry/directlibs ob=$1/.carry/openblas.tar.xz m
  if [ -d "$direct/lib" ]; then
    export LD_LIBRARY_PATH=$direct/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    mkdir -p "$root/build/device/directfallback"
    for m in $(ldd "$direct/lib/libsuperlu.so.5" "$direct/lib/libcholmod.so.3" 2>/dev/null | awk '/not found/ {print $1}' | sort -u); do
      [ -e "$direct/lib/fallback/$m" ] && ln -sf "$direct/lib/fallback/$m" "$root/build/device/directfallback/$m"
    done
    export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$root/build/device/directfallback
  fi
  if [ -f "$ob" ] && [ "${SPTRSV_OPENBLAS:-1}" != 0 ]; then
    rm -rf "$root/build/device/openblas"
    mkdir -p "$root/build/device/openblas"
    if tar -xJf "$ob" -C "$root/build/device/openblas" --strip-components=1; then
      export LD_LIBRARY_PATH=$root/build/device/openblas:$LD_LIBRARY_PATH
      export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-$(nproc)}
      echo "direct factors: OpenBLAS from .carry/openblas.tar.xz ($OPENBLAS_NUM_THREADS threads)"
    fi
  fi
}
