#!/usr/bin/env bash
# The plugin with a PETSc of complex scalars (Debian's libpetsc-complex-dev; CI's leg 4):
#
#   bash tests/complex.sh [PETSC_DIR] [NVCC]
#
# The CUDA kernels take real scalars only. With complex scalars the plugin builds (the CUDA objects too, when NVCC is
# given), the host backend runs the solves, and the plugin says so where a user meets it: -info at registration, -help
# of the backend options, and the error of -mat_sptrsv_backend cuda (CUDA builds). Each check prints one line; the last
# line is "complex: N checks passed, N failed"; the exit status is nonzero iff a check failed.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
CPETSC=${1:-/usr/lib/petscdir/petsc-complex}
NVCC=${2:-}
WC=0
[ -n "$NVCC" ] && WC=1
NP=0 NF=0
check() { # check NAME COMMAND...: the command's exit status decides
  local name=$1
  shift
  if "$@" >"/tmp/sptrsv-complex-$name.log" 2>&1; then NP=$((NP + 1)); echo "ok complex/$name"; else NF=$((NF + 1)); echo "not ok complex/$name"; sed 's/^/    /' "/tmp/sptrsv-complex-$name.log" | tail -n 20; fi
}
if ! grep -q "define PETSC_USE_COMPLEX" "$CPETSC/include/petscconf.h" 2>/dev/null; then
  echo "complex: $CPETSC is not a PETSc with complex scalars"
  exit 1
fi
check build make -j"$(nproc)" PETSC_DIR="$CPETSC" PETSC_ARCH= WITH_CUDA=$WC ${NVCC:+CUDA_HOME="$(dirname "$(dirname "$NVCC")")"} lib examples
# the demo: GMRES(30) + ILU(0) with PETSc's ILU and sptrsv_level on the host backend, same iterations and residuals
check demo timeout 300 examples/ex1 -n 12
# -info at registration and -help of the factor's backend option name the limit and what runs instead
check info sh -c 'examples/ex1 -n 6 -info 2>&1 | grep -q "petsc-sptrsv: the CUDA paths need real scalars"'
check help sh -c 'examples/ex1 -n 6 -help 2>&1 | grep -- "-mat_sptrsv_backend" | grep -q "the CUDA paths need real scalars"'
if [ "$WC" = 1 ]; then
  # a CUDA build: asking for the CUDA backend is an error that says why (before any device is looked for)
  check cuda-refused sh -c 'examples/ex1 -n 6 -mat_sptrsv_backend cuda 2>&1 | grep -q "real scalars only"'
fi
make PETSC_DIR="$CPETSC" PETSC_ARCH= WITH_CUDA=$WC clean >/dev/null 2>&1
echo "complex: $NP checks passed, $NF failed"
[ "$NF" = 0 ]
