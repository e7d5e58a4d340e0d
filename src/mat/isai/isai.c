/*
   SpTrsvISAI: patterns S(|T|^k) by a symbolic sparse product and the column-by-column solves of the
   incomplete sparse approximate inverse of a block triangle (papers 003; Anzt, Huckle, Braeckle and
   Dongarra 2018). Plain C, backend-neutral: this is the host reference of the GPU kernels.
*/
#include <sptrsv/isai.h>
#include <petsctime.h>

/*
  SpTrsvPatternPower - S(X^k) for the pattern X (CSR, n rows, columns ascending, every diagonal entry
  present): rows of X^(m+1) are the unions of the rows of X selected by a row of X^m (a symbolic sparse
  product, Gustavson's row-by-row scheme). Because X holds its diagonal, S(X^m) is contained in
  S(X^(m+1)). Output CSR arrays (columns ascending) are PetscMalloc'ed.
*/
PetscErrorCode SpTrsvPatternPower(PetscInt n, const PetscInt *xi, const PetscInt *xj, PetscInt k, PetscInt **pi, PetscInt **pj)
{
  PetscInt *ci, *cj, *mark;

  PetscFunctionBegin;
  PetscCheck(k >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Pattern power %" PetscInt_FMT " must be at least 1", k);
  PetscCall(PetscMalloc1(n + 1, &ci));
  PetscCall(PetscMalloc1(xi[n] + 1, &cj));
  PetscCall(PetscArraycpy(ci, xi, n + 1));
  PetscCall(PetscArraycpy(cj, xj, xi[n]));
  PetscCall(PetscMalloc1(n + 1, &mark));
  for (PetscInt m = 1; m < k; m++) {
    SpTrsvIntBuf nj = {0};
    PetscInt    *ni;

    PetscCall(PetscMalloc1(n + 1, &ni));
    PetscCall(SpTrsvIntBufReserve(&nj, (PetscInt64)ci[n] + 1));
    for (PetscInt c = 0; c < n; c++) mark[c] = -1;
    ni[0] = 0;
    for (PetscInt r = 0; r < n; r++) {
      for (PetscInt p = ci[r]; p < ci[r + 1]; p++) {
        const PetscInt c = cj[p];
        for (PetscInt q = xi[c]; q < xi[c + 1]; q++) {
          if (mark[xj[q]] == r) continue;
          mark[xj[q]] = r;
          PetscCall(SpTrsvIntBufPush(&nj, xj[q]));
        }
      }
      ni[r + 1] = (PetscInt)nj.n;
      PetscCall(PetscSortInt(ni[r + 1] - ni[r], nj.a + ni[r]));
    }
    PetscCall(PetscFree(ci));
    PetscCall(PetscFree(cj));
    ci = ni;
    PetscCall(SpTrsvIntBufFinish(&nj, &cj));
  }
  PetscCall(PetscFree(mark));
  *pi = ci;
  *pj = cj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvISAICreate - the symbolic phase: pattern S(|T|^power) of N ~ T^{-1}, its column view and the
  workspace of the column solves (T's pattern only; values come with SpTrsvISAINumeric())
*/
PetscErrorCode SpTrsvISAICreate(SpTrsvBlockTri T, PetscInt power, SpTrsvISAI *isai)
{
  SpTrsvISAI     N;
  PetscInt      *fi, *fj, *next, n = T->n, nnz;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscNew(&N));
  N->n         = n;
  N->bs        = T->bs;
  N->power     = power;
  N->uplo      = T->uplo;
  N->short_max = SPTRSV_ISAI_SHORT_MAX;
  PetscCall(SpTrsvBlockTriGetFull(T, &fi, &fj));
  PetscCall(SpTrsvPatternPower(n, fi, fj, power, &N->i, &N->j));
  PetscCall(PetscFree(fi));
  PetscCall(PetscFree(fj));
  nnz = N->i[n];
  PetscCall(PetscCalloc1((size_t)nnz * N->bs * N->bs + 1, &N->a));

  /* column view: rows ascend in each column because the rows are visited in order */
  PetscCall(PetscCalloc1(n + 1, &N->ci));
  PetscCall(PetscMalloc1(nnz + 1, &N->cr));
  PetscCall(PetscMalloc1(nnz + 1, &N->cmap));
  for (PetscInt p = 0; p < nnz; p++) N->ci[N->j[p] + 1]++;
  for (PetscInt c = 0; c < n; c++) N->ci[c + 1] += N->ci[c];
  PetscCall(PetscMalloc1(n + 1, &next));
  PetscCall(PetscArraycpy(next, N->ci, n));
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = N->i[r]; p < N->i[r + 1]; p++) {
      const PetscInt q = next[N->j[p]]++;
      N->cr[q]         = r;
      N->cmap[q]       = p;
    }
  PetscCall(PetscFree(next));
  PetscCall(PetscMalloc1(n + 1, &N->pos));
  for (PetscInt r = 0; r < n; r++) N->pos[r] = -1;
  for (PetscInt c = 0; c < n; c++) N->maxcol = PetscMax(N->maxcol, N->ci[c + 1] - N->ci[c]);
  PetscCall(SpTrsvISAISetShortMax(N, N->short_max));
  PetscCall(PetscTime(&t1));
  N->time_pattern = t1 - t0;
  *isai           = N;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvISAISetShortMax - columns of more than short_max blocks take the long path (0: every column);
  the result does not depend on it
*/
PetscErrorCode SpTrsvISAISetShortMax(SpTrsvISAI N, PetscInt short_max)
{
  PetscFunctionBegin;
  PetscCheck(short_max >= 0 && short_max <= SPTRSV_ISAI_SHORT_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Short column length %" PetscInt_FMT " outside [0, %d]", short_max, SPTRSV_ISAI_SHORT_MAX);
  N->short_max = short_max;
  N->nlong     = 0;
  for (PetscInt c = 0; c < N->n; c++) N->nlong += (N->ci[c + 1] - N->ci[c] > short_max);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Solve block column col of N. The m blocks of the column are x_0 .. x_{m-1} at rows J[0] < ... < J[m-1];
  the diagonal block is x_d (d = 0 for a lower triangle, m-1 for an upper one) and x_d = inv(T(col,col))
  (the identity when T is unit). The others follow in substitution order (lower: ascending, upper:
  descending):
      x_p = -inv(T(J[p],J[p])) sum_q T(J[p],J[q]) x_q,
  summed over the entries of block row J[p] of T (ascending columns) that lie in J. Short path: x in the
  local buffer xs, the entries found by merging the row with J. Long path: x in place in N->a, the
  entries found through pos[].
*/
static PetscErrorCode SpTrsvISAIColumn(SpTrsvISAI N, SpTrsvBlockTri T, PetscInt col, PetscBool shortpath, PetscScalar *xs)
{
  const PetscInt  bs = N->bs, bs2 = bs * bs, m = N->ci[col + 1] - N->ci[col];
  const PetscInt *J = N->cr + N->ci[col], *slot = N->cmap + N->ci[col];
  const PetscBool lower = (PetscBool)(N->uplo == SPTRSV_LOWER);
  const PetscInt  d     = lower ? 0 : m - 1;
  PetscScalar     s[SPTRSV_BS_MAX * SPTRSV_BS_MAX];
  PetscLogDouble  flops = 0;

#define ISAI_X(q) (shortpath ? xs + (size_t)bs2 * (q) : N->a + (size_t)bs2 * slot[q])
  PetscFunctionBegin;
  PetscCheck(m > 0 && J[d] == col, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ISAI pattern lacks the diagonal block of column %" PetscInt_FMT, col);
  if (T->unit) {
    PetscCall(PetscArrayzero(ISAI_X(d), bs2));
    for (PetscInt k = 0; k < bs; k++) ISAI_X(d)[k + k * bs] = 1.0;
  } else PetscCall(PetscArraycpy(ISAI_X(d), T->idiag + (size_t)bs2 * col, bs2));
  if (!shortpath)
    for (PetscInt q = 0; q < m; q++) N->pos[J[q]] = q;
  for (PetscInt t = 1; t < m; t++) {
    const PetscInt p = lower ? t : m - 1 - t, r = J[p];
    PetscInt       q = lower ? 0 : p + 1; /* merge cursor into J (short path) */
    const PetscInt qend = lower ? p : m;

    PetscCall(PetscArrayzero(s, bs2));
    for (PetscInt e = T->i[r]; e < T->i[r + 1]; e++) {
      const PetscInt c = T->j[e];
      PetscInt       qc;

      if (shortpath) {
        while (q < qend && J[q] < c) q++;
        if (q == qend) break;
        if (J[q] != c) continue;
        qc = q;
      } else {
        qc = N->pos[c];
        if (qc < 0) continue;
      }
      SpTrsvBlockGemm(bs, 1.0, T->a + (size_t)bs2 * e, ISAI_X(qc), s);
      flops += 2.0 * bs2 * bs;
    }
    if (T->unit) {
      for (PetscInt k = 0; k < bs2; k++) ISAI_X(p)[k] = -s[k];
    } else {
      SpTrsvBlockMult(bs, -1.0, T->idiag + (size_t)bs2 * r, s, ISAI_X(p));
      flops += 2.0 * bs2 * bs;
    }
  }
  if (shortpath)
    for (PetscInt q = 0; q < m; q++) PetscCall(PetscArraycpy(N->a + (size_t)bs2 * slot[q], xs + (size_t)bs2 * q, bs2));
  else
    for (PetscInt q = 0; q < m; q++) N->pos[J[q]] = -1;
  N->flops += flops;
#undef ISAI_X
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvISAINumeric - the values of N from the current values of T (same pattern as at SpTrsvISAICreate())
*/
PetscErrorCode SpTrsvISAINumeric(SpTrsvISAI N, SpTrsvBlockTri T)
{
  PetscScalar   *xs;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCheck(T->n == N->n && T->bs == N->bs && T->uplo == N->uplo, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "The triangle (%" PetscInt_FMT " block rows of size %" PetscInt_FMT ") does not match the ISAI pattern (%" PetscInt_FMT " of size %" PetscInt_FMT ")", T->n, T->bs, N->n, N->bs);
  PetscCall(PetscTime(&t0));
  PetscCall(PetscMalloc1((size_t)SPTRSV_ISAI_SHORT_MAX * N->bs * N->bs, &xs));
  N->flops = 0;
  for (PetscInt c = 0; c < N->n; c++) PetscCall(SpTrsvISAIColumn(N, T, c, (PetscBool)(N->ci[c + 1] - N->ci[c] <= N->short_max), xs));
  PetscCall(PetscFree(xs));
  PetscCall(PetscLogFlops(N->flops));
  PetscCall(PetscTime(&t1));
  N->time_solve = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvISAIDestroy(SpTrsvISAI *isai)
{
  SpTrsvISAI N = *isai;

  PetscFunctionBegin;
  if (!N) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree(N->i));
  PetscCall(PetscFree(N->j));
  PetscCall(PetscFree(N->a));
  PetscCall(PetscFree(N->ci));
  PetscCall(PetscFree(N->cr));
  PetscCall(PetscFree(N->cmap));
  PetscCall(PetscFree(N->pos));
  PetscCall(PetscFree(N));
  *isai = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
