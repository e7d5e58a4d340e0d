/*
   The cuSPARSE baseline of the Gauss-Seidel benchmark ("CUS"): one symmetric iteration from x as
     forward   w = b - U x  (cusparseSpMV, strict upper part),  x = (L + D)^{-1} w  (cusparseSpSV_solve)
     backward  w = b - L x  (cusparseSpMV, strict lower part),  x = (U + D)^{-1} w  (cusparseSpSV_solve)
   on the split of the host reference (omega = 1: the diagonal is 1/idiag = a_ii). Conversion, upload, SpMV
   buffers (and preprocessing) and SpSV analysis are the setup, outside the timing; cuSPARSE's one-time start-up is not
   (CusWarmUp first, untimed; -bench_setup_warmup 0: none).
*/
#include "bench_gs.h"

#if defined(BENCH_HAVE_CUDA)
typedef struct {
  cusparseHandle_t   h;
  cudaStream_t       st;
  PetscInt           n;
  CusTri             Ld, Ud; /* L + D and U + D: SpSV from d_w into d_x */
  CusTri             Ls, Us; /* strict L and strict U: d_w -= T d_x */
  const PetscScalar *d_b;
  PetscScalar       *d_w;
} CusGSCtx;

static PetscErrorCode CusGSIterate(void *ctx)
{
  CusGSCtx    *c     = (CusGSCtx *)ctx;
  const size_t bytes = (size_t)c->n * sizeof(PetscScalar);

  PetscFunctionBeginUser;
  BenchCUDA(cudaMemcpyAsync(c->d_w, c->d_b, bytes, cudaMemcpyDeviceToDevice, c->st));
  PetscCall(CusMultAdd(c->h, &c->Us));
  PetscCall(CusSolve(c->h, &c->Ld));
  BenchCUDA(cudaMemcpyAsync(c->d_w, c->d_b, bytes, cudaMemcpyDeviceToDevice, c->st));
  PetscCall(CusMultAdd(c->h, &c->Ls));
  PetscCall(CusSolve(c->h, &c->Ud));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunCuSparseGSInner(Bench *B, SpTrsvGS ref, PetscReal tol, CusGSCtx *c)
{
  PetscLogDouble t0, t1;
  Result        *r;

  PetscFunctionBeginUser;
  PetscCheck(ref->omega == 1.0 && ref->shift == 0.0, PETSC_COMM_SELF, PETSC_ERR_SUP, "The cuSPARSE baseline is plain Gauss-Seidel (omega 1, no shift)");
  BenchCUSPARSE(cusparseCreate(&c->h)); /* handle creation (library initialisation) is not counted */
  BenchCUSPARSE(cusparseSetStream(c->h, B->st));
  if (B->setup_warmup) PetscCall(CusWarmUp(c->h)); /* nor cuSPARSE's start-up: an untimed SpSV of a throwaway triangle first */
  c->st  = B->st;
  c->n   = B->n;
  c->d_b = B->d_b;
  c->d_w = B->d_w;
  BenchCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(CusStrictSetup(c->h, ref->U, B->d_x, B->d_w, &c->Us));
  PetscCall(CusTriSetup(c->h, ref->L, B->d_w, B->d_x, &c->Ld));
  PetscCall(CusStrictSetup(c->h, ref->L, B->d_x, B->d_w, &c->Ls));
  PetscCall(CusTriSetup(c->h, ref->U, B->d_w, B->d_x, &c->Ud));
  BenchCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t1));
  if (!(r = NewResult(B, GS_CUS, GS_ON_GPU))) PetscFunctionReturn(PETSC_SUCCESS);
  r->setup_ms = 1e3 * (t1 - t0);
  /* the check: one iteration from the initial iterate, against the host backend */
  BenchCUDA(cudaMemcpy(B->d_x, B->yref, (size_t)B->n * sizeof(PetscScalar), cudaMemcpyHostToDevice));
  PetscCall(CusGSIterate(c));
  PetscCall(DeviceErr(B, B->d_x, B->xref, &r->err));
  if (!(r->err < tol)) PetscCall(PetscSNPrintf(r->note, sizeof(r->note), "WRONG: relative error %.3e vs the host backend (tolerance %.1e)", r->err, (double)tol));
  PetscCall(TimeSolves(B, ON_DEVICE, B->min_reps, CusGSIterate, c, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a cuSPARSE failure gives a FAILED row (with the message) instead of ending the run */
PetscErrorCode RunCuSparseGS(Bench *B, SpTrsvGS ref, PetscReal tol)
{
  CusGSCtx       c;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  memset(&c, 0, sizeof(c));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = RunCuSparseGSInner(B, ref, tol, &c);
  PetscCall(PetscPopErrorHandler());
  CusTriDestroy(&c.Ld);
  CusTriDestroy(&c.Ud);
  CusTriDestroy(&c.Ls);
  CusTriDestroy(&c.Us);
  if (c.h) (void)cusparseDestroy(c.h);
  if (ierr) {
    const char *text = NULL, *specific = NULL;
    Result     *r = (B->nres && !strcmp(B->res[B->nres - 1].variant, GS_CUS)) ? &B->res[B->nres - 1] : NewResult(B, GS_CUS, GS_ON_GPU);

    (void)PetscErrorMessage(ierr, &text, (void *)&specific);
    (void)cudaGetLastError();
    if (r) {
      r->reps = 0;
      PetscCall(PetscSNPrintf(r->note, sizeof(r->note), "FAILED: error %d: %s", (int)ierr, specific ? specific : (text ? text : "?")));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "NOTE: the cuSPARSE Gauss-Seidel baseline failed (error %d: %s)\n", (int)ierr, specific ? specific : (text ? text : "?")));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif
