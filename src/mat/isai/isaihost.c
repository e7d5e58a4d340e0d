/*
   PC isai's host backend: the factorization, the column solves (SpTrsvISAINumeric(), isai.c) and the SpMVs of
   the apply (with the MATSEQAIJ / MATSEQBAIJ matrices of N_L, N_U themselves) all on the host.
*/
#include <sptrsv/isaiprec.h>

static PetscErrorCode SpTrsvISAIHostNumeric(SpTrsvISAIPrec p, Mat P)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvISAIPrecNumericHostFactor(p, P, SpTrsvISAIPrecColumnsHost, SpTrsvISAIPrecApplyMatHost));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvISAIOps SpTrsvISAIOpsHost = {"host", SpTrsvISAIPrecFactorSymbolic, SpTrsvISAIHostNumeric, SpTrsvISAIPrecApplyMatrices, NULL, NULL};
