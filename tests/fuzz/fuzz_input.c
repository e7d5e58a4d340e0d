static char help[] = "Hostile-input fuzz driver: per case a spoiled or valid Matrix Market / PETSc binary file, loaded and,\n"
                     "when it loads, handed to a random consumer (ILU/ICC with every sptrsv_* solver type, PC isai, PC gs\n"
                     "exact and multicolor, MatSolve with a wrong-size vector, a factor reused after a pattern change), with\n"
                     "random option values. Each case must end in a PETSc error with a message, a checked result, or a\n"
                     "divergence with a reason: never a crash, a hang, a leak or a wrong answer.\n"
                     "  -seed S        seed (default 1)\n"
                     "  -cases N       cases 0..N-1 (default 1000)\n"
                     "  -case K        only case K (with -seed S: the reproduction of one case)\n"
                     "  -regression    also run the fixed list of (seed, case) pairs that once failed\n"
                     "  -backend host|cuda   where the plugin runs (the -mat_sptrsv_backend/-pc_gs_backend/-pc_isai_backend values)\n"
                     "  -maxn N        largest matrix (default 12)\n"
                     "  -timeout S     seconds per case before it counts as a hang (default 10)\n"
                     "  -v [2]         one line per case (2: also the input and the options as they are drawn)\n"
                     "  -keep          keep the temporary folder with the last input (case.mtx or case.bin)\n"
                     "  -native        ILU/ICC cases: PETSc's own factor in place of the sptrsv_* one (to triage a failure)\n";

#include "fuzz_case.h"
#include <signal.h>
#include <unistd.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

/* (seed, case) pairs that found bugs; run with -regression (the test suite does) */
static const long long fuzz_regressions[][2] = {
  {1, 252},                                  /* ICC with the positive-definite shift restarted for ever (non-positive pivot with the largest shift) */
  {1, 12},  {1, 189},                        /* sync-free analysis rejecting an option value left its solver behind */
  {1, 55},  {1, 123},                        /* PC gs (exact): a row without a diagonal entry left the split pattern behind */
  {1, 192}, {1, 243}, {1, 341}, {1, 351},    /* PC gs multicolor: a missing or zero diagonal left the colouring and storage behind */
  {1, 103}, {1, 247},                        /* Matrix Market reader: duplicate entries beyond m * n were refused */
  {5, 6892},                                 /* the driver's own judgement: an entry of -9e17 needs the backward error, not ||r|| / ||b|| */
  {1, 7837}, {1, 8036},                      /* the driver's reference (PETSc 3.26.1): its inode ILU crashed; its inode ordering differed */
  {0, 0}                                     /* end */
};

/* ---- crash and hang watchdog: print the case to rerun, then stop ----------------------------------- */
static volatile long long wd_seed = 0, wd_case = -1;

static void FuzzWrite(const char *s) { (void)!write(2, s, strlen(s)); }
static void FuzzWriteNum(long long v)
{
  char b[32];
  int  k = 31;
  int  neg = v < 0;

  b[k] = 0;
  if (neg) v = -v;
  do {
    b[--k] = (char)('0' + v % 10);
    v /= 10;
  } while (v && k > 1);
  if (neg) b[--k] = '-';
  FuzzWrite(b + k);
}

static void FuzzSignal(int sig)
{
  FuzzWrite(sig == SIGALRM ? "\nfuzz_input: FAILURE: HANG (no end within the time limit)" : "\nfuzz_input: FAILURE: CRASH (signal ");
  if (sig != SIGALRM) {
    FuzzWriteNum(sig);
    FuzzWrite(")");
  }
  FuzzWrite(" in case ");
  FuzzWriteNum(wd_case);
  FuzzWrite(" of seed ");
  FuzzWriteNum(wd_seed);
  FuzzWrite(": rerun with -seed ");
  FuzzWriteNum(wd_seed);
  FuzzWrite(" -case ");
  FuzzWriteNum(wd_case);
  FuzzWrite("\n");
  _exit(3);
}

static void FuzzInstallWatchdog(void)
{
  struct sigaction sa;

  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = FuzzSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, NULL);
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);
  sigaction(SIGFPE, &sa, NULL);
  sigaction(SIGILL, &sa, NULL);
  sigaction(SIGABRT, &sa, NULL);
}

static int FuzzStrCmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* ---- one case ------------------------------------------------------------------------------------------ */
static PetscErrorCode FuzzOneCase(FuzzCtx *ctx, long long seed, PetscInt kase, FuzzResult *res)
{
  FuzzRng        r;
  FuzzInput      in;
  Mat            A = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(res, sizeof(*res)));
  FuzzSeed(&r, (uint64_t)seed, (uint64_t)kase);
  PetscCall(FuzzWriteInput(&r, ctx->dir, ctx->maxn, &in));
  PetscCall(PetscSNPrintf(res->what, sizeof(res->what), "%s", in.what));
  if (ctx->verbose > 1) PetscCall(PetscPrintf(PETSC_COMM_SELF, "case %" PetscInt_FMT " input: %s\n", kase, in.what));
  /* load: our Matrix Market reader, or MatLoad */
  if (in.binary) {
    PetscViewer v = NULL;

    ierr = PetscViewerBinaryOpen(PETSC_COMM_SELF, in.path, FILE_MODE_READ, &v);
    if (!ierr) ierr = MatCreate(PETSC_COMM_SELF, &A);
    if (!ierr) ierr = MatSetType(A, MATSEQAIJ);
    if (!ierr) ierr = MatLoad(A, v);
    PetscCall(PetscViewerDestroy(&v));
  } else ierr = SpTrsvLoadMatrixMarket(in.path, &A);
  if (ierr) {
    PetscCall(MatDestroy(&A));
    PetscCall(FuzzRecordError(res, ierr, "load"));
    if (in.valid) FuzzFail(res, "a valid file did not load");
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    char bad[256];

    PetscCall(FuzzCheckLoaded(A, bad, sizeof(bad)));
    if (bad[0] && in.binary) { /* PETSc's MatLoad, not ours: counted, and not handed on (PETSc's MatMult would read out of bounds) */
      res->outcome = FUZZ_ERROR;
      ctx->corrupt++;
      PetscCall(PetscSNPrintf(res->message, sizeof(res->message), "[MatLoad accepted a corrupt file; stopped by the driver] %s", bad));
    } else if (bad[0]) FuzzFail(res, "our Matrix Market reader returned a corrupt matrix: %s", bad);
    else PetscCall(FuzzConsume(ctx, &r, A, in.symmetric, res));
  }
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the allocations PETSc's tracing malloc holds now, one line each ("N bytes FUNCTION() at FILE:LINE"), sorted */
static PetscErrorCode FuzzHeapLines(char **text, char ***lines, size_t *n)
{
  FILE  *fp;
  size_t len = 0, cap = 0;
  char  *save = NULL;

  PetscFunctionBegin;
  *text  = NULL;
  *lines = NULL;
  *n     = 0;
  fp     = open_memstream(text, &len);
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_MEM, "open_memstream failed");
  PetscCall(PetscMallocDump(fp));
  fclose(fp);
  for (char *l = strtok_r(*text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    if (*n == cap) {
      cap    = cap ? 2 * cap : 256;
      *lines = (char **)realloc(*lines, cap * sizeof(char *));
    }
    (*lines)[(*n)++] = l;
  }
  qsort(*lines, *n, sizeof(char *), FuzzStrCmp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the allocations of a case that outlive it: a failure when the case ended without an error, or when one was
   made in the plugin or the driver (PETSc's own error paths leak, e.g. PetscOptionsGetEList on a bad value) */
static PetscErrorCode FuzzLeakCheck(FuzzCtx *ctx, long long seed, PetscInt kase, FuzzResult *res)
{
  char      *t0, *t1, **l0, **l1;
  size_t     n0, n1, a = 0, ours = 0, bytes = 0;
  char       site[160] = "";
  FuzzResult again;

  PetscFunctionBegin;
  PetscCall(FuzzHeapLines(&t0, &l0, &n0));
  PetscCall(FuzzOneCase(ctx, seed, kase, &again));
  PetscCall(FuzzHeapLines(&t1, &l1, &n1));
  for (size_t b = 0; b < n1; b++) { /* multiset difference l1 - l0 */
    int c = 1;
    while (a < n0 && (c = strcmp(l0[a], l1[b])) < 0) a++;
    if (a < n0 && c == 0) {
      a++;
      continue;
    }
    bytes += (size_t)strtoul(l1[b] + 5, NULL, 10);
    /* ours are compiled with relative names (src/..., include/..., tests/..., examples/...); PETSc's are ./src/...
       (Debian) or absolute (a PETSc built from source) */
    if (strstr(l1[b], " at src/") || strstr(l1[b], " at include/") || strstr(l1[b], " at tests/") || strstr(l1[b], " at examples/")) {
      if (!ours++) snprintf(site, sizeof(site), "%s", l1[b]);
    }
  }
  if (bytes && (res->outcome != FUZZ_ERROR || ours)) FuzzFail(res, "memory leak: %zu bytes %s%s", bytes, res->outcome == FUZZ_ERROR ? "after the error, e.g. " : "without an error", site);
  else if (bytes) ctx->petscleaks++;
  free(l0);
  free(l1);
  free(t0);
  free(t1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a case, under the watchdog and the leak check: a case that leaves memory behind is run again, and what the
   second run leaves is looked at (the first use of a PETSc class or function list allocates for good) */
static PetscErrorCode FuzzRunCase(FuzzCtx *ctx, long long seed, PetscInt kase)
{
  FuzzResult     res;
  PetscLogDouble m0 = 0, m1 = 0;

  PetscFunctionBegin;
  wd_seed = seed;
  wd_case = kase;
  alarm((unsigned)ctx->timeout);
  if (ctx->leakcheck) PetscCall(PetscMallocGetCurrentUsage(&m0));
  PetscCall(FuzzOneCase(ctx, seed, kase, &res));
  if (ctx->leakcheck) PetscCall(PetscMallocGetCurrentUsage(&m1));
  if (ctx->leakcheck && m1 > m0 && !res.failed) PetscCall(FuzzLeakCheck(ctx, seed, kase, &res));
  if (res.unnamed && !res.failed) {
    /* an error naming none of the bogus values read: fine when the case fails without them too (the matrix was
       rejected first), a failure when the bogus value is what stopped it */
    FuzzResult clean;

    fuzz_drop_bad = PETSC_TRUE;
    PetscCall(FuzzOneCase(ctx, seed, kase, &clean));
    fuzz_drop_bad = PETSC_FALSE;
    if (clean.outcome != FUZZ_ERROR) FuzzFail(&res, "%s had a bogus value and the run stopped with an error that does not name it (without the bogus values it ends %s)", res.unnamed_opt, clean.outcome == FUZZ_CORRECT ? "correct" : "diverged");
  }
  alarm(0);
  ctx->ncases++;
  if (res.failed) {
    ctx->nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAILURE seed %lld case %" PetscInt_FMT ": %s\n  input: %s\n  consumer: %s\n  %s%s%s\n  rerun: tests/fuzz/fuzz_input -seed %lld -case %" PetscInt_FMT " -v\n", seed, kase, res.failure, res.what, res.consumer, res.outcome == FUZZ_ERROR ? "error: " : "", res.outcome == FUZZ_ERROR ? res.message : "", res.outcome == FUZZ_ERROR ? "" : "(no error)", seed, kase));
  } else if (res.outcome == FUZZ_ERROR) ctx->nerror++;
  else if (res.outcome == FUZZ_DIVERGED) ctx->ndiverged++;
  else ctx->ncorrect++;
  ctx->consumers[res.kind]++;
  if (ctx->verbose) PetscCall(PetscPrintf(PETSC_COMM_SELF, "case %" PetscInt_FMT ": %s | %s | %s%s\n", kase, res.what, res.consumer, res.failed ? "FAILURE " : "", res.outcome == FUZZ_ERROR ? res.message : res.outcome == FUZZ_DIVERGED ? res.reason : "correct"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  FuzzCtx        ctx;
  PetscInt       ncases = 1000, onecase = -1;
  PetscInt       seed   = 1;
  PetscBool      regression = PETSC_FALSE, flg;
  char           tmpl[]     = "/tmp/sptrsv-fuzz-XXXXXX";
  PetscLogDouble t0, t1;

  /* PETSc's tracing malloc, for the leak check: -malloc_dump turns it on without -malloc_debug's heap check at every
     call (which costs as much as the heap holds); set before PetscInitialize, cleared before PetscFinalize */
  PetscCall(PetscOptionsSetValue(NULL, "-malloc_dump", NULL));
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscMemzero(&ctx, sizeof(ctx)));
  ctx.maxn    = 12;
  ctx.timeout = 10;
  PetscCall(PetscStrncpy(ctx.backend, "host", sizeof(ctx.backend)));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cases", &ncases, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-case", &onecase, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-maxn", &ctx.maxn, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-timeout", &ctx.timeout, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-regression", &regression, NULL));
  ctx.verbose = 0;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-v", &flg)); /* -v alone: 1 */
  if (flg) ctx.verbose = 1;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-v", &ctx.verbose, NULL));
  fuzz_trace = (PetscBool)(ctx.verbose > 1);
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-native", &fuzz_native, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-keep", &ctx.keep, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-backend", ctx.backend, sizeof(ctx.backend), &flg));
  {
    PetscBool host, cuda;
    PetscCall(PetscStrcmp(ctx.backend, "host", &host));
    PetscCall(PetscStrcmp(ctx.backend, "cuda", &cuda));
    PetscCheck(host || cuda, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-backend %s: choose host or cuda", ctx.backend);
    if (cuda) ctx.timeout = 30; /* the first case starts the GPU */
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-timeout", &ctx.timeout, NULL));
  }
  {
    PetscBool basic, eachcall, initnan;
    PetscCall(PetscMallocGetDebug(&basic, &eachcall, &initnan));
    ctx.leakcheck = basic;
    if (!basic) PetscCall(PetscPrintf(PETSC_COMM_SELF, "fuzz_input: PETSc's tracing malloc is off: no leak check\n"));
  }
  PetscCheck(mkdtemp(tmpl), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot make a temporary folder from %s", tmpl);
  PetscCall(PetscStrncpy(ctx.dir, tmpl, sizeof(ctx.dir)));
  PetscCall(FuzzSetUp(&ctx));
  FuzzInstallWatchdog();
  /* every error comes back as a code; the message is kept by PETSc (PetscErrorMessage) */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  PetscCall(PetscTime(&t0));
  if (onecase >= 0) PetscCall(FuzzRunCase(&ctx, seed, onecase));
  else {
    if (regression)
      for (size_t k = 0; fuzz_regressions[k][0] || fuzz_regressions[k][1]; k++) PetscCall(FuzzRunCase(&ctx, fuzz_regressions[k][0], (PetscInt)fuzz_regressions[k][1]));
    for (PetscInt k = 0; k < ncases; k++) PetscCall(FuzzRunCase(&ctx, seed, k));
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPopErrorHandler());
  PetscCall(FuzzReport(&ctx, seed, t1 - t0));
  if (ctx.keep) PetscCall(PetscPrintf(PETSC_COMM_SELF, "# the last input is kept in %s\n", ctx.dir));
  else {
    char cmd[PETSC_MAX_PATH_LEN + 16];
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "%s/case.mtx", ctx.dir));
    (void)remove(cmd);
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "%s/case.bin", ctx.dir));
    (void)remove(cmd);
    (void)rmdir(ctx.dir);
  }
  PetscCall(FuzzTearDown(&ctx));
  PetscCall(PetscOptionsClearValue(NULL, "-malloc_dump")); /* PETSc's own error paths leave memory behind (counted above) */
  PetscCall(PetscFinalize());
  return ctx.nfail ? 1 : 0;
}
