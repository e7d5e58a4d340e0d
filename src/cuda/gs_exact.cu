/*
   The values of the exact ordering of PC gs gathered on the GPU (the device side of SpTrsvGSExactDevice in
   include/sptrsv/gs.h; the host refresh, the reference, is SpTrsvGSFillValues() in src/mat/gs/gs.c).

   - Maps (once per pattern, 32-bit): lmap, umap give the index in the matrix's value array of each entry of L and U
     (their CSR order, T->a's layout), dmap that of each diagonal entry.
   - A refresh reads a device value array of the matrix (a MATSEQAIJCUSPARSE's, in place) into L's and U's values
     (T->a's layout) and the relaxed inverse diagonal by MatSOR's rules (natural order, T->idiag's layout) with the
     kernels shared with the multicolor ordering (gs_values.cu); one flag says whether a value or an inverse diagonal
     entry is not finite or a diagonal entry is zero under omega = 1 and shift <= 0 (the caller then redoes the
     refresh on the host, which names the row). The sweep solvers take these arrays device to device
     (SpTrsvSolverUpdateValuesDevice(): their executors copy them into plan order).
   - The host copies (L->a, U->a, idiag) are downloaded from these arrays only when something on the host needs them
     (SpTrsvCUDAGSExactDownload()).
   The buffers are allocated at creation; a refresh writes into them.
*/
#include <sptrsv/gs.h>
#include "gs_values.h"
#include "cuda_upload.h"
#include "device_tri.h" /* SpTrsvCUDAGetStream() */
#include <climits>

struct _n_SpTrsvGSExactDevice {
  int          n, nl, nu;
  int         *lmap, *umap, *dmap;
  PetscScalar *la, *ua, *idiag;
  PetscReal    omega, shift;
  int          plain; /* omega = 1 and shift <= 0: idiag = 1 / a_ii (MatSOR's rule) */
  int         *flag;
};

/* SpTrsvGSExactDeviceCreate - the maps of the split (lmap: nl entries, umap: nu, dmap: n) uploaded, value buffers allocated */
PetscErrorCode SpTrsvGSExactDeviceCreate(PetscInt n, PetscInt nl, PetscInt nu, const PetscInt *lmap, const PetscInt *umap, const PetscInt *dmap, PetscReal omega, PetscReal shift, SpTrsvGSExactDevice *exout)
{
  SpTrsvGSExactDevice ex;
  cudaStream_t        st   = NULL;
  PetscInt            nval = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) nval = PetscMax(nval, dmap[k] + 1);
  for (PetscInt q = 0; q < nl; q++) nval = PetscMax(nval, lmap[q] + 1);
  for (PetscInt q = 0; q < nu; q++) nval = PetscMax(nval, umap[q] + 1);
  PetscCheck(n < INT_MAX && nval < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "The CUDA kernels use 32-bit indices: n = %" PetscInt_FMT ", %" PetscInt_FMT " entries must be below %d", n, nval, INT_MAX);
  PetscCall(SpTrsvCUDAGetStream(&st));
  PetscCall(PetscNew(&ex));
  *exout    = ex; /* freed by SpTrsvGSExactDeviceDestroy() from here on, also after an error below */
  ex->n     = (int)n;
  ex->nl    = (int)nl;
  ex->nu    = (int)nu;
  ex->omega = omega;
  ex->shift = shift;
  ex->plain = omega == 1.0 && shift <= 0.0;
  PetscCall(SpTrsvCUDAUploadIndices(lmap, nl, &ex->lmap, st));
  PetscCall(SpTrsvCUDAUploadIndices(umap, nu, &ex->umap, st));
  PetscCall(SpTrsvCUDAUploadIndices(dmap, n, &ex->dmap, st));
  PetscCall(SpTrsvCUDAMalloc((void **)&ex->la, (size_t)(nl + 1) * sizeof(PetscScalar), "ex->la"));
  PetscCall(SpTrsvCUDAMalloc((void **)&ex->ua, (size_t)(nu + 1) * sizeof(PetscScalar), "ex->ua"));
  PetscCall(SpTrsvCUDAMalloc((void **)&ex->idiag, (size_t)(n + 1) * sizeof(PetscScalar), "ex->idiag"));
  PetscCall(SpTrsvCUDAMalloc((void **)&ex->flag, sizeof(int), "ex->flag"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvGSExactDeviceGather - L's and U's values and idiag from the matrix's device value array a; *clean: no flagged entry */
PetscErrorCode SpTrsvGSExactDeviceGather(SpTrsvGSExactDevice ex, const PetscScalar *a, PetscBool *clean)
{
  cudaStream_t st    = NULL;
  int          hflag = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  SpTrsvCUDACall(cudaMemsetAsync(ex->flag, 0, sizeof(int), st));
  SpTrsvCUDACall(SpTrsvCUDALaunchGSGather(ex->nl, ex->lmap, a, ex->la, ex->flag, st));
  SpTrsvCUDACall(SpTrsvCUDALaunchGSGather(ex->nu, ex->umap, a, ex->ua, ex->flag, st));
  SpTrsvCUDACall(SpTrsvCUDALaunchGSInvDiag(ex->n, ex->dmap, a, ex->idiag, ex->omega, ex->shift, ex->plain, ex->flag, st));
  SpTrsvCUDACall(cudaMemcpyAsync(&hflag, ex->flag, sizeof(int), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  *clean = (PetscBool)!hflag;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvGSExactDeviceGetArrays - the device arrays of the last gather: L->a's, U->a's and idiag's layouts */
PetscErrorCode SpTrsvGSExactDeviceGetArrays(SpTrsvGSExactDevice ex, const PetscScalar **la, const PetscScalar **ua, const PetscScalar **idiag)
{
  PetscFunctionBegin;
  *la    = ex->la;
  *ua    = ex->ua;
  *idiag = ex->idiag;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvGSExactDeviceDownload - the values of the last gather into host arrays (nl, nu, n entries) */
PetscErrorCode SpTrsvGSExactDeviceDownload(SpTrsvGSExactDevice ex, PetscScalar *la, PetscScalar *ua, PetscScalar *idiag)
{
  cudaStream_t st = NULL;

  PetscFunctionBegin;
  PetscCall(SpTrsvCUDAGetStream(&st));
  if (ex->nl) SpTrsvCUDACall(cudaMemcpyAsync(la, ex->la, (size_t)ex->nl * sizeof(PetscScalar), cudaMemcpyDeviceToHost, st));
  if (ex->nu) SpTrsvCUDACall(cudaMemcpyAsync(ua, ex->ua, (size_t)ex->nu * sizeof(PetscScalar), cudaMemcpyDeviceToHost, st));
  if (ex->n) SpTrsvCUDACall(cudaMemcpyAsync(idiag, ex->idiag, (size_t)ex->n * sizeof(PetscScalar), cudaMemcpyDeviceToHost, st));
  SpTrsvCUDACall(cudaStreamSynchronize(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvGSExactDeviceDestroy(SpTrsvGSExactDevice *exp)
{
  SpTrsvGSExactDevice ex = *exp;

  PetscFunctionBegin;
  if (!ex) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvCUDACall(SpTrsvCUDAFree(ex->lmap));
  SpTrsvCUDACall(SpTrsvCUDAFree(ex->umap));
  SpTrsvCUDACall(SpTrsvCUDAFree(ex->dmap));
  SpTrsvCUDACall(SpTrsvCUDAFree(ex->la));
  SpTrsvCUDACall(SpTrsvCUDAFree(ex->ua));
  SpTrsvCUDACall(SpTrsvCUDAFree(ex->idiag));
  SpTrsvCUDACall(SpTrsvCUDAFree(ex->flag));
  PetscCall(PetscFree(*exp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
