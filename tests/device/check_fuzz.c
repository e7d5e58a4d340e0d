static const char help[] = "GPU fuzz check of the sync-free kernels with a watchdog (tests/device/run.sh).\n"
                           "Random triangles (random sparsity, long chains, a row depending on every earlier row, empty rows, very long\n"
                           "rows, levels of one row, 1e5 levels), lower or upper, unit or not, plain or transposed, each solved by every\n"
                           "sync-free variant on the GPU (sptrsv_syncfree: asap/alap/natural x csr/warpell, runs (windows of 32, 128, 256 rows), asap with the analysis on the\n"
                           "GPU; sptrsv_element: csr, csc; sptrsv_locality: the default sub-graph cap and 64 rows; sptrsv_supernodal: dense\n"
                           "blocks at every width (-mat_sptrsv_supernode_min_width 0): plain, pull + inverted diagonal + relaxed merging,\n"
                           "push + merging + cuBLAS from width 4, split levels; and the default (narrow triangles to a nested sync-free\n"
                           "solver), up to 1e5 rows on the GPU;\n"
                           "sptrsv_pinv: no fill, fill 4, greedy parts with fill 2) and\n"
                           "compared with the host backend. A solve that does not finish within -timeout seconds is a hang: the case's\n"
                           "seed is printed and the program exits at once (status 3).\n"
                           "  -cases <10000>   number of random triangles\n"
                           "  -seed <1>        seed of the first case (case k uses seed + k)\n"
                           "  -only_seed <s>   run the one case of seed s (to reproduce a failure)\n"
                           "  -timeout <10>    seconds before a solve counts as hung\n"
                           "  -backend <cuda>   cuda, or host (the host executors of the same variants: checks the generator and schedules)\n"
                           "  -big_every <2000> seeds that are multiples of this are large shapes (1e6-row chain, 1e5 levels)\n"
                           "  -only_path <name> run only the variants of this path (syncfree, element, locality, supernodal, pinv)\n"
                           "  -progress <100>  print (and flush) a progress line every this many cases (1 under a sanitizer)\n\n";

#include <sptrsv/backend.h>
#include <petsctime.h>
#include <unistd.h>
#include "options_string.h"
#include "../unit/test_helpers.h"
/* the GPU runs need the CUDA runtime header (the makefile passes $(CUDA_HOME)/include in CUDA builds); without
   it, or with -backend host, the same cases run through the host executors (the schedule checks included) */
#if defined(PETSC_SPTRSV_HAVE_CUDA) && defined(__has_include)
  #if __has_include(<cuda_runtime.h>)
    #include <cuda_runtime.h>
    #define FUZZ_HAVE_CUDA 1
  #endif
#endif

typedef struct {
  const char *path, *levels, *storage; /* path name and the options its setup reads (NULL: not set) */
  SpTrsvFormat format;
  const char  *tag;
  const char  *max_lanes; /* -mat_sptrsv_max_lanes (NULL: not set) */
  const char  *relabel;   /* -mat_sptrsv_relabel (NULL: not set) */
  const char  *analysis;  /* -mat_sptrsv_analysis (NULL: not set) */
  const char  *subgraph_rows; /* -mat_sptrsv_subgraph_rows (NULL: not set) */
  const char  *extra;     /* more options, inserted as a string (NULL: none); cleared by ClearOptionsString() */
  PetscInt     gpu_max_n; /* on the GPU only triangles of at most this many rows (0: all) */
} Variant;

static const Variant variants[] = {
  {"syncfree", "asap", "csr",     SPTRSV_FORMAT_CSR, "syncfree-asap-csr"    , NULL, "false", NULL, NULL, NULL, 0},
  {"syncfree", "asap", "warpell", SPTRSV_FORMAT_CSR, "syncfree-asap-warpell", NULL, NULL, NULL, NULL, NULL, 0},
  {"syncfree", "alap", "csr",     SPTRSV_FORMAT_CSR, "syncfree-alap-csr"    , NULL, NULL, NULL, NULL, NULL, 0},
  {"syncfree", "alap", "warpell", SPTRSV_FORMAT_CSR, "syncfree-alap-warpell", NULL, NULL, NULL, NULL, NULL, 0},
  {"syncfree", "natural", "csr",  SPTRSV_FORMAT_CSR, "syncfree-natural-csr" , NULL, NULL, NULL, NULL, NULL, 0},
  {"syncfree", "natural", "warpell", SPTRSV_FORMAT_CSR, "syncfree-natural-warpell", NULL, NULL, NULL, NULL, NULL, 0},
  {"syncfree", "natural", "warpell", SPTRSV_FORMAT_CSR, "syncfree-natural-warpell-l1", "1", NULL, NULL, NULL, NULL, 0},
  {"syncfree", "asap",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-asap-csr-l4", "4", NULL, NULL, NULL, NULL, 0},
  {"syncfree", "asap",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-asap-csr-r",  NULL, "true", NULL, NULL, NULL, 0},
  {"syncfree", "alap",    "warpell", SPTRSV_FORMAT_CSR, "syncfree-alap-warpell-r", NULL, "true", NULL, NULL, NULL, 0},
  {"syncfree", "natural", "csr",     SPTRSV_FORMAT_CSR, "syncfree-natural-csr-l1-r", "1", "true", NULL, NULL, NULL, 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr",    NULL, NULL, NULL, NULL, NULL, 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-s",  NULL, NULL, NULL, NULL, "-mat_sptrsv_spin_ns 100", 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-w4", NULL, NULL, NULL, NULL, "-mat_sptrsv_run_rows 4", 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-w8-b2", NULL, NULL, NULL, NULL, "-mat_sptrsv_run_rows 8 -mat_sptrsv_blocks_per_sm 2", 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-pl", NULL, NULL, NULL, NULL, "-mat_sptrsv_run_poll lane", 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-pa-w4-s", NULL, NULL, NULL, NULL, "-mat_sptrsv_run_poll all -mat_sptrsv_run_rows 4 -mat_sptrsv_spin_ns 100", 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-k4-pl", NULL, NULL, NULL, NULL, "-mat_sptrsv_block_warps 4 -mat_sptrsv_run_poll lane", 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-k2-b2", NULL, NULL, NULL, NULL, "-mat_sptrsv_block_warps 2 -mat_sptrsv_blocks_per_sm 2", 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-e4", NULL, NULL, NULL, NULL, "-mat_sptrsv_run_batch 4", 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-b0", NULL, NULL, NULL, NULL, "-mat_sptrsv_blocks_per_sm 0", 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-e8-pl", NULL, NULL, NULL, NULL, "-mat_sptrsv_run_batch 8 -mat_sptrsv_run_poll lane", 0},
  {"syncfree", "runs",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-runs-csr-w2-e16", NULL, NULL, NULL, NULL, "-mat_sptrsv_run_rows 2 -mat_sptrsv_run_batch 16", 0},
  {"syncfree", "asap",    "csr",     SPTRSV_FORMAT_CSR, "syncfree-asap-csr-k1", NULL, NULL, NULL, NULL, "-mat_sptrsv_block_warps 1", 0},
  {"syncfree", "natural", "csr",     SPTRSV_FORMAT_CSR, "syncfree-natural-csr-k2", NULL, NULL, NULL, NULL, "-mat_sptrsv_block_warps 2", 0},
  {"syncfree", "asap", "csr",     SPTRSV_FORMAT_CSR, "syncfree-dev-csr"     , NULL, NULL, "device", NULL, NULL, 0},
  {"syncfree", "asap", "warpell", SPTRSV_FORMAT_CSR, "syncfree-dev-warpell" , NULL, NULL, "device", NULL, NULL, 0},
  {"syncfree", "asap", "warpell", SPTRSV_FORMAT_CSR, "syncfree-dev-warpell-l4", "4", NULL, "device", NULL, NULL, 0},
  {"syncfree", "asap", "csr",     SPTRSV_FORMAT_CSR, "syncfree-dev-csr-r"   , NULL, "true", "device", NULL, NULL, 0},
  {"element",  NULL,   NULL,      SPTRSV_FORMAT_CSR, "element-csr",           NULL, NULL, NULL, NULL, NULL, 0},
  {"element",  NULL,   NULL,      SPTRSV_FORMAT_CSC, "element-csc",           NULL, NULL, NULL, NULL, NULL, 0},
  {"locality", NULL,   NULL,      SPTRSV_FORMAT_CSR, "locality",              NULL, NULL, NULL, NULL, NULL, 0},
  {"locality", NULL,   NULL,      SPTRSV_FORMAT_CSR, "locality-rows64",       NULL, NULL, NULL, "64", NULL, 0},
  /* supernodal: one launch per supernodal level, so the 1e6-row chain (5e5 levels) is left to the host; the dense blocks
     at every width (-mat_sptrsv_supernode_min_width 0: most random triangles have supernodes of width about 1, which the
     default hands to a nested sync-free solver), and the default (delegated or not, as the triangle's widest supernode says) */
  {"supernodal", NULL, NULL,      SPTRSV_FORMAT_CSR, "supernodal",            NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_min_width 0", 100000},
  {"supernodal", NULL, NULL,      SPTRSV_FORMAT_CSR, "supernodal-pull-inv-relax", NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode pull -mat_sptrsv_invert_diag -mat_sptrsv_supernode_relax 0.4 -mat_sptrsv_supernode_min_width 0", 100000},
  {"supernodal", NULL, NULL,      SPTRSV_FORMAT_CSR, "supernodal-push-merge-cublas", NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode push -mat_sptrsv_merge -mat_sptrsv_supernode_cublas_width 4 -mat_sptrsv_supernode_min_width 0", 100000},
  {"supernodal", NULL, NULL,      SPTRSV_FORMAT_CSR, "supernodal-push-inv-split", NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode push -mat_sptrsv_invert_diag -mat_sptrsv_supernode_split always -mat_sptrsv_supernode_min_width 0", 100000},
  {"supernodal", NULL, NULL,      SPTRSV_FORMAT_CSR, "supernodal-pull-inv-split", NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode pull -mat_sptrsv_invert_diag -mat_sptrsv_supernode_split always -mat_sptrsv_merge -mat_sptrsv_supernode_min_width 0", 100000},
  {"supernodal", NULL, NULL,      SPTRSV_FORMAT_CSR, "supernodal-default",    NULL, NULL, NULL, NULL, NULL, 100000},
  {"supernodal", NULL, NULL,      SPTRSV_FORMAT_CSR, "supernodal-auto-cond-split", NULL, NULL, NULL, NULL, "-mat_sptrsv_invert_diag_cond 20 -mat_sptrsv_supernode_split always -mat_sptrsv_supernode_min_width 0", 100000},
  /* pinv: no fill, fill 4, greedy parts with fill 2 */
  {"pinv",     NULL,   NULL,      SPTRSV_FORMAT_CSR, "pinv",                  NULL, NULL, NULL, NULL, NULL, 0},
  {"pinv",     NULL,   NULL,      SPTRSV_FORMAT_CSR, "pinv-fill4",            NULL, NULL, NULL, NULL, "-mat_sptrsv_pinv_fill 4", 0},
  {"pinv",     NULL,   NULL,      SPTRSV_FORMAT_CSR, "pinv-greedy-fill2",     NULL, NULL, NULL, NULL, "-mat_sptrsv_pinv_fill 2 -mat_sptrsv_pinv_parts greedy", 0},
};

#define NVARIANTS ((PetscInt)(sizeof(variants) / sizeof(variants[0])))

static const char *shapes[] = {"random", "chain", "dense-last-row", "empty-rows", "long-rows", "bidiagonal", "chain-1e6", "levels-1e5"};

/* append entry j to the pattern being built, growing it when full */
static PetscErrorCode Push(PetscInt **aj, PetscInt *cap, PetscInt *nnz, PetscInt j)
{
  PetscFunctionBeginUser;
  if (*nnz == *cap) {
    *cap *= 2;
    PetscCall(PetscRealloc(sizeof(PetscInt) * (size_t)(*cap), aj));
  }
  (*aj)[(*nnz)++] = j;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MakePattern - the strict lower part of a random triangle of one of the shapes (columns ascending per row).
  Cases whose seed is a multiple of big_every are large shapes (a 1e6-row chain, or 1e5 levels).
*/
static PetscErrorCode MakePattern(unsigned long long seed, PetscInt big_every, PetscInt *shape, PetscInt *n, PetscInt **ai, PetscInt **aj)
{
  unsigned long long s = seed * 0x9E3779B97F4A7C15ULL + 1;
  PetscInt           N, cap, nnz = 0, cols[4096];

  PetscFunctionBeginUser;
  (void)Next(&s);
  if (big_every > 0 && seed % (unsigned long long)big_every == 0) *shape = 6 + (PetscInt)((seed / (unsigned long long)big_every) % 2);
  else *shape = Below(&s, 6);
  switch (*shape) {
  case 6: N = 1000000; break;
  case 7: N = 200000; break;
  case 2: N = 1 + Below(&s, 3000); break;
  default: N = 1 + Below(&s, 4000);
  }
  cap = 4 * N + 16;
  PetscCall(PetscMalloc1(N + 1, ai));
  PetscCall(PetscMalloc1(cap, aj));
  (*ai)[0] = 0;
  for (PetscInt i = 0; i < N; i++) {
    PetscInt len = 0, want = 0;
    switch (*shape) {
    case 0: want = Below(&s, 9); break; /* random sparsity, 0..8 entries */
    case 2:                             /* the last row depends on every earlier row (N <= 3000) */
      if (i == N - 1)
        for (PetscInt j = 0; j < i; j++) cols[len++] = j;
      else want = Below(&s, 3);
      break;
    case 3: want = Uniform(&s) < 0.7 ? 0 : 1 + Below(&s, 4); break;                    /* mostly empty rows */
    case 4: want = Uniform(&s) < 0.02 ? 33 + Below(&s, 1500) : Below(&s, 3); break;     /* some very long rows */
    case 1:                                                                              /* chain */
    case 5:                                                                              /* bidiagonal: one row per level */
    case 6: if (i > 0) cols[len++] = i - 1; break;                                       /* chain of 1e6 rows */
    case 7:                                                                              /* 1e5 levels: a chain of pairs, random extra edges */
      if (i > 1) cols[len++] = i - 2;
      if (i > 2 && Uniform(&s) < 0.3) cols[len++] = Below(&s, i - 2);
      break;
    }
    for (PetscInt t = 0; t < want && i > 0 && len < 4096; t++) cols[len++] = Below(&s, i);
    PetscCall(PetscSortRemoveDupsInt(&len, cols));
    for (PetscInt t = 0; t < len; t++) PetscCall(Push(aj, &cap, &nnz, cols[t]));
    (*ai)[i + 1] = nnz;
  }
  *n = N;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(FUZZ_HAVE_CUDA)
/* wait for the stream, at most timeout seconds; a hang ends the program with the seed printed */
static PetscErrorCode Watchdog(cudaStream_t st, PetscReal timeout, unsigned long long seed, const char *what)
{
  PetscLogDouble t0, t;
  cudaError_t    err;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  while ((err = cudaStreamQuery(st)) == cudaErrorNotReady) {
    PetscCall(PetscTime(&t));
    if (t - t0 > timeout) {
      printf("HANG: seed %llu, %s: the solve did not finish in %g s (reproduce: -only_seed %llu)\n", seed, what, (double)timeout, seed);
      fflush(stdout);
      _exit(3);
    }
  }
  PetscCheck(err == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "seed %llu, %s: CUDA error %s", seed, what, cudaGetErrorString(err));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  const SpTrsvBackendOps *be = &SpTrsvBackendHost;
  PetscBool               avail = PETSC_FALSE, flg, gpu;
  const char             *why   = "built without the CUDA runtime header";
  char                    bname[16] = "cuda";
  PetscInt                ncases = 10000, big_every = 2000, npass = 0, nfail = 0, nsolves = 0, perv[NVARIANTS][2] = {{0}};
  PetscInt                seed0 = 1, only = -1, progress = 100;
  char                    only_path[32] = "";
  PetscReal               timeout = 10;
  PetscLogDouble          tstart, tend;
  SpTrsvPath              level;
#if defined(FUZZ_HAVE_CUDA)
  cudaStream_t st  = NULL;
  PetscScalar *d_b = NULL, *d_x = NULL;
#endif

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cases", &ncases, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-big_every", &big_every, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed0, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-progress", &progress, NULL));
  PetscCheck(progress > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-progress %" PetscInt_FMT " must be at least 1", progress);
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-only_seed", &only, &flg));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-timeout", &timeout, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-backend", bname, sizeof(bname), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-only_path", only_path, sizeof(only_path), NULL));
  PetscCall(PetscStrcmp(bname, "cuda", &gpu));
#if defined(FUZZ_HAVE_CUDA)
  if (gpu) {
    const SpTrsvBackendOps *cuda;
    PetscCall(SpTrsvBackendCUDAGet(&cuda, &avail, &why));
    if (avail) be = cuda;
  }
#endif
  if (gpu && !avail) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "CUDA backend unavailable (%s): nothing to fuzz on the GPU (-backend host runs the host executors)\n", why));
    PetscCall(PetscFinalize());
    return 1;
  }
#if defined(FUZZ_HAVE_CUDA)
  if (gpu) {
    PetscCall(SpTrsvBackendCUDAGetStream(&st));
    PetscCheck(cudaMalloc((void **)&d_b, 1000001 * sizeof(PetscScalar)) == cudaSuccess && cudaMalloc((void **)&d_x, 1000001 * sizeof(PetscScalar)) == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_MEM, "cudaMalloc");
  }
#endif
  PetscCall(SpTrsvPathFind("level", &level)); /* the reference: the host executor of the level path */
  PetscCall(PetscTime(&tstart));
  for (PetscInt c = 0; c < (flg ? 1 : ncases); c++) {
    const unsigned long long seed = flg ? (unsigned long long)only : (unsigned long long)(seed0 + c);
    PetscInt                 n, shape, *ai, *aj;
    PetscScalar             *b, *xref, *x;
    PetscBool                unit;
    SpTrsvTri                T;
    SpTrsvSolver             ref;
    unsigned long long       s = seed;

    PetscCall(MakePattern(seed, big_every, &shape, &n, &ai, &aj));
    unit = (PetscBool)(Next(&s) & 1);
    PetscCall(SpTrsvTriCreate(n, (Next(&s) & 1) ? SPTRSV_UPPER : SPTRSV_LOWER, unit, &T));
    if (T->uplo == SPTRSV_UPPER) { /* mirror: row i of the upper triangle is row n-1-i of the lower one, reversed */
      PetscInt *ui, *uj, nnz = ai[n];
      PetscCall(PetscMalloc1(n + 1, &ui));
      PetscCall(PetscMalloc1(nnz + 1, &uj));
      ui[0] = 0;
      for (PetscInt i = 0; i < n; i++) {
        const PetscInt r = n - 1 - i;
        ui[i + 1]        = ui[i] + ai[r + 1] - ai[r];
        for (PetscInt p = ai[r + 1] - 1, q = ui[i]; p >= ai[r]; p--, q++) uj[q] = n - 1 - aj[p];
      }
      PetscCall(PetscFree(ai));
      PetscCall(PetscFree(aj));
      ai = ui;
      aj = uj;
    }
    PetscCall(SpTrsvTriSetPattern(T, ai, aj)); /* T owns ai, aj */
    /* |entries| of a row sum to less than 1 and idiag is in (1/2, 1]: solutions stay of order one */
    for (PetscInt i = 0; i < n; i++) {
      for (PetscInt p = T->i[i]; p < T->i[i + 1]; p++) T->a[p] = (2 * Uniform(&s) - 1) / (T->i[i + 1] - T->i[i] + 1);
      if (!unit) T->idiag[i] = 1.0 / (1.0 + Uniform(&s));
    }
    PetscCall(SpTrsvTriValuesChanged(T));
    PetscCall(PetscMalloc3(n + 1, &b, n + 1, &xref, n + 1, &x));
    for (PetscInt i = 0; i < n; i++) b[i] = 2 * Uniform(&s) - 1;
#if defined(FUZZ_HAVE_CUDA)
    if (gpu) PetscCheck(cudaMemcpy(d_b, b, (size_t)n * sizeof(PetscScalar), cudaMemcpyHostToDevice) == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "cudaMemcpy");
#endif
    for (PetscInt tr = 0; tr < 2; tr++) {
      PetscReal nrm = 0;
      PetscCall(SpTrsvSolverCreate(T, (PetscBool)tr, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &ref));
      PetscCall(SpTrsvSolverApply(ref, b, xref));
      PetscCall(SpTrsvSolverDestroy(&ref));
      for (PetscInt i = 0; i < n; i++) nrm = PetscMax(nrm, PetscAbsScalar(xref[i]));
      for (PetscInt v = 0; v < NVARIANTS; v++) {
        SpTrsvSolver sv;
        SpTrsvPath   path;
        PetscReal    err = 0;
        char         what[160];
        if (only_path[0] && strcmp(only_path, variants[v].path)) continue;
        if (gpu && variants[v].gpu_max_n && n > variants[v].gpu_max_n) continue;
        PetscCall(PetscSNPrintf(what, sizeof(what), "%s %s n=%" PetscInt_FMT " %s%s%s", shapes[shape], variants[v].tag, n, T->uplo == SPTRSV_LOWER ? "lower" : "upper", unit ? " unit" : "", tr ? " transposed" : ""));
        PetscCall(SpTrsvPathFind(variants[v].path, &path));
        if (variants[v].levels) PetscCall(PetscOptionsSetValue(NULL, strcmp(variants[v].levels, "natural") && strcmp(variants[v].levels, "runs") ? "-mat_sptrsv_levels" : "-mat_sptrsv_dispatch", variants[v].levels));
        if (variants[v].storage) PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_storage", variants[v].storage));
        if (variants[v].max_lanes) PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_max_lanes", variants[v].max_lanes));
        if (variants[v].relabel) PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_relabel", variants[v].relabel));
        if (variants[v].analysis) PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_analysis", variants[v].analysis));
        if (variants[v].subgraph_rows) PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_subgraph_rows", variants[v].subgraph_rows));
        if (variants[v].extra) PetscCall(PetscOptionsInsertString(NULL, variants[v].extra));
        PetscCall(SpTrsvSolverCreate(T, (PetscBool)tr, variants[v].format, path, be, &sv));
        PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_levels"));
        PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_dispatch"));
        PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_max_lanes"));
        PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_relabel"));
        PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_storage"));
        PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_analysis"));
        PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_subgraph_rows"));
        PetscCall(ClearOptionsString(variants[v].extra));
        /* two solves back to back: on the GPU the second runs on the other half of the epoch state */
        for (PetscInt rep = 0; rep < 2; rep++) {
          for (PetscInt i = 0; i < n; i++) x[i] = -12345.0; /* a stale value must not survive */
          if (!gpu) PetscCall(SpTrsvSolverApply(sv, b, x));
#if defined(FUZZ_HAVE_CUDA)
          else {
            PetscCheck(cudaMemcpyAsync(d_x, x, (size_t)n * sizeof(PetscScalar), cudaMemcpyHostToDevice, st) == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "cudaMemcpyAsync");
            PetscCall(SpTrsvSolverApply(sv, d_b, d_x));
            PetscCall(Watchdog(st, timeout, seed, what));
            PetscCheck(cudaMemcpy(x, d_x, (size_t)n * sizeof(PetscScalar), cudaMemcpyDeviceToHost) == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "cudaMemcpy");
          }
#endif
          err = 0;
          for (PetscInt i = 0; i < n; i++) err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
          err /= PetscMax(nrm, 1.0);
          nsolves++;
          if (err <= 1e-10 && !PetscIsNanReal(err)) {
            npass++;
            perv[v][0]++;
          } else {
            nfail++;
            perv[v][1]++;
            PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAIL: seed %llu, %s, solve %" PetscInt_FMT ": relative error %.3e (reproduce: -only_seed %llu)\n", seed, what, rep + 1, (double)err, seed));
          }
        }
        PetscCall(SpTrsvSolverDestroy(&sv));
      }
    }
    PetscCall(PetscFree3(b, xref, x));
    PetscCall(SpTrsvTriDestroy(&T));
    if (c % progress == progress - 1) { /* progress, flushed: a step stopped at its time limit shows how far it got */
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "... %" PetscInt_FMT " cases, %" PetscInt_FMT " solves, %" PetscInt_FMT " failed\n", c + 1, nsolves, nfail));
      fflush(stdout);
    }
  }
  PetscCall(PetscTime(&tend));
#if defined(FUZZ_HAVE_CUDA)
  if (gpu) {
    (void)cudaFree(d_b);
    (void)cudaFree(d_x);
  }
#endif
  for (PetscInt v = 0; v < NVARIANTS; v++) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-22s %8" PetscInt_FMT " passed %6" PetscInt_FMT " failed\n", variants[v].tag, perv[v][0], perv[v][1]));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "fuzz (%s backend): %" PetscInt_FMT " cases (first seed %" PetscInt_FMT "), %" PetscInt_FMT " solves in %.1f s, no hang%s\n", be->name, flg ? (PetscInt)1 : ncases, flg ? only : seed0, nsolves, tend - tstart, gpu ? " (watchdog on)" : ""));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  if (npass + nfail == 0) { /* a filter that leaves no variant (an -only_path typo) compared nothing: a failure, not a pass */
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAIL: no comparison ran (check -only_path)\n"));
    nfail = 1;
  }
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
