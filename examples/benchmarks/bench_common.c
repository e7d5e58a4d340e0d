/* Helpers shared by the benchmark programs (bench.c, bench_gs.c): options, results, timing, errors, the device */
#include "bench.h"

static int CompareDouble(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* entries in [-1, 1] from a xorshift generator: the same on every machine */
void BenchFillRandom(PetscInt n, unsigned long long *seed, PetscScalar *a)
{
  for (PetscInt i = 0; i < n; i++) {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    a[i] = (PetscScalar)(2.0 * (double)(*seed >> 11) / 9007199254740992.0 - 1.0);
  }
}

Result *NewResult(Bench *B, const char *variant, const char *kind)
{
  Result *r;

  if (B->nres >= MAX_RESULTS) {
    (void)PetscPrintf(PETSC_COMM_SELF, "WARNING: more than %d results: variant %s (%s) is not recorded\n", MAX_RESULTS, variant, kind);
    return NULL;
  }
  r = &B->res[B->nres++];
  memset(r, 0, sizeof(*r));
  (void)PetscStrncpy(r->variant, variant, sizeof(r->variant));
  (void)PetscStrncpy(r->kind, kind, sizeof(r->kind));
  r->setup_ms = -1;
  r->err      = -1;
  return r;
}

/* the timed result of a variant (NULL when it has none) */
const Result *FindResult(const Bench *B, const char *variant, const char *kind)
{
  for (PetscInt k = 0; k < B->nres; k++)
    if (!strcmp(B->res[k].variant, variant) && !strcmp(B->res[k].kind, kind) && B->res[k].reps > 0) return &B->res[k];
  return NULL;
}

/*
  BenchGetOptions - the options every benchmark program shares (defaults set here): timing (-reps, -min_reps,
  -warmup, -max_time, -host_time), -csv (opened for appending), -bw_gbs and -bw_mib
*/
PetscErrorCode BenchGetOptions(Bench *B)
{
  char      csvname[PETSC_MAX_PATH_LEN] = "";
  PetscBool has_csv, has_bw;
  PetscReal bw = 0;

  PetscFunctionBeginUser;
  B->reps      = 200;
  B->min_reps  = 5;
  B->warmup    = 20;
  B->max_time  = 0.25;
  B->host_time = 0.1;
  B->bw_mib    = 1024;
  B->setup_warmup = PETSC_TRUE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_setup_warmup", &B->setup_warmup, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &B->reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-min_reps", &B->min_reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-warmup", &B->warmup, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-max_time", &B->max_time, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-host_time", &B->host_time, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csvname, sizeof(csvname), &has_csv));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-bw_gbs", &bw, &has_bw));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bw_mib", &B->bw_mib, NULL));
  PetscCheck(B->reps >= 1 && B->min_reps >= 1 && B->warmup >= 1 && B->max_time > 0 && B->host_time > 0 && B->bw_mib > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-reps, -min_reps, -warmup, -max_time, -host_time and -bw_mib must be positive");
  if (has_bw && bw > 0) {
    B->bw_gbs = bw;
    PetscCall(PetscSNPrintf(B->bw_how, sizeof(B->bw_how), "given with -bw_gbs"));
  }
  if (has_csv) {
    B->csv = fopen(csvname, "a+");
    PetscCheck(B->csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open -csv %s", csvname);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the CSV header, when the -csv file is new or empty; a file that holds another header (an older bench's columns) is
   refused: rows appended under it would be read into the wrong columns */
PetscErrorCode BenchCSVHeader(Bench *B, const char *hdr)
{
  long   pos;
  size_t len = strlen(hdr);
  char  *line;

  PetscFunctionBeginUser;
  if (!B->csv) PetscFunctionReturn(PETSC_SUCCESS);
  (void)fseek(B->csv, 0, SEEK_END);
  pos = ftell(B->csv);
  if (pos <= 0) {
    fputs(hdr, B->csv);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscCalloc1(len + 2, &line));
  (void)fseek(B->csv, 0, SEEK_SET);
  if (!fgets(line, (int)len + 2, B->csv)) line[0] = 0;
  (void)fseek(B->csv, 0, SEEK_END);
  if (strcmp(line, hdr)) {
    PetscCall(PetscFree(line));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "-csv: the file's first line is not this program's header (another version's columns?): use a new file. Expected: %s", hdr);
  }
  PetscCall(PetscFree(line));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  BenchTinyTri - the throwaway triangle of the warm-ups (BENCH_TINY_N rows): four dense triangular blocks of 16 rows on the
  diagonal (a supernode each, so the supernodal path runs its own kernels), strict entries -0.05, diagonal 2 unless unit
*/
PetscErrorCode BenchTinyTri(SpTrsvUplo uplo, PetscBool unit, SpTrsvTri *T)
{
  const PetscInt n = BENCH_TINY_N, bs = 16;
  PetscInt      *ti, *tj, nz = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &ti));
  PetscCall(PetscMalloc1(n * (bs - 1) / 2 + 1, &tj));
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt b0 = bs * (i / bs), b1 = b0 + bs;
    ti[i] = nz;
    if (uplo == SPTRSV_LOWER)
      for (PetscInt j = b0; j < i; j++) tj[nz++] = j;
    else
      for (PetscInt j = i + 1; j < b1; j++) tj[nz++] = j;
  }
  ti[n] = nz;
  PetscCall(SpTrsvTriCreate(n, uplo, unit, T));
  PetscCall(SpTrsvTriSetPattern(*T, ti, tj));
  for (PetscInt q = 0; q < nz; q++) (*T)->a[q] = -0.05;
  if (!unit)
    for (PetscInt i = 0; i < n; i++) (*T)->idiag[i] = 0.5;
  PetscCall(SpTrsvTriValuesChanged(*T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  BenchErrorRule - every result's tolerance (Result.tol; bench.h): max(BENCH_TOL_FLOOR, f * e_ref) (at most BENCH_TOL_CAP), e_ref cuSPARSE SpSV's
  error on the same triangles (kind) when it was timed and finite, else 0 (the floor alone); f = BENCH_TOL_INVERSE for a
  result whose arithmetic differs from a substitution, BENCH_TOL_EXACT otherwise. A result without an error: tol -1
*/
void BenchErrorRule(Bench *B)
{
  for (PetscInt k = 0; k < B->nres; k++) {
    Result       *r   = &B->res[k];
    const Result *cus = FindResult(B, "cusparse-spsv", r->kind);
    const double  e   = cus && cus->err >= 0 && PetscIsNormalReal((PetscReal)cus->err) ? cus->err : 0.0;
    r->tol            = r->err < 0 ? -1 : PetscMin(BENCH_TOL_CAP, PetscMax(BENCH_TOL_FLOOR, (r->inverse ? BENCH_TOL_INVERSE : BENCH_TOL_EXACT) * e));
  }
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

/* wait for the device (ON_DEVICE with CUDA), nothing on the host */
PetscErrorCode BenchSync(Where where)
{
  PetscFunctionBeginUser;
#if defined(BENCH_HAVE_CUDA)
  if (where == ON_DEVICE) BenchCUDA(cudaDeviceSynchronize());
#else
  (void)where;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* fill the n entries of v (device or host array) with NaN, so that an entry a solve leaves unwritten shows in the error */
PetscErrorCode BenchFillNaN(Bench *B, Where where, PetscScalar *v)
{
  PetscFunctionBeginUser;
#if defined(BENCH_HAVE_CUDA)
  if (where == ON_DEVICE) {
    BenchCUDA(cudaMemset(v, 0xff, (size_t)B->n * sizeof(PetscScalar)));
    BenchCUDA(cudaDeviceSynchronize()); /* the memset ran on the legacy stream: done before the solves start */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  for (PetscInt i = 0; i < B->n; i++) v[i] = (PetscScalar)NAN;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max relative error of v (device or host array) against the host reference ref */
PetscErrorCode BenchErr(Bench *B, Where where, const PetscScalar *v, const PetscScalar *ref, double *err)
{
  PetscFunctionBeginUser;
#if defined(BENCH_HAVE_CUDA)
  if (where == ON_DEVICE) {
    PetscCall(DeviceErr(B, v, ref, err));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  *err = RelErrInf(B->n, v, ref);
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(BENCH_HAVE_CUDA)
PetscErrorCode DeviceErr(Bench *B, const PetscScalar *d, const PetscScalar *ref, double *err)
{
  PetscFunctionBeginUser;
  BenchCUDA(cudaDeviceSynchronize());
  BenchCUDA(cudaMemcpy(B->hbuf, d, (size_t)B->n * sizeof(PetscScalar), cudaMemcpyDeviceToHost));
  *err = RelErrInf(B->n, B->hbuf, ref);
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

/*
  BenchDeviceInit - the device's name, the stream our solves use (timed with CUDA events with a CUDA PETSc), the
  bandwidth of the bound (measured unless given with -bw_gbs), and the device vectors d_b (= b), d_w, d_x
*/
PetscErrorCode BenchDeviceInit(Bench *B, const char *unit)
{
  int                   dev = 0;
  struct cudaDeviceProp prop;

  PetscFunctionBeginUser;
  BenchCUDA(cudaGetDevice(&dev));
  BenchCUDA(cudaGetDeviceProperties(&prop, dev));
  PetscCall(PetscSNPrintf(B->device, sizeof(B->device), "%s", prop.name));
  #if defined(PETSC_HAVE_CUDA)
  PetscCall(SpTrsvBackendCUDAGetStream(&B->st)); /* the stream our solves are enqueued on */
  B->events = PETSC_TRUE;
  #else
  B->st     = (cudaStream_t)0; /* the backend's stream is private: synchronise the device around each solve */
  B->events = PETSC_FALSE;
  #endif
  if (B->bw_gbs <= 0) PetscCall(MeasureBandwidth(B, B->bw_mib));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device: %s (device %d)\n", B->device, dev));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device bandwidth: %.1f GB/s (%s)\n", B->bw_gbs, B->bw_how));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "timing: %s, median of at most %" PetscInt_FMT " (at least %" PetscInt_FMT ") %ss after at most %" PetscInt_FMT " warm-up %ss, about %.2f s per variant\n", B->events ? "CUDA events on the solves' stream, back-to-back calls" : "device synchronised around each call (host PETSc: the backend's stream is private)", B->reps, B->min_reps, unit, B->warmup, unit,
                        (double)B->max_time));
  BenchCUDA(cudaMalloc((void **)&B->d_b, (size_t)(B->n + 1) * sizeof(PetscScalar)));
  BenchCUDA(cudaMalloc((void **)&B->d_w, (size_t)(B->n + 1) * sizeof(PetscScalar)));
  BenchCUDA(cudaMalloc((void **)&B->d_x, (size_t)(B->n + 1) * sizeof(PetscScalar)));
  BenchCUDA(cudaMemcpy(B->d_b, B->b, (size_t)B->n * sizeof(PetscScalar), cudaMemcpyHostToDevice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchDeviceFinalize(Bench *B)
{
  PetscFunctionBeginUser;
  BenchCUDA(cudaFree(B->d_b));
  BenchCUDA(cudaFree(B->d_w));
  BenchCUDA(cudaFree(B->d_x));
  if (B->d_b2 && B->d_b2 != B->d_b) BenchCUDA(cudaFree(B->d_b2)); /* bench -bench_ptr_update: the second b/x pair */
  if (B->d_x2 && B->d_x2 != B->d_x) BenchCUDA(cudaFree(B->d_x2));
  B->d_b = B->d_w = B->d_x = B->d_b2 = B->d_x2 = NULL;
  for (PetscInt k = 0; k < B->nev; k++) BenchCUDA(cudaEventDestroy(B->ev[k]));
  PetscCall(PetscFree(B->ev));
  B->nev = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif
