static const char help[] = "Gauss-Seidel benchmark of petsc-sptrsv (paper 000, Tables 1, 2 and 5; docs/PERFORMANCE.md).\n"
                           "For one matrix A = L + D + U, times one symmetric Gauss-Seidel iteration (a forward and a backward sweep, omega 1,\n"
                           "in place from a nonzero iterate) of SpTrsvGS on the CUDA backend in four variants: LEVR (csr, level scheduling),\n"
                           "LEVC (csc, level), ELMR (csr, element scheduling), ELMC (csc, element), and of a cuSPARSE baseline CUS (SpMV with\n"
                           "the strict upper (lower) part, then SpSV with L + D (U + D)). Per variant: median time (CUDA events, back-to-back\n"
                           "iterations after warm-up), GFLOP/s = 4 nnz(A) / t (paper 000, section 6), speedup over CUS, fraction of the\n"
                           "bandwidth bound, and the relative error of one iteration against the host backend (a row with an error >= -tol\n"
                           "is flagged WRONG and the program exits nonzero). Without a usable GPU the four variants run on the host backend.\n"
                           "  -mtx <file.mtx[.gz]> (or -f)       Matrix Market matrix (each row made diagonally dominant, see MakeDiagonalDominant)\n"
                           "  -lap2d <NXxNY> -stencil <5|9>      generated 2-D Laplacian\n"
                           "  -lap3d <NXxNYxNZ> -stencil <7|27>  generated 3-D Laplacian\n"
                           "  -reps <200> -min_reps <5> -warmup <20> -max_time <0.25> -host_time <0.1>   timing (as bench)\n"
                           "  -csv <file>        append one row per variant (with a header when the file is new or empty)\n"
                           "  -label <name>      case name (default: from the matrix)\n"
                           "  -bw_gbs <GB/s>     device bandwidth of the bound (default: measured here, cudaMemcpy device to device)\n"
                           "  -bw_mib <1024>     size of that copy in MiB (read + write bytes are counted)\n"
                           "  -tol <1e-10>       largest relative error of a correct row\n"
                           "  -cusparse <true>   run the cuSPARSE baseline\n"
                           "  -host_variants <auto>  also run the four variants on the host backend (default: only without a GPU)\n\n";

#include "bench_gs.h"

typedef struct {
  const char  *name;
  SpTrsvFormat format;
  const char  *path; /* registry name */
} GSVariant;

static const GSVariant Variants[] = {
  {"LEVR", SPTRSV_FORMAT_CSR, "level"  },
  {"LEVC", SPTRSV_FORMAT_CSC, "level"  },
  {"ELMR", SPTRSV_FORMAT_CSR, "element"},
  {"ELMC", SPTRSV_FORMAT_CSC, "element"},
};
#define NVARIANTS (sizeof(Variants) / sizeof(Variants[0]))

/* one symmetric iteration (forward + backward sweep) from x, in place, on the backend of gs */
typedef struct {
  SpTrsvGS           gs;
  const PetscScalar *b;
  PetscScalar       *x;
} GSCtx;

static PetscErrorCode GSIterate(void *ctx)
{
  GSCtx *c = (GSCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvGSApply(c->gs, SPTRSV_GS_SYMMETRIC, 1, PETSC_FALSE, c->b, c->x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MakeDiagonalDominant - a_ii = max(|a_ii|, sum_j!=i |a_ij|) (sign of a_ii kept; 1 in an otherwise empty row) in every row
  where that changes it. Gauss-Seidel needs a nonzero diagonal, and without dominance one iteration of a general
  matrix (e.g. olm1000) overflows to Inf/NaN, which makes the check meaningless. The paper's Laplacians are weakly
  dominant already (no change); the pattern, hence the schedule and the traffic, is never changed.
*/
static PetscErrorCode MakeDiagonalDominant(Mat A, PetscInt *nchanged)
{
  const PetscInt *ia, *ja;
  PetscInt        n, nr;
  PetscScalar    *aa;
  PetscBool       done;

  PetscFunctionBeginUser;
  *nchanged = 0;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot get the rows of the matrix");
  PetscCall(MatSeqAIJGetArray(A, &aa));
  for (PetscInt r = 0; r < n; r++) {
    PetscInt  d   = -1;
    PetscReal sum = 0, ad;
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) {
      if (ja[p] == r) d = p;
      else sum += PetscAbsScalar(aa[p]);
    }
    if (d < 0) continue; /* no diagonal entry: SpTrsvGSCreate says so */
    ad = PetscAbsScalar(aa[d]);
    if (ad >= sum && ad > 0) continue;
    aa[d] = (PetscRealPart(aa[d]) < 0 ? -1.0 : 1.0) * (sum > 0 ? sum : 1.0);
    (*nchanged)++;
  }
  PetscCall(MatSeqAIJRestoreArray(A, &aa));
  nr = n;
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the iterate x (host array, or device array when on_gpu) = the initial iterate B->yref */
static PetscErrorCode SetInitialIterate(Bench *B, PetscBool on_gpu, PetscScalar *x)
{
  PetscFunctionBeginUser;
  if (!on_gpu) PetscCall(PetscArraycpy(x, B->yref, B->n));
#if defined(BENCH_HAVE_CUDA)
  else BenchCUDA(cudaMemcpy(x, B->yref, (size_t)B->n * sizeof(PetscScalar), cudaMemcpyHostToDevice));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* relative error of the iterate x (host or device array) against the host reference B->xref */
static PetscErrorCode IterateErr(Bench *B, PetscBool on_gpu, const PetscScalar *x, double *err)
{
  PetscFunctionBeginUser;
  if (!on_gpu) *err = RelErrInf(B->n, x, B->xref);
#if defined(BENCH_HAVE_CUDA)
  else PetscCall(DeviceErr(B, x, B->xref, err));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  RunVariant - build SpTrsvGS with the variant's format and scheduler on the backend (the setup: split, analysis,
  upload), check one iteration from the initial iterate against the host reference, then time iterations.
  Host rows (on_gpu false) get one warm-up and about -host_time seconds, as the host rows of bench.
*/
static PetscErrorCode RunVariantInner(Bench *B, Mat A, const GSVariant *v, const SpTrsvBackendOps *be, PetscBool on_gpu, PetscReal tol, GSCtx *c, Result *r)
{
  SpTrsvPathOptions opts;
  SpTrsvPath          path;
  PetscLogDouble      t0, t1;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPathFind(v->path, &path));
  PetscCall(SpTrsvGSCreate(A, 1.0, 0.0, v->format, path, be, &opts, &c->gs));
#if defined(BENCH_HAVE_CUDA)
  if (on_gpu) BenchCUDA(cudaDeviceSynchronize());
#endif
  PetscCall(PetscTime(&t1));
  r->setup_ms = 1e3 * (t1 - t0);
  PetscCall(SetInitialIterate(B, on_gpu, c->x));
  PetscCall(GSIterate(c));
  PetscCall(IterateErr(B, on_gpu, c->x, &r->err));
  if (!(r->err < tol)) PetscCall(PetscSNPrintf(r->note, sizeof(r->note), "WRONG: relative error %.3e vs the host backend (tolerance %.1e)", r->err, (double)tol));
  PetscCall(TimeSolves(B, on_gpu ? ON_DEVICE : ON_HOST, on_gpu ? B->min_reps : 1, GSIterate, c, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunVariant(Bench *B, Mat A, const GSVariant *v, const SpTrsvBackendOps *be, PetscBool on_gpu, PetscReal tol)
{
  GSCtx          c = {NULL, B->b, B->hbuf};
  Result        *r;
  PetscInt       save_warmup = B->warmup;
  PetscReal      save_time   = B->max_time;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  if (!(r = NewResult(B, v->name, on_gpu ? GS_ON_GPU : GS_ON_CPU))) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(BENCH_HAVE_CUDA)
  if (on_gpu) {
    c.b = B->d_b;
    c.x = B->d_x;
  }
#endif
  if (!on_gpu) {
    B->warmup   = 1;
    B->max_time = B->host_time;
  }
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = RunVariantInner(B, A, v, be, on_gpu, tol, &c, r);
  if (c.gs) { /* inside the handler: a backend left broken by a failure must not end the run */
    PetscErrorCode ierr_destroy = SpTrsvGSDestroy(&c.gs);
    if (!ierr) ierr = ierr_destroy;
  }
  PetscCall(PetscPopErrorHandler());
  B->warmup   = save_warmup;
  B->max_time = save_time;
  if (ierr) {
    const char *text = NULL, *specific = NULL;

    (void)PetscErrorMessage(ierr, &text, (void *)&specific);
#if defined(BENCH_HAVE_CUDA)
    (void)cudaGetLastError();
#endif
    r->reps = 0;
    PetscCall(PetscSNPrintf(r->note, sizeof(r->note), "FAILED: error %d: %s", (int)ierr, specific ? specific : (text ? text : "?")));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "NOTE: %s on the %s backend failed (error %d: %s)\n", v->name, be->name, (int)ierr, specific ? specific : (text ? text : "?")));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host backend, csr, level scheduling: the reference iterate xref (one iteration from yref) and its context row */
static PetscErrorCode RunHostReference(Bench *B, Mat A, SpTrsvGS *ref)
{
  SpTrsvPath          path;
  SpTrsvPathOptions opts;
  GSCtx               c = {NULL, B->b, B->xref};
  PetscLogDouble      t0, t1;
  Result             *r;
  PetscInt            save_warmup = B->warmup;
  PetscReal           save_time   = B->max_time;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPathFind("level", &path));
  PetscCall(SpTrsvGSCreate(A, 1.0, 0.0, SPTRSV_FORMAT_CSR, path, &SpTrsvBackendHost, &opts, ref));
  PetscCall(PetscTime(&t1));
  c.gs  = *ref;
  B->Ls = (*ref)->fwd->plan->stats;
  B->Us = (*ref)->bwd->plan->stats;
  PetscCall(SetInitialIterate(B, PETSC_FALSE, B->xref));
  PetscCall(GSIterate(&c));
  if ((r = NewResult(B, "host-ref", GS_ON_CPU))) {
    c.x = B->hbuf; /* timed on a copy: xref stays the result of one iteration */
    PetscCall(SetInitialIterate(B, PETSC_FALSE, c.x));
    B->warmup   = 1;
    B->max_time = B->host_time;
    PetscCall(TimeSolves(B, ON_HOST, 1, GSIterate, &c, r));
    B->warmup   = save_warmup;
    B->max_time = save_time;
    r->setup_ms = 1e3 * (t1 - t0);
    r->err      = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- report -------------------------------------------------------------------------------------- */

/*
  Model of the least traffic of one symmetric iteration (each sweep reads all of A once, as CSR with 32-bit indices,
  reads b and the old x and writes x): bytes = 2 [nnz(A) (sizeof(PetscScalar) + 4) + 4 (n + 1) + 3 n sizeof(PetscScalar)]
*/
static double GSBytes(const Bench *B)
{
  const double s = (double)sizeof(PetscScalar);

  return 2.0 * ((double)B->nnzA * (s + 4.0) + 4.0 * ((double)B->n + 1.0) + 3.0 * (double)B->n * s);
}

static const char *RowStatus(const Result *r)
{
  if (!strncmp(r->note, "FAILED", 6)) return "FAILED";
  if (!strncmp(r->note, "WRONG", 5)) return "WRONG";
  return "ok";
}

/* one line per row on stdout and in the CSV; returns the number of rows that are not ok */
static PetscErrorCode Report(Bench *B, PetscInt nchanged, PetscInt *nbad)
{
  static const char *hdr   = "matrix,n,nnz,levels_L,levels_U,variant,backend,reps,ms,min_ms,gflops,speedup_vs_cus,bytes,gbs,bw_gbs,bw_fraction,setup_ms,relerr,status,diag_changed,timing,device,note\n";
  const double       flops = 4.0 * (double)B->nnzA, bytes = GSBytes(B);
  const Result      *cus = FindResult(B, GS_CUS, GS_ON_GPU);

  PetscFunctionBeginUser;
  *nbad = 0;
  PetscCall(BenchCSVHeader(B, hdr));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\nGauss-Seidel, one forward + one backward sweep: GFLOP/s = 4 nnz(A) / t; bytes (model) = %.4g per iteration\n", bytes));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-22s %9s %10s %13s %-9s %-4s %5s %10s %9s %8s %9s %8s %9s %10s %s\n", "matrix", "n", "nnz", "levels L/U", "variant", "on", "reps", "median_ms", "GFLOP/s", "x CUS", "GB/s", "%bound", "setup_ms", "rel_err", "status"));
  for (PetscInt k = 0; k < B->nres; k++) {
    const Result *r      = &B->res[k];
    PetscBool     gpu    = (PetscBool)!strcmp(r->kind, GS_ON_GPU);
    double        t      = r->reps > 0 ? r->med_ms * 1e-3 : 0;
    double        gflops = t > 0 ? flops / t / 1e9 : 0, gbs = t > 0 ? bytes / t / 1e9 : 0;
    double        frac      = gpu && B->bw_gbs > 0 && t > 0 ? gbs / B->bw_gbs : -1;
    double        vs_cus    = gpu && cus && t > 0 ? cus->med_ms / r->med_ms : -1;
    const char   *status    = RowStatus(r);
    char          s_cus[32] = "", s_frac[32] = "", s_err[32] = "", s_setup[32] = "", s_ms[32] = "", s_min[32] = "", s_gf[32] = "", s_gbs[32] = "", s_pct[32] = "-", note[sizeof(r->note)];

    if (strcmp(status, "ok")) (*nbad)++;
    if (vs_cus > 0) PetscCall(PetscSNPrintf(s_cus, sizeof(s_cus), "%.3f", vs_cus));
    if (frac >= 0) PetscCall(PetscSNPrintf(s_frac, sizeof(s_frac), "%.4f", frac));
    if (frac >= 0) PetscCall(PetscSNPrintf(s_pct, sizeof(s_pct), "%.2f", 100.0 * frac));
    if (r->err >= 0) PetscCall(PetscSNPrintf(s_err, sizeof(s_err), "%.2e", r->err));
    if (r->setup_ms >= 0) PetscCall(PetscSNPrintf(s_setup, sizeof(s_setup), "%.2f", r->setup_ms));
    if (t > 0) {
      PetscCall(PetscSNPrintf(s_ms, sizeof(s_ms), "%.6g", r->med_ms));
      PetscCall(PetscSNPrintf(s_min, sizeof(s_min), "%.6g", r->min_ms));
      PetscCall(PetscSNPrintf(s_gf, sizeof(s_gf), "%.6g", gflops));
      PetscCall(PetscSNPrintf(s_gbs, sizeof(s_gbs), "%.6g", gbs));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-22s %9" PetscInt_FMT " %10" PetscInt_FMT " %6" PetscInt_FMT "/%-6" PetscInt_FMT " %-9s %-4s %5" PetscInt_FMT " %10s %9.3f %8s %9.1f %8s %9s %10s %s%s%s\n", B->label, B->n, B->nnzA, B->Ls.nlevels, B->Us.nlevels, r->variant, r->kind, r->reps, t > 0 ? s_ms : "-", gflops, vs_cus > 0 ? s_cus : "-", gbs, s_pct, s_setup[0] ? s_setup : "-", s_err[0] ? s_err : "-", status, r->note[0] ? " " : "", r->note));
    if (B->csv) {
      PetscCall(PetscStrncpy(note, r->note, sizeof(note)));
      for (char *p = note; *p; p++)
        if (*p == '"' || *p == '\n') *p = '\'';
      fprintf(B->csv, "%s,%lld,%lld,%lld,%lld,%s,%s,%lld,%s,%s,%s,%s,%.6g,%s,%.6g,%s,%s,%s,%s,%lld,%s,\"%s\",\"%s\"\n", B->label, (long long)B->n, (long long)B->nnzA, (long long)B->Ls.nlevels, (long long)B->Us.nlevels, r->variant, gpu ? "cuda" : "host",
              (long long)r->reps, s_ms, s_min, s_gf, s_cus, bytes, s_gbs, B->bw_gbs, s_frac, s_setup, s_err, status, (long long)nchanged, r->timing ? r->timing : "", B->device, note);
    }
  }
  if (B->csv) fflush(B->csv);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "GS CHECK: %" PetscInt_FMT " of %" PetscInt_FMT " rows not ok\n", *nbad, B->nres));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- main ---------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
  Bench                   B;
  Mat                     A;
  SpTrsvGS                ref = NULL;
  PetscBool               gpu = PETSC_FALSE, file = PETSC_FALSE, cusparse = PETSC_TRUE, host_variants, set;
  PetscInt                nchanged = 0, nbad = 0;
  PetscReal               tol  = 1e-10;
  const SpTrsvBackendOps *cuda = NULL;
  const char             *why  = "";
  unsigned long long      seed = 88172645463325252ULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  memset(&B, 0, sizeof(B));
  PetscCall(BenchGetOptions(&B));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-cusparse", &cusparse, NULL));
  PetscCall(BenchLoadMatrix(&B, "bench_gs", &A, &file));
  PetscCall(MakeDiagonalDominant(A, &nchanged));
  if (nchanged) PetscCall(PetscPrintf(PETSC_COMM_SELF, "diagonal made dominant, a_ii = max(|a_ii|, sum_j |a_ij|): %" PetscInt_FMT " rows changed\n", nchanged));

  PetscCall(SpTrsvBackendCUDAGet(&cuda, &gpu, &why));
#if !defined(BENCH_HAVE_CUDA)
  if (gpu) {
    gpu = PETSC_FALSE;
    why = "bench_gs was compiled without the CUDA and cuSPARSE headers (or the plugin without CUDA)";
  }
#endif
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-host_variants", &host_variants, &set));
  if (!set) host_variants = (PetscBool)!gpu;

  /* right-hand side and initial iterate in [-1, 1], the host reference iterate after one symmetric iteration */
  PetscCall(PetscMalloc4(B.n, &B.b, B.n, &B.yref, B.n, &B.xref, B.n, &B.hbuf));
  BenchFillRandom(B.n, &seed, B.b);
  BenchFillRandom(B.n, &seed, B.yref);
  PetscCall(RunHostReference(&B, A, &ref));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "split A = L + D + U: nnz(L) = %" PetscInt_FMT ", nnz(U) = %" PetscInt_FMT " strict; levels L = %" PetscInt_FMT ", U = %" PetscInt_FMT "; %s pattern\n", ref->L->i[B.n], ref->U->i[B.n], B.Ls.nlevels, B.Us.nlevels, ref->structsym ? "structurally symmetric" : "structurally nonsymmetric"));

  if (!gpu) {
    PetscCall(PetscStrncpy(B.device, "none", sizeof(B.device)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "NO GPU RUN: %s. The CUDA variants and the cuSPARSE baseline are skipped.\n", why));
  }
#if defined(BENCH_HAVE_CUDA)
  else {
    PetscCall(BenchDeviceInit(&B, "iteration"));
    for (size_t k = 0; k < NVARIANTS; k++) PetscCall(RunVariant(&B, A, &Variants[k], cuda, PETSC_TRUE, tol));
    if (cusparse) PetscCall(RunCuSparseGS(&B, ref, tol));
  }
#endif
  if (host_variants)
    for (size_t k = 0; k < NVARIANTS; k++) PetscCall(RunVariant(&B, A, &Variants[k], &SpTrsvBackendHost, PETSC_FALSE, tol));
  PetscCall(Report(&B, nchanged, &nbad)); /* before freeing the device buffers: after a device fault the rows are written still */
  if (B.csv) fclose(B.csv);
#if defined(BENCH_HAVE_CUDA)
  if (gpu) PetscCall(BenchDeviceFinalize(&B));
#endif
  PetscCall(SpTrsvGSDestroy(&ref));
  PetscCall(PetscFree4(B.b, B.yref, B.xref, B.hbuf));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return nbad ? 1 : 0;
}
