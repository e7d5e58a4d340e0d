/*
   The path registry: one line per triangular-solve path (SPTRSV_PATHS below). MatSolverType
   registration, the factor constructors, -ksp_view, PC gs's schedulers and (later) the automatic choice
   all read it; no other list of paths exists. Adding a path: see docs/ARCHITECTURE.md.
*/
#include <sptrsv/factormat.h>

/* paper 000: level (LEVR/LEVC) and element (ELMR/ELMC) scheduling */
static PetscBool  cited_li2020 = PETSC_FALSE;
static const char cite_li2020[] = "@article{li2017sptrsv,\n"
                                  "  author  = {Ruipeng Li and Chaoyu Zhang},\n"
                                  "  title   = {Efficient Parallel Implementations of Sparse Triangular Solves for {GPU} Architectures},\n"
                                  "  journal = {Proceedings of the SIAM Conference on Parallel Processing for Scientific Computing},\n"
                                  "  year    = {2020}\n}\n";

/* paper 001: warp-packed sync-free solves, ALAP levels, warp-packed ELL */
static PetscBool  cited_freire = PETSC_FALSE;
static const char cite_freire[] = "@article{freire2022sptrsv,\n"
                                  "  author  = {Manuel Freire and Ernesto Dufrechou and Pablo Ezzatti},\n"
                                  "  title   = {A new level-set analysis and sparse storage format for the {SpTRSV} in {GPUs}},\n"
                                  "  year    = {2022}\n}\n";

/* paper 004: locality-aware sub-graph partition */
static PetscBool  cited_picciau = PETSC_FALSE;
static const char cite_picciau[] = "@inproceedings{picciau2016locality,\n"
                                   "  author = {Andrea Picciau and Gordon E. Inggs and John Wickerson and Eric C. Kerrigan and George A. Constantinides},\n"
                                   "  title  = {Balancing locality and concurrency: solving sparse triangular systems on {GPUs}},\n"
                                   "  year   = {2016}\n}\n";

/* paper 002: supernode-based level-set solves */
static PetscBool  cited_yamazaki = PETSC_FALSE;
static const char cite_yamazaki[] = "@inproceedings{yamazaki2020supernodal,\n"
                                    "  author    = {Ichitaro Yamazaki and Sivasankaran Rajamanickam and Nathan Ellingwood},\n"
                                    "  title     = {Performance Portable Supernode-based Sparse Triangular Solver for Manycore Architectures},\n"
                                    "  booktitle = {Proceedings of the 49th International Conference on Parallel Processing (ICPP)},\n"
                                    "  year      = {2020}\n}\n";

/* paper 002 (invertOff) and the no-fill partitioned inverse of Alvarado & Schreiber */
static PetscBool  cited_alvarado = PETSC_FALSE;
static const char cite_alvarado[] = "@article{alvarado1993pinv,\n"
                                    "  author  = {Fernando L. Alvarado and Robert Schreiber},\n"
                                    "  title   = {Optimal Parallel Solution of Sparse Triangular Systems},\n"
                                    "  journal = {SIAM Journal on Scientific Computing},\n"
                                    "  volume  = {14},\n"
                                    "  number  = {2},\n"
                                    "  pages   = {446--460},\n"
                                    "  year    = {1993}\n}\n"
                                    "@inproceedings{yamazaki2020supernodal,\n"
                                    "  author    = {Ichitaro Yamazaki and Sivasankaran Rajamanickam and Nathan Ellingwood},\n"
                                    "  title     = {Performance Portable Supernode-based Sparse Triangular Solver for Manycore Architectures},\n"
                                    "  booktitle = {Proceedings of the 49th International Conference on Parallel Processing (ICPP)},\n"
                                    "  year      = {2020}\n}\n";

/*
   X(name, MatSolverType, summary, ILU, ICC, CSC, sweeps, citation, cited): one line per path. name is the
   suffix of SpTrsvAnalyze_<name>, SpTrsvExecHost_<name>, SpTrsvExecCUDA_<name>, SpTrsvOptions_<name>
   and of the exported factor constructor MatGetFactor_SpTrsv_<name>.
*/
#define SPTRSV_PATHS(X) \
  X(level, MATSOLVERSPTRSVLEVEL, "level-set scheduling: rows grouped by dependency depth, one barrier per level (paper 000)", PETSC_TRUE, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE, cite_li2020, &cited_li2020) \
  X(element, MATSOLVERSPTRSVELEMENT, "element scheduling: one warp per row in level order, each waits only for its own dependencies (paper 000)", PETSC_TRUE, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE, cite_li2020, &cited_li2020) \
  X(syncfree, MATSOLVERSPTRSVSYNCFREE, "sync-free with warp packing: rows binned by length, 32/K rows of K lanes per warp, each waits on its own dependencies (paper 001)", PETSC_TRUE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, cite_freire, &cited_freire) \
  X(locality, MATSOLVERSPTRSVLOCALITY, "locality-aware sub-graphs: the DAG cut into sub-graphs whose x fits in a block's shared memory, one block per sub-graph, one launch per sub-graph level, rows in conflict-free slots (paper 004)", PETSC_TRUE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, cite_picciau, &cited_picciau) \
  X(supernodal, MATSOLVERSPTRSVSUPERNODAL, "supernodal: runs of rows/columns with one structure stored as dense blocks, one block per supernode (TRSV or inverse GEMV, then GEMV push or pull), one launch per level of the supernodal DAG, cuBLAS for wide supernodes near the root (paper 002)", PETSC_TRUE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, cite_yamazaki, &cited_yamazaki) \
  X(pinv, MATSOLVERSPTRSVPINV, "partitioned inverse: the DAG cut into parts whose inverse-applied blocks have no fill, one sparse matrix-vector product per part, a backward-error check with a fallback (Alvarado & Schreiber; paper 002)", PETSC_TRUE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, cite_alvarado, &cited_alvarado) \
  X(cusparse, MATSOLVERSPTRSVCUSPARSE, "NVIDIA's cusparseSpSV on the GPU (the solve of PETSc's own cusparse factors; rows in level order on the host), for the triangles where the automatic choice expects none of the plugin's schedules to beat it", PETSC_TRUE, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, NULL, NULL)

#define SPTRSV_PATH_DECL(name, ...) SPTRSV_PATH_DECLARE(name);
SPTRSV_PATHS(SPTRSV_PATH_DECL)

#if defined(PETSC_SPTRSV_HAVE_CUDA)
  #define SPTRSV_CUDA_EXEC(name) &SpTrsvExecCUDA_##name
#else
  #define SPTRSV_CUDA_EXEC(name) NULL
#endif

#define SPTRSV_PATH_ENTRY(name, stype, summary, ilu, icc, csc, sweeps, cite, cited) {#name, stype, summary, ilu, icc, csc, sweeps, SpTrsvAnalyze_##name, {&SpTrsvExecHost_##name, SPTRSV_CUDA_EXEC(name)}, SpTrsvOptions_##name, cite, cited},
static const struct _n_SpTrsvPath SpTrsvPaths[] = {SPTRSV_PATHS(SPTRSV_PATH_ENTRY)};
#define SPTRSV_NPATHS ((PetscInt)(sizeof(SpTrsvPaths) / sizeof(SpTrsvPaths[0])))

/* the exported factor constructors (for MatSolverTypeRegister in user code), one per path */
#define SPTRSV_PATH_GETFACTOR(name, ...) \
  PetscErrorCode MatGetFactor_SpTrsv_##name(Mat A, MatFactorType ftype, Mat *F) \
  { \
    SpTrsvPath path; \
    PetscFunctionBegin; \
    PetscCall(SpTrsvPathFind(#name, &path)); \
    PetscCall(MatGetFactor_SpTrsv(A, ftype, path, F)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }
SPTRSV_PATHS(SPTRSV_PATH_GETFACTOR)

/* MatSolverType sptrsv: no path of its own; the factor chooses one per triangle (src/mat/paths/auto.c) */
PetscErrorCode MatGetFactor_SpTrsv_auto(Mat A, MatFactorType ftype, Mat *F)
{
  PetscFunctionBegin;
  PetscCall(MatGetFactor_SpTrsv(A, ftype, NULL, F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPathGetCount(PetscInt *n)
{
  PetscFunctionBegin;
  *n = SPTRSV_NPATHS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPathGetByIndex(PetscInt k, SpTrsvPath *path)
{
  PetscFunctionBegin;
  PetscCheck(k >= 0 && k < SPTRSV_NPATHS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Path index %" PetscInt_FMT " not in [0, %" PetscInt_FMT ")", k, SPTRSV_NPATHS);
  *path = &SpTrsvPaths[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* NULL when no path has that name or MatSolverType */
PetscErrorCode SpTrsvPathFindSolverType(const char *name, SpTrsvPath *path)
{
  PetscFunctionBegin;
  *path = NULL;
  for (PetscInt k = 0; k < SPTRSV_NPATHS && name; k++) {
    PetscBool a, b;
    PetscCall(PetscStrcmp(name, SpTrsvPaths[k].name, &a));
    PetscCall(PetscStrcmp(name, SpTrsvPaths[k].solvertype, &b));
    if (a || b) {
      *path = &SpTrsvPaths[k];
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPathFind(const char *name, SpTrsvPath *path)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvPathFindSolverType(name, path));
  PetscCheck(*path, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "No triangular-solve path named %s", name ? name : "(null)");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPathGetNames - the names of the paths (only those that run Gauss-Seidel sweeps when sweeps is
  true), for option lists; the array lives as long as the library
*/
PetscErrorCode SpTrsvPathGetNames(PetscBool sweeps, PetscInt *n, const char *const **names)
{
  static const char *all[SPTRSV_NPATHS + 1], *sw[SPTRSV_NPATHS + 1];
  static PetscInt    nall = -1, nsw = 0;

  PetscFunctionBegin;
  if (nall < 0) {
    nall = 0;
    for (PetscInt k = 0; k < SPTRSV_NPATHS; k++) {
      all[nall++] = SpTrsvPaths[k].name;
      if (SpTrsvPaths[k].sweeps) sw[nsw++] = SpTrsvPaths[k].name;
    }
  }
  *n     = sweeps ? nsw : nall;
  *names = sweeps ? sw : all;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPathGetExecutor(SpTrsvPath path, SpTrsvExecSlot slot, const SpTrsvExecutor **exec)
{
  PetscFunctionBegin;
  *exec = path->exec[slot];
  PetscCheck(*exec, PETSC_COMM_SELF, PETSC_ERR_SUP, "Path %s has no %s executor", path->solvertype, slot == SPTRSV_EXEC_CUDA ? "CUDA" : "host");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the MatSolverTypes: every path for every matrix type and factor type it supports (a path that takes ILU takes the
   complete LU of SuperLU too, one that takes ICC the complete Cholesky of CHOLMOD: they are stored alike, see
   direct.h); name NULL: sptrsv (automatic: every factor type, each path takes both kinds of triangles) */
#define SPTRSV_PATH_REGISTER(name, ...) PetscCall(SpTrsvPathRegister_Private(#name, MatGetFactor_SpTrsv_##name));
static PetscErrorCode SpTrsvPathRegister_Private(const char *name, PetscErrorCode (*getfactor)(Mat, MatFactorType, Mat *))
{
  const MatType mtypes[] = {MATSEQAIJ,
#if defined(PETSC_HAVE_CUDA)
                            MATSEQAIJCUSPARSE,
#endif
                            NULL};
  SpTrsvPath    path;

  PetscFunctionBegin;
  if (!name) {
    for (PetscInt m = 0; mtypes[m]; m++) {
      PetscCall(MatSolverTypeRegister(MATSOLVERSPTRSV, mtypes[m], MAT_FACTOR_ILU, getfactor));
      PetscCall(MatSolverTypeRegister(MATSOLVERSPTRSV, mtypes[m], MAT_FACTOR_ICC, getfactor));
      PetscCall(MatSolverTypeRegister(MATSOLVERSPTRSV, mtypes[m], MAT_FACTOR_LU, getfactor));
      PetscCall(MatSolverTypeRegister(MATSOLVERSPTRSV, mtypes[m], MAT_FACTOR_CHOLESKY, getfactor));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvPathFind(name, &path));
  for (PetscInt m = 0; mtypes[m]; m++) {
    if (path->ilu) PetscCall(MatSolverTypeRegister(path->solvertype, mtypes[m], MAT_FACTOR_ILU, getfactor));
    if (path->icc) PetscCall(MatSolverTypeRegister(path->solvertype, mtypes[m], MAT_FACTOR_ICC, getfactor));
    if (path->ilu) PetscCall(MatSolverTypeRegister(path->solvertype, mtypes[m], MAT_FACTOR_LU, getfactor));
    if (path->icc) PetscCall(MatSolverTypeRegister(path->solvertype, mtypes[m], MAT_FACTOR_CHOLESKY, getfactor));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPathRegisterAll(void)
{
  PetscFunctionBegin;
  SPTRSV_PATHS(SPTRSV_PATH_REGISTER)
  PetscCall(SpTrsvPathRegister_Private(NULL, MatGetFactor_SpTrsv_auto));
  PetscFunctionReturn(PETSC_SUCCESS);
}
