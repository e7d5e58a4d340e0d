/* Shared declarations of the benchmark programs: bench (bench.c) and bench_gs (bench_gs.c, bench_gs_cusparse.c), with
   the pieces both use (bench_common.c, bench_matrices.c, bench_cusparse.c) */
#pragma once

#include <petscsptrsv.h>
#include <sptrsv/factormat.h>
#include <petsctime.h>
#include "../common/stencil.h"
#include "../common/relerr.h"
#if !defined(SPTRSV_NO_MMLOAD)
  #include "../common/mmload.h"
#endif
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the cuSPARSE comparison and event timing need the CUDA headers (a CUDA PETSc puts them on the include
   path; with a host PETSc they must be found by the compiler, e.g. CPATH=/usr/local/cuda/include) */
#if defined(PETSC_SPTRSV_HAVE_CUDA) && defined(SPTRSV_CUDA_SCALAR_OK)
  #if defined(__has_include)
    #if __has_include(<cuda_runtime.h>) && __has_include(<cusparse.h>)
      #define BENCH_HAVE_CUDA 1
    #endif
  #else
    #define BENCH_HAVE_CUDA 1
  #endif
#endif
#if defined(BENCH_HAVE_CUDA)
  #include <cuda_runtime.h>
  #define DISABLE_CUSPARSE_DEPRECATED /* the legacy API's deprecation attributes (we use the generic API only) */
  #include <cusparse.h>
  #if defined(PETSC_HAVE_CUDA)
    #include <petscdevice.h>
  #endif
  #if defined(PETSC_USE_REAL_SINGLE)
    #define BENCH_CUDA_R CUDA_R_32F
  #else
    #define BENCH_CUDA_R CUDA_R_64F
  #endif
  #define BenchCUDA(...) \
    do { \
      const cudaError_t bench_e_ = (__VA_ARGS__); \
      if (PetscUnlikely(bench_e_ != cudaSuccess)) { \
        (void)cudaGetLastError(); \
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_GPU, "CUDA error %d %s (%s) in %s", (int)bench_e_, cudaGetErrorName(bench_e_), cudaGetErrorString(bench_e_), #__VA_ARGS__); \
      } \
    } while (0)
  #define BenchCUSPARSE(...) \
    do { \
      const cusparseStatus_t bench_s_ = (__VA_ARGS__); \
      PetscCheck(bench_s_ == CUSPARSE_STATUS_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_GPU, "cuSPARSE error %d %s (%s) in %s", (int)bench_s_, cusparseGetErrorName(bench_s_), cusparseGetErrorString(bench_s_), #__VA_ARGS__); \
    } while (0)
#endif

#define MAX_RESULTS 64
#if !defined(PETSC_INT_MAX) /* PETSc < 3.22 */
  #define PETSC_INT_MAX PETSC_MAX_INT
#endif

/* one timed variant */
typedef struct {
  char        variant[48];
  char        kind[4]; /* "L": the lower triangle alone; "LU": L then U (a full MatSolve) */
  PetscInt    reps;
  double      med_ms, min_ms;
  double      setup_ms; /* < 0: none */
  double      err;
  const char *timing;
  const char *breakeven_ref; /* variant whose setup and time the break-even is computed against (or NULL) */
  char        note[128];     /* bench_gs: empty, or why the row failed its check or did not run */
  /* bench's error rule (Report): err is checked against tol = min(BENCH_TOL_CAP, max(BENCH_TOL_FLOOR, f * e_ref)), e_ref cuSPARSE SpSV's error on
     the same triangles (the triangles' conditioning as an exact substitution in another order sees it), f = 10 for an
     exact substitution, 100 where the arithmetic differs (products of inverted blocks: pinv, supernodal's inverted
     diagonal blocks, locality's blocks kernel; MatSolve of a type that may choose one); a row above it is a failure */
  PetscBool   inverse;    /* the arithmetic differs from a substitution (f = 100) */
  double      tol;        /* set by Report; < 0: no error to check */
  PetscBool   ptr_update; /* timed with two b/x buffer pairs alternating (-bench_ptr_update): the pointer update paid */
} Result;

/* the worse of two errors, a NaN (an entry left unwritten) winning */
static inline double BenchWorse(double a, double b)
{
  return a != a ? a : (b != b ? b : (a > b ? a : b));
}

#define BENCH_TOL_FLOOR   1e-10
#define BENCH_TOL_CAP     1e-2 /* never above: where cuSPARSE itself is that far off, no row of the triangles counts */
#define BENCH_TOL_EXACT   10.0
#define BENCH_TOL_INVERSE 100.0

typedef struct {
  char        label[PETSC_MAX_PATH_LEN];
  PetscInt    n;
  PetscInt    nnzA, nnzL, nnzU; /* nnzL, nnzU: strict parts */
  SpTrsvStats Ls, Us;
  double      bw_gbs; /* 0: unknown */
  char        bw_how[128];
  PetscInt    bw_mib; /* size of the copy that measures bw_gbs */
  char        device[256];
  PetscInt    reps, min_reps, warmup;
  PetscReal   max_time, host_time;
  FILE       *csv;
  /* host data: right-hand side and the host backend's results (the reference). bench: yref = L^{-1} b, xref = U^{-1} yref;
     bench_gs: yref = the initial iterate, xref = the iterate after one symmetric Gauss-Seidel iteration */
  PetscScalar *b, *yref, *xref, *hbuf;
  /* bench -bench_factor lu|cholesky: the direct factor's permutations (NULL: the identity; include/sptrsv/factor.h), so
     that MatSolve's right-hand side is b permuted back (P b' = b) and its solution compared as x[cperm[k]] = xref[k] */
  const PetscInt *rperm, *cperm;
  Result          res[MAX_RESULTS];
  PetscInt     nres;
  PetscBool    ptr_update;   /* -bench_ptr_update: alternate two b/x buffer pairs between timed solves (default true) */
  PetscBool    setup_warmup; /* -bench_setup_warmup: untimed warm-up of cuSPARSE, cuBLAS and every path variant (default true) */
  PetscBool    warmed;       /* that warm-up ran before the timed setups */
#if defined(BENCH_HAVE_CUDA)
  cudaStream_t st;     /* the stream our solves use (PETSc's current one with a CUDA PETSc) */
  PetscBool    events; /* time with CUDA events on st; else synchronize the device around each solve */
  cudaEvent_t *ev;
  PetscInt     nev;
  PetscScalar *d_b, *d_w, *d_x;
  PetscScalar *d_b2, *d_x2; /* the second b/x pair (-bench_ptr_update): copies of d_b and a second output */
#endif
} Bench;

typedef PetscErrorCode (*SolveFn)(void *);

typedef enum {
  ON_HOST,
  ON_DEVICE
} Where;

/* bench_common.c */
void           BenchFillRandom(PetscInt, unsigned long long *, PetscScalar *);
Result        *NewResult(Bench *, const char *, const char *);
const Result  *FindResult(const Bench *, const char *, const char *);
PetscErrorCode BenchGetOptions(Bench *);
PetscErrorCode BenchCSVHeader(Bench *, const char *);
PetscErrorCode TimeSolves(Bench *, Where, PetscInt, SolveFn, void *, Result *);
PetscErrorCode BenchSync(Where);
PetscErrorCode BenchFillNaN(Bench *, Where, PetscScalar *);
PetscErrorCode BenchErr(Bench *, Where, const PetscScalar *, const PetscScalar *, double *);
#define BENCH_TINY_N 64
PetscErrorCode BenchTinyTri(SpTrsvUplo, PetscBool, SpTrsvTri *);
void           BenchErrorRule(Bench *);
/* bench_paths.c: the solves through the plugin's private API */
PetscBool      BenchSolverInverse(SpTrsvSolver);
PetscErrorCode BenchRunHostReference(Bench *, SpTrsvFactor);
PetscErrorCode BenchRunPaths(Bench *, SpTrsvFactor, const SpTrsvBackendOps *, Where);
/* bench_matrices.c */
PetscErrorCode BenchLoadMatrix(Bench *, const char *, Mat *, PetscBool *);
PetscErrorCode AddDiagonal(Mat);
PetscErrorCode ParseGrid(const char *, PetscInt, PetscInt[3]);
#if defined(BENCH_HAVE_CUDA)
PetscErrorCode DeviceErr(Bench *, const PetscScalar *, const PetscScalar *, double *);
PetscErrorCode BenchDeviceInit(Bench *, const char *);
PetscErrorCode BenchDeviceFinalize(Bench *);
PetscErrorCode BenchDeviceWarmUp(Bench *);

/* bench_cusparse.c: one of our triangles (strict part + inverted diagonal) as a cuSPARSE CSR matrix (32-bit indices)
   with dense vectors in and out, and an SpSV descriptor (triangular solves) or an SpMV buffer (products) */
typedef struct {
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vin, vout;
  cusparseSpSVDescr_t  sv;
  int                 *d_ptr, *d_idx;
  PetscScalar         *d_val;
  void                *d_buf;
} CusTri;

PetscErrorCode CusTriSetup(cusparseHandle_t, SpTrsvTri, PetscScalar *, PetscScalar *, CusTri *);
PetscErrorCode CusStrictSetup(cusparseHandle_t, SpTrsvTri, PetscScalar *, PetscScalar *, CusTri *);
PetscErrorCode CusSolve(cusparseHandle_t, CusTri *);
PetscErrorCode CusMultAdd(cusparseHandle_t, CusTri *);
void           CusTriDestroy(CusTri *);
PetscErrorCode CusWarmUp(cusparseHandle_t);
PetscErrorCode RunCuSparse(Bench *, SpTrsvFactor);
#endif
