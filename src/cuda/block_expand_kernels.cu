/*
   Scalar CSR values of a block CSR matrix on the GPU: the apply matrices of PC isai are PETSc
   MATSEQAIJCUSPARSE matrices whose pattern is the scalar expansion of a block pattern (made once on the
   host, SpTrsvBlockMatCreateExpanded()); at every numeric setup this kernel writes their device value
   arrays straight from device block values, so nothing goes back to the host.

   Expansion order (the one SpTrsvBlockMatCreateExpanded() builds): scalar row r = br bs + rr holds, for
   the blocks p of block row br in order, the entries (rr, 0 .. bs-1) of block p. Hence entry (rr, cc) of
   block p lands at
       bs^2 bi[br] + rr bs nb + (p - bi[br]) bs + cc,   nb = bi[br + 1] - bi[br].
   Each target block takes its values from a source block (src[p], a slot in the source array), from
   slot p itself (no src), or is the identity (src[p] < 0: the unit diagonal of L).
*/
#include <sptrsv/blocktri.h>
#include <sptrsv/backend.h> /* SpTrsvBackendCUDAGetStream() */
#include "cuda_upload.h"
#include <climits>

struct _n_SpTrsvCUDAExpand {
  int          n, bs, nnzb;
  int         *bi, *brow, *src; /* block row pointers, block row of each block, source slots (or NULL) */
  cudaStream_t stream;
};

__global__ void SpTrsvExpandKernel(int nnzb, int bs, const int *__restrict__ bi, const int *__restrict__ brow, const int *__restrict__ src, const PetscScalar *__restrict__ sa, PetscScalar *__restrict__ dst)
{
  const int    bs2 = bs * bs;
  const size_t t   = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (t >= (size_t)nnzb * bs2) return;
  const int p = (int)(t / bs2), e = (int)(t % bs2), rr = e % bs, cc = e / bs;
  const int br = brow[p], b0 = bi[br], nb = bi[br + 1] - b0;
  const int s  = src ? src[p] : p;
  dst[(size_t)bs2 * b0 + (size_t)rr * bs * nb + (size_t)(p - b0) * bs + cc] = s >= 0 ? sa[(size_t)bs2 * s + e] : (PetscScalar)(rr == cc);
}

/*
  SpTrsvCUDAExpandCreate - the expansion of the block pattern bi (n block rows of size bs); src: the
  source slot of each block (negative: identity), or NULL for the block's own slot
*/
PetscErrorCode SpTrsvCUDAExpandCreate(PetscInt n, PetscInt bs, const PetscInt *bi, const PetscInt *src, SpTrsvCUDAExpand *ep)
{
  SpTrsvCUDAExpand e;
  PetscInt        *brow;

  PetscFunctionBegin;
  PetscCheck((PetscInt64)bi[n] * bs * bs < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Block matrix of %" PetscInt_FMT " blocks is too large for the GPU expansion (32-bit indices)", bi[n]);
  PetscCall(PetscNew(&e));
  e->n    = (int)n;
  e->bs   = (int)bs;
  e->nnzb = (int)bi[n];
  PetscCall(SpTrsvBackendCUDAGetStream(&e->stream));
  PetscCall(PetscMalloc1(bi[n] + 1, &brow));
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = bi[r]; p < bi[r + 1]; p++) brow[p] = r;
  PetscCall(SpTrsvCUDAUploadIndices(bi, n + 1, &e->bi, e->stream));
  PetscCall(SpTrsvCUDAUploadIndices(brow, bi[n], &e->brow, e->stream));
  if (src) PetscCall(SpTrsvCUDAUploadIndices(src, bi[n], &e->src, e->stream));
  PetscCall(PetscFree(brow));
  *ep = e;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvCUDAExpandApply - dst (device, scalar CSR values) from the device block values sa; enqueued on
   the backend's stream, which PETSc's SpMVs follow */
PetscErrorCode SpTrsvCUDAExpandApply(SpTrsvCUDAExpand e, const PetscScalar *sa, PetscScalar *dst)
{
  const size_t total = (size_t)e->nnzb * e->bs * e->bs;

  PetscFunctionBegin;
  if (!total) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvExpandKernel<<<(unsigned)((total + 255) / 256), 256, 0, e->stream>>>(e->nnzb, e->bs, e->bi, e->brow, e->src, sa, dst);
  SpTrsvCUDACheckLaunch();
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDAExpandDestroy(SpTrsvCUDAExpand *ep)
{
  SpTrsvCUDAExpand e = *ep;

  PetscFunctionBegin;
  if (!e) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(cudaStreamSynchronize(e->stream));
  SpTrsvCUDACall(SpTrsvCUDAFree(e->bi));
  SpTrsvCUDACall(SpTrsvCUDAFree(e->brow));
  SpTrsvCUDACall(SpTrsvCUDAFree(e->src));
  PetscCall(PetscFree(e));
  *ep = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
