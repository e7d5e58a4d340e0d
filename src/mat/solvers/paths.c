/* The triangular-solve paths and their MatSolverType registration */
#include <sptrsv/factormat.h>

/* paper 000: level (LEVR/LEVC) and element (ELMR/ELMC) scheduling */
static PetscBool  cited_li2020 = PETSC_FALSE;
static const char cite_li2020[] = "@article{li2017sptrsv,\n"
                                 "  author  = {Ruipeng Li and Chaoyu Zhang},\n"
                                 "  title   = {Efficient Parallel Implementations of Sparse Triangular Solves for {GPU} Architectures},\n"
                                 "  journal = {Proceedings of the SIAM Conference on Parallel Processing for Scientific Computing},\n"
                                 "  year    = {2020}\n}\n";

static const SpTrsvPath SpTrsvPathLevel   = {MATSOLVERSPTRSVLEVEL, SPTRSV_PLAN_LEVEL, cite_li2020, &cited_li2020};
static const SpTrsvPath SpTrsvPathElement = {MATSOLVERSPTRSVELEMENT, SPTRSV_PLAN_ELEMENT, cite_li2020, &cited_li2020};

static PetscErrorCode MatGetFactor_SpTrsvLevel(Mat A, MatFactorType ftype, Mat *F)
{
  PetscFunctionBegin;
  PetscCall(MatGetFactor_SpTrsv(A, ftype, &SpTrsvPathLevel, F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetFactor_SpTrsvElement(Mat A, MatFactorType ftype, Mat *F)
{
  PetscFunctionBegin;
  PetscCall(MatGetFactor_SpTrsv(A, ftype, &SpTrsvPathElement, F));
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
  PetscCall(SpTrsvRegisterPath(MATSOLVERSPTRSVELEMENT, MatGetFactor_SpTrsvElement));
  PetscFunctionReturn(PETSC_SUCCESS);
}
