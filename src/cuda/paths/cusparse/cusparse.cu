/*
   sptrsv_cusparse on the GPU: the triangle op(T) handed to cusparseSpSV (src/mat/paths/cusparse/cusparse.c says why the path
   exists). No kernel of ours solves anything here: the executor builds, once per pattern, the CSR of op(T) in its own
   row order with the diagonal stored (SpTrsvCusparseCSRBuild(): 32-bit indices, columns ascending, no diagonal for a
   unit triangle), uploads it, and runs cuSPARSE's analysis; a solve is one cusparseSpSV_solve on the CUDA backend's
   stream (the one PETSc's vector kernels use), reading b and writing x in place, no copies.

   Values. cusparseSpSV_analysis reads the values (NVIDIA's sample discussion, and PETSc's own cuSPARSE ILU, which
   analyses after each numeric factorization), so every new set of values is followed by a new analysis before the
   next solve: host values (update_values) are written into the uploaded CSR on the host and copied; device values (the
   GPU numeric ILU, update_values_device) are gathered on the device by the small kernel below, slot q from T's CSR
   value map[q], or, for a slot holding the diagonal of row i (map[q] = -1 - i), 1 / idiag[i].

   Nothing waits on another block here and the one kernel of ours is a gather, so there is nothing to deadlock or race;
   cuSPARSE's own kernels are NVIDIA's.
*/
#include <sptrsv/paths/cusparse.h>
#include "../../device_tri.h"
#include "../../cusparse_check.h"

typedef struct {
  PetscInt             n, nnz;
  int                 *h_ptr, *h_idx; /* host: the pattern (SpTrsvCusparseCSRBuild; one allocation with map, kept) */
  PetscInt            *map;   /* host: where each slot's value comes from */
  PetscScalar         *h_val; /* host staging of the values */
  int                 *d_ptr, *d_idx, *d_map;
  PetscScalar         *d_val, *d_work; /* d_work: the vector the descriptors are created on (the solves reset them) */
  void                *d_buf;
  size_t               bufsize;
  PetscBool            analysed; /* cuSPARSE's analysis was run on the current values */
  cusparseHandle_t     handle; /* the process's (SpTrsvCusparseHandleGet) */
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t X, Y;
  cusparseSpSVDescr_t  sv;
} SpTrsvCUDACusparse;

static const cudaDataType SpTrsvCusparseDataType = sizeof(PetscScalar) == 8 ? CUDA_R_64F : CUDA_R_32F;

#if defined(SPTRSV_CUDA_SCALAR_OK)
/* slot q of val from T's CSR values a (map[q] >= 0) or the inverted diagonal d (map[q] = -1 - i: 1 / d[i]) */
__global__ void SpTrsvCusparseGatherValues(int nnz, const int *__restrict__ map, const PetscScalar *__restrict__ a, const PetscScalar *__restrict__ d, PetscScalar *__restrict__ val)
{
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q < nnz) {
    const int m = map[q];
    val[q]      = m >= 0 ? a[m] : (PetscScalar)1 / d[-1 - m];
  }
}
#endif

/* one cuSPARSE handle for every solver of the process (its creation costs milliseconds; one GPU per process), destroyed at
   PetscFinalize */
static cusparseHandle_t SpTrsvCusparseHandle = NULL;

static PetscErrorCode SpTrsvCusparseHandleDestroy(void)
{
  PetscFunctionBegin;
  if (SpTrsvCusparseHandle) (void)cusparseDestroy(SpTrsvCusparseHandle); /* at PetscFinalize: nothing to report to */
  SpTrsvCusparseHandle = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCusparseHandleGet(cusparseHandle_t *handle)
{
  PetscFunctionBegin;
  if (!SpTrsvCusparseHandle) {
    SpTrsvCusparseCall(cusparseCreate(&SpTrsvCusparseHandle));
    PetscCall(PetscRegisterFinalize(SpTrsvCusparseHandleDestroy));
  }
  *handle = SpTrsvCusparseHandle;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cuSPARSE's analysis of the current values, on the backend's stream */
static PetscErrorCode SpTrsvCUDACusparseAnalyse(SpTrsvCUDACusparse *c)
{
  const PetscScalar one = 1.0;
  cudaStream_t      st  = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCusparseCall(cusparseSetStream(c->handle, st));
  SpTrsvCusparseCall(cusparseSpSV_analysis(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->X, c->Y, SpTrsvCusparseDataType, CUSPARSE_SPSV_ALG_DEFAULT, c->sv, c->d_buf));
  c->analysed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCUDACusparseDestroy(SpTrsvSolver s)
{
  SpTrsvCUDACusparse *c = (SpTrsvCUDACusparse *)s->bdata;

  PetscFunctionBegin;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  if (c->sv) SpTrsvCusparseCall(cusparseSpSV_destroyDescr(c->sv));
  if (c->X) SpTrsvCusparseCall(cusparseDestroyDnVec(c->X));
  if (c->Y) SpTrsvCusparseCall(cusparseDestroyDnVec(c->Y));
  if (c->A) SpTrsvCusparseCall(cusparseDestroySpMat(c->A));
  SpTrsvCUDACall(SpTrsvCUDAFree(c->d_ptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(c->d_idx));
  SpTrsvCUDACall(SpTrsvCUDAFree(c->d_map));
  SpTrsvCUDACall(SpTrsvCUDAFree(c->d_val));
  SpTrsvCUDACall(SpTrsvCUDAFree(c->d_work));
  SpTrsvCUDACall(SpTrsvCUDAFree(c->d_buf));
  PetscCall(PetscFree3(c->h_ptr, c->h_idx, c->map));
  PetscCall(PetscFree(c->h_val));
  PetscCall(PetscFree(s->bdata));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* host values: staged, copied, analysed */
static PetscErrorCode SpTrsvCUDACusparseUpdateValues(SpTrsvSolver s)
{
  SpTrsvCUDACusparse *c  = (SpTrsvCUDACusparse *)s->bdata;
  cudaStream_t        st = NULL;

  PetscFunctionBegin;
  if (!c->nnz) PetscFunctionReturn(PETSC_SUCCESS); /* empty, or the identity */
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(SpTrsvCusparseCSRValues(s->tri, c->nnz, c->map, c->h_val));
  SpTrsvCUDACall(cudaMemcpyAsync(c->d_val, c->h_val, (size_t)c->nnz * sizeof(PetscScalar), cudaMemcpyHostToDevice, st));
  PetscCall(SpTrsvCUDACusparseAnalyse(c));
  SpTrsvCUDACall(cudaStreamSynchronize(st)); /* h_val may be written again */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* device values (T's CSR values a, its inverted diagonal d): gathered, analysed */
static PetscErrorCode SpTrsvCUDACusparseUpdateValuesDevice(SpTrsvSolver s, const PetscScalar *a, const PetscScalar *d, const PetscScalar *r)
{
  SpTrsvCUDACusparse *c  = (SpTrsvCUDACusparse *)s->bdata;
  cudaStream_t        st = NULL;

  PetscFunctionBegin;
  PetscCheck(!r, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_cusparse has no Gauss-Seidel sweeps");
  if (!c->nnz) PetscFunctionReturn(PETSC_SUCCESS); /* empty, or the identity */
  PetscCheck(d || s->tri->unit, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "sptrsv_cusparse: a non-unit triangle's device refresh needs its inverted diagonal");
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (!c->d_map) PetscCall(SpTrsvCUDAUploadIndices(c->map, c->nnz, &c->d_map, st)); /* map fits an int: nnz was checked */
#if defined(SPTRSV_CUDA_SCALAR_OK)
  SpTrsvCusparseGatherValues<<<(unsigned int)((c->nnz + SPTRSV_CUDA_VEC_BLOCK - 1) / SPTRSV_CUDA_VEC_BLOCK), SPTRSV_CUDA_VEC_BLOCK, 0, st>>>((int)c->nnz, c->d_map, a, d, c->d_val);
  SpTrsvCUDACheckLaunch();
#endif
  PetscCall(SpTrsvCUDACusparseAnalyse(c));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the CSR of op(T) with its diagonal uploaded, the descriptors, cuSPARSE's buffer and analysis */
static PetscErrorCode SpTrsvCUDACusparseSetup(SpTrsvSolver s)
{
  SpTrsvCUDACusparse *c;
  const PetscScalar   one  = 1.0;
  cusparseFillMode_t  fill = s->op.lower ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
  cusparseDiagType_t  diag = s->op.unit ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
  cudaStream_t        st   = NULL;

  PetscFunctionBegin;
#if !defined(SPTRSV_CUDA_SCALAR_OK)
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_cusparse: the CUDA code of this build supports real scalars only");
#endif
  PetscCheck(s->format == SPTRSV_FORMAT_CSR && !s->rest, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_cusparse solves rows of a plain triangle only (no CSC, no sweeps)");
  PetscCall(PetscNew(&c));
  s->bdata = c;
  c->n     = s->op.n;
  if (!c->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(SpTrsvCusparseCSRBuild(s->tri, s->transpose, &s->op, &c->h_ptr, &c->h_idx, &c->map, &c->nnz)); /* kept in c: freed by Destroy on every path */
  if (!c->nnz) PetscFunctionReturn(PETSC_SUCCESS); /* a unit triangle without entries: the solves copy b (nothing for cuSPARSE) */
  PetscCall(PetscMalloc1(c->nnz + 1, &c->h_val));
  SpTrsvCUDAMallocN(c->d_ptr, c->n + 1);
  SpTrsvCUDAMallocN(c->d_idx, c->nnz);
  SpTrsvCUDAMallocN(c->d_val, c->nnz);
  SpTrsvCUDAMallocN(c->d_work, c->n);
  SpTrsvCUDACall(cudaMemcpyAsync(c->d_ptr, c->h_ptr, (size_t)(c->n + 1) * sizeof(int), cudaMemcpyHostToDevice, st));
  SpTrsvCUDACall(cudaMemcpyAsync(c->d_idx, c->h_idx, (size_t)c->nnz * sizeof(int), cudaMemcpyHostToDevice, st));
  SpTrsvCUDACall(cudaMemsetAsync(c->d_work, 0, (size_t)c->n * sizeof(PetscScalar), st));
  PetscCall(SpTrsvCusparseHandleGet(&c->handle));
  SpTrsvCusparseCall(cusparseCreateCsr(&c->A, (int64_t)c->n, (int64_t)c->n, (int64_t)c->nnz, c->d_ptr, c->d_idx, c->d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, SpTrsvCusparseDataType));
  SpTrsvCusparseCall(cusparseSpMatSetAttribute(c->A, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
  SpTrsvCusparseCall(cusparseSpMatSetAttribute(c->A, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
  SpTrsvCusparseCall(cusparseCreateDnVec(&c->X, (int64_t)c->n, c->d_work, SpTrsvCusparseDataType));
  SpTrsvCusparseCall(cusparseCreateDnVec(&c->Y, (int64_t)c->n, c->d_work, SpTrsvCusparseDataType));
  SpTrsvCusparseCall(cusparseSpSV_createDescr(&c->sv));
  SpTrsvCusparseCall(cusparseSpSV_bufferSize(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->X, c->Y, SpTrsvCusparseDataType, CUSPARSE_SPSV_ALG_DEFAULT, c->sv, &c->bufsize));
  PetscCall(SpTrsvCUDAMalloc(&c->d_buf, c->bufsize + 1, "cuSPARSE's SpSV buffer"));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  /* values not written yet (a symbolic phase's pattern; the GPU numeric ILU writes only the device copy): the numeric
     phase hands them over, and cuSPARSE analyses then */
  if (!s->tri->values_unset) PetscCall(SpTrsvCUDACusparseUpdateValues(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = op(T)^{-1} b, device arrays, b != x: one cusparseSpSV_solve, enqueued on the backend's stream */
static PetscErrorCode SpTrsvCUDACusparseSolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  SpTrsvCUDACusparse *c   = (SpTrsvCUDACusparse *)s->bdata;
  const PetscScalar   one = 1.0;
  cudaStream_t        st  = NULL;

  PetscFunctionBegin;
  if (!c->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (!c->nnz) { /* the identity */
    SpTrsvCUDACall(cudaMemcpyAsync(x, b, (size_t)c->n * sizeof(PetscScalar), cudaMemcpyDeviceToDevice, st));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(c->analysed, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sptrsv_cusparse: solve before cuSPARSE's analysis");
  SpTrsvCusparseCall(cusparseSetStream(c->handle, st));
  SpTrsvCusparseCall(cusparseDnVecSetValues(c->X, (void *)b));
  SpTrsvCusparseCall(cusparseDnVecSetValues(c->Y, (void *)x));
  SpTrsvCusparseCall(cusparseSpSV_solve(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->X, c->Y, SpTrsvCusparseDataType, CUSPARSE_SPSV_ALG_DEFAULT, c->sv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecCUDA_cusparse = {SpTrsvCUDACusparseSetup, SpTrsvCUDACusparseUpdateValues, SpTrsvCUDACusparseSolve, NULL, SpTrsvCUDACusparseDestroy, SpTrsvCUDACusparseUpdateValuesDevice};
