# Sourced by tests/device/run.sh and examples/benchmarks/device-common.sh: the run-time environment of the plugin's LU
# (SuperLU) and Cholesky (CHOLMOD) factors on the GPU machine, which has neither package (docs/TESTING.md).
#
# sptrsv_direct_env ROOT
#   - .carry/directlibs (scripts/carry-direct-libs.sh): the makefile builds against it when it is there; the loader
#     finds the libraries' own dependencies through LD_LIBRARY_PATH, and a runtime library that ldd finds missing
#     here (libgomp, ...) through a link to the carried copy in lib/fallback;
#   - the BLAS is the machine's: the GPU machine's libblas.so.3 is OpenBLAS (Ubuntu's alternatives), so CHOLMOD's
#     supernodal Cholesky of a 64^3 Laplacian takes seconds there. (A Debian OpenBLAS carried in front of it crashed
#     CHOLMOD: Ubuntu's LAPACK of the same alternative expects its own libopenblas.so.0.)
# shellcheck shell=bash
sptrsv_direct_env() {
  local root=$1 direct=$1/.carry/directlibs m
  if [ -d "$direct/lib" ]; then
    export LD_LIBRARY_PATH=$direct/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    mkdir -p "$root/build/device/directfallback"
    for m in $(ldd "$direct/lib/libsuperlu.so.5" "$direct/lib/libcholmod.so.3" 2>/dev/null | awk '/not found/ {print $1}' | sort -u); do
      [ -e "$direct/lib/fallback/$m" ] && ln -sf "$direct/lib/fallback/$m" "$root/build/device/directfallback/$m"
    done
    export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$root/build/device/directfallback
  fi
}
