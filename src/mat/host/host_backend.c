/* The host backend: executes every plan in plan order on the CPU. It is the reference that each GPU
   kernel is checked against, and what runs when there is no GPU. */
#include <sptrsv/backend.h>

/* level schedule, rows of op(T): x_i = (b_i - sum_j T_ij x_j) * idiag_i, level after level */
static void SpTrsvHostLevelCSR(const SpTrsvOp *op, const SpTrsvPlan plan, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt l = 0; l < plan->nlevels; l++) {
    for (PetscInt k = plan->levptr[l]; k < plan->levptr[l + 1]; k++) {
      const PetscInt i = plan->order[k];
      PetscScalar    s = b[i];
      for (PetscInt p = op->ri[i]; p < op->ri[i + 1]; p++) s -= op->ra[p] * x[op->rj[p]];
      x[i] = op->unit ? s : s * op->idiag[i];
    }
  }
}

/* level schedule, columns of op(T): once x_i is final it pushes its updates to the rows below it */
static void SpTrsvHostLevelCSC(const SpTrsvOp *op, const SpTrsvPlan plan, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt i = 0; i < op->n; i++) x[i] = b[i];
  for (PetscInt l = 0; l < plan->nlevels; l++) {
    for (PetscInt k = plan->levptr[l]; k < plan->levptr[l + 1]; k++) {
      const PetscInt    i  = plan->order[k];
      const PetscScalar xi = op->unit ? x[i] : x[i] * op->idiag[i];
      x[i]                 = xi;
      for (PetscInt p = op->ci[i]; p < op->ci[i + 1]; p++) x[op->cj[p]] -= op->ca[p] * xi;
    }
  }
}

static PetscErrorCode SpTrsvHostSetup(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscFunctionReturn(PETSC_SUCCESS); /* the plan and the triangle already live on the host */
}

static PetscErrorCode SpTrsvHostUpdateValues(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscFunctionReturn(PETSC_SUCCESS); /* values are read in place from the triangle */
}

static PetscErrorCode SpTrsvHostSolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  PetscFunctionBegin;
  switch (s->plan->type) {
  case SPTRSV_PLAN_LEVEL:
    if (s->format == SPTRSV_FORMAT_CSR) SpTrsvHostLevelCSR(&s->op, s->plan, b, x);
    else SpTrsvHostLevelCSC(&s->op, s->plan, b, x);
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Host backend has no executor for plan type %d", (int)s->plan->type);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostDestroy(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

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

static PetscErrorCode SpTrsvHostVecGet(Vec v, PetscBool read, PetscScalar *staging, PetscScalar **a)
{
  PetscFunctionBegin;
  if (read) PetscCall(VecGetArrayRead(v, (const PetscScalar **)a));
  else PetscCall(VecGetArrayWrite(v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostVecRestore(Vec v, PetscBool read, PetscScalar *staging, PetscScalar **a)
{
  PetscFunctionBegin;
  if (read) PetscCall(VecRestoreArrayRead(v, (const PetscScalar **)a));
  else PetscCall(VecRestoreArrayWrite(v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool SpTrsvHostVecInPlace(Vec v)
{
  return PETSC_TRUE;
}

const SpTrsvBackendOps SpTrsvBackendHost = {
  "host", PETSC_MEMTYPE_HOST, SpTrsvHostSetup, SpTrsvHostUpdateValues, SpTrsvHostSolve, SpTrsvHostDestroy, SpTrsvHostVecAlloc, SpTrsvHostVecFree, SpTrsvHostPermCreate, SpTrsvHostPermDestroy, SpTrsvHostGather, SpTrsvHostScatter, SpTrsvHostCopy, SpTrsvHostVecGet, SpTrsvHostVecRestore, SpTrsvHostVecInPlace,
};
