/* The host backend: vectors in host memory; the paths' host executors (src/mat/paths/, built from
   src/mat/host/host_rows.c) run the plans on the CPU. */
#include <sptrsv/backend.h>

static PetscErrorCode SpTrsvHostVecAlloc(PetscInt n, PetscScalar **v)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostVecFree(PetscScalar **v)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostPermCreate(PetscInt n, const PetscInt *idx, void **perm)
{
  PetscInt *p;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, &p));
  PetscCall(PetscArraycpy(p, idx, n));
  *perm = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostPermDestroy(void **perm)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*perm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostGather(PetscInt n, const void *perm, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt *p = (const PetscInt *)perm;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) y[k] = x[p[k]];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostScatter(PetscInt n, const void *perm, const PetscScalar *x, PetscScalar *y)
{
  const PetscInt *p = (const PetscInt *)perm;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) y[p[k]] = x[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostCopy(PetscInt n, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(y, x, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostPointwiseMult(PetscInt n, const PetscScalar *d, const PetscScalar *x, PetscScalar *y)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) y[k] = d[k] * x[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostSetValues(PetscInt n, const PetscScalar *h, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(y, h, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostVecGet(Vec v, SpTrsvVecAccess access, PetscScalar *staging, PetscScalar **a)
{
  PetscFunctionBegin;
  if (access == SPTRSV_VEC_READ) PetscCall(VecGetArrayRead(v, (const PetscScalar **)a));
  else if (access == SPTRSV_VEC_WRITE) PetscCall(VecGetArrayWrite(v, a));
  else PetscCall(VecGetArray(v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostVecRestore(Vec v, SpTrsvVecAccess access, PetscScalar *staging, PetscScalar **a)
{
  PetscFunctionBegin;
  if (access == SPTRSV_VEC_READ) PetscCall(VecRestoreArrayRead(v, (const PetscScalar **)a));
  else if (access == SPTRSV_VEC_WRITE) PetscCall(VecRestoreArrayWrite(v, a));
  else PetscCall(VecRestoreArray(v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool SpTrsvHostVecInPlace(Vec v)
{
  return PETSC_TRUE;
}

/* nothing runs asynchronously on the host */
static PetscErrorCode SpTrsvHostSynchronize(void)
{
  PetscFunctionBegin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvBackendOps SpTrsvBackendHost = {
  "host", PETSC_MEMTYPE_HOST, SPTRSV_EXEC_HOST, SpTrsvHostVecAlloc, SpTrsvHostVecFree, SpTrsvHostPermCreate, SpTrsvHostPermDestroy, SpTrsvHostGather, SpTrsvHostScatter, SpTrsvHostCopy, SpTrsvHostPointwiseMult, SpTrsvHostSetValues, SpTrsvHostVecGet, SpTrsvHostVecRestore, SpTrsvHostVecInPlace, SpTrsvHostSynchronize,
};
