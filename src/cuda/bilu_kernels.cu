/*
   Block ILU numeric factorization on the GPU (the host reference is SpTrsvBILUNumericRows() in
   src/mat/factor/biluk.c, which reproduces PETSc's MATSEQBAIJ ILU). The pattern comes from the host's
   symbolic phase (SpTrsvBILUSymbolic()); the values never leave the device:

   1. gather: the input values (a MATSEQAIJ/MATSEQAIJCUSPARSE CSR value array, or a MATSEQBAIJ block
      array) are scattered into F = [L strict | diagonal | U strict], block rows of the factor pattern,
      through a map made once on the host; fill blocks are zero. A non-finite input value is flagged.
   2. elimination, level by level: block row i needs the finished block rows k of L(i,:), so the rows
      are grouped by the level sets of L's pattern (SpTrsvLevelsCompute()) and one launch per level
      factors all rows of that level, a warp per block row, its lanes over the entries of a block:
          for k in L(i,:) ascending, skipping exactly zero blocks (as the host does):
              F(i,k) = F(i,k) inv(U(k,k));   F(i,j) -= F(i,k) U(k,j) for j in U(k,:) that lie in row i
      then lane 0 inverts the diagonal block (Gaussian elimination with LINPACK's pivot choice and
      PETSc's in-block shift, SpTrsvBlockInvert()); a zero pivot is flagged with its block row.
   Each product entry is summed in the host's order, so both give the same factor up to FMA contraction.
   No thread waits on another (the level launches are the only ordering), so the factorization cannot
   hang; after the last level the flags are read back once and turned into PETSc errors by the caller.
   The diagonal slot of F keeps the (non-inverted) pivot block, the inverses go to idiag.
*/
#include <sptrsv/biluk.h>
#include <sptrsv/backend.h> /* SpTrsvBackendCUDAGetStream() */
#include "cuda_upload.h"
#include <climits>

struct _n_SpTrsvCUDABILU {
  int                 n, bs, nnzF, nval, nlevels;
  int                *fi, *fj, *fd; /* F by block rows; fd: slot of each diagonal block */
  int                *order;        /* block rows sorted by level */
  PetscInt           *levptr;       /* host: rows of level l are order[levptr[l] .. levptr[l+1]-1] */
  int                *amap;         /* input value k -> value index in fa */
  PetscScalar        *fa, *idiag, *stage;
  unsigned long long *flags, hflags[2]; /* [0]: first non-finite input value; [1]: (block row << 8 | pivot) of the first zero pivot */
  cudaStream_t        stream;
};

#define BILU_NONE ULLONG_MAX

#if defined(SPTRSV_CUDA_SCALAR_OK)
__global__ void SpTrsvBILUGatherKernel(int nval, const int *__restrict__ amap, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ fa, unsigned long long *flags)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nval) return;
  const PetscScalar v = a[k];
  if (!isfinite(v)) atomicMin(&flags[0], (unsigned long long)k);
  fa[amap[k]] = v;
}

/* a = a^{-1} for one bs x bs column-major block: the arithmetic of SpTrsvBlockInvert(); returns the
   column of a zero pivot, or -1 */
template <int BS>
__device__ int SpTrsvBILUInvertBlock(int bsr, PetscScalar *a, PetscReal shift)
{
  const int   bs = BS > 0 ? BS : bsr;
  int         piv[SPTRSV_BS_MAX];
  PetscScalar x[SPTRSV_BS_MAX];

  for (int k = 0; k < bs; k++) {
    int       l  = k;
    PetscReal mx = fabs(a[k + k * bs]);
    for (int r = k + 1; r < bs; r++)
      if (fabs(a[r + k * bs]) > mx) {
        mx = fabs(a[r + k * bs]);
        l  = r;
      }
    piv[k] = l;
    if (a[l + k * bs] == 0.0) {
      if (k < bs - 1 && shift != 0.0) a[l + k * bs] = shift;
      else return k;
    }
    if (l != k)
      for (int c = 0; c < bs; c++) {
        const PetscScalar t = a[k + c * bs];
        a[k + c * bs]       = a[l + c * bs];
        a[l + c * bs]       = t;
      }
    for (int r = k + 1; r < bs; r++) a[r + k * bs] /= a[k + k * bs];
    for (int c = k + 1; c < bs; c++)
      for (int r = k + 1; r < bs; r++) a[r + c * bs] -= a[r + k * bs] * a[k + c * bs];
  }
  /* column c of the inverse overwrites nothing the later columns need: keep the inverse aside */
  PetscScalar inv[SPTRSV_BS_MAX * SPTRSV_BS_MAX];
  for (int c = 0; c < bs; c++) {
    for (int r = 0; r < bs; r++) x[r] = (r == c) ? 1.0 : 0.0;
    for (int k = 0; k < bs; k++) {
      const PetscScalar t = x[k];
      x[k]                = x[piv[k]];
      x[piv[k]]           = t;
    }
    for (int r = 1; r < bs; r++)
      for (int k = 0; k < r; k++) x[r] -= a[r + k * bs] * x[k];
    for (int r = bs - 1; r >= 0; r--) {
      for (int k = r + 1; k < bs; k++) x[r] -= a[r + k * bs] * x[k];
      x[r] /= a[r + r * bs];
    }
    for (int r = 0; r < bs; r++) inv[r + c * bs] = x[r];
  }
  for (int k = 0; k < bs * bs; k++) a[k] = inv[k];
  return -1;
}

/* one warp per block row of this level (rows[0 .. nrows-1]); lanes cover the bs*bs entries of a block */
template <int BS>
__global__ void SpTrsvBILURowsKernel(int nrows, const int *__restrict__ rows, int bsr, const int *__restrict__ fi, const int *__restrict__ fj, const int *__restrict__ fd, PetscScalar *fa, PetscScalar *idiag, PetscReal shiftamount, unsigned long long *flags)
{
  const int bs = BS > 0 ? BS : bsr, bs2 = bs * bs;
  const int lane = threadIdx.x & 31, w = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) >> 5);

  if (w >= nrows) return; /* the whole warp leaves together */
  const int i = rows[w], s = fi[i], d = fd[i], e = fi[i + 1];
  for (int p = s; p < d; p++) {
    PetscScalar       *wk = fa + (size_t)bs2 * p;
    const PetscScalar *dk = idiag + (size_t)bs2 * fj[p];
    PetscScalar        m[2];
    bool               nz = false;

    __syncwarp(); /* the updates of earlier steps to this block are visible */
    for (int t = lane; t < bs2; t += 32) nz = nz || wk[t] != 0.0;
    if (!__any_sync(0xffffffffu, nz)) continue;
    for (int t = lane, h = 0; t < bs2; t += 32, h++) { /* F(i,k) inv(U(k,k)), summed as SpTrsvBlockMult() */
      const int   r = t % bs, c = t / bs;
      PetscScalar acc = 0.0;
      for (int u = 0; u < bs; u++) acc += wk[r + u * bs] * dk[u + c * bs];
      m[h] = acc;
    }
    __syncwarp();
    for (int t = lane, h = 0; t < bs2; t += 32, h++) wk[t] = m[h];
    __syncwarp();
    const int k = fj[p], qe = fi[k + 1];
    int       ptr = p + 1; /* merge cursor into row i (columns ascending, all > k) */
    for (int q = fd[k] + 1; q < qe; q++) {
      const int j = fj[q];
      while (ptr < e && fj[ptr] < j) ptr++;
      if (ptr == e) break;
      if (fj[ptr] != j) continue; /* outside the pattern: dropped */
      const PetscScalar *uq = fa + (size_t)bs2 * q;
      PetscScalar       *wj = fa + (size_t)bs2 * ptr;
      for (int t = lane; t < bs2; t += 32) { /* F(i,j) -= F(i,k) U(k,j), summed as SpTrsvBlockGemm(-1) */
        const int   r = t % bs, c = t / bs;
        PetscScalar acc = wj[t];
        for (int u = 0; u < bs; u++) acc += wk[r + u * bs] * (-uq[u + c * bs]);
        wj[t] = acc;
      }
    }
  }
  __syncwarp();
  if (lane == 0) {
    PetscScalar a[(BS > 0 ? BS : SPTRSV_BS_MAX) * (BS > 0 ? BS : SPTRSV_BS_MAX)];
    PetscReal   shift = 0.0;
    for (int t = 0; t < bs2; t++) a[t] = fa[(size_t)bs2 * d + t];
    if (bs <= 7) { /* PETSc's unrolled kernels' in-block shift (SpTrsvBILUInvertDiagonal()) */
      PetscReal sum = 1.e-12;
      for (int k = 0; k < bs; k++) sum += fabs(a[k + k * bs]);
      shift = (bs == 3 ? .333 : .25) * shiftamount * sum;
    }
    const int zr = SpTrsvBILUInvertBlock<BS>(bs, a, shift);
    if (zr >= 0) atomicMin(&flags[1], ((unsigned long long)i << 8) | (unsigned long long)zr);
    for (int t = 0; t < bs2; t++) idiag[(size_t)bs2 * i + t] = a[t];
  }
}
#endif

PetscErrorCode SpTrsvCUDABILUCreate(SpTrsvBILU f, PetscInt nval, const PetscInt *amap, SpTrsvCUDABILU *gp)
{
  SpTrsvCUDABILU  g;
  const PetscInt  n = f->n, bs = f->bs, bs2 = bs * bs, *li = f->L->i, *lj = f->L->j, *ui = f->U->i, *uj = f->U->j;
  const PetscInt  nnzF = li[n] + ui[n] + n;
  PetscInt       *fi, *fj, *fd, *level, *order;

  PetscFunctionBegin;
  PetscCheck(bs >= 2, PETSC_COMM_SELF, PETSC_ERR_SUP, "The GPU block ILU needs block size 2 to %d (block size 1 uses the scalar pivot rules of the host)", SPTRSV_BS_MAX);
  PetscCheck((PetscInt64)nnzF * bs2 < INT_MAX && nval < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Block factor of %" PetscInt_FMT " blocks is too large for the GPU factorization (32-bit indices)", nnzF);
  PetscCall(PetscNew(&g));
  g->n    = (int)n;
  g->bs   = (int)bs;
  g->nnzF = (int)nnzF;
  g->nval = (int)nval;
  PetscCall(SpTrsvBackendCUDAGetStream(&g->stream));

  /* F = [L strict | diagonal | U strict] by block rows */
  PetscCall(PetscMalloc3(n + 1, &fi, nnzF + 1, &fj, n + 1, &fd));
  fi[0] = 0;
  for (PetscInt r = 0; r < n; r++) {
    PetscInt p = fi[r];
    for (PetscInt q = li[r]; q < li[r + 1]; q++) fj[p++] = lj[q];
    fd[r]   = p;
    fj[p++] = r;
    for (PetscInt q = ui[r]; q < ui[r + 1]; q++) fj[p++] = uj[q];
    fi[r + 1] = p;
  }
  /* level sets of L's pattern: the order the block rows can be factored in */
  PetscCall(PetscMalloc2(n + 1, &level, n + 1, &order));
  PetscCall(SpTrsvLevelsCompute(n, li, lj, PETSC_TRUE, level, &g->nlevels));
  PetscCall(SpTrsvLevelsSort(n, level, g->nlevels, &g->levptr, order));

  PetscCall(SpTrsvCUDAUploadIndices(fi, n + 1, &g->fi, g->stream));
  PetscCall(SpTrsvCUDAUploadIndices(fj, nnzF, &g->fj, g->stream));
  PetscCall(SpTrsvCUDAUploadIndices(fd, n, &g->fd, g->stream));
  PetscCall(SpTrsvCUDAUploadIndices(order, n, &g->order, g->stream));
  PetscCall(SpTrsvCUDAUploadIndices(amap, nval, &g->amap, g->stream));
  PetscCall(PetscFree3(fi, fj, fd));
  PetscCall(PetscFree2(level, order));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->fa, sizeof(PetscScalar) * ((size_t)bs2 * nnzF + 1), "g->fa"));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->idiag, sizeof(PetscScalar) * ((size_t)bs2 * n + 1), "g->idiag"));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->flags, sizeof(unsigned long long) * 2, "g->flags"));
  *gp = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDABILUNumeric(SpTrsvCUDABILU g, const PetscScalar *vals, PetscMemType mtype, PetscReal shiftamount, PetscInt *badval, PetscInt *zerorow, PetscInt *zeropivot)
{
  const size_t       bs2 = (size_t)g->bs * g->bs;
  const PetscScalar *dv  = vals;

  PetscFunctionBegin;
  *badval = *zerorow = *zeropivot = -1;
  if (!PetscMemTypeDevice(mtype)) { /* host values: through a staging buffer */
    if (!g->stage) PetscCall(SpTrsvCUDAMalloc((void **)&g->stage, sizeof(PetscScalar) * ((size_t)g->nval + 1), "g->stage"));
    SpTrsvCUDACall(cudaMemcpyAsync(g->stage, vals, sizeof(PetscScalar) * g->nval, cudaMemcpyHostToDevice, g->stream));
    dv = g->stage;
  }
  SpTrsvCUDACall(cudaMemsetAsync(g->fa, 0, sizeof(PetscScalar) * bs2 * g->nnzF, g->stream));
  SpTrsvCUDACall(cudaMemsetAsync(g->flags, 0xff, sizeof(unsigned long long) * 2, g->stream));
#if defined(SPTRSV_CUDA_SCALAR_OK)
  if (g->nval) {
    SpTrsvBILUGatherKernel<<<(g->nval + 255) / 256, 256, 0, g->stream>>>(g->nval, g->amap, dv, g->fa, g->flags);
    SpTrsvCUDACheckLaunch();
  }
  for (PetscInt l = 0; l < g->nlevels; l++) {
    const int  nr = (int)(g->levptr[l + 1] - g->levptr[l]), wpb = 4, nb = (nr + wpb - 1) / wpb;
    const int *rows = g->order + g->levptr[l];
  #define BILU_LAUNCH(B) SpTrsvBILURowsKernel<B><<<nb, 32 * wpb, 0, g->stream>>>(nr, rows, g->bs, g->fi, g->fj, g->fd, g->fa, g->idiag, shiftamount, g->flags)
    switch (g->bs) {
    case 2: BILU_LAUNCH(2); break;
    case 3: BILU_LAUNCH(3); break;
    case 4: BILU_LAUNCH(4); break;
    case 5: BILU_LAUNCH(5); break;
    default: BILU_LAUNCH(0); break;
    }
  #undef BILU_LAUNCH
    SpTrsvCUDACheckLaunch();
  }
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The GPU block ILU needs real scalars");
#endif
  SpTrsvCUDACall(cudaMemcpyAsync(g->hflags, g->flags, sizeof(g->hflags), cudaMemcpyDeviceToHost, g->stream));
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream));
  if (g->hflags[0] != BILU_NONE) *badval = (PetscInt)g->hflags[0];
  if (g->hflags[1] != BILU_NONE) {
    *zerorow   = (PetscInt)(g->hflags[1] >> 8);
    *zeropivot = (PetscInt)(g->hflags[1] & 0xff);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDABILUGetArrays(SpTrsvCUDABILU g, SpTrsvCUDABILUArrays *arr)
{
  PetscFunctionBegin;
  arr->n     = g->n;
  arr->bs    = g->bs;
  arr->fi    = g->fi;
  arr->fj    = g->fj;
  arr->fd    = g->fd;
  arr->fa    = g->fa;
  arr->idiag = g->idiag;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDABILUGetLevels(SpTrsvCUDABILU g, PetscInt *nlevels)
{
  PetscFunctionBegin;
  *nlevels = g->nlevels;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDABILUDestroy(SpTrsvCUDABILU *gp)
{
  SpTrsvCUDABILU g = *gp;

  PetscFunctionBegin;
  if (!g) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream)); /* no kernel of ours still reads what is freed */
  SpTrsvCUDACall(SpTrsvCUDAFree(g->fi));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->fj));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->fd));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->order));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->amap));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->fa));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->idiag));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->stage));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->flags));
  PetscCall(PetscFree(g->levptr));
  PetscCall(PetscFree(g));
  *gp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
