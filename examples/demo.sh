#!/usr/bin/env bash
# petsc-sptrsv demo (make demo): GMRES(30) + ILU(0) on a 3-D convection-diffusion problem (40^3 grid),
# solved with PETSc's own ILU (-pc_factor_mat_solver_type petsc) and with the plugin's automatic choice, sptrsv.
# Extra arguments go to examples/ex1, e.g.  bash examples/demo.sh -n 64 -beta 100 -log_view
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -x examples/ex1 ]; then
  echo "examples/ex1 is not built: run 'make examples' (or 'make demo') first" >&2
  exit 1
fi
echo "== petsc-sptrsv demo =="
echo "Solving a 3-D convection-diffusion problem (7-point stencil, DMDA, MATAIJ) with GMRES(30) + ILU(0),"
echo "once with PETSc's native ILU and once with -pc_factor_mat_solver_type sptrsv (the plugin picks a path per triangle)."
echo "The program checks that both take the same iterations and reach the same residual norm."
echo "+ examples/ex1 -n 40 -beta 20 -solver_types petsc,sptrsv $*"
echo
out=$(mktemp)
trap 'rm -f "$out"' EXIT
examples/ex1 -n 40 -beta 20 -solver_types petsc,sptrsv "$@" | tee "$out"
echo
# the backend column of the sptrsv row: without a GPU the solves ran on the host backend, which is the reference
# executor (the GPU kernels' schedules run one row at a time), not the fast path
if awk '$1 == "sptrsv" {print $NF}' "$out" | grep -qx host; then
  echo "No GPU was used: the sptrsv row ran on the host backend, the plugin's reference executor (the GPU schedules, one row"
  echo "at a time; it checks the kernels and is not meant to be fast). For the GPU run and its figures see README.md,"
  echo "\"With a GPU\", and docs/PERFORMANCE.md."
fi
echo "Try: bash examples/demo.sh -pc_factor_levels 2 -ksp_view -log_view   (options: examples/ex1 -help)"
