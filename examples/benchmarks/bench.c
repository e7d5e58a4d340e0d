static const char help[] = "Triangular-solve benchmark of petsc-sptrsv (docs/PERFORMANCE.md).\n"
                           "Builds the ILU(0) factors (natural ordering) of one matrix and times, in this process, on the same L and U\n"
                           "values: our level-scheduled CUDA kernels (csr/csc, CUDA graph on/off) for L alone and for L then U,\n"
                           "cuSPARSE's generic SpSV (analysis once, then solves), MatSolve through sptrsv_level and MatSolve through\n"
                           "PETSc's own cusparse ILU(0). Per solve: median time (CUDA events, back-to-back solves after warm-up),\n"
                           "GFLOP/s, GB/s, fraction of the bandwidth bound, ratio to cuSPARSE, setup time, break-even solves and the\n"
                           "max relative error against the host backend. Without a usable GPU only the host reference runs (exit 0).\n"
                           "  -mtx <file.mtx[.gz]>               Matrix Market matrix\n"
                           "  -lap2d <NXxNY> -stencil <5|9>      generated 2-D Laplacian\n"
                           "  -lap3d <NXxNYxNZ> -stencil <7|27>  generated 3-D Laplacian\n"
                           "  -reps <200>        timed solves per variant, at most\n"
                           "  -min_reps <5>      timed solves per variant, at least (the host reference: 1)\n"
                           "  -warmup <20>       warm-up solves per variant, at most\n"
                           "  -max_time <0.25>   seconds of timed solves per variant: caps -reps for slow solves\n"
                           "  -host_time <0.1>   seconds of timed solves for the host-reference rows (after one warm-up solve)\n"
                           "  -csv <file>        append one row per variant (with a header when the file is new or empty)\n"
                           "  -label <name>      case name (default: from the matrix)\n"
                           "  -bw_gbs <GB/s>     device bandwidth of the bound (default: measured here, cudaMemcpy device to device)\n"
                           "  -bw_mib <1024>     size of that copy in MiB (read + write bytes are counted)\n"
                           "  -petsc_cusparse <true>  also time MatSolve of PETSc's own cusparse ILU(0) (needs a CUDA PETSc)\n\n";

#include "bench.h"

/* ---- helpers ------------------------------------------------------------------------------------- */

/* ||x - ref||_inf / ||ref||_inf (NaN counts as infinite) */
static double RelErr(PetscInt n, const PetscScalar *x, const PetscScalar *ref)
{
  PetscReal dmax = 0, rmax = 0;

  for (PetscInt i = 0; i < n; i++) {
    PetscReal d = PetscAbsScalar(x[i] - ref[i]);
    if (PetscIsInfOrNanReal(d)) d = PETSC_INFINITY;
    dmax = PetscMax(dmax, d);
    rmax = PetscMax(rmax, PetscAbsScalar(ref[i]));
  }
  return (double)(rmax > 0 ? dmax / rmax : dmax);
}

static int CompareDouble(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

Result *NewResult(Bench *B, const char *variant, const char *kind)
{
  Result *r;

  if (B->nres >= MAX_RESULTS) return NULL;
  r = &B->res[B->nres++];
  memset(r, 0, sizeof(*r));
  (void)PetscStrncpy(r->variant, variant, sizeof(r->variant));
  (void)PetscStrncpy(r->kind, kind, sizeof(r->kind));
  r->setup_ms = -1;
  r->err      = -1;
  return r;
}

static const Result *FindResult(const Bench *B, const char *variant, const char *kind)
{
  for (PetscInt k = 0; k < B->nres; k++)
    if (!strcmp(B->res[k].variant, variant) && !strcmp(B->res[k].kind, kind) && B->res[k].reps > 0) return &B->res[k];
  return NULL;
}


/*
  TimeSolves - warm up (at most -warmup solves or a quarter of -max_time), then time back-to-back solves: on the
  device with a CUDA event before each solve and one after the last, on the stream the solves use, so each
  interval is one solve in steady state (including the host's launch work whenever that is the bottleneck);
  without a known stream (host PETSc) the device is synchronised around each solve. Median and minimum.
*/
PetscErrorCode TimeSolves(Bench *B, Where where, PetscInt minreps, SolveFn fn, void *ctx, Result *r)
{
  PetscLogDouble t0, t1, est;
  PetscInt       nw = 0, reps;
  double        *ms;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  do {
    PetscCall((*fn)(ctx));
#if defined(BENCH_HAVE_CUDA)
    if (where == ON_DEVICE) BenchCUDA(cudaDeviceSynchronize());
#endif
    nw++;
    PetscCall(PetscTime(&t1));
  } while (nw < B->warmup && (t1 - t0) < 0.25 * B->max_time);
  est  = (t1 - t0) / nw;
  reps = B->reps;
  if (est > 0 && reps * est > B->max_time) reps = (PetscInt)(B->max_time / est);
  reps = PetscMax(reps, minreps);
  reps = PetscMax(reps, 1);
  PetscCall(PetscMalloc1(reps, &ms));
  r->timing = "host-clock";
#if defined(BENCH_HAVE_CUDA)
  if (where == ON_DEVICE && B->events) {
    if (B->nev < reps + 1) {
      for (PetscInt k = 0; k < B->nev; k++) BenchCUDA(cudaEventDestroy(B->ev[k]));
      PetscCall(PetscFree(B->ev));
      PetscCall(PetscMalloc1(reps + 1, &B->ev));
      B->nev = 0;
      for (PetscInt k = 0; k < reps + 1; k++, B->nev++) BenchCUDA(cudaEventCreate(&B->ev[k]));
    }
    for (PetscInt k = 0; k < reps; k++) {
      BenchCUDA(cudaEventRecord(B->ev[k], B->st));
      PetscCall((*fn)(ctx));
    }
    BenchCUDA(cudaEventRecord(B->ev[reps], B->st));
    BenchCUDA(cudaEventSynchronize(B->ev[reps]));
    for (PetscInt k = 0; k < reps; k++) {
      float e;
      BenchCUDA(cudaEventElapsedTime(&e, B->ev[k], B->ev[k + 1]));
      ms[k] = e;
    }
    BenchCUDA(cudaDeviceSynchronize());
    r->timing = "cuda-events";
  } else
#endif
  {
    for (PetscInt k = 0; k < reps; k++) {
#if defined(BENCH_HAVE_CUDA)
      if (where == ON_DEVICE) BenchCUDA(cudaDeviceSynchronize());
#endif
      PetscCall(PetscTime(&t0));
      PetscCall((*fn)(ctx));
#if defined(BENCH_HAVE_CUDA)
      if (where == ON_DEVICE) BenchCUDA(cudaDeviceSynchronize());
#endif
      PetscCall(PetscTime(&t1));
      ms[k] = 1e3 * (t1 - t0);
    }
    if (where == ON_DEVICE) r->timing = "device-sync";
  }
  qsort(ms, (size_t)reps, sizeof(double), CompareDouble);
  r->reps   = reps;
  r->med_ms = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
  r->min_ms = ms[0];
  PetscCall(PetscFree(ms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- solves through the private API --------------------------------------------------------------- */

typedef struct {
  SpTrsvSolver       L, U;
  const PetscScalar *b;
  PetscScalar       *w, *x;
} TriCtx;

static PetscErrorCode SolveL(void *ctx)
{
  TriCtx *c = (TriCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvSolverApply(c->L, c->b, c->w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolveLU(void *ctx)
{
  TriCtx *c = (TriCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvSolverApply(c->L, c->b, c->w));
  PetscCall(SpTrsvSolverApply(c->U, c->w, c->x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  Mat F;
  Vec b, x;
} MatSolveCtx;

static PetscErrorCode SolveMat(void *ctx)
{
  MatSolveCtx *c = (MatSolveCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatSolve(c->F, c->b, c->x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host backend on the factor's triangles: the reference solutions, and the host rows of the table */
static PetscErrorCode RunHostReference(Bench *B, SpTrsvFactor fac)
{
  TriCtx         c = {NULL, NULL, NULL, NULL, NULL};
  PetscLogDouble t0, t1, tL, tU;
  Result        *r;
  PetscInt       save_warmup;
  PetscReal      save_time;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvSolverCreate(fac->L, PETSC_FALSE, SPTRSV_FORMAT_CSR, SPTRSV_PLAN_LEVEL, &SpTrsvBackendHost, &c.L));
  PetscCall(PetscTime(&t1));
  tL = t1 - t0;
  PetscCall(SpTrsvSolverCreate(fac->U, PETSC_FALSE, SPTRSV_FORMAT_CSR, SPTRSV_PLAN_LEVEL, &SpTrsvBackendHost, &c.U));
  PetscCall(PetscTime(&t0));
  tU   = t0 - t1;
  B->Ls = c.L->plan->stats;
  B->Us = c.U->plan->stats;
  c.b   = B->b;
  c.w   = B->yref;
  c.x   = B->xref;
  PetscCall(SolveLU(&c));
  /* the host rows are context, not the subject: one warm-up solve, about -host_time seconds of timed solves */
  save_warmup = B->warmup;
  save_time   = B->max_time;
  B->warmup   = 1;
  B->max_time = B->host_time;
  if ((r = NewResult(B, "host-reference", "L"))) {
    PetscCall(TimeSolves(B, ON_HOST, 1, SolveL, &c, r));
    r->setup_ms = 1e3 * tL;
    r->err      = 0;
  }
  if ((r = NewResult(B, "host-reference", "LU"))) {
    PetscCall(TimeSolves(B, ON_HOST, 1, SolveLU, &c, r));
    r->setup_ms = 1e3 * (tL + tU);
    r->err      = 0;
  }
  B->warmup   = save_warmup;
  B->max_time = save_time;
  PetscCall(SpTrsvSolverDestroy(&c.L));
  PetscCall(SpTrsvSolverDestroy(&c.U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- GPU variants -------------------------------------------------------------------------------- */

#if defined(BENCH_HAVE_CUDA)
PetscErrorCode DeviceErr(Bench *B, const PetscScalar *d, const PetscScalar *ref, double *err)
{
  PetscFunctionBeginUser;
  BenchCUDA(cudaDeviceSynchronize());
  BenchCUDA(cudaMemcpy(B->hbuf, d, (size_t)B->n * sizeof(PetscScalar), cudaMemcpyDeviceToHost));
  *err = RelErr(B->n, B->hbuf, ref);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* bytes of a device-to-device copy (read + write) per second, best of 5, after one untimed copy */
static PetscErrorCode MeasureBandwidth(Bench *B, PetscInt mib)
{
  void       *src = NULL, *dst = NULL;
  size_t      bytes = (size_t)mib << 20;
  cudaEvent_t e0, e1;
  float       best = -1;

  PetscFunctionBeginUser;
  BenchCUDA(cudaMalloc(&src, bytes));
  BenchCUDA(cudaMalloc(&dst, bytes));
  BenchCUDA(cudaMemset(src, 1, bytes));
  BenchCUDA(cudaEventCreate(&e0));
  BenchCUDA(cudaEventCreate(&e1));
  for (PetscInt k = 0; k < 6; k++) {
    float ms;
    BenchCUDA(cudaEventRecord(e0, B->st));
    BenchCUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, B->st));
    BenchCUDA(cudaEventRecord(e1, B->st));
    BenchCUDA(cudaEventSynchronize(e1));
    BenchCUDA(cudaEventElapsedTime(&ms, e0, e1));
    if (k && (best < 0 || ms < best)) best = ms;
  }
  BenchCUDA(cudaEventDestroy(e0));
  BenchCUDA(cudaEventDestroy(e1));
  BenchCUDA(cudaFree(src));
  BenchCUDA(cudaFree(dst));
  B->bw_gbs = 2.0 * (double)bytes / (best * 1e-3) / 1e9;
  PetscCall(PetscSNPrintf(B->bw_how, sizeof(B->bw_how), "measured: cudaMemcpy device-to-device of %" PetscInt_FMT " MiB, best of 5, read+write bytes", mib));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* our level kernels on the factor's triangles through the private API: csr/csc x graph on/off */
static PetscErrorCode RunOurKernels(Bench *B, SpTrsvFactor fac, const SpTrsvBackendOps *cuda)
{
  const SpTrsvFormat fmts[2]   = {SPTRSV_FORMAT_CSR, SPTRSV_FORMAT_CSC};
  const PetscBool    graphs[2] = {PETSC_TRUE, PETSC_FALSE};

  PetscFunctionBeginUser;
  for (PetscInt f = 0; f < 2; f++) {
    for (PetscInt g = 0; g < 2; g++) {
      TriCtx         c = {NULL, NULL, B->d_b, B->d_w, B->d_x};
      PetscLogDouble t0, t1, t2;
      char           name[48];
      Result        *r;

      PetscCall(PetscSNPrintf(name, sizeof(name), "level-%s-%s", SpTrsvFormats[fmts[f]], graphs[g] ? "graph" : "nograph"));
      /* -mat_sptrsv_graph is read from the global options when a triangle is set up */
      PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_graph", graphs[g] ? "1" : "0"));
      BenchCUDA(cudaDeviceSynchronize());
      PetscCall(PetscTime(&t0));
      PetscCall(SpTrsvSolverCreate(fac->L, PETSC_FALSE, fmts[f], SPTRSV_PLAN_LEVEL, cuda, &c.L));
      BenchCUDA(cudaDeviceSynchronize());
      PetscCall(PetscTime(&t1));
      PetscCall(SpTrsvSolverCreate(fac->U, PETSC_FALSE, fmts[f], SPTRSV_PLAN_LEVEL, cuda, &c.U));
      BenchCUDA(cudaDeviceSynchronize());
      PetscCall(PetscTime(&t2));
      PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_graph"));

      BenchCUDA(cudaMemset(B->d_w, 0xff, (size_t)B->n * sizeof(PetscScalar))); /* NaN: a row left unsolved shows */
      BenchCUDA(cudaMemset(B->d_x, 0xff, (size_t)B->n * sizeof(PetscScalar)));
      BenchCUDA(cudaDeviceSynchronize()); /* the memsets ran on the legacy stream: done before the solves start */
      if ((r = NewResult(B, name, "L"))) {
        PetscCall(TimeSolves(B, ON_DEVICE, B->min_reps, SolveL, &c, r));
        PetscCall(DeviceErr(B, B->d_w, B->yref, &r->err));
        r->setup_ms      = 1e3 * (t1 - t0);
        r->breakeven_ref = "cusparse-spsv";
      }
      if ((r = NewResult(B, name, "LU"))) {
        PetscCall(TimeSolves(B, ON_DEVICE, B->min_reps, SolveLU, &c, r));
        PetscCall(DeviceErr(B, B->d_x, B->xref, &r->err));
        r->setup_ms      = 1e3 * (t2 - t0);
        r->breakeven_ref = "cusparse-spsv";
      }
      PetscCall(SpTrsvSolverDestroy(&c.L));
      PetscCall(SpTrsvSolverDestroy(&c.U));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif

/* vectors for MatSolve: on the device, VECCUDA (used in place) with a CUDA PETSc, else host vectors (copied
   in and out); host vectors when there is no GPU */
static PetscErrorCode MakeSolveVecs(Bench *B, PetscBool device, Vec *b, Vec *x)
{
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecCreate(PETSC_COMM_SELF, b));
  PetscCall(VecSetSizes(*b, B->n, B->n));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(VecSetType(*b, device ? VECCUDA : VECSEQ));
#else
  PetscCall(VecSetType(*b, VECSEQ));
#endif
  PetscCall(VecDuplicate(*b, x));
  PetscCall(VecGetArrayWrite(*b, &a));
  PetscCall(PetscArraycpy(a, B->b, B->n));
  PetscCall(VecRestoreArrayWrite(*b, &a));
  PetscCall(VecSet(*x, -12345.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecErr(Bench *B, Vec x, double *err)
{
  const PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &a));
  *err = RelErr(B->n, a, B->xref);
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSolve through the sptrsv_level factor F (its own backend, csr, graph on) */
static PetscErrorCode RunMatSolve(Bench *B, Mat F, PetscBool device, double factor_ms)
{
  MatSolveCtx c = {F, NULL, NULL};
  Result     *r;
#if defined(PETSC_HAVE_CUDA)
  const char *name = device ? "matsolve-sptrsv" : "matsolve-sptrsv-host";
#else
  const char *name = device ? "matsolve-sptrsv-hostvec" : "matsolve-sptrsv-host";
#endif

  PetscFunctionBeginUser;
  PetscCall(MakeSolveVecs(B, device, &c.b, &c.x));
  if ((r = NewResult(B, name, "LU"))) {
    PetscCall(TimeSolves(B, device ? ON_DEVICE : ON_HOST, device ? B->min_reps : 1, SolveMat, &c, r));
    PetscCall(VecErr(B, c.x, &r->err));
    r->setup_ms      = factor_ms;
    r->breakeven_ref = "matsolve-petsc-cusparse";
  }
  PetscCall(VecDestroy(&c.b));
  PetscCall(VecDestroy(&c.x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_CUDA) && defined(BENCH_HAVE_CUDA)
/* MatSolve of PETSc's own GPU ILU(0): -pc_factor_mat_solver_type cusparse on a MATSEQAIJCUSPARSE copy of A */
static PetscErrorCode RunPetscCusparseInner(Bench *B, Mat A, const MatFactorInfo *info, Mat *Acu, Mat *Fc, MatSolveCtx *c)
{
  IS             row, col;
  PetscLogDouble t0, t1;
  Result        *r;

  PetscFunctionBeginUser;
  PetscCall(MatConvert(A, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, Acu));
  PetscCall(MatGetOrdering(*Acu, MATORDERINGNATURAL, &row, &col));
  BenchCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(MatGetFactor(*Acu, MATSOLVERCUSPARSE, MAT_FACTOR_ILU, Fc));
  PetscCall(MatILUFactorSymbolic(*Fc, *Acu, row, col, info));
  PetscCall(MatLUFactorNumeric(*Fc, *Acu, info));
  BenchCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t1));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  c->F = *Fc;
  PetscCall(MakeSolveVecs(B, PETSC_TRUE, &c->b, &c->x));
  if ((r = NewResult(B, "matsolve-petsc-cusparse", "LU"))) {
    PetscCall(TimeSolves(B, ON_DEVICE, B->min_reps, SolveMat, c, r));
    PetscCall(VecErr(B, c->x, &r->err));
    r->setup_ms = 1e3 * (t1 - t0);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunPetscCusparse(Bench *B, Mat A, const MatFactorInfo *info)
{
  Mat            Acu = NULL, Fc = NULL;
  MatSolveCtx    c   = {NULL, NULL, NULL};
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = RunPetscCusparseInner(B, A, info, &Acu, &Fc, &c);
  PetscCall(PetscPopErrorHandler());
  PetscCall(VecDestroy(&c.b));
  PetscCall(VecDestroy(&c.x));
  PetscCall(MatDestroy(&Fc));
  PetscCall(MatDestroy(&Acu));
  if (ierr) {
    const char *text = NULL, *specific = NULL;
    (void)PetscErrorMessage(ierr, &text, (void *)&specific);
    (void)cudaGetLastError();
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "NOTE: PETSc's cusparse ILU(0) MatSolve failed and is skipped (error %d: %s)\n", (int)ierr, specific ? specific : (text ? text : "?")));
    while (B->nres && !strcmp(B->res[B->nres - 1].variant, "matsolve-petsc-cusparse")) B->nres--;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* ---- report -------------------------------------------------------------------------------------- */

static PetscErrorCode Report(Bench *B)
{
  static const char *hdr = "label,kind,variant,n,nnz,levels_L,levels_U,reps,median_ms,min_ms,gflops,gbs,bound_pct,bw_gbs,bytes,flops,vs_cusparse,vs_petsc_cusparse,setup_ms,breakeven_solves,max_rel_err,timing,device\n";

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n%-22s %9s %10s %11s %-3s %-26s %5s %10s %9s %9s %7s %8s %8s %9s %9s %9s %s\n", "case", "n", "nnz", "levels", "tri", "variant", "reps", "median_ms", "GFLOP/s", "GB/s", "%bound", "vs_cusp", "vs_petsc", "setup_ms", "breakeven", "max_err", "timing"));
  if (B->csv) {
    long pos;
    (void)fseek(B->csv, 0, SEEK_END);
    pos = ftell(B->csv);
    if (pos <= 0) fputs(hdr, B->csv);
  }
  for (PetscInt k = 0; k < B->nres; k++) {
    const Result  *r  = &B->res[k];
    PetscBool      lu = (PetscBool)!strcmp(r->kind, "LU");
    double         bytes = lu ? B->Ls.bytes_per_solve + B->Us.bytes_per_solve : B->Ls.bytes_per_solve;
    double         flops = lu ? 2.0 * B->nnzL + 2.0 * B->nnzU + B->n : 2.0 * B->nnzL;
    PetscInt64     nnz   = lu ? (PetscInt64)B->nnzL + B->nnzU + B->n : (PetscInt64)B->nnzL;
    double         t     = r->med_ms * 1e-3;
    double         gflops = t > 0 ? flops / t / 1e9 : 0, gbs = t > 0 ? bytes / t / 1e9 : 0;
    double         bound  = B->bw_gbs > 0 ? 100.0 * gbs / B->bw_gbs : -1;
    const Result  *cus = FindResult(B, "cusparse-spsv", r->kind), *pc = lu ? FindResult(B, "matsolve-petsc-cusparse", "LU") : NULL, *ref = r->breakeven_ref ? FindResult(B, r->breakeven_ref, r->kind) : NULL;
    double         vs_cus = cus && r->med_ms > 0 ? cus->med_ms / r->med_ms : -1, vs_pc = pc && r->med_ms > 0 ? pc->med_ms / r->med_ms : -1;
    double         be = -1; /* -1: not applicable */
    char           s_cus[32] = "-", s_pc[32] = "-", s_bound[32] = "-", s_be[32] = "-", s_setup[32] = "-", s_err[32] = "-", s_lev[48];

    if (ref && r->setup_ms >= 0 && ref->setup_ms >= 0) {
      double dsetup = r->setup_ms - ref->setup_ms, dsolve = ref->med_ms - r->med_ms;
      if (dsetup <= 0 && dsolve >= 0) be = 0; /* cheaper setup and no slower: pays off at once */
      else if (dsetup > 0 && dsolve > 0) be = dsetup / dsolve;
      else be = -2; /* never: slower per solve */
    }
    if (vs_cus > 0) PetscCall(PetscSNPrintf(s_cus, sizeof(s_cus), "%.2f", vs_cus));
    if (vs_pc > 0) PetscCall(PetscSNPrintf(s_pc, sizeof(s_pc), "%.2f", vs_pc));
    if (bound >= 0 && strncmp(r->variant, "host", 4) && strcmp(r->variant, "matsolve-sptrsv-host")) PetscCall(PetscSNPrintf(s_bound, sizeof(s_bound), "%.1f", bound));
    if (be >= 0) PetscCall(PetscSNPrintf(s_be, sizeof(s_be), "%.0f", PetscCeilReal(be)));
    else if (be == -2) PetscCall(PetscStrncpy(s_be, "never", sizeof(s_be)));
    if (r->setup_ms >= 0) PetscCall(PetscSNPrintf(s_setup, sizeof(s_setup), "%.2f", r->setup_ms));
    if (r->err >= 0) PetscCall(PetscSNPrintf(s_err, sizeof(s_err), "%.2e", r->err));
    if (lu) PetscCall(PetscSNPrintf(s_lev, sizeof(s_lev), "%" PetscInt_FMT "/%" PetscInt_FMT, B->Ls.nlevels, B->Us.nlevels));
    else PetscCall(PetscSNPrintf(s_lev, sizeof(s_lev), "%" PetscInt_FMT, B->Ls.nlevels));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-22s %9" PetscInt_FMT " %10lld %11s %-3s %-26s %5" PetscInt_FMT " %10.4f %9.2f %9.1f %7s %8s %8s %9s %9s %9s %s\n", B->label, B->n, (long long)nnz, s_lev, r->kind, r->variant, r->reps, r->med_ms, gflops, gbs, s_bound, s_cus, s_pc, s_setup, s_be, s_err, r->timing));
    if (B->csv) {
      fprintf(B->csv, "%s,%s,%s,%lld,%lld,%lld,%lld,%lld,%.6g,%.6g,%.6g,%.6g,%s,%.6g,%.6g,%.6g,%s,%s,%s,%s,%s,%s,\"%s\"\n", B->label, r->kind, r->variant, (long long)B->n, (long long)nnz, (long long)B->Ls.nlevels, lu ? (long long)B->Us.nlevels : 0LL, (long long)r->reps, r->med_ms, r->min_ms, gflops, gbs, strcmp(s_bound, "-") ? s_bound : "", B->bw_gbs, bytes, flops, strcmp(s_cus, "-") ? s_cus : "",
              strcmp(s_pc, "-") ? s_pc : "", strcmp(s_setup, "-") ? s_setup : "", strcmp(s_be, "-") ? s_be : "", strcmp(s_err, "-") ? s_err : "", r->timing, B->device);
    }
  }
  if (B->csv) fflush(B->csv);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- main ---------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
  Bench                   B;
  Mat                     A, F;
  IS                      row, col;
  MatFactorInfo           info;
  MatInfo                 ainfo;
  char                    mtx[PETSC_MAX_PATH_LEN] = "", grid[256] = "", csvname[PETSC_MAX_PATH_LEN] = "", label[PETSC_MAX_PATH_LEN] = "";
  PetscBool               has_mtx, has2d, has3d, has_csv, has_label, has_bw, petsc_cusparse = PETSC_TRUE, gpu = PETSC_FALSE, file = PETSC_FALSE;
  PetscInt                stencil = 0, g[3] = {1, 1, 1}, bw_mib = 1024;
  PetscReal               bw = 0;
  const SpTrsvBackendOps *cuda = NULL;
  const char             *why = "";
  SpTrsvFactor            fac;
  PetscLogDouble          t0, t1;
  double                  factor_ms;
  unsigned long long      seed = 88172645463325252ULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  memset(&B, 0, sizeof(B));
  B.reps     = 200;
  B.min_reps = 5;
  B.warmup   = 20;
  B.max_time  = 0.25;
  B.host_time = 0.1;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mtx", mtx, sizeof(mtx), &has_mtx));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-lap2d", grid, sizeof(grid), &has2d));
  if (!has2d) PetscCall(PetscOptionsGetString(NULL, NULL, "-lap3d", grid, sizeof(grid), &has3d));
  else has3d = PETSC_FALSE;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-stencil", &stencil, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &B.reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-min_reps", &B.min_reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-warmup", &B.warmup, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-max_time", &B.max_time, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-host_time", &B.host_time, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csvname, sizeof(csvname), &has_csv));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-label", label, sizeof(label), &has_label));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-bw_gbs", &bw, &has_bw));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bw_mib", &bw_mib, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-petsc_cusparse", &petsc_cusparse, NULL));
  PetscCheck((has_mtx ? 1 : 0) + (has2d ? 1 : 0) + (has3d ? 1 : 0) == 1, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Give exactly one of -mtx <file>, -lap2d NXxNY -stencil 5|9, -lap3d NXxNYxNZ -stencil 7|27");
  PetscCheck(B.reps >= 1 && B.min_reps >= 1 && B.warmup >= 1 && B.max_time > 0 && B.host_time > 0 && bw_mib > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-reps, -min_reps, -warmup, -max_time, -host_time and -bw_mib must be positive");

  /* ---- the matrix ---- */
  PetscCall(PetscTime(&t0));
  if (has_mtx) {
#if defined(SPTRSV_NO_MMLOAD)
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Built without the Matrix Market reader (no zlib): cannot read %s", mtx);
#else
    const char *base = strrchr(mtx, '/');
    size_t      len;

    PetscCall(SpTrsvLoadMatrixMarket(mtx, &A));
    PetscCall(AddDiagonal(A));
    file = PETSC_TRUE;
    PetscCall(PetscStrncpy(B.label, base ? base + 1 : mtx, sizeof(B.label)));
    len = strlen(B.label);
    if (len > 7 && !strcmp(B.label + len - 7, ".mtx.gz")) B.label[len - 7] = 0;
    else if (len > 4 && !strcmp(B.label + len - 4, ".mtx")) B.label[len - 4] = 0;
#endif
  } else {
    PetscInt dim = has2d ? 2 : 3;
    if (!stencil) stencil = dim == 2 ? 5 : 7;
    PetscCall(ParseGrid(grid, dim, g));
    PetscCall(SpTrsvBuildStencil(g[0], g[1], g[2], stencil, &A));
    if (dim == 2) PetscCall(PetscSNPrintf(B.label, sizeof(B.label), "lap2d%" PetscInt_FMT "_%" PetscInt_FMT "x%" PetscInt_FMT, stencil, g[0], g[1]));
    else PetscCall(PetscSNPrintf(B.label, sizeof(B.label), "lap3d%" PetscInt_FMT "_%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT, stencil, g[0], g[1], g[2]));
  }
  PetscCall(PetscTime(&t1));
  if (has_label) PetscCall(PetscStrncpy(B.label, label, sizeof(B.label)));
  PetscCall(MatGetSize(A, &B.n, NULL));
  PetscCall(MatGetInfo(A, MAT_LOCAL, &ainfo));
  B.nnzA = (PetscInt)ainfo.nz_used;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench %s: n = %" PetscInt_FMT ", nnz(A) = %" PetscInt_FMT " (built in %.2f s)\n", B.label, B.n, B.nnzA, (double)(t1 - t0)));

  /* ---- the GPU ---- */
  PetscCall(SpTrsvBackendCUDAGet(&cuda, &gpu, &why));
#if !defined(BENCH_HAVE_CUDA)
  if (gpu) {
    gpu = PETSC_FALSE;
    why = "bench was compiled without the CUDA and cuSPARSE headers (or the plugin without CUDA)";
  }
#endif

  /* ---- ILU(0), natural ordering: the factor MatSolve uses; its triangles feed every other variant ---- */
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels        = 0;
  info.fill          = 1.0;
  info.diagonal_fill = 0;
  info.zeropivot     = 100.0 * PETSC_MACHINE_EPSILON;
  if (file) { /* real matrices may have zero or tiny pivots */
    info.shifttype   = (PetscReal)MAT_SHIFT_NONZERO;
    info.shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
  } else info.shifttype = (PetscReal)MAT_SHIFT_NONE;
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &row, &col));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_backend", gpu ? "cuda" : "host"));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_format", "csr"));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_graph", "1"));
  PetscCall(PetscTime(&t0));
  PetscCall(MatGetFactor(A, MATSOLVERSPTRSVLEVEL, MAT_FACTOR_ILU, &F));
  PetscCall(MatILUFactorSymbolic(F, A, row, col, &info));
  PetscCall(MatLUFactorNumeric(F, A, &info));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_backend"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_format"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_graph"));
  factor_ms = 1e3 * (t1 - t0);
  fac       = ((Mat_SpTrsv *)F->data)->fac;
  PetscCheck(!fac->rperm && !fac->cperm, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Expected the natural ordering (no permutations)");
  B.nnzL = fac->L->i[B.n];
  B.nnzU = fac->U->i[B.n];

  /* right-hand side in [-1, 1] (xorshift, the same on every machine), the host reference solutions */
  PetscCall(PetscMalloc4(B.n, &B.b, B.n, &B.yref, B.n, &B.xref, B.n, &B.hbuf));
  for (PetscInt i = 0; i < B.n; i++) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    B.b[i] = (PetscScalar)(2.0 * (double)(seed >> 11) / 9007199254740992.0 - 1.0);
  }
  PetscCall(RunHostReference(&B, fac));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "ILU(0): nnz(L) = %" PetscInt_FMT " + nnz(U) = %" PetscInt_FMT " strict + %" PetscInt_FMT " diagonal; levels L = %" PetscInt_FMT ", U = %" PetscInt_FMT "; bytes per solve (model) L = %.4g, U = %.4g; factorization %.1f ms (backend %s)\n", B.nnzL, B.nnzU, B.n, B.Ls.nlevels, B.Us.nlevels, B.Ls.bytes_per_solve, B.Us.bytes_per_solve, factor_ms, gpu ? "cuda" : "host"));

  if (has_csv) {
    B.csv = fopen(csvname, "a+");
    PetscCheck(B.csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open -csv %s", csvname);
  }

  if (!gpu) {
    double err;
    Vec    vb, vx;
    PetscCall(PetscStrncpy(B.device, "none", sizeof(B.device)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "NO GPU RUN: %s. Ran the host reference only; the GPU variants are skipped.\n", why));
    /* smoke test of MatSolve through the factor (host backend) against the reference */
    PetscCall(MakeSolveVecs(&B, PETSC_FALSE, &vb, &vx));
    PetscCall(MatSolve(F, vb, vx));
    PetscCall(VecErr(&B, vx, &err));
    PetscCall(VecDestroy(&vb));
    PetscCall(VecDestroy(&vx));
    PetscCheck(err < 1e-10, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatSolve (host backend) differs from the host reference: %g", err);
    PetscCall(RunMatSolve(&B, F, PETSC_FALSE, factor_ms));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "MatSolve (host backend) vs host reference: max relative error %.2e\n", err));
  }
#if defined(BENCH_HAVE_CUDA)
  else {
    int                   dev = 0;
    struct cudaDeviceProp prop;

    BenchCUDA(cudaGetDevice(&dev));
    BenchCUDA(cudaGetDeviceProperties(&prop, dev));
    PetscCall(PetscSNPrintf(B.device, sizeof(B.device), "%s", prop.name));
  #if defined(PETSC_HAVE_CUDA)
    PetscCall(SpTrsvBackendCUDAGetStream(&B.st)); /* the stream our solves are enqueued on */
    B.events = PETSC_TRUE;
  #else
    B.st     = (cudaStream_t)0; /* the backend's stream is private: synchronise the device around each solve */
    B.events = PETSC_FALSE;
  #endif
    if (has_bw && bw > 0) {
      B.bw_gbs = bw;
      PetscCall(PetscSNPrintf(B.bw_how, sizeof(B.bw_how), "given with -bw_gbs"));
    } else PetscCall(MeasureBandwidth(&B, bw_mib));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "device: %s (device %d)\n", B.device, dev));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "device bandwidth: %.1f GB/s (%s)\n", B.bw_gbs, B.bw_how));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "timing: %s, median of at most %" PetscInt_FMT " (at least %" PetscInt_FMT ") solves after at most %" PetscInt_FMT " warm-up solves, about %.2f s per variant\n", B.events ? "CUDA events on the solves' stream, back-to-back solves" : "device synchronised around each solve (host PETSc: the backend's stream is private)", B.reps, B.min_reps, B.warmup, (double)B.max_time));

    BenchCUDA(cudaMalloc((void **)&B.d_b, (size_t)(B.n + 1) * sizeof(PetscScalar)));
    BenchCUDA(cudaMalloc((void **)&B.d_w, (size_t)(B.n + 1) * sizeof(PetscScalar)));
    BenchCUDA(cudaMalloc((void **)&B.d_x, (size_t)(B.n + 1) * sizeof(PetscScalar)));
    BenchCUDA(cudaMemcpy(B.d_b, B.b, (size_t)B.n * sizeof(PetscScalar), cudaMemcpyHostToDevice));

    PetscCall(RunOurKernels(&B, fac, cuda));
    PetscCall(RunCuSparse(&B, fac));
    PetscCall(RunMatSolve(&B, F, PETSC_TRUE, factor_ms));
  #if defined(PETSC_HAVE_CUDA)
    if (petsc_cusparse) PetscCall(RunPetscCusparse(&B, A, &info));
  #endif
    BenchCUDA(cudaFree(B.d_b));
    BenchCUDA(cudaFree(B.d_w));
    BenchCUDA(cudaFree(B.d_x));
    for (PetscInt k = 0; k < B.nev; k++) BenchCUDA(cudaEventDestroy(B.ev[k]));
    PetscCall(PetscFree(B.ev));
  }
#endif
  PetscCall(Report(&B));
  if (B.csv) fclose(B.csv);
  PetscCall(PetscFree4(B.b, B.yref, B.xref, B.hbuf));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
