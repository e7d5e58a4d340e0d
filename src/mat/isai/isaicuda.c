/* PC isai's GPU variant: what it needs to run (src/mat/isai/; plain C, PETSc's CUDA types) */
#include <sptrsv/isaiprec.h>

/*
  SpTrsvISAICUDAUse - the GPU apply multiplies with PETSc's MATSEQAIJCUSPARSE matrices, so it needs a PETSc
  configured with CUDA; auto takes it when the user chose the GPU for the matrix (-mat_type aijcusparse,
  -dm_mat_type aijcusparse)
*/
PetscErrorCode SpTrsvISAICUDAUse(Mat P, SpTrsvBackendCUDAUse *use)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  use->available = PETSC_TRUE;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)P, &use->automatic, MATSEQAIJCUSPARSE, MATAIJCUSPARSE, ""));
  use->why = use->automatic ? "the matrix has a CUDA type" : "the matrix has no CUDA type (use -mat_type aijcusparse for the GPU)";
#else
  use->available = PETSC_FALSE;
  use->automatic = PETSC_FALSE;
  use->why       = "PC isai's GPU apply needs a PETSc configured with CUDA (it multiplies with PETSc's cuSPARSE matrices); this PETSc has none: use auto or host";
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
