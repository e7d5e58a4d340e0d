/* What cuSPARSE's triangular solve (cusparseSpSV) would hold on the device for one triangle, for the comparison
   -ksp_view prints beside the plugin's own device memory (-mat_sptrsv_compare_cusparse_memory): the triangle in
   CSR with its diagonal stored (L with its unit diagonal, as PETSc's cuSPARSE factors store it), 32-bit indices,
   and the buffer cusparseSpSV_bufferSize() asks for (CUSPARSE_SPSV_ALG_DEFAULT, non-transposed). The buffer size is
   asked for a real matrix of that pattern: the pattern is uploaded (values zero), the size read, everything freed;
   nothing is analysed or solved. Called at the symbolic phase only when the option is given. */
#include <sptrsv/devmem.h>
#include <sptrsv/utils.h>
#include "cuda_check.h"
#include "cusparse_check.h"
#include <cusparse.h>

#if defined(SPTRSV_CUDA_SCALAR_OK)


typedef struct {
  int                 *h_ptr, *h_idx, *d_ptr, *d_idx;
  PetscScalar         *d_val, *d_x, *d_y;
  cusparseHandle_t     handle;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t X, Y;
  cusparseSpSVDescr_t  sv;
} SpTrsvSpSVProbe;

static PetscErrorCode SpTrsvSpSVProbeRun(SpTrsvSpSVProbe *p, PetscInt n, const PetscInt *ti, const PetscInt *tj, PetscBool lower, PetscBool unit, size_t *buf)
{
  const PetscInt64    nnz  = (PetscInt64)ti[n] + n;
  cusparseFillMode_t  fill = lower ? CUSPARSE_FILL_MODE_LOWER : CUSPARSE_FILL_MODE_UPPER;
  cusparseDiagType_t  diag = unit ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;
  const cudaDataType  dt   = sizeof(PetscScalar) == 8 ? CUDA_R_64F : CUDA_R_32F;
  const PetscScalar   one  = 1.0;
  PetscInt64          q    = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvCheckIndex32(nnz, "The cuSPARSE comparison triangle", "leave out -mat_sptrsv_compare_cusparse_memory"));
  PetscCall(PetscMalloc2(n + 1, &p->h_ptr, nnz + 1, &p->h_idx));
  p->h_ptr[0] = 0;
  for (PetscInt r = 0; r < n; r++) { /* columns ascending: the diagonal after a lower row's entries, before an upper row's */
    if (!lower) p->h_idx[q++] = (int)r;
    for (PetscInt e = ti[r]; e < ti[r + 1]; e++) p->h_idx[q++] = (int)tj[e];
    if (lower) p->h_idx[q++] = (int)r;
    p->h_ptr[r + 1] = (int)q;
  }
  SpTrsvCUDAMallocN(p->d_ptr, n + 1);
  SpTrsvCUDAMallocN(p->d_idx, nnz);
  SpTrsvCUDAMallocN(p->d_val, nnz);
  SpTrsvCUDAMallocN(p->d_x, n);
  SpTrsvCUDAMallocN(p->d_y, n);
  SpTrsvCUDACall(cudaMemcpy(p->d_ptr, p->h_ptr, ((size_t)n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  SpTrsvCUDACall(cudaMemcpy(p->d_idx, p->h_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice));
  SpTrsvCUDACall(cudaMemset(p->d_val, 0, ((size_t)nnz + 1) * sizeof(PetscScalar)));
  SpTrsvCusparseCall(cusparseCreate(&p->handle));
  SpTrsvCusparseCall(cusparseCreateCsr(&p->A, (int64_t)n, (int64_t)n, (int64_t)nnz, p->d_ptr, p->d_idx, p->d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt));
  SpTrsvCusparseCall(cusparseSpMatSetAttribute(p->A, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
  SpTrsvCusparseCall(cusparseSpMatSetAttribute(p->A, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
  SpTrsvCusparseCall(cusparseCreateDnVec(&p->X, (int64_t)n, p->d_x, dt));
  SpTrsvCusparseCall(cusparseCreateDnVec(&p->Y, (int64_t)n, p->d_y, dt));
  SpTrsvCusparseCall(cusparseSpSV_createDescr(&p->sv));
  SpTrsvCusparseCall(cusparseSpSV_bufferSize(p->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p->A, p->X, p->Y, dt, CUSPARSE_SPSV_ALG_DEFAULT, p->sv, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvSpSVProbeFree(SpTrsvSpSVProbe *p)
{
  PetscFunctionBegin;
  if (p->sv) (void)cusparseSpSV_destroyDescr(p->sv);
  if (p->X) (void)cusparseDestroyDnVec(p->X);
  if (p->Y) (void)cusparseDestroyDnVec(p->Y);
  if (p->A) (void)cusparseDestroySpMat(p->A);
  if (p->handle) (void)cusparseDestroy(p->handle);
  SpTrsvCUDACall(SpTrsvCUDAFree(p->d_ptr));
  SpTrsvCUDACall(SpTrsvCUDAFree(p->d_idx));
  SpTrsvCUDACall(SpTrsvCUDAFree(p->d_val));
  SpTrsvCUDACall(SpTrsvCUDAFree(p->d_x));
  SpTrsvCUDACall(SpTrsvCUDAFree(p->d_y));
  PetscCall(PetscFree2(p->h_ptr, p->h_idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvCUDASpSVMemory - the device bytes cusparseSpSV would hold for the triangle T (strict part ti/tj, n rows, a
  stored diagonal added): *matbytes for the CSR matrix, *bufbytes for the SpSV buffer
*/
PetscErrorCode SpTrsvCUDASpSVMemory(SpTrsvTri T, PetscInt64 *matbytes, PetscInt64 *bufbytes)
{
  SpTrsvSpSVProbe p;
  size_t          buf = 0;
  PetscErrorCode  ierr;
  const PetscInt  n   = T->n;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&p, sizeof(p)));
  ierr = SpTrsvSpSVProbeRun(&p, n, T->i, T->j, (PetscBool)(T->uplo == SPTRSV_LOWER), T->unit, &buf);
  PetscCall(SpTrsvSpSVProbeFree(&p));
  PetscCall(ierr);
  *matbytes = ((PetscInt64)n + 1) * (PetscInt64)sizeof(int) + ((PetscInt64)T->i[n] + n) * (PetscInt64)(sizeof(int) + sizeof(PetscScalar));
  *bufbytes = (PetscInt64)buf;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#else
PetscErrorCode SpTrsvCUDASpSVMemory(SpTrsvTri T, PetscInt64 *matbytes, PetscInt64 *bufbytes)
{
  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "-mat_sptrsv_compare_cusparse_memory: the CUDA code of this build supports real scalars only");
}
#endif
