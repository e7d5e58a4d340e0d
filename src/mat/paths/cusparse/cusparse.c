/*
   sptrsv_cusparse: the plugin's factors and solvers with NVIDIA's own triangular solve (cusparseSpSV) on the GPU.

   It is the solve a PETSc user gets from -pc_factor_mat_solver_type cusparse, put in the registry so that the automatic
   choice (MatSolverType sptrsv) can pick it for the triangles where the cost model predicts that none of the plugin's
   schedules beats it: with it among the candidates the automatic choice is never knowingly slower than cuSPARSE. It is
   also a reference a user can select by name, with every other piece of the plugin (our ILU/ICC/LU factors, the GPU
   numeric ILU, -ksp_view, -log_view events).

   The analysis is the level-set plan (cuSPARSE does its own analysis on the GPU, in cusparseSpSV_analysis, at setup and
   after every new set of values); the plan gives the host executor its order and the statistics -ksp_view and the
   automatic choice read. The host executor (a build without CUDA, the CI reference) solves row after row in that order:
   the same solution, without cuSPARSE. The CUDA executor is src/cuda/paths/cusparse/cusparse.cu.
*/
#include <sptrsv/paths/cusparse.h>
#include <sptrsv/host_rows.h>
#include <sptrsv/utils.h>
#include <petsctime.h>

static PetscErrorCode SpTrsvCusparseView(SpTrsvPlan plan, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "GPU solve: cusparseSpSV (CSR with the diagonal stored, 32-bit indices, CUSPARSE_SPSV_ALG_DEFAULT); host: rows in level order\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvAnalyze_cusparse(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvPathOptions *opts, const void *own, SpTrsvPlan *plan)
{
  SpTrsvPlan     p;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCheck(format == SPTRSV_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_cusparse reads rows only (-%smat_sptrsv_format csr)", opts->prefix);
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPlanCreateLevelSets(op, &p));
  p->view = SpTrsvCusparseView;
  PetscCall(PetscTime(&t1));
  p->stats.analysis_time = t1 - t0;
  *plan                  = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCusparseCSRBuild - op(T) in CSR in its own row order with the diagonal stored where cuSPARSE wants it (columns
  ascending: after a lower row's entries, before an upper row's; none for a unit triangle), for cusparseSpSV. ptr (n + 1)
  and idx (the returned nnz) are 32-bit; map[q] says where the value of slot q comes from: >= 0, the value of T's CSR
  array T->a at that index; -1 - i, the diagonal of row i (1 / T->idiag[i]). The caller frees the three together: PetscFree3(ptr, idx, map).
*/
PetscErrorCode SpTrsvCusparseCSRBuild(SpTrsvTri T, PetscBool transpose, const SpTrsvOp *op, int **ptr, int **idx, PetscInt **map, PetscInt *nnz)
{
  const PetscInt   n    = op->n;
  const PetscInt64 m    = (PetscInt64)op->nnz + (op->unit ? 0 : n);
  PetscInt64       q    = 0;
  int             *p, *j;
  PetscInt        *v;

  PetscFunctionBegin;
  PetscCall(SpTrsvCheckIndex32(m, "sptrsv_cusparse: the triangle with its diagonal", "use another -pc_factor_mat_solver_type"));
  PetscCheck(!transpose || T->cmap, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Transposed solve without the CSC view of the triangle");
  PetscCall(PetscMalloc3(n + 1, &p, m + 1, &j, m + 1, &v)); /* one allocation (optimized PETSc builds coalesce): freed together */
  p[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    if (!op->unit && !op->lower) j[q] = (int)i, v[q++] = -1 - i;
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) j[q] = (int)op->rj[e], v[q++] = transpose ? T->cmap[e] : e;
    if (!op->unit && op->lower) j[q] = (int)i, v[q++] = -1 - i;
    p[i + 1] = (int)q;
  }
  *ptr = p;
  *idx = j;
  *map = v;
  *nnz = (PetscInt)m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the values of the slots of SpTrsvCusparseCSRBuild() from T's current values */
PetscErrorCode SpTrsvCusparseCSRValues(SpTrsvTri T, PetscInt nnz, const PetscInt *map, PetscScalar *val)
{
  PetscFunctionBegin;
  for (PetscInt q = 0; q < nnz; q++) val[q] = map[q] >= 0 ? T->a[map[q]] : (PetscScalar)1.0 / T->idiag[-1 - map[q]];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host executor: rows in the plan's (level) order, the reference the CUDA executor is checked against */
const SpTrsvExecutor SpTrsvExecHost_cusparse = {SpTrsvHostOrderedSetup, SpTrsvHostOrderedUpdateValues, SpTrsvHostOrderedSolve, NULL, SpTrsvHostOrderedDestroy, NULL};

/* the path's registry entry: no options of its own (cuSPARSE's defaults), no paper */
const struct _n_SpTrsvPath SpTrsvPath_cusparse = {
  .name       = "cusparse",
  .solvertype = MATSOLVERSPTRSVCUSPARSE,
  .summary    = "NVIDIA's cusparseSpSV on the GPU (the solve of PETSc's own cusparse factors; rows in level order on the host), for the triangles where the automatic choice expects none of the plugin's schedules to beat it",
  .ilu        = PETSC_TRUE,
  .icc        = PETSC_TRUE,
  .analyze    = SpTrsvAnalyze_cusparse,
  .exec       = {&SpTrsvExecHost_cusparse, SPTRSV_CUDA_EXEC(cusparse)},
};
