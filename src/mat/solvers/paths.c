/* The triangular-solve paths and their MatSolverType registration */
#include <sptrsv/factormat.h>

static PetscBool  cited_level = PETSC_FALSE;
static const char cite_level[] = "@article{li2017sptrsv,\n"
                                 "  author  = {Ruipeng Li and Chaoyu Zhang},\n"
                                 "  title   = {Efficient Parallel Implementations of Sparse Triangular Solves for {GPU} Architectures},\n"
                                 "  journal = {Proceedings of the SIAM Conference on Parallel Processing for Scientific Computing},\n"
                                 "  year    = {2020}\n}\n";

static const SpTrsvPath SpTrsvPathLevel = {MATSOLVERSPTRSVLEVEL, SPTRSV_PLAN_LEVEL, cite_level, &cited_level};

static PetscErrorCode MatGetFactor_SpTrsvLevel(Mat A, MatFactorType ftype, Mat *F)
{
  PetscFunctionBegin;
  PetscCall(MatGetFactor_SpTrsv(A, ftype, &SpTrsvPathLevel, F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* register a path for every matrix type and factor type it supports */
static PetscErrorCode SpTrsvRegisterPath(const char *solvertype, PetscErrorCode (*getfactor)(Mat, MatFactorType, Mat *))
{
  const MatType       mtypes[] = {MATSEQAIJ,
#if defined(PETSC_HAVE_CUDA)
                                  MATSEQAIJCUSPARSE,
#endif
                                  NULL};
  const MatFactorType ftypes[] = {MAT_FACTOR_ILU, MAT_FACTOR_ICC};

  PetscFunctionBegin;
  for (PetscInt m = 0; mtypes[m]; m++)
    for (PetscInt f = 0; f < 2; f++) PetscCall(MatSolverTypeRegister(solvertype, mtypes[m], ftypes[f], getfactor));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSolverTypeRegister_SpTrsvPaths(void)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvRegisterPath(MATSOLVERSPTRSVLEVEL, MatGetFactor_SpTrsvLevel));
  PetscFunctionReturn(PETSC_SUCCESS);
}
