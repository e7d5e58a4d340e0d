/* Patterns of strict lower triangles for the tests of the locality path's chain and blocks kernels
   (test_locality_chain.c, test_locality_blocks.c): banded, strided, block-diagonal (also with permuted rows), grids,
   a triangle with values on such a pattern, and a host solver created with the error caught. Each test program
   includes it once. */
#pragma once
#include "unit_common.h"

/* ---- patterns (strict lower CSR, columns ascending) ---------------------------------------------- */
typedef struct {
  PetscInt  n, nnz, cap;
  PetscInt *ai, *aj;
} Pat;

static PetscErrorCode PatInit(Pat *p, PetscInt n)
{
  PetscFunctionBeginUser;
  p->n   = n;
  p->nnz = 0;
  p->cap = 4 * n + 16;
  PetscCall(PetscMalloc1(n + 1, &p->ai));
  PetscCall(PetscMalloc1(p->cap, &p->aj));
  p->ai[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PatPush(Pat *p, PetscInt j)
{
  PetscFunctionBeginUser;
  if (p->nnz == p->cap) {
    p->cap *= 2;
    PetscCall(PetscRealloc(sizeof(PetscInt) * (size_t)p->cap, &p->aj));
  }
  p->aj[p->nnz++] = j;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PatFree(Pat *p)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(p->ai));
  PetscCall(PetscFree(p->aj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef enum {
  PAT_BAND,      /* j = i-w .. i-1 (full band, one component) */
  PAT_BAND2,     /* j = i-w and j = i-1 (one component, few entries: a wide window of little use) */
  PAT_STRIDE,    /* j = i-w only: w interleaved chains of reach 1 */
  PAT_BLOCK,     /* dense lower blocks of bs rows (the last one cut short) */
  PAT_PERMBLOCK, /* block membership b(i) = ((i a) mod n) / bs, every j < i of the same block */
  PAT_PERMCHAIN, /* the same blocks, only the previous member of the block */
  PAT_GRID       /* 5-point: j = i-nx and j = i-1 (not on the left edge) */
} PatKind;

/* a: the multiplier of the permutation (gcd(a, n) = 1) */
static PetscErrorCode MakePat(PatKind kind, PetscInt n, PetscInt w, PetscInt a, Pat *p)
{
  PetscInt *blk = NULL, *last = NULL;

  PetscFunctionBeginUser;
  PetscCall(PatInit(p, n));
  if (kind == PAT_PERMBLOCK || kind == PAT_PERMCHAIN) {
    PetscCall(PetscMalloc2(n + 1, &blk, n + 1, &last));
    for (PetscInt i = 0; i < n; i++) {
      blk[i]  = (PetscInt)(((PetscInt64)i * a) % n) / w;
      last[i] = -1;
    }
  }
  for (PetscInt i = 0; i < n; i++) {
    switch (kind) {
    case PAT_BAND:
      for (PetscInt j = PetscMax(0, i - w); j < i; j++) PetscCall(PatPush(p, j));
      break;
    case PAT_BAND2:
      if (i - w >= 0 && w > 1) PetscCall(PatPush(p, i - w));
      if (i >= 1) PetscCall(PatPush(p, i - 1));
      break;
    case PAT_STRIDE:
      if (i - w >= 0) PetscCall(PatPush(p, i - w));
      break;
    case PAT_BLOCK:
      for (PetscInt j = (i / w) * w; j < i; j++) PetscCall(PatPush(p, j));
      break;
    case PAT_PERMBLOCK:
      for (PetscInt j = 0; j < i; j++)
        if (blk[j] == blk[i]) PetscCall(PatPush(p, j));
      break;
    case PAT_PERMCHAIN:
      if (last[blk[i]] >= 0) PetscCall(PatPush(p, last[blk[i]]));
      last[blk[i]] = i;
      break;
    case PAT_GRID:
      if (i >= w) PetscCall(PatPush(p, i - w));
      if (i % w) PetscCall(PatPush(p, i - 1));
      break;
    }
    p->ai[i + 1] = p->nnz;
  }
  PetscCall(PetscFree2(blk, last));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* values as test_locality.c's TestPattern: |entries| of a row sum below 1, diagonal in [1, 2) */
static PetscErrorCode TriWithValues(const Pat *p, PetscBool unit, SpTrsvTri *t)
{
  PetscFunctionBeginUser;
  PetscCall(TriFromCSR(p->n, SPTRSV_LOWER, unit, p->ai, p->aj, t));
  for (PetscInt i = 0; i < p->n; i++) {
    for (PetscInt q = (*t)->i[i]; q < (*t)->i[i + 1]; q++) (*t)->a[q] = (PetscScalar)(((i * 7 + q * 13) % 19) - 9) / (10.0 * ((*t)->i[i + 1] - (*t)->i[i]));
    if (!unit) (*t)->idiag[i] = 1.0 / (1.0 + (PetscReal)((i * 5) % 11) / 11.0);
  }
  PetscCall(SpTrsvTriValuesChanged(*t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a host solver of op(T) on path with opts; an error is returned in ierr (s NULL) instead of raised */
static PetscErrorCode CreateQuiet(SpTrsvTri t, PetscBool tr, SpTrsvPath path, const SpTrsvPathOptions *opts, SpTrsvSolver *s, PetscErrorCode *ierr)
{
  PetscFunctionBeginUser;
  *s = NULL;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *ierr = SpTrsvSolverCreateWithOptions(t, tr, SPTRSV_FORMAT_CSR, path, &SpTrsvBackendHost, opts, s);
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(PETSC_SUCCESS);
}
