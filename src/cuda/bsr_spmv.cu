/*
   y = N x for a block CSR matrix on the GPU with cuSPARSE's BSR SpMV (cusparseXbsrmv), blocks column-major
   (the layout of MATSEQBAIJ and of PC isai's N_L, N_U). PC isai's forward apply uses it: on its block
   matrices it is 1.04-1.60x faster than the generic CSR SpMV of the scalar expansion (bs 2..8, H100;
   examples/benchmarks/spmv_bsr_vs_csr.cu, docs/perf-data/history/isai-runs.md), because it reads one column index
   per block instead of one per entry. bsrmv has no transpose, so transposed applies keep the CSR matrices.
   The values are borrowed (the device array the ISAI column solves write); the products are enqueued on
   the CUDA backend's stream, which PETSc's vector kernels follow.
*/
#include <sptrsv/blocktri.h>
#include <sptrsv/backend.h> /* SpTrsvBackendCUDAGetStream() */
#include "cuda_upload.h"
#include "cusparse_check.h"
#include <climits>

struct _n_SpTrsvCUDABSR {
  int                mb, bs, nnzb;
  int               *bi, *bj;
  const PetscScalar *va;
  cusparseHandle_t   handle;
  cusparseMatDescr_t descr;
  cudaStream_t       stream;
};


/* SpTrsvCUDABSRCreate - the BSR form of the block CSR pattern bi, bj (mb block rows of size bs) with the device values va */
PetscErrorCode SpTrsvCUDABSRCreate(PetscInt mb, PetscInt bs, const PetscInt *bi, const PetscInt *bj, const PetscScalar *va, SpTrsvCUDABSR *bp)
{
  SpTrsvCUDABSR b;

  PetscFunctionBegin;
  PetscCheck((PetscInt64)bi[mb] * bs * bs < INT_MAX && mb * bs < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Block matrix of %" PetscInt_FMT " blocks is too large for the BSR SpMV (32-bit indices)", bi[mb]);
  PetscCall(PetscNew(&b));
  b->mb   = (int)mb;
  b->bs   = (int)bs;
  b->nnzb = (int)bi[mb];
  b->va   = va;
  PetscCall(SpTrsvBackendCUDAGetStream(&b->stream));
  PetscCall(SpTrsvCUDAUploadIndices(bi, mb + 1, &b->bi, b->stream));
  PetscCall(SpTrsvCUDAUploadIndices(bj, bi[mb], &b->bj, b->stream));
  SpTrsvCusparseCall(cusparseCreate(&b->handle));
  SpTrsvCusparseCall(cusparseSetStream(b->handle, b->stream));
  SpTrsvCusparseCall(cusparseCreateMatDescr(&b->descr));
  *bp = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvCUDABSRMult - y = N x (device arrays; y != x) */
PetscErrorCode SpTrsvCUDABSRMult(SpTrsvCUDABSR b, const PetscScalar *x, PetscScalar *y)
{
  const PetscScalar one = 1.0, zero = 0.0;

  PetscFunctionBegin;
  if (!b->mb) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(SPTRSV_CUDA_SCALAR_OK) && defined(PETSC_USE_REAL_DOUBLE)
  SpTrsvCusparseCall(cusparseDbsrmv(b->handle, CUSPARSE_DIRECTION_COLUMN, CUSPARSE_OPERATION_NON_TRANSPOSE, b->mb, b->mb, b->nnzb, &one, b->descr, b->va, b->bi, b->bj, b->bs, x, &zero, y));
#elif defined(SPTRSV_CUDA_SCALAR_OK)
  SpTrsvCusparseCall(cusparseSbsrmv(b->handle, CUSPARSE_DIRECTION_COLUMN, CUSPARSE_OPERATION_NON_TRANSPOSE, b->mb, b->mb, b->nnzb, &one, b->descr, b->va, b->bi, b->bj, b->bs, x, &zero, y));
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The BSR SpMV needs real single or double scalars");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvCUDABSRDestroy(SpTrsvCUDABSR *bp)
{
  SpTrsvCUDABSR b = *bp;

  PetscFunctionBegin;
  if (!b) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(cudaStreamSynchronize(b->stream));
  SpTrsvCUDACall(SpTrsvCUDAFree(b->bi));
  SpTrsvCUDACall(SpTrsvCUDAFree(b->bj));
  SpTrsvCusparseCall(cusparseDestroyMatDescr(b->descr));
  SpTrsvCusparseCall(cusparseDestroy(b->handle));
  PetscCall(PetscFree(b));
  *bp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
