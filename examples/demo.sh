#!/usr/bin/env bash
# petsc-sptrsv demo (make demo): GMRES(30) + ILU(0) on a 3-D convection-diffusion problem (40^3 grid),
# solved with PETSc's own ILU (-pc_factor_mat_solver_type petsc) and with the plugin's sptrsv_level.
# Extra arguments go to examples/ex1, e.g.  bash examples/demo.sh -n 64 -beta 100 -log_view
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -x examples/ex1 ]; then
  echo "examples/ex1 is not built: run 'make examples' (or 'make demo') first" >&2
  exit 1
fi
echo "== petsc-sptrsv demo =="
echo "Solving a 3-D convection-diffusion problem (7-point stencil, DMDA, MATAIJ) with GMRES(30) + ILU(0),"
echo "once with PETSc's native ILU and once with the sptrsv_level triangular solves of lib/libpetscsptrsv.so."
echo "The program checks that both take the same iterations and reach the same residual norm."
echo "+ examples/ex1 -n 40 -beta 20 -solver_types petsc,sptrsv_level $*"
echo
examples/ex1 -n 40 -beta 20 -solver_types petsc,sptrsv_level "$@"
echo
echo "Try: bash examples/demo.sh -pc_factor_levels 2 -mat_sptrsv_format csc -log_view   (options: examples/ex1 -help)"
