/*
   ISAI column solves on the GPU (paper 003; the host reference is SpTrsvISAIColumn() in
   src/mat/isai/isai.c). One thread per block column j of N ~ T^{-1}: the column's blocks x_0 .. x_{m-1}
   at block rows J[0] < ... < J[m-1] are computed in substitution order,
       x_d = inv(T(j,j)),  x_p = -inv(T(J[p],J[p])) sum_q T(J[p],J[q]) x_q,
   the entries T(J[p], J[q]) found by merging block row J[p] of T (ascending columns) with J (ascending),
   so the small triangular system is never formed and no scratch of size n is needed: a column of any
   length is solved exactly, in place in N's value array (no truncation, no separate long path). The
   operations and their order are the host's, so both give the same values up to FMA contraction.

   Why a thread and not a warp per column: the block operations of one column are a serial chain
   (x_p needs the x_q before it), and a warp per column would idle 31 lanes on bs = 1..4 blocks; columns
   are independent, so a thread per column keeps every lane busy (n columns, 10^4 .. 10^6). The loads of
   T are not coalesced; the work is small next to the factorization (docs/perf-data/history/isai-runs.md,
   "Setup breakdown").

   T comes either from the host (its strict blocks and inverted diagonal blocks are uploaded at every
   numeric setup) or from the GPU block ILU (SpTrsvCUDABILU, src/cuda/bilu_kernels.cu), whose factor
   F = [L strict | diagonal | U strict] is read in place: block row r of L is F's slots
   [fi[r], fd[r]), of U [fd[r] + 1, fi[r + 1]). The kernel sees a row as [rb[r] + roff, re[r]).
   Everything runs on the CUDA backend's stream (SpTrsvBackendCUDAGetStream()), the stream PETSc's
   own cuSPARSE SpMVs use.
*/
#include <sptrsv/isai.h>
#include <sptrsv/biluk.h> /* the GPU block ILU whose L or U a column solve reads in place */
#include <sptrsv/backend.h> /* SpTrsvBackendCUDAGetStream() */
#include "cuda_upload.h"
#include <petsctime.h>
#include <climits>

struct _n_SpTrsvCUDAISAI {
  int                n, bs, nnzT, nnzN;
  int               *ti, *tj;        /* strict part of T, block CSR (owned; NULL when T is in a GPU factor) */
  const int         *rb, *re, *cj;   /* row r of T: slots [rb[r] + roff, re[r]), block columns cj */
  int                roff;
  int               *ci, *cr, *cmap; /* N by columns: column pointers, rows, CSR slot of each */
  PetscScalar       *ta, *tidiag;    /* owned values of T: strict blocks, inverted diagonal blocks */
  const PetscScalar *va, *vidiag;    /* the values the kernel reads (owned, or the GPU factor's) */
  PetscScalar       *na;             /* values of N */
  PetscBool          unit;
  cudaStream_t       stream;
};

#if defined(SPTRSV_CUDA_SCALAR_OK)
/* C += A B for bs x bs column-major blocks */
template <int BS>
__device__ __forceinline__ void BlockGemm(int bs, const PetscScalar *A, const PetscScalar *B, PetscScalar *C)
{
  const int b = BS > 0 ? BS : bs;
  for (int c = 0; c < b; c++)
    for (int k = 0; k < b; k++) {
      const PetscScalar bkc = B[k + c * b];
      for (int r = 0; r < b; r++) C[r + c * b] += A[r + k * b] * bkc;
    }
}

template <int BS>
__global__ void SpTrsvISAIColumnsKernel(int n, int bsr, bool lower, bool unit, const int *__restrict__ rb, const int *__restrict__ re, int roff, const int *__restrict__ tj, const PetscScalar *__restrict__ ta, const PetscScalar *__restrict__ tidiag, const int *__restrict__ ci, const int *__restrict__ cr, const int *__restrict__ cmap, PetscScalar *na)
{
  const int   bs = BS > 0 ? BS : bsr, bs2 = bs * bs;
  const int   col = blockIdx.x * blockDim.x + threadIdx.x;
  PetscScalar s[(BS > 0 ? BS : SPTRSV_BS_MAX) * (BS > 0 ? BS : SPTRSV_BS_MAX)];

  if (col >= n) return;
  const int  m = ci[col + 1] - ci[col], d = lower ? 0 : m - 1;
  const int *J = cr + ci[col], *slot = cmap + ci[col];
  #define ISAI_X(q) (na + (size_t)bs2 * slot[q])
  {
    PetscScalar *x = ISAI_X(d);
    for (int k = 0; k < bs2; k++) x[k] = unit ? (PetscScalar)(k % (bs + 1) == 0) : tidiag[(size_t)bs2 * col + k];
  }
  for (int t = 1; t < m; t++) {
    const int p = lower ? t : m - 1 - t, r = J[p], qend = lower ? p : m;
    int       q = lower ? 0 : p + 1;
    for (int k = 0; k < bs2; k++) s[k] = 0;
    for (int e = rb[r] + roff, ee = re[r]; e < ee; e++) {
      const int c = tj[e];
      while (q < qend && J[q] < c) q++;
      if (q == qend) break;
      if (J[q] != c) continue;
      BlockGemm<BS>(bs, ta + (size_t)bs2 * e, ISAI_X(q), s);
    }
    PetscScalar *x = ISAI_X(p);
    if (unit) {
      for (int k = 0; k < bs2; k++) x[k] = -s[k];
    } else {
      const PetscScalar *D = tidiag + (size_t)bs2 * r;
      for (int k = 0; k < bs2; k++) x[k] = 0;
      BlockGemm<BS>(bs, D, s, x);
      for (int k = 0; k < bs2; k++) x[k] = -x[k];
    }
  }
  #undef ISAI_X
}
#endif

/* the column view of N's pattern and N's value array */
static PetscErrorCode SpTrsvCUDAISAIUploadColumns(SpTrsvCUDAISAI g, SpTrsvISAI N)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAUploadIndices(N->ci, N->n + 1, &g->ci, g->stream));
  PetscCall(SpTrsvCUDAUploadIndices(N->cr, g->nnzN, &g->cr, g->stream));
  PetscCall(SpTrsvCUDAUploadIndices(N->cmap, g->nnzN, &g->cmap, g->stream));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->na, sizeof(PetscScalar) * ((size_t)g->bs * g->bs * g->nnzN + 1), "g->na"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDAISAICreate(SpTrsvISAI N, SpTrsvBlockTri T, SpTrsvCUDAISAI *gp)
{
  SpTrsvCUDAISAI g;
  const size_t   bs2 = (size_t)T->bs * T->bs;

  PetscFunctionBegin;
  PetscCheck(T->n == N->n && T->bs == N->bs && T->uplo == N->uplo, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "The triangle does not match the ISAI pattern");
  PetscCheck(N->i[N->n] < INT_MAX / (PetscInt)bs2 && T->i[T->n] < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "ISAI pattern of %" PetscInt_FMT " blocks is too large for the GPU column solves (32-bit indices)", N->i[N->n]);
  PetscCall(PetscNew(&g));
  g->n    = (int)N->n;
  g->bs   = (int)N->bs;
  g->nnzT = (int)T->i[T->n];
  g->nnzN = (int)N->i[N->n];
  g->unit = T->unit;
  PetscCall(SpTrsvBackendCUDAGetStream(&g->stream));
  PetscCall(SpTrsvCUDAISAIUploadColumns(g, N));
  PetscCall(SpTrsvCUDAUploadIndices(T->i, T->n + 1, &g->ti, g->stream));
  PetscCall(SpTrsvCUDAUploadIndices(T->j, g->nnzT, &g->tj, g->stream));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->ta, sizeof(PetscScalar) * (bs2 * g->nnzT + 1), "g->ta"));
  PetscCall(SpTrsvCUDAMalloc((void **)&g->tidiag, sizeof(PetscScalar) * (bs2 * g->n + 1), "g->tidiag"));
  g->rb     = g->ti;
  g->re     = g->ti + 1;
  g->cj     = g->tj;
  g->va     = g->ta;
  g->vidiag = g->tidiag;
  *gp       = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDAISAICreateOnBILU(SpTrsvISAI N, SpTrsvCUDABILU F, SpTrsvCUDAISAI *gp)
{
  SpTrsvCUDAISAI       g;
  SpTrsvCUDABILUArrays f;
  const PetscBool      lower = (PetscBool)(N->uplo == SPTRSV_LOWER);

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDABILUGetArrays(F, &f));
  PetscCheck(f.n == N->n && f.bs == N->bs, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "The GPU factor does not match the ISAI pattern");
  PetscCheck(N->i[N->n] < INT_MAX / (N->bs * N->bs), PETSC_COMM_SELF, PETSC_ERR_SUP, "ISAI pattern of %" PetscInt_FMT " blocks is too large for the GPU column solves (32-bit indices)", N->i[N->n]);
  PetscCall(PetscNew(&g));
  g->n    = (int)N->n;
  g->bs   = (int)N->bs;
  g->nnzN = (int)N->i[N->n];
  g->unit = lower; /* the block ILU's L is unit, its U is not */
  PetscCall(SpTrsvBackendCUDAGetStream(&g->stream));
  PetscCall(SpTrsvCUDAISAIUploadColumns(g, N));
  g->rb     = lower ? f.fi : f.fd;
  g->re     = lower ? f.fd : f.fi + 1;
  g->roff   = lower ? 0 : 1;
  g->cj     = f.fj;
  g->va     = f.fa;
  g->vidiag = f.idiag;
  *gp       = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDAISAINumeric - the values of N on the GPU: from T's current host values (T given; uploaded
  first) or from the GPU factor the object was made on (T NULL). With download, N's values are copied
  into N->a; otherwise they stay on the device (SpTrsvCUDAISAIGetDeviceValues()).
*/
PetscErrorCode SpTrsvCUDAISAINumeric(SpTrsvCUDAISAI g, SpTrsvISAI N, SpTrsvBlockTri T, PetscBool download)
{
  const size_t   bs2 = (size_t)g->bs * g->bs;
  const int      nthr = 128, nblk = (g->n + nthr - 1) / nthr;
  const bool     lower = N->uplo == SPTRSV_LOWER, unit = g->unit;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCheck((T != NULL) == (g->ti != NULL), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Give the host triangle exactly when the GPU ISAI was made from one");
  PetscCheck(!T || (T->n == g->n && T->bs == g->bs && T->i[T->n] == g->nnzT && T->unit == g->unit), PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "The triangle does not match the GPU ISAI pattern");
  PetscCall(PetscTime(&t0));
  if (T) {
    SpTrsvCUDACall(cudaMemcpyAsync(g->ta, T->a, sizeof(PetscScalar) * bs2 * g->nnzT, cudaMemcpyHostToDevice, g->stream));
    if (!unit) SpTrsvCUDACall(cudaMemcpyAsync(g->tidiag, T->idiag, sizeof(PetscScalar) * bs2 * g->n, cudaMemcpyHostToDevice, g->stream));
  }
#if defined(SPTRSV_CUDA_SCALAR_OK)
  if (g->n) {
  #define ISAI_LAUNCH(B) SpTrsvISAIColumnsKernel<B><<<nblk, nthr, 0, g->stream>>>(g->n, g->bs, lower, unit, g->rb, g->re, g->roff, g->cj, g->va, g->vidiag, g->ci, g->cr, g->cmap, g->na)
    switch (g->bs) {
    case 1: ISAI_LAUNCH(1); break;
    case 2: ISAI_LAUNCH(2); break;
    case 3: ISAI_LAUNCH(3); break;
    case 4: ISAI_LAUNCH(4); break;
    case 5: ISAI_LAUNCH(5); break;
    default: ISAI_LAUNCH(0); break;
    }
  #undef ISAI_LAUNCH
    SpTrsvCUDACheckLaunch();
  }
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "GPU ISAI column solves need real scalars");
#endif
  if (download) SpTrsvCUDACall(cudaMemcpyAsync(N->a, g->na, sizeof(PetscScalar) * bs2 * g->nnzN, cudaMemcpyDeviceToHost, g->stream));
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream));
  PetscCall(PetscTime(&t1));
  N->time_solve = t1 - t0;
  N->flops      = 0; /* the count lives with the host path; the GPU time is what -ksp_view reports */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvCUDAISAIDownload - copy N's values from the device into N->a */
PetscErrorCode SpTrsvCUDAISAIDownload(SpTrsvCUDAISAI g, SpTrsvISAI N)
{
  PetscFunctionBegin;
  SpTrsvCUDACall(cudaMemcpyAsync(N->a, g->na, sizeof(PetscScalar) * g->bs * g->bs * g->nnzN, cudaMemcpyDeviceToHost, g->stream));
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvCUDAISAIGetDeviceValues - N's device value array (block CSR order, bs*bs per block) */
PetscErrorCode SpTrsvCUDAISAIGetDeviceValues(SpTrsvCUDAISAI g, const PetscScalar **na)
{
  PetscFunctionBegin;
  *na = g->na;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDAISAIDestroy(SpTrsvCUDAISAI *gp)
{
  SpTrsvCUDAISAI g = *gp;

  PetscFunctionBegin;
  if (!g) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(cudaStreamSynchronize(g->stream)); /* no kernel of ours still reads what is freed */
  SpTrsvCUDACall(SpTrsvCUDAFree(g->ti));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->tj));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->ci));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->cr));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->cmap));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->ta));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->tidiag));
  SpTrsvCUDACall(SpTrsvCUDAFree(g->na));
  PetscCall(PetscFree(g));
  *gp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
