static const char help[] = "Shift-and-invert eigensolves (SLEPc EPS, ST sinvert) with PETSc's factorization and with the plugin's\n"
                           "solver types, in one process: the converged eigenvalues must agree.\n"
                           "The problem A x = lambda B x (B optional):\n"
                           "  -f <file>              A from a Matrix Market file (.mtx, .mtx.gz) or a PETSc binary file\n"
                           "  -fB <file>             B likewise (default: B = I, a standard problem)\n"
                           "  -problem <lap2d|lap3d> without -f: a generated pencil on an n^2 or n^3 grid: A the 5/7-point\n"
                           "                         Laplacian (plus -beta times a central first derivative in x: nonsymmetric),\n"
                           "                         B with A's pattern, 1 on the diagonal and 1/12 off it (SPD); default lap2d\n"
                           "  -n <n>                 grid points per direction (default 30)\n"
                           "  -beta <b>              convection (default 0: symmetric)\n"
                           "  -generalized <bool>    the generated problem with B (default true) or B = I\n"
                           "  -mat_type <type>       convert A and B to this type (e.g. aijcusparse)\n"
                           "The solve (defaults; every -eps_ and -st_ option of SLEPc overrides them):\n"
                           "  -factor <lu|cholesky|ilu|icc>  PC of the shift-and-invert KSP (default cholesky for a symmetric\n"
                           "                         pencil, lu otherwise); lu/cholesky with KSP preonly, ilu/icc with GMRES to\n"
                           "                         rtol 1e-13\n"
                           "  -eps_target <s>        the shift (default 0), -eps_nev 6, -eps_tol 1e-12, target magnitude\n"
                           "The comparison:\n"
                           "  -solver_types <list>   comma-separated MatSolverTypes for -st_pc_factor_mat_solver_type, the first is the\n"
                           "                         reference; 'all' stands for every sptrsv_* path of the registry and sptrsv (the\n"
                           "                         automatic choice); default petsc,all. A type that is not registered, or has no\n"
                           "                         factorization of the requested kind, prints a 'skipped:' line\n"
                           "  -check_rtol <r>        eigenvalues must agree with the reference's to r relative (default 1e-10)\n"
                           "  -check_residual <r>    every compared eigenpair's backward error ||A x - k B x|| / ((||A|| + |k| ||B||) ||x||)\n"
                           "                         must be <= r (default 1e-8)\n"
                           "  -require_backend <b>   every sptrsv_* factor must run on backend b (host, cuda)\n"
                           "  -require_run <bool>    fail when no solver type besides the reference was compared (default false)\n"
                           "  -repeat <k>            EPSSolve k times per solver type after one EPSSetUp (one factorization),\n"
                           "                         report the fastest (timing, default 1)\n"
                           "  -query                 only print which solver types are available for -factor, then exit\n"
                           "  -write_binary <file>   write A to the PETSc binary file <file> (and B to <file>.B) and exit: input for\n"
                           "                         SLEPc's eps ex7 (-f1 <file> -f2 <file>.B)\n"
                           "The plugin's options take the ST's prefix: -st_mat_sptrsv_backend cuda, -st_mat_sptrsv_format csc, ...;\n"
                           "with at least one of ours compared, an option that no run used is a failure.\n"
                           "Prints one line per solver type: nconv, iterations, max relative eigenvalue difference from the\n"
                           "reference, worst backward error, EPSSetUp and EPSSolve seconds, backend; then one 'Eigenvalues of'\n"
                           "line per solver type with every converged eigenvalue; exits nonzero on any mismatch.\n\n";

#include <slepceps.h>
#include <petscsptrsv.h>
#include <petscversion.h>
#include <sptrsv/registry.h>
#include "../../examples/common/mmload.h"

#define MAX_TYPES 32

typedef struct {
  char        type[64];
  PetscBool   skipped;
  char        why[256];
  PetscInt    nconv, its;
  PetscReal  *kr, *ki, *err;
  PetscReal   maxdiff, maxerr;
  PetscLogDouble tsetup, tsolve;
  char        backend[32];
  EPSConvergedReason reason;
} Run;

typedef struct {
  Mat           A, B;
  PetscBool     symmetric;
  MatFactorType ftype;
  const char   *fname; /* -factor value */
  PetscInt      nev, repeat;
  PetscReal     target, tol;
} Problem;

/* ---- the problem ---------------------------------------------------------------------------------- */
static PetscErrorCode LoadMatrix(const char *file, Mat *M)
{
  size_t      len;
  PetscBool   mm = PETSC_FALSE, gz = PETSC_FALSE;
  PetscViewer v;

  PetscFunctionBeginUser;
  PetscCall(PetscStrlen(file, &len));
  if (len > 4) PetscCall(PetscStrcmp(file + len - 4, ".mtx", &mm));
  if (len > 7) PetscCall(PetscStrcmp(file + len - 7, ".mtx.gz", &gz));
  if (mm || gz) {
    PetscCall(SpTrsvLoadMatrixMarket(file, M));
  } else {
    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_SELF, file, FILE_MODE_READ, &v));
    PetscCall(MatCreate(PETSC_COMM_SELF, M));
    PetscCall(MatSetType(*M, MATSEQAIJ));
    PetscCall(MatLoad(*M, v));
    PetscCall(PetscViewerDestroy(&v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A: the 5/7-point Laplacian on an n^d grid (+ beta * central d/dx); B: A's pattern, 1 on the diagonal, 1/12 off it */
static PetscErrorCode Generate(PetscInt dim, PetscInt n, PetscReal beta, PetscBool generalized, Mat *A, Mat *B)
{
  PetscInt N = dim == 2 ? n * n : n * n * n, stride[3] = {1, n, n * n};

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, 2 * dim + 1, NULL, A));
  if (generalized) PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, 2 * dim + 1, NULL, B));
  for (PetscInt row = 0; row < N; row++) {
    PetscInt c[3] = {row % n, (row / n) % n, row / (n * n)};

    PetscCall(MatSetValue(*A, row, row, 2.0 * dim, INSERT_VALUES));
    if (generalized) PetscCall(MatSetValue(*B, row, row, 1.0, INSERT_VALUES));
    for (PetscInt d = 0; d < dim; d++) {
      for (PetscInt s = -1; s <= 1; s += 2) {
        PetscInt    col;
        PetscScalar v = -1.0;

        if (c[d] + s < 0 || c[d] + s >= n) continue;
        col = row + s * stride[d];
        if (d == 0) v += 0.5 * beta * s;
        PetscCall(MatSetValue(*A, row, col, v, INSERT_VALUES));
        if (generalized) PetscCall(MatSetValue(*B, row, col, 1.0 / 12.0, INSERT_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  if (generalized) {
    PetscCall(MatAssemblyBegin(*B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*B, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUpProblem(Problem *p, char *desc, size_t desclen)
{
  char      file[PETSC_MAX_PATH_LEN] = "", fileB[PETSC_MAX_PATH_LEN] = "", problem[16] = "lap2d", mtype[64] = "";
  char      fname[16] = "";
  PetscInt  n = 30, dim = 2, M;
  PetscReal beta = 0.0;
  PetscBool hasf, hasB, generalized = PETSC_TRUE, flg, symA = PETSC_TRUE, symB = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), &hasf));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-fB", fileB, sizeof(fileB), &hasB));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-beta", &beta, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-generalized", &generalized, NULL));
  p->B = NULL;
  if (hasf) {
    PetscCall(LoadMatrix(file, &p->A));
    if (hasB) PetscCall(LoadMatrix(fileB, &p->B));
    PetscCall(PetscSNPrintf(desc, desclen, "%s%s%s", file, hasB ? " with B = " : " (B = I)", hasB ? fileB : ""));
  } else {
    PetscCheck(!hasB, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-fB %s given without -f", fileB);
    PetscCall(PetscStrcmp(problem, "lap3d", &flg));
    if (flg) dim = 3;
    else {
      PetscCall(PetscStrcmp(problem, "lap2d", &flg));
      PetscCheck(flg, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-problem %s: expected lap2d or lap3d", problem);
    }
    PetscCheck(n >= 2 && n <= (dim == 2 ? 10000 : 500), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-n %" PetscInt_FMT ": expected 2 .. %d for %s", n, dim == 2 ? 10000 : 500, problem);
    PetscCall(Generate(dim, n, beta, generalized, &p->A, &p->B));
    PetscCall(PetscSNPrintf(desc, desclen, "%s n=%" PetscInt_FMT " beta=%g%s", problem, n, (double)beta, generalized ? ", B = 1 on the diagonal, 1/12 off it" : " (B = I)"));
  }
  PetscCall(MatGetSize(p->A, &M, &n));
  PetscCheck(M == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "A is %" PetscInt_FMT " x %" PetscInt_FMT ": an eigenproblem needs a square matrix", M, n);
  if (p->B) {
    PetscInt mb, nb;

    PetscCall(MatGetSize(p->B, &mb, &nb));
    PetscCheck(mb == M && nb == M, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "B is %" PetscInt_FMT " x %" PetscInt_FMT ", A is %" PetscInt_FMT " x %" PetscInt_FMT, mb, nb, M, M);
  }
  PetscCall(MatIsSymmetric(p->A, 0.0, &symA));
  if (p->B) PetscCall(MatIsSymmetric(p->B, 0.0, &symB));
  p->symmetric = (PetscBool)(symA && symB);

  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_type", mtype, sizeof(mtype), &flg));
  if (flg) {
    PetscCall(MatConvert(p->A, mtype, MAT_INPLACE_MATRIX, &p->A));
    if (p->B) PetscCall(MatConvert(p->B, mtype, MAT_INPLACE_MATRIX, &p->B));
  }

  PetscCall(PetscStrncpy(fname, p->symmetric ? "cholesky" : "lu", sizeof(fname)));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-factor", fname, sizeof(fname), NULL));
  {
    const char   *names[] = {"lu", "cholesky", "ilu", "icc"};
    MatFactorType types[] = {MAT_FACTOR_LU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ILU, MAT_FACTOR_ICC};
    PetscInt      k;

    for (k = 0; k < 4; k++) {
      PetscCall(PetscStrcmp(fname, names[k], &flg));
      if (flg) break;
    }
    PetscCheck(k < 4, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-factor %s: expected lu, cholesky, ilu or icc", fname);
    PetscCheck(p->symmetric || (types[k] != MAT_FACTOR_CHOLESKY && types[k] != MAT_FACTOR_ICC), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-factor %s needs a symmetric pencil; this one is not (use -factor lu or ilu)", fname);
    p->ftype = types[k];
    p->fname = names[k];
  }
  p->nev    = 6;
  p->tol    = 1e-12;
  p->target = 0.0;
  p->repeat = 1;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-eps_nev", &p->nev, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-eps_target", &p->target, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-eps_tol", &p->tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-repeat", &p->repeat, NULL));
  PetscCheck(p->repeat >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-repeat %" PetscInt_FMT ": expected at least 1", p->repeat);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the solver types ------------------------------------------------------------------------------ */
/* is `type` a MatSolverType with a factorization of kind p->ftype for A's matrix type? If not, why (for the skipped line) */
static PetscErrorCode SolverAvailable(const Problem *p, const char *type, PetscBool *ok, char *why, size_t len)
{
  MatType   mtype;
  PetscBool foundtype = PETSC_FALSE, foundmtype = PETSC_FALSE;
#if PETSC_VERSION_GE(3, 21, 0)
  MatSolverFn *f = NULL;
#else
  MatSolverFunction f = NULL;
#endif

  PetscFunctionBeginUser;
  PetscCall(MatGetType(p->A, &mtype));
  PetscCall(MatSolverTypeGet(type, mtype, p->ftype, &foundtype, &foundmtype, &f));
  *ok = (PetscBool)(f != NULL);
  if (!foundtype) PetscCall(PetscSNPrintf(why, len, "%s not registered", type));
  else if (!foundmtype) PetscCall(PetscSNPrintf(why, len, "%s not registered for matrix type %s", type, mtype));
  else if (!f) PetscCall(PetscSNPrintf(why, len, "%s has no %s factorization (for %s)", type, MatFactorTypes[p->ftype], mtype));
  else why[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the -solver_types list with 'all' expanded into the registry's paths and sptrsv; duplicates dropped */
static PetscErrorCode SolverList(char **types, PetscInt *ntypes)
{
  char            *given[MAX_TYPES];
  PetscInt         ngiven = MAX_TYPES, n = 0, npaths;
  const char *const *paths;
  PetscBool        flg;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-solver_types", given, &ngiven, &flg));
  if (!flg) {
    ngiven = 2;
    PetscCall(PetscStrallocpy(MATSOLVERPETSC, &given[0]));
    PetscCall(PetscStrallocpy("all", &given[1]));
  }
  PetscCheck(ngiven >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-solver_types needs at least one MatSolverType");
  PetscCall(SpTrsvPathGetNames(PETSC_FALSE, &npaths, &paths));
  for (PetscInt g = 0; g < ngiven; g++) {
    PetscBool   all;
    const char *add[MAX_TYPES];
    char        buf[MAX_TYPES][64];
    PetscInt    nadd = 0;

    PetscCall(PetscStrcmp(given[g], "all", &all));
    if (all) {
      for (PetscInt k = 0; k < npaths && nadd < MAX_TYPES - 1; k++) {
        PetscCall(PetscSNPrintf(buf[nadd], sizeof(buf[nadd]), "sptrsv_%s", paths[k]));
        add[nadd] = buf[nadd];
        nadd++;
      }
      add[nadd++] = MATSOLVERSPTRSV;
    } else add[nadd++] = given[g];
    for (PetscInt a = 0; a < nadd; a++) {
      PetscBool dup = PETSC_FALSE;

      for (PetscInt k = 0; k < n && !dup; k++) PetscCall(PetscStrcmp(types[k], add[a], &dup));
      if (dup) continue;
      PetscCheck(n < MAX_TYPES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-solver_types: more than %d solver types", MAX_TYPES);
      PetscCall(PetscStrallocpy(add[a], &types[n++]));
    }
    PetscCall(PetscFree(given[g]));
  }
  *ntypes = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- one eigensolve --------------------------------------------------------------------------------- */
static PetscErrorCode Solve(const Problem *p, Run *r)
{
  EPS            eps;
  ST             st;
  KSP            ksp;
  PC             pc;
  PetscLogDouble t0, t1;
  PetscBool      direct = (PetscBool)(p->ftype == MAT_FACTOR_LU || p->ftype == MAT_FACTOR_CHOLESKY), flg;
  const char    *pctype = p->ftype == MAT_FACTOR_LU ? PCLU : p->ftype == MAT_FACTOR_CHOLESKY ? PCCHOLESKY : p->ftype == MAT_FACTOR_ILU ? PCILU : PCICC;

  PetscFunctionBeginUser;
  PetscCall(EPSCreate(PETSC_COMM_SELF, &eps));
  PetscCall(EPSSetOperators(eps, p->A, p->B));
  if (p->B) PetscCall(EPSSetProblemType(eps, p->symmetric ? EPS_GHEP : EPS_GNHEP));
  else PetscCall(EPSSetProblemType(eps, p->symmetric ? EPS_HEP : EPS_NHEP));
  PetscCall(EPSSetTarget(eps, p->target));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE));
  PetscCall(EPSSetDimensions(eps, p->nev, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EPSSetTolerances(eps, p->tol, PETSC_DEFAULT));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STSetType(st, STSINVERT));
  PetscCall(STGetKSP(st, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  if (direct) PetscCall(KSPSetType(ksp, KSPPREONLY));
  else {
    PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(KSPSetTolerances(ksp, 1e-13, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  }
  PetscCall(EPSSetFromOptions(eps));
  /* after the options: the solver type under test wins over any -st_pc_factor_mat_solver_type */
  PetscCall(PCFactorSetMatSolverType(pc, r->type));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &flg, PCLU, PCCHOLESKY, PCILU, PCICC, ""));
  PetscCheck(flg, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-st_pc_type must stay a factorization (lu, cholesky, ilu, icc) for this comparison");

  PetscCall(PetscTime(&t0));
  PetscCall(EPSSetUp(eps)); /* the factorization (and the plugin's analysis) */
  PetscCall(PetscTime(&t1));
  r->tsetup = t1 - t0;
  for (PetscInt k = 0; k < p->repeat; k++) {
    if (k) {
      /* EPSSolve returns at once on a solved EPS (every repeat timed 0 s): reset its state with EPSSetDimensions (the
         dimensions EPSSetUp chose) and set it up again outside the timing; the ST, its KSP and the factorization stay
         set up, nothing refactors (-log_view: one factorization, k EPSSolve) */
      PetscInt nev, ncv, mpd;

      PetscCall(EPSGetDimensions(eps, &nev, &ncv, &mpd));
      PetscCall(EPSSetDimensions(eps, nev, ncv, mpd));
      PetscCall(EPSSetUp(eps));
    }
    PetscCall(PetscTime(&t0));
    PetscCall(EPSSolve(eps));
    PetscCall(PetscTime(&t1));
    if (k == 0 || t1 - t0 < r->tsolve) r->tsolve = t1 - t0;
  }
  PetscCall(EPSGetConvergedReason(eps, &r->reason));
  PetscCall(EPSGetIterationNumber(eps, &r->its));
  PetscCall(EPSGetConverged(eps, &r->nconv));
  PetscCall(PetscMalloc3(r->nconv, &r->kr, r->nconv, &r->ki, r->nconv, &r->err));
  r->maxerr = 0.0;
  for (PetscInt i = 0; i < r->nconv; i++) {
    PetscScalar kr, ki;

    PetscCall(EPSGetEigenvalue(eps, i, &kr, &ki));
    PetscCall(EPSComputeError(eps, i, EPS_ERROR_BACKWARD, &r->err[i]));
    r->kr[i] = PetscRealPart(kr);
    r->ki[i] = PetscRealPart(ki);
    if (i < p->nev) r->maxerr = PetscMax(r->maxerr, r->err[i]);
  }
  PetscCall(PetscStrncpy(r->backend, "-", sizeof(r->backend)));
  {
    PetscBool ours;
    Mat       F;

    PetscCall(PetscStrbeginswith(r->type, "sptrsv", &ours));
    if (ours) {
      const char *b;

      PetscCall(PCFactorGetMatrix(pc, &F));
      PetscCall(MatSpTrsvGetBackend(F, &b));
      PetscCall(PetscStrncpy(r->backend, b, sizeof(r->backend)));
    }
  }
  PetscCall(EPSDestroy(&eps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the largest relative distance from each of the first nev converged eigenvalues of a to the nearest converged one of b */
static PetscReal MaxNearest(const Run *a, const Run *b, PetscInt nev)
{
  PetscReal worst = 0.0;

  for (PetscInt i = 0; i < PetscMin(nev, a->nconv); i++) {
    PetscReal best = PETSC_MAX_REAL, scale = PetscMax(PetscSqrtReal(a->kr[i] * a->kr[i] + a->ki[i] * a->ki[i]), PETSC_SMALL);

    for (PetscInt j = 0; j < b->nconv; j++) best = PetscMin(best, PetscSqrtReal(PetscSqr(b->kr[j] - a->kr[i]) + PetscSqr(b->ki[j] - a->ki[i])) / scale);
    worst = PetscMax(worst, best);
  }
  return worst;
}

/*
  the difference of two runs' spectra: the larger of the two nearest-neighbour distances (reference's first nev to r's
  converged ones, and r's first nev to the reference's), so the same eigenvalues in both, each to the tolerance. As
  sets: a Krylov method may converge one copy of a multiple eigenvalue or both, by rounding (the convection pencil has
  double eigenvalues: PETSc's LU found both copies of one, the partitioned inverse one, and one-to-one matching then read
  the next eigenvalue, 3% away, as a difference). A run with fewer than nev converged fails on its own (nconv check).
*/
static PetscReal MaxDiff(const Run *ref, const Run *r, PetscInt nev)
{
  return PetscMax(MaxNearest(ref, r, nev), MaxNearest(r, ref, nev));
}

int main(int argc, char **argv)
{
  Problem   p;
  Run       runs[MAX_TYPES];
  char     *types[MAX_TYPES], desc[2 * PETSC_MAX_PATH_LEN], reqb[32] = "", wfile[PETSC_MAX_PATH_LEN];
  PetscInt  ntypes = 0, nfail = 0, ncompared = 0, nskipped = 0, N;
  PetscReal check_rtol = 1e-10, check_res = 1e-8;
  PetscBool query = PETSC_FALSE, require_run = PETSC_FALSE, hasreqb, flg;

  PetscFunctionBeginUser;
  PetscCall(SlepcInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-check_rtol", &check_rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-check_residual", &check_res, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-query", &query, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_run", &require_run, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-require_backend", reqb, sizeof(reqb), &hasreqb));
  PetscCall(SetUpProblem(&p, desc, sizeof(desc)));
  PetscCall(MatGetSize(p.A, &N, NULL));

  PetscCall(PetscOptionsGetString(NULL, NULL, "-write_binary", wfile, sizeof(wfile), &flg));
  if (flg) {
    PetscViewer v;

    char wfileB[PETSC_MAX_PATH_LEN + 2];

    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_SELF, wfile, FILE_MODE_WRITE, &v));
    PetscCall(MatView(p.A, v));
    PetscCall(PetscViewerDestroy(&v));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "wrote A (%" PetscInt_FMT " x %" PetscInt_FMT ") to %s\n", N, N, wfile));
    if (p.B) {
      PetscCall(PetscSNPrintf(wfileB, sizeof(wfileB), "%s.B", wfile));
      PetscCall(PetscViewerBinaryOpen(PETSC_COMM_SELF, wfileB, FILE_MODE_WRITE, &v));
      PetscCall(MatView(p.B, v));
      PetscCall(PetscViewerDestroy(&v));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "wrote B to %s\n", wfileB));
    }
    goto done;
  }

  PetscCall(SolverList(types, &ntypes));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "Problem: %s; N = %" PetscInt_FMT ", %s pencil (%s), shift-and-invert at %g with %s, nev %" PetscInt_FMT ", tol %g\n", desc, N, p.symmetric ? "symmetric" : "nonsymmetric", p.B ? (p.symmetric ? "GHEP" : "GNHEP") : (p.symmetric ? "HEP" : "NHEP"), (double)p.target, p.fname, p.nev, (double)p.tol));
  PetscCall(PetscMemzero(runs, sizeof(runs)));
  for (PetscInt t = 0; t < ntypes; t++) {
    PetscBool ok = PETSC_FALSE;

    PetscCall(PetscStrncpy(runs[t].type, types[t], sizeof(runs[t].type)));
    PetscCall(SolverAvailable(&p, types[t], &ok, runs[t].why, sizeof(runs[t].why)));
    runs[t].skipped = (PetscBool)!ok;
    if (t == 0) PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "the reference solver type (first of -solver_types) is unusable: %s", runs[t].why);
    if (!ok) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "skipped: %s\n", runs[t].why));
      nskipped++;
    } else if (query) PetscCall(PetscPrintf(PETSC_COMM_SELF, "available: %s (%s factorization)\n", types[t], p.fname));
  }
  if (query) goto done;

  for (PetscInt t = 0; t < ntypes; t++) {
    if (!runs[t].skipped) PetscCall(Solve(&p, &runs[t]));
  }
  {
    const Run *ref = &runs[0];

    PetscCall(PetscPrintf(PETSC_COMM_SELF, "Reference (%s) eigenvalues:", ref->type));
    for (PetscInt i = 0; i < PetscMin(p.nev, ref->nconv); i++) {
      if (ref->ki[i] != 0.0) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %.12g%+.12gi", (double)ref->kr[i], (double)ref->ki[i]));
      else PetscCall(PetscPrintf(PETSC_COMM_SELF, " %.12g", (double)ref->kr[i]));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n%-18s %-8s %5s %5s %12s %12s %10s %10s %-8s %s\n", "solver type", "factor", "nconv", "its", "max rel diff", "max bwd err", "setup s", "EPSSolve s", "backend", "result"));
    for (PetscInt t = 0; t < ntypes; t++) {
      Run       *r    = &runs[t];
      const char *res = "PASS";

      if (r->skipped) continue;
      r->maxdiff = t ? MaxDiff(ref, r, p.nev) : 0.0;
      if (r->reason < 0 || r->nconv < p.nev) {
        res = "FAIL";
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAILED: %s converged %" PetscInt_FMT " of %" PetscInt_FMT " eigenpairs (%s)\n", r->type, r->nconv, p.nev, EPSConvergedReasons[r->reason]));
        nfail++;
      } else if (!(r->maxdiff <= check_rtol)) {
        res = "FAIL";
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAILED: the eigenvalues of %s differ from %s's by %.3e relative (> %g)\n", r->type, ref->type, (double)r->maxdiff, (double)check_rtol));
        nfail++;
      } else if (!(r->maxerr <= check_res)) {
        res = "FAIL";
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAILED: %s: backward error %.3e of an eigenpair (> %g)\n", r->type, (double)r->maxerr, (double)check_res));
        nfail++;
      } else if (hasreqb && strcmp(r->backend, "-") && strcmp(r->backend, reqb)) {
        res = "FAIL";
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAILED: %s ran on backend %s, not %s (-require_backend)\n", r->type, r->backend, reqb));
        nfail++;
      }
      if (t) ncompared++;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-18s %-8s %5" PetscInt_FMT " %5" PetscInt_FMT " %12.3e %12.3e %10.4f %10.4f %-8s %s\n", r->type, p.fname, r->nconv, r->its, (double)r->maxdiff, (double)r->maxerr, r->tsetup, r->tsolve, r->backend, res));
    }
    /* every converged eigenvalue of every run, for a comparison across processes (tests/device/slepc.sh's slepc-timing
       runs one solver type per process; examples/benchmarks/slepc-timing-table.py compares them as MaxDiff does) */
    for (PetscInt t = 0; t < ntypes; t++) {
      const Run *r = &runs[t];

      if (r->skipped) continue;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "Eigenvalues of %s (%" PetscInt_FMT " converged):", r->type, r->nconv));
      for (PetscInt i = 0; i < r->nconv; i++) {
        if (r->ki[i] != 0.0) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %.15g%+.15gi", (double)r->kr[i], (double)r->ki[i]));
        else PetscCall(PetscPrintf(PETSC_COMM_SELF, " %.15g", (double)r->kr[i]));
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
    }
  }
  if (ncompared) { /* a misspelt or unprefixed option (the ST's factor reads -st_mat_sptrsv_*) must not pass unnoticed */
    PetscInt nunused;

    PetscCall(PetscOptionsAllUsed(NULL, &nunused));
    if (nunused) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAILED: %" PetscInt_FMT " option%s set but not used (the ST's factorization reads -st_mat_sptrsv_*; run with -options_left)\n", nunused, nunused > 1 ? "s" : ""));
      nfail++;
    }
  }
  if (require_run && !ncompared) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAILED: no solver type was compared with %s (-require_run)\n", runs[0].type));
    nfail++;
  }
  if (!nfail) PetscCall(PetscPrintf(PETSC_COMM_SELF, "Check passed: %" PetscInt_FMT " solver type%s compared with %s (eigenvalues within %g relative, backward errors <= %g), %" PetscInt_FMT " skipped\n", ncompared, ncompared == 1 ? "" : "s", runs[0].type, (double)check_rtol, (double)check_res, nskipped));
  for (PetscInt t = 0; t < ntypes; t++) {
    if (!runs[t].skipped) PetscCall(PetscFree3(runs[t].kr, runs[t].ki, runs[t].err));
  }

done:
  for (PetscInt t = 0; t < ntypes; t++) PetscCall(PetscFree(types[t]));
  PetscCall(MatDestroy(&p.A));
  PetscCall(MatDestroy(&p.B));
  PetscCall(SlepcFinalize());
  return nfail ? 1 : 0;
}
