/* Helpers shared by test_bilu.c and test_isai.c: checks, block test matrices, PETSc's native BAIJ ILU */
#pragma once
#include <petscksp.h>
#include <string.h>
#include <sptrsv/isai.h>
#include <sptrsv/biluk.h>
#include <sptrsv/factor.h>

#include "unit_common.h"
#include "test_helpers.h" /* VecRelDiffInf */

/*
  nsub disjoint m x m grids of bs x bs blocks, 5-point coupling, random blocks with entries in [-1, 1];
  the diagonal blocks get dom * 4 * bs on their diagonal; every 7th coupling block is stored as zeros
  (the elimination skips exactly zero blocks). MATSEQBAIJ.
*/
static PetscErrorCode BlockGrid(PetscInt m, PetscInt bs, PetscInt nsub, PetscReal dom, PetscRandom rnd, Mat *B)
{
  const PetscInt nb = m * m * nsub;
  PetscScalar    v[64];
  PetscInt       count = 0;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqBAIJ(PETSC_COMM_SELF, bs, nb * bs, nb * bs, 5, NULL, B));
  for (PetscInt s = 0; s < nsub; s++)
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = 0; j < m; j++) {
        const PetscInt row = s * m * m + i * m + j;
        PetscInt       cols[5], nc = 0;

        if (i > 0) cols[nc++] = row - m;
        if (j > 0) cols[nc++] = row - 1;
        cols[nc++] = row;
        if (j < m - 1) cols[nc++] = row + 1;
        if (i < m - 1) cols[nc++] = row + m;
        for (PetscInt c = 0; c < nc; c++) {
          for (PetscInt k = 0; k < bs * bs; k++) PetscCall(PetscRandomGetValue(rnd, &v[k]));
          if (cols[c] == row)
            for (PetscInt k = 0; k < bs; k++) v[k * bs + k] += dom * 4 * bs;
          else if (++count % 7 == 0)
            for (PetscInt k = 0; k < bs * bs; k++) v[k] = 0.0;
          PetscCall(MatSetValuesBlocked(*B, 1, &row, 1, &cols[c], v, INSERT_VALUES));
        }
      }
  PetscCall(MatAssemblyBegin(*B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*B, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the factor options both sides use: PCFactor's defaults (shift type none, amount and zero pivot 100 eps) */
static PetscErrorCode DefaultInfo(PetscInt levels, MatFactorInfo *info)
{
  PetscFunctionBeginUser;
  PetscCall(MatFactorInfoInitialize(info));
  info->levels        = levels;
  info->fill          = 1.0;
  info->shifttype     = (PetscReal)MAT_SHIFT_NONE;
  info->shiftamount   = 100.0 * PETSC_MACHINE_EPSILON;
  info->zeropivot     = 100.0 * PETSC_MACHINE_EPSILON;
  info->pivotinblocks = 1.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's own ILU of A (natural ordering); *err = its factor error (0 when it worked) */
static PetscErrorCode NativeILU(Mat A, const MatFactorInfo *info, Mat *F, MatFactorError *err)
{
  IS row, col;

  PetscFunctionBeginUser;
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &row, &col));
  PetscCall(MatGetFactor(A, MATSOLVERPETSC, MAT_FACTOR_ILU, F));
  PetscCall(MatILUFactorSymbolic(*F, A, row, col, info));
  PetscCall(MatLUFactorNumeric(*F, A, info));
  PetscCall(MatFactorGetError(*F, err));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the message of the last error raised under PushCapture() (PetscErrorMessage() changed its signature in 3.19) */
static char errmsg[1024];

static PetscErrorCode CaptureError(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL) {
    strncpy(errmsg, mess ? mess : "", sizeof(errmsg) - 1);
    errmsg[sizeof(errmsg) - 1] = 0;
  }
  return n;
}
#define PushCapture() PetscPushErrorHandler(CaptureError, NULL)

/* the error ierr must be `expected` and its message must contain `text` */
static PetscErrorCode ExpectError(PetscErrorCode ierr, PetscErrorCode expected, const char *text, const char *what)
{
  PetscFunctionBeginUser;
  if (!ierr) errmsg[0] = 0;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: error %d (%s)\n", what, (int)ierr, errmsg));
  EXPECT(ierr == expected, "%s: error code %d, expected %d", what, (int)ierr, (int)expected);
  EXPECT(strstr(errmsg, text) != NULL, "%s: message \"%s\" lacks \"%s\"", what, errmsg, text);
  errmsg[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
