/* The device memory of a factor Mat: what -ksp_view prints, MatSpTrsvGetDeviceMemory(), and the comparison with
   what cuSPARSE's SpSV would hold for the same triangles (-mat_sptrsv_compare_cusparse_memory).

   Every device allocation of the plugin is counted in the tally that is current when it is made
   (include/sptrsv/devmem.h): a solver's own (setup, value refreshes, solves: pattern in plan order, values, inverted
   diagonal, schedule, graph parameters, value maps, a path's work arrays) or the factor's (the GPU numeric factor
   and its maps, the permutations, the work vectors and staging buffers); the solvers' tallies are children of the
   factor's, so sp->mem.bytes is the factor's total. These are exact byte counts of the
   cudaMalloc requests, not estimates; CUDA graphs and the CUDA context are not in them. */
#include <sptrsv/factormat.h>
#include <sptrsv/deviceops.h>

static double SpTrsvMB(PetscInt64 b)
{
  return (double)b / 1e6;
}

/* the solver of triangle k (0: L, 1: U) with its transpose (made on first use) */
static PetscInt64 MatSpTrsvTriBytes(Mat_SpTrsv *sp, PetscInt k)
{
  PetscInt64 b = 0;

  for (PetscInt t = 0; t < 2; t++)
    if (sp->tri[t][k]) b += sp->tri[t][k]->mem.bytes;
  return b;
}

PetscErrorCode MatSpTrsvGetDeviceMemory_SpTrsv(Mat F, PetscInt64 *L, PetscInt64 *U, PetscInt64 *rest)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;

  PetscFunctionBegin;
  if (L) *L = MatSpTrsvTriBytes(sp, 0);
  if (U) *U = MatSpTrsvTriBytes(sp, 1);
  if (rest) *rest = sp->mem.bytes - MatSpTrsvTriBytes(sp, 0) - MatSpTrsvTriBytes(sp, 1); /* the solvers are children of sp->mem */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSpTrsvCompareCusparse - at the end of the symbolic phase, with -mat_sptrsv_compare_cusparse_memory: the bytes
  cusparseSpSV would hold for L and U (their CSR with the diagonal stored, and the buffer size cuSPARSE asks for),
  measured on the GPU with the real patterns (src/cuda/cusparse_memory.cu, through the device-ops table); on the host
  backend only a note
*/
PetscErrorCode MatSpTrsvCompareCusparse(Mat F)
{
  Mat_SpTrsv            *sp = (Mat_SpTrsv *)F->data;
  const SpTrsvDeviceOps *dev;
  SpTrsvDevMem          *saved;
  SpTrsvTri              T[2];

  PetscFunctionBegin;
  sp->cusp_done    = PETSC_FALSE;
  sp->cusp_note[0] = 0;
  if (!sp->compare_cusparse) PetscFunctionReturn(PETSC_SUCCESS);
  if (sp->backend->slot != SPTRSV_EXEC_CUDA) {
    PetscCall(PetscStrncpy(sp->cusp_note, "the cuSPARSE comparison needs the CUDA backend", sizeof(sp->cusp_note)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  T[0] = sp->fac->L;
  T[1] = sp->fac->U;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  SpTrsvDevMemBegin(NULL, &saved); /* transient: counted in the plugin's total only while it lives */
  for (PetscInt k = 0; k < 2; k++) {
    const PetscErrorCode ierr = (*dev->mem.spsv)(T[k], &sp->cusp_mat[k], &sp->cusp_buf[k]);
    if (ierr) {
      SpTrsvDevMemEnd(saved);
      PetscCall(ierr);
    }
  }
  SpTrsvDevMemEnd(saved);
  sp->cusp_done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the -ksp_view lines */
PetscErrorCode MatSpTrsvViewMemory(Mat F, PetscViewer viewer)
{
  Mat_SpTrsv *sp = (Mat_SpTrsv *)F->data;
  PetscInt64  L  = MatSpTrsvTriBytes(sp, 0), U = MatSpTrsvTriBytes(sp, 1), rest = sp->mem.bytes - L - U;

  PetscFunctionBegin;
  if (sp->backend->memtype == PETSC_MEMTYPE_HOST) PetscCall(PetscViewerASCIIPrintf(viewer, "device memory: none (host backend)\n"));
  else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "device memory: L %.2f MB, U %.2f MB, factor and vectors %.2f MB (%s), total %.2f MB\n", SpTrsvMB(L), SpTrsvMB(U), SpTrsvMB(rest), sp->numeric_device ? "numeric factor on the GPU, permutations, work vectors" : "permutations, work vectors", SpTrsvMB(L + U + rest)));
  }
  if (sp->cusp_done) {
    const PetscInt64 cl = sp->cusp_mat[0] + sp->cusp_buf[0], cu = sp->cusp_mat[1] + sp->cusp_buf[1];
    PetscCall(PetscViewerASCIIPrintf(viewer, "cuSPARSE SpSV would need %.2f MB: L %.2f MB (matrix %.2f MB + buffer %.2f MB), U %.2f MB (matrix %.2f MB + buffer %.2f MB); ours L + U %.2f MB\n", SpTrsvMB(cl + cu), SpTrsvMB(cl), SpTrsvMB(sp->cusp_mat[0]), SpTrsvMB(sp->cusp_buf[0]), SpTrsvMB(cu), SpTrsvMB(sp->cusp_mat[1]), SpTrsvMB(sp->cusp_buf[1]), SpTrsvMB(L + U)));
  } else if (sp->cusp_note[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "cuSPARSE SpSV comparison: not computed (%s)\n", sp->cusp_note));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   MatSpTrsvGetDeviceMemory - the device memory a petsc-sptrsv factor holds: its L and U solvers (with their transposed
   solvers, once made) and the rest (the GPU numeric factor, permutations, work vectors)

   Not Collective

   Input Parameter:
.  F - a factor matrix from an sptrsv_* MatSolverType

   Output Parameters:
+  L    - bytes of the L solvers (or NULL)
.  U    - bytes of the U solvers (or NULL)
-  rest - bytes of the rest (or NULL)

   Notes:
   Exact byte counts of the plugin's device allocations (0 on the host backend). -ksp_view prints them;
   -mat_sptrsv_compare_cusparse_memory adds what cuSPARSE's SpSV would hold for the same triangles.

   Level: intermediate

.seealso: `SpTrsvDeviceMemoryGetUsage()`, `MatSpTrsvGetStats()`
@*/
PetscErrorCode MatSpTrsvGetDeviceMemory(Mat F, PetscInt64 *L, PetscInt64 *U, PetscInt64 *rest)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(F, MAT_CLASSID, 1);
  PetscUseMethod(F, "MatSpTrsvGetDeviceMemory_C", (Mat, PetscInt64 *, PetscInt64 *, PetscInt64 *), (F, L, U, rest));
  PetscFunctionReturn(PETSC_SUCCESS);
}
