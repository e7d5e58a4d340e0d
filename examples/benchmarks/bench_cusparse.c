/* The cuSPARSE references of the benchmarks on our triangles: SpSV for bench, SpSV + SpMV helpers for bench_gs */
#include "bench.h"

#if defined(BENCH_HAVE_CUDA)
  #include <cublas_v2.h> /* the warm-up of cuBLAS (BenchDeviceWarmUp) */

/* b[k] -> w (L), w -> x[k] (U): k alternates between solves when alt (-bench_ptr_update), as the vectors of a KSP solve do */
typedef struct {
  cusparseHandle_t h;
  CusTri           L, U;
  PetscScalar     *b[2], *x[2];
  int              k;
  PetscBool        alt;
} CusCtx;

/* T as a cuSPARSE CSR matrix: the strict part, with the diagonal 1/idiag inserted when diag (32-bit indices) */
static PetscErrorCode CusCsrCreate(SpTrsvTri T, PetscBool diag, CusTri *c)
{
  PetscInt     n = T->n, nnzs = T->i[n];
  PetscInt64   nnz = (PetscInt64)nnzs + (diag ? n : 0);
  PetscBool    upper = (PetscBool)(T->uplo == SPTRSV_UPPER);
  int         *hp, *hi;
  PetscScalar *hv;
  PetscInt64   p = 0;

  PetscFunctionBeginUser;
  PetscCheck(nnz < INT_MAX && n < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_INT_OVERFLOW, "cuSPARSE comparison uses 32-bit indices: nnz %" PetscInt64_FMT " too large", nnz);
  PetscCheck(!diag || T->idiag, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "A unit triangle has no diagonal to insert");
  PetscCall(PetscMalloc3(n + 1, &hp, nnz + 1, &hi, nnz + 1, &hv));
  for (PetscInt i = 0; i < n; i++) {
    hp[i] = (int)p;
    if (diag && upper) {
      hi[p]   = (int)i;
      hv[p++] = 1.0 / T->idiag[i];
    }
    for (PetscInt q = T->i[i]; q < T->i[i + 1]; q++) {
      hi[p]   = (int)T->j[q];
      hv[p++] = T->a[q];
    }
    if (diag && !upper) {
      hi[p]   = (int)i;
      hv[p++] = 1.0 / T->idiag[i];
    }
  }
  hp[n] = (int)p;
  BenchCUDA(cudaMalloc((void **)&c->d_ptr, (size_t)(n + 1) * sizeof(int)));
  BenchCUDA(cudaMalloc((void **)&c->d_idx, (size_t)(nnz + 1) * sizeof(int)));
  BenchCUDA(cudaMalloc((void **)&c->d_val, (size_t)(nnz + 1) * sizeof(PetscScalar)));
  BenchCUDA(cudaMemcpy(c->d_ptr, hp, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  if (nnz) BenchCUDA(cudaMemcpy(c->d_idx, hi, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice));
  if (nnz) BenchCUDA(cudaMemcpy(c->d_val, hv, (size_t)nnz * sizeof(PetscScalar), cudaMemcpyHostToDevice));
  PetscCall(PetscFree3(hp, hi, hv));
  BenchCUSPARSE(cusparseCreateCsr(&c->mat, n, n, nnz, c->d_ptr, c->d_idx, c->d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, BENCH_CUDA_R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cuSPARSE SpSV on one of our triangles, d_out = T^{-1} d_in: a unit L keeps only its strict part
   (CUSPARSE_DIAG_TYPE_UNIT), a non-unit triangle gets its diagonal 1/idiag inserted (CUSPARSE_DIAG_TYPE_NON_UNIT) */
PetscErrorCode CusTriSetup(cusparseHandle_t h, SpTrsvTri T, PetscScalar *d_in, PetscScalar *d_out, CusTri *c)
{
  PetscInt           n    = T->n;
  PetscScalar        one  = 1.0;
  size_t             bufsize = 0;
  cusparseFillMode_t fill = T->uplo == SPTRSV_UPPER ? CUSPARSE_FILL_MODE_UPPER : CUSPARSE_FILL_MODE_LOWER;
  cusparseDiagType_t diag = T->unit ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT;

  PetscFunctionBeginUser;
  PetscCall(CusCsrCreate(T, (PetscBool)!T->unit, c));
  BenchCUSPARSE(cusparseSpMatSetAttribute(c->mat, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
  BenchCUSPARSE(cusparseSpMatSetAttribute(c->mat, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
  BenchCUSPARSE(cusparseCreateDnVec(&c->vin, n, d_in, BENCH_CUDA_R));
  BenchCUSPARSE(cusparseCreateDnVec(&c->vout, n, d_out, BENCH_CUDA_R));
  BenchCUSPARSE(cusparseSpSV_createDescr(&c->sv));
  BenchCUSPARSE(cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->mat, c->vin, c->vout, BENCH_CUDA_R, CUSPARSE_SPSV_ALG_DEFAULT, c->sv, &bufsize));
  BenchCUDA(cudaMalloc(&c->d_buf, bufsize ? bufsize : 1));
  BenchCUSPARSE(cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->mat, c->vin, c->vout, BENCH_CUDA_R, CUSPARSE_SPSV_ALG_DEFAULT, c->sv, c->d_buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the strict part of T for products d_out -= T_strict d_in (CusMultAdd): CSR, SpMV buffer (and preprocessing) */
PetscErrorCode CusStrictSetup(cusparseHandle_t h, SpTrsvTri T, PetscScalar *d_in, PetscScalar *d_out, CusTri *c)
{
  PetscScalar alpha = -1.0, beta = 1.0;
  size_t      bufsize = 0;

  PetscFunctionBeginUser;
  PetscCall(CusCsrCreate(T, PETSC_FALSE, c));
  BenchCUSPARSE(cusparseCreateDnVec(&c->vin, T->n, d_in, BENCH_CUDA_R));
  BenchCUSPARSE(cusparseCreateDnVec(&c->vout, T->n, d_out, BENCH_CUDA_R));
  BenchCUSPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c->mat, c->vin, &beta, c->vout, BENCH_CUDA_R, CUSPARSE_SPMV_ALG_DEFAULT, &bufsize));
  BenchCUDA(cudaMalloc(&c->d_buf, bufsize ? bufsize : 1));
  #if CUSPARSE_VERSION >= 12600
  BenchCUSPARSE(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c->mat, c->vin, &beta, c->vout, BENCH_CUDA_R, CUSPARSE_SPMV_ALG_DEFAULT, c->d_buf));
  #endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* free what was made (after an error too); errors here are ignored */
void CusTriDestroy(CusTri *c)
{
  if (c->sv) (void)cusparseSpSV_destroyDescr(c->sv);
  if (c->vin) (void)cusparseDestroyDnVec(c->vin);
  if (c->vout) (void)cusparseDestroyDnVec(c->vout);
  if (c->mat) (void)cusparseDestroySpMat(c->mat);
  if (c->d_buf) (void)cudaFree(c->d_buf);
  if (c->d_ptr) (void)cudaFree(c->d_ptr);
  if (c->d_idx) (void)cudaFree(c->d_idx);
  if (c->d_val) (void)cudaFree(c->d_val);
  memset(c, 0, sizeof(*c));
}

PetscErrorCode CusSolve(cusparseHandle_t h, CusTri *c)
{
  PetscScalar one = 1.0;

  PetscFunctionBeginUser;
  BenchCUSPARSE(cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->mat, c->vin, c->vout, BENCH_CUDA_R, CUSPARSE_SPSV_ALG_DEFAULT, c->sv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* d_out = d_out - T_strict d_in */
PetscErrorCode CusMultAdd(cusparseHandle_t h, CusTri *c)
{
  PetscScalar alpha = -1.0, beta = 1.0;

  PetscFunctionBeginUser;
  BenchCUSPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c->mat, c->vin, &beta, c->vout, BENCH_CUDA_R, CUSPARSE_SPMV_ALG_DEFAULT, c->d_buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the descriptors pointed at this solve's vectors (as PETSc's cusparse MatSolve and sptrsv_cusparse do before each solve) */
static PetscErrorCode CusSetVectors(CusCtx *c, PetscBool lu)
{
  PetscFunctionBeginUser;
  if (c->alt) {
    BenchCUSPARSE(cusparseDnVecSetValues(c->L.vin, c->b[c->k]));
    if (lu) BenchCUSPARSE(cusparseDnVecSetValues(c->U.vout, c->x[c->k]));
    c->k ^= 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CusSolveL(void *ctx)
{
  CusCtx *c = (CusCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(CusSetVectors(c, PETSC_FALSE));
  PetscCall(CusSolve(c->h, &c->L));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CusSolveLU(void *ctx)
{
  CusCtx *c = (CusCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(CusSetVectors(c, PETSC_TRUE));
  PetscCall(CusSolve(c->h, &c->L));
  PetscCall(CusSolve(c->h, &c->U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  CusWarmUp - one untimed SpSV analysis and solve of throwaway 64-row triangles (BenchTinyTri: unit L, non-unit U) on
  handle h, destroyed after: cuSPARSE's one-time start-up in the process (the first analysis of a run took 40-69 ms
  where the next took 0.2-4 ms) and the handle's own first-use work stay out of the first timed setup
*/
PetscErrorCode CusWarmUp(cusparseHandle_t h)
{
  SpTrsvTri    L = NULL, U = NULL;
  CusTri       cl, cu;
  PetscScalar *d = NULL, hb[BENCH_TINY_N];

  PetscFunctionBeginUser;
  memset(&cl, 0, sizeof(cl));
  memset(&cu, 0, sizeof(cu));
  for (PetscInt i = 0; i < BENCH_TINY_N; i++) hb[i] = 1.0;
  PetscCall(BenchTinyTri(SPTRSV_LOWER, PETSC_TRUE, &L));
  PetscCall(BenchTinyTri(SPTRSV_UPPER, PETSC_FALSE, &U));
  BenchCUDA(cudaMalloc((void **)&d, 3 * BENCH_TINY_N * sizeof(PetscScalar)));
  BenchCUDA(cudaMemcpy(d, hb, sizeof(hb), cudaMemcpyHostToDevice));
  PetscCall(CusTriSetup(h, L, d, d + BENCH_TINY_N, &cl));
  PetscCall(CusTriSetup(h, U, d + BENCH_TINY_N, d + 2 * BENCH_TINY_N, &cu));
  PetscCall(CusSolve(h, &cl));
  PetscCall(CusSolve(h, &cu));
  BenchCUDA(cudaDeviceSynchronize());
  CusTriDestroy(&cl);
  CusTriDestroy(&cu);
  BenchCUDA(cudaFree(d));
  PetscCall(SpTrsvTriDestroy(&L));
  PetscCall(SpTrsvTriDestroy(&U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cuBLAS's start-up: a handle with one TRSV and one GEMV on a 16 x 16 block (the calls sptrsv_supernodal makes for wide
   supernodes; its own handle is created at the first setup that needs one) */
static PetscErrorCode CublasWarmUp(Bench *B)
{
  cublasHandle_t     h   = NULL;
  const int          w   = 16;
  const PetscScalar  one = 1.0, zero = 0.0;
  PetscScalar        ha[16 * 16 + 2 * 16], *d = NULL;
  cublasStatus_t     st;

  PetscFunctionBeginUser;
  for (int i = 0; i < w * w + 2 * w; i++) ha[i] = (i < w * w && i % (w + 1)) ? 0.0 : 1.0; /* the identity, then x and y */
  BenchCUDA(cudaMalloc((void **)&d, sizeof(ha)));
  BenchCUDA(cudaMemcpy(d, ha, sizeof(ha), cudaMemcpyHostToDevice));
  st = cublasCreate(&h);
  if (st == CUBLAS_STATUS_SUCCESS) st = cublasSetStream(h, B->st);
  #if defined(PETSC_USE_REAL_SINGLE)
  if (st == CUBLAS_STATUS_SUCCESS) st = cublasStrsv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, w, d, w, d + w * w, 1);
  if (st == CUBLAS_STATUS_SUCCESS) st = cublasSgemv(h, CUBLAS_OP_N, w, w, &one, d, w, d + w * w, 1, &zero, d + w * w + w, 1);
  #else
  if (st == CUBLAS_STATUS_SUCCESS) st = cublasDtrsv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, w, d, w, d + w * w, 1);
  if (st == CUBLAS_STATUS_SUCCESS) st = cublasDgemv(h, CUBLAS_OP_N, w, w, &one, d, w, d + w * w, 1, &zero, d + w * w + w, 1);
  #endif
  BenchCUDA(cudaDeviceSynchronize());
  if (h) (void)cublasDestroy(h);
  BenchCUDA(cudaFree(d));
  PetscCheck(st == CUBLAS_STATUS_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_GPU, "cuBLAS warm-up failed (status %d)", (int)st);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  BenchDeviceWarmUp - before any timed setup (-bench_setup_warmup, default on): cuSPARSE's (CusWarmUp on a throwaway
  handle; RunCuSparse repeats it on the handle it times) and cuBLAS's start-up; bench then sets up and applies each path
  variant once on the same throwaway triangles before timing its setup (RunPaths). One line says so.
*/
PetscErrorCode BenchDeviceWarmUp(Bench *B)
{
  cusparseHandle_t h = NULL;
  PetscLogDouble   t0, t1;
  PetscErrorCode   ierr;

  PetscFunctionBeginUser;
  if (!B->setup_warmup) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "warm-up: none (-bench_setup_warmup 0): the first timed setup of the run includes cuSPARSE's, cuBLAS's and the CUDA runtime's one-time start-up\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscTime(&t0));
  BenchCUSPARSE(cusparseCreate(&h));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = cusparseSetStream(h, B->st) == CUSPARSE_STATUS_SUCCESS ? CusWarmUp(h) : PETSC_ERR_GPU;
  if (!ierr) ierr = CublasWarmUp(B);
  PetscCall(PetscPopErrorHandler());
  (void)cusparseDestroy(h);
  PetscCall(PetscTime(&t1));
  if (ierr) {
    (void)cudaGetLastError();
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "NOTE: the cuSPARSE/cuBLAS warm-up failed (error %d): the timed setups may include their start-up\n", (int)ierr));
  } else B->warmed = PETSC_TRUE;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "warm-up (untimed, before any timed setup; -bench_setup_warmup 0: none): cuSPARSE SpSV analysis + solve of throwaway %d-row L and U triangles (again on each cuSPARSE handle the timings use), a cuBLAS handle with one TRSV and GEMV (%.1f ms), and each timed path variant set up and applied once on the same triangles\n", BENCH_TINY_N, 1e3 * (t1 - t0)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunCuSparseInner(Bench *B, SpTrsvFactor fac, CusCtx *c)
{
  PetscLogDouble t0, t1, t2;
  Result        *r;

  PetscFunctionBeginUser;
  BenchCUSPARSE(cusparseCreate(&c->h)); /* handle creation (library initialisation) is not counted */
  BenchCUSPARSE(cusparseSetStream(c->h, B->st));
  if (B->setup_warmup) PetscCall(CusWarmUp(c->h)); /* nor the handle's first analysis (BenchDeviceWarmUp) */
  c->b[0] = B->d_b;
  c->x[0] = B->d_x;
  c->b[1] = B->d_b2 ? B->d_b2 : B->d_b;
  c->x[1] = B->d_x2 ? B->d_x2 : B->d_x;
  c->alt  = (PetscBool)(c->b[1] != c->b[0]);
  c->k    = 0;
  BenchCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(CusTriSetup(c->h, fac->L, B->d_b, B->d_w, &c->L));
  BenchCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t1));
  PetscCall(CusTriSetup(c->h, fac->U, B->d_w, B->d_x, &c->U));
  BenchCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t2));
  BenchCUDA(cudaMemset(B->d_w, 0xff, (size_t)B->n * sizeof(PetscScalar)));
  BenchCUDA(cudaMemset(B->d_x, 0xff, (size_t)B->n * sizeof(PetscScalar)));
  BenchCUDA(cudaMemset(c->x[1], 0xff, (size_t)B->n * sizeof(PetscScalar)));
  BenchCUDA(cudaDeviceSynchronize());
  if ((r = NewResult(B, "cusparse-spsv", "L"))) {
    PetscCall(TimeSolves(B, ON_DEVICE, B->min_reps, CusSolveL, c, r));
    PetscCall(DeviceErr(B, B->d_w, B->yref, &r->err));
    r->setup_ms   = 1e3 * (t1 - t0);
    r->ptr_update = c->alt;
  }
  if ((r = NewResult(B, "cusparse-spsv", "LU"))) {
    double e2;
    PetscCall(TimeSolves(B, ON_DEVICE, B->min_reps, CusSolveLU, c, r));
    PetscCall(DeviceErr(B, c->x[0], B->xref, &r->err));
    PetscCall(DeviceErr(B, c->x[1], B->xref, &e2)); /* both outputs were written: the worse counts (NaN included) */
    r->err = BenchWorse(r->err, e2);
    r->setup_ms   = 1e3 * (t2 - t0);
    r->ptr_update = c->alt;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a cuSPARSE failure skips its rows (with the message) instead of ending the run */
PetscErrorCode RunCuSparse(Bench *B, SpTrsvFactor fac)
{
  CusCtx         c;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  memset(&c, 0, sizeof(c));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = RunCuSparseInner(B, fac, &c);
  PetscCall(PetscPopErrorHandler());
  CusTriDestroy(&c.L);
  CusTriDestroy(&c.U);
  if (c.h) (void)cusparseDestroy(c.h);
  if (ierr) {
    const char *text = NULL, *specific = NULL;
    (void)PetscErrorMessage(ierr, &text, (void *)&specific);
    (void)cudaGetLastError();
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "NOTE: cuSPARSE SpSV comparison failed and is skipped (error %d: %s)\n", (int)ierr, specific ? specific : (text ? text : "?")));
    while (B->nres && !strcmp(B->res[B->nres - 1].variant, "cusparse-spsv")) B->nres--;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif
