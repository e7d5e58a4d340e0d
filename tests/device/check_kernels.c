static const char help[] = "Device check of the CUDA level kernels: ILU(0) solves with -mat_sptrsv_backend cuda (csr/csc, graph\n"
                           "on/off) compared with the host backend (csr), on generated Laplacians, chains and Matrix Market files.\n"
                           "Without a usable CUDA device only the host csc vs host csr comparison runs (and the program passes).\n"
                           "  -matdir <dir>     also check every *.mtx.gz file in dir (ILU(0) with a nonzero shift; failures skip)\n"
                           "  -cases a,b,...    run only these cases (names as printed in the table)\n"
                           "  -nrhs <3>         random right-hand sides per comparison\n"
                           "  -tol <1e-12>      max relative error (inf-norm) for the generated matrices\n"
                           "  -tol_mm <1e-9>    max relative error for the Matrix Market files\n"
                           "  -no_refactor      skip the refactorization check (MatScale + MatShift, MatLUFactorNumeric again)\n"
                           "  -list             print the case names and exit\n"
                           "  -only_solver <t>  only the configurations of this MatSolverType (e.g. sptrsv_supernodal)\n"
                           "  -only_tag <t,...> only the configurations of these report tags, without their dash (e.g. lch,lbk)\n"
                           "  -skip_solver <t,...> leave out the configurations of these MatSolverTypes (e.g. the paths a racecheck step\n"
                           "                    of their own covers)\n"
                           "  -list_configs     print the configurations (after -only_solver, -only_tag) and exit; with -assume_cuda the\n"
                           "                    CUDA ones as if a device were there, and an error unless every registered path has one\n"
                           "  -with_chain       also sptrsv_locality with -mat_sptrsv_locality_kernel chain and blocks (only for cases whose reach fits)\n"
                           "  -gs_quick         PC gs sweeps and PC isai: small cases only (the case names gs and isai select these checks)\n"
                           "Direct sweep-solver checks (check_sweeps.c, cases sweep_* and pointwise) compare both backends with a\n"
                           "natural-order SOR sweep.\n";

#include <petscsptrsv.h>
#include <petscksp.h>
#include "../../examples/common/stencil.h"
#include <sptrsv/backend.h>
#include <sptrsv/registry.h> /* the registry coverage of -list_configs -assume_cuda */
#include "check_sweeps.h"
#include "options_string.h"
#include "check_isai.h"
#include "check_cases.h"
#if !defined(SPTRSV_NO_MMLOAD)
  #include "../../examples/common/mmload.h"
#endif
#include <stdlib.h>
#include <string.h>

#define MAXCFG   60
/* the supernodal configurations' dense blocks at every width (no sync-free delegate) */
#define SN_BLOCKS " -mat_sptrsv_supernode_min_width 0"
/* append a configuration to cfgs[] (main's), checked: 35 configurations once overflowed a 32-entry array on the stack */
#define ADD_CONFIG(...) \
  do { \
    PetscCheck(ncfg < MAXCFG, PETSC_COMM_SELF, PETSC_ERR_PLIB, "more than MAXCFG = %d configurations: raise MAXCFG", MAXCFG); \
    cfgs[ncfg++] = (Config){__VA_ARGS__}; \
  } while (0)


typedef struct {
  const char *backend, *format;
  PetscBool   graph;
  const char *solver;          /* NULL: sptrsv_level */
  const char *levels, *storage; /* sptrsv_syncfree: -mat_sptrsv_levels, -mat_sptrsv_storage (NULL: the defaults) */
  const char *subgraph_rows;    /* sptrsv_locality: -mat_sptrsv_subgraph_rows (NULL: the default) */
  const char *partition;        /* sptrsv_locality: -mat_sptrsv_locality_partition (NULL: the default, auto) */
  const char *extra;            /* more options (sptrsv_supernodal), cleared by ClearOptionsString() (NULL: none) */
  const char *tag;              /* the report's tag (NULL: from the options above) */
} Config;


/* a short tag of a configuration's path and options, for the report */
static const char *ConfigTag(const Config *cfg)
{
  if (cfg->tag) return cfg->tag;
  if (!cfg->solver) return "    ";
  if (!strcmp(cfg->solver, MATSOLVERSPTRSVELEMENT)) return "-elm";
  if (!strcmp(cfg->solver, MATSOLVERSPTRSVLOCALITY)) {
    if (cfg->partition && !strcmp(cfg->partition, "regions")) return cfg->subgraph_rows ? "-lgr" : "-lg";
    if (cfg->partition && !strcmp(cfg->partition, "paper")) return "-lp";
    return cfg->subgraph_rows ? "-locr" : "-loc";
  }
  if (cfg->levels && !strcmp(cfg->levels, "alap")) return cfg->storage && !strcmp(cfg->storage, "warpell") ? "-sfae" : "-sfa";
  if (cfg->levels && !strcmp(cfg->levels, "natural")) return cfg->storage && !strcmp(cfg->storage, "warpell") ? "-sfne" : "-sfn";
  if (cfg->levels && !strcmp(cfg->levels, "runs")) return "-sfr";
  return cfg->storage && !strcmp(cfg->storage, "warpell") ? "-sfe" : "-sf";
}

static PetscInt npass = 0, nfail = 0, nskip = 0;


/* ---- factors ------------------------------------------------------------------------------------- */

static void FactorInfo(const Case *c, MatFactorInfo *info)
{
  (void)MatFactorInfoInitialize(info);
  info->levels        = c->levels;
  info->fill          = 1.0;
  info->diagonal_fill = 0;
  info->zeropivot     = 100.0 * PETSC_MACHINE_EPSILON;
  if (c->type == GEN_FILE) { /* real matrices may have zero or tiny pivots */
    info->shifttype   = (PetscReal)MAT_SHIFT_NONZERO;
    info->shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
  } else info->shifttype = (PetscReal)MAT_SHIFT_NONE;
}

/* an ILU(0) factor with the given backend, format and graph option. The options are global while the
   triangles are set up: the symbolic factorization sets up L and U, a first transpose solve sets up L^T
   and U^T (-mat_sptrsv_graph is read at each setup). Errors are returned, not printed: a Matrix Market
   matrix whose factorization fails is skipped. */
static PetscErrorCode MakeFactor(Mat A, const Case *c, IS row, IS col, const Config *cfg, Mat *F)
{
  MatFactorInfo info;
  Vec           b, x;

  PetscFunctionBeginUser;
  FactorInfo(c, &info);
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_backend", cfg->backend));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_format", cfg->format));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_graph", cfg->graph ? "1" : "0"));
  /* the kernels are compared on the same factor values: the host numeric phase (the GPU one is checked against it by
     check_factor.c; its FMA rounding differs by up to 5e-5 relative on rajat19 without a shift) */
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_factor_device", "0"));
  if (cfg->levels) PetscCall(PetscOptionsSetValue(NULL, strcmp(cfg->levels, "natural") && strcmp(cfg->levels, "runs") ? "-mat_sptrsv_levels" : "-mat_sptrsv_dispatch", cfg->levels));
  if (cfg->storage) PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_storage", cfg->storage));
  if (cfg->subgraph_rows) PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_subgraph_rows", cfg->subgraph_rows));
  if (cfg->partition) PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_locality_partition", cfg->partition));
  if (cfg->extra) PetscCall(PetscOptionsInsertString(NULL, cfg->extra));
  PetscCall(MatGetFactor(A, cfg->solver ? cfg->solver : MATSOLVERSPTRSVLEVEL, MAT_FACTOR_ILU, F));
  PetscCall(MatILUFactorSymbolic(*F, A, row, col, &info));
  PetscCall(MatLUFactorNumeric(*F, A, &info));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(MatSolveTranspose(*F, b, x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_backend"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_format"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_graph"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_levels"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_dispatch"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_storage"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_subgraph_rows"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_locality_partition"));
  PetscCall(ClearOptionsString(cfg->extra));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Refactor(Mat A, const Case *c, Mat F)
{
  MatFactorInfo info;

  PetscFunctionBeginUser;
  FactorInfo(c, &info);
  PetscCall(MatLUFactorNumeric(F, A, &info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- comparisons --------------------------------------------------------------------------------- */

/* a vector for a factor's solves: with a CUDA PETSc and the cuda backend, a VECCUDA (in place) for
   every right-hand side but the last, which uses host vectors (the copy-in/out path) */
static PetscErrorCode MakeVec(PetscInt n, const Config *cfg, PetscInt k, PetscInt nrhs, Vec *v)
{
  PetscFunctionBeginUser;
  PetscCall(VecCreate(PETSC_COMM_SELF, v));
  PetscCall(VecSetSizes(*v, n, n));
#if defined(PETSC_HAVE_CUDA)
  if (!strcmp(cfg->backend, "cuda") && k < nrhs - 1) PetscCall(VecSetType(*v, VECCUDA));
  else PetscCall(VecSetType(*v, VECSEQ));
#else
  PetscCall(VecSetType(*v, VECSEQ));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CopyValues(Vec from, Vec to)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(from, &n));
  PetscCall(VecGetArrayRead(from, &a));
  PetscCall(VecGetArrayWrite(to, &b));
  PetscCall(PetscArraycpy(b, a, n));
  PetscCall(VecRestoreArrayWrite(to, &b));
  PetscCall(VecRestoreArrayRead(from, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||x - ref||_inf / ||ref||_inf, on the host (NaN counts as an infinite error) */
static PetscErrorCode RelErr(Vec x, Vec ref, PetscReal *err)
{
  const PetscScalar *a, *r;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(ref, &n));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(ref, &r));
  *err = RelErrInf(n, a, r); /* examples/common/relerr.h, through check_sweeps.h */
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(VecRestoreArrayRead(ref, &r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max relative error of F's solves (transpose or not) against the reference solutions xref[k] */
static PetscErrorCode CompareSolves(Mat F, const Config *cfg, PetscInt nrhs, Vec *b, Vec *xref, PetscBool transpose, PetscReal *err)
{
  PetscInt n;

  PetscFunctionBeginUser;
  *err = 0;
  PetscCall(VecGetLocalSize(b[0], &n));
  for (PetscInt k = 0; k < nrhs; k++) {
    Vec       bt, xt;
    PetscReal e = 0;
    PetscCall(MakeVec(n, cfg, k, nrhs, &bt));
    PetscCall(MakeVec(n, cfg, k, nrhs, &xt));
    PetscCall(CopyValues(b[k], bt));
    PetscCall(VecSet(xt, -12345.0)); /* a stale value must not survive the solve */
    if (transpose) PetscCall(MatSolveTranspose(F, bt, xt));
    else PetscCall(MatSolve(F, bt, xt));
    PetscCall(RelErr(xt, xref[k], &e));
    *err = PetscMax(*err, e);
    PetscCall(VecDestroy(&bt));
    PetscCall(VecDestroy(&xt));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReferenceSolves(Mat Fref, PetscInt nrhs, Vec *b, Vec *xs, Vec *xt)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nrhs; k++) {
    PetscCall(MatSolve(Fref, b[k], xs[k]));
    PetscCall(MatSolveTranspose(Fref, b[k], xt[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrintHeader(void)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-26s %8s %9s %13s %-7s %-8s %-5s %-6s %10s %10s %s\n", "case", "n", "nnz", "levels(L/U)", "backend", "fmt", "graph", "phase", "err_solve", "err_trans", "result"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- one case ------------------------------------------------------------------------------------ */

static PetscErrorCode RunCase(const Case *c, PetscInt ncfg, const Config *cfgs, PetscInt nrhs, PetscReal tol, PetscBool refactor, PetscRandom rnd)
{
  Mat             A, Fref = NULL, F[MAXCFG] = {NULL};
  IS              row = NULL, col = NULL;
  Vec            *b, *xs, *xt;
  PetscInt        n, nphase = refactor ? 2 : 1;
  MatInfo         minfo;
  SpTrsvStats     Ls, Us;
  const Config    ref = {"host", "csr", PETSC_FALSE, NULL};
  PetscErrorCode  ierr;

  PetscFunctionBeginUser;
  PetscCheck(ncfg <= MAXCFG, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " configurations, more than MAXCFG = %d", ncfg, MAXCFG);
  PetscCall(BuildCase(c, &A));
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(MatGetInfo(A, MAT_LOCAL, &minfo));
  PetscCall(MatGetOrdering(A, c->nd ? MATORDERINGND : (c->rcm ? MATORDERINGRCM : MATORDERINGNATURAL), &row, &col));

  /* the reference factor; a Matrix Market matrix whose ILU(0) fails is skipped */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MakeFactor(A, c, row, col, &ref, &Fref);
  for (PetscInt k = 0; !ierr && k < ncfg; k++) ierr = MakeFactor(A, c, row, col, &cfgs[k], &F[k]);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    const char *text     = NULL;
    const char *specific = NULL;
    (void)PetscErrorMessage(ierr, &text, (void *)&specific); /* char ** before PETSc 3.19-ish, const char ** after */
    PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_backend"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_format"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_graph"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_levels"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_dispatch"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_storage"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_subgraph_rows"));
    for (PetscInt k = 0; k < ncfg; k++) PetscCall(ClearOptionsString(cfgs[k].extra)); /* the failed MakeFactor() left its own set */
    PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_locality_partition"));
    if (c->type == GEN_FILE) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-26s %8" PetscInt_FMT " %9.0f  SKIP: factorization failed (error %d: %s)\n", c->name, n, (double)minfo.nz_used, (int)ierr, specific ? specific : (text ? text : "?")));
      nskip++;
    } else {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-26s %8" PetscInt_FMT " %9.0f  FAIL: factorization/setup failed (error %d: %s)\n", c->name, n, (double)minfo.nz_used, (int)ierr, specific ? specific : (text ? text : "?")));
      nfail++;
    }
    goto cleanup;
  }
  PetscCall(MatSpTrsvGetStats(Fref, &Ls, &Us));

  PetscCall(PetscMalloc3(nrhs, &b, nrhs, &xs, nrhs, &xt));
  for (PetscInt k = 0; k < nrhs; k++) {
    PetscCall(MatCreateVecs(A, &xs[k], &b[k]));
    PetscCall(VecDuplicate(xs[k], &xt[k]));
  }
  for (PetscInt phase = 0; phase < nphase; phase++) {
    if (phase == 1) { /* new values, same pattern: L and U both change (MatShift), values re-uploaded */
      PetscCall(MatScale(A, 2.0));
      PetscCall(MatShift(A, 1.0));
      PetscCall(Refactor(A, c, Fref));
      for (PetscInt k = 0; k < ncfg; k++) PetscCall(Refactor(A, c, F[k]));
    }
    for (PetscInt k = 0; k < nrhs; k++) PetscCall(VecSetRandom(b[k], rnd));
    PetscCall(ReferenceSolves(Fref, nrhs, b, xs, xt));
    for (PetscInt k = 0; k < ncfg; k++) {
      PetscReal   es, et;
      const char *bname;
      PetscBool   ok;
      PetscCall(MatSpTrsvGetBackend(F[k], &bname));
      PetscCall(CompareSolves(F[k], &cfgs[k], nrhs, b, xs, PETSC_FALSE, &es));
      PetscCall(CompareSolves(F[k], &cfgs[k], nrhs, b, xt, PETSC_TRUE, &et));
      ok = (PetscBool)(es < tol && et < tol && !strcmp(bname, cfgs[k].backend));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-26s %8" PetscInt_FMT " %9.0f %6" PetscInt_FMT "/%-6" PetscInt_FMT " %-7s %-4s%s %-5s %-6s %10.2e %10.2e %s%s\n", c->name, n, (double)minfo.nz_used, Ls.nlevels, Us.nlevels, bname, cfgs[k].format, ConfigTag(&cfgs[k]),
                            strcmp(cfgs[k].backend, "cuda") ? "-" : (cfgs[k].graph ? "on" : "off"), phase ? "refac" : "fresh", (double)es, (double)et, ok ? "PASS" : "FAIL", strcmp(bname, cfgs[k].backend) ? " (wrong backend)" : ""));
      if (ok) npass++;
      else nfail++;
    }
  }
  for (PetscInt k = 0; k < nrhs; k++) {
    PetscCall(VecDestroy(&b[k]));
    PetscCall(VecDestroy(&xs[k]));
    PetscCall(VecDestroy(&xt[k]));
  }
  PetscCall(PetscFree3(b, xs, xt));
cleanup:
  PetscCall(MatDestroy(&Fref));
  for (PetscInt k = 0; k < ncfg; k++) PetscCall(MatDestroy(&F[k]));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}


/* ---- PC gs: sweeps on the CUDA backend against the host backend ------------------------------------ */

/* a PC gs on A with the given backend and options (prefix gsck_) */
static PetscErrorCode MakeGS(Mat A, const char *backend, const char *opts, PC *pc)
{
  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, pc));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetType(*pc, PCGS));
  PetscCall(PCSetOptionsPrefix(*pc, "gsck_"));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(PetscOptionsSetValue(NULL, "-gsck_pc_gs_backend", backend));
  PetscCall(PCSetFromOptions(*pc));
  PetscCall(PCSetUp(*pc));
  { /* the options of one configuration must not leak into the next */
    const char *keys[] = {"-gsck_pc_gs_scheduler", "-gsck_pc_gs_format", "-gsck_pc_gs_type", "-gsck_pc_gs_its", "-gsck_pc_gs_omega", "-gsck_pc_gs_backend"};
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) PetscCall(PetscOptionsClearValue(NULL, keys[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApply (2 iterations from zero), PCApplyRichardson (2 outer iterations from a random iterate) and
   PCApplyTranspose (one iteration) on cuda vs host, for every scheduler/format/sweep/omega combination */
static PetscErrorCode CheckGS(Mat A, const char *name, PetscRandom rnd)
{
  const char *opts[] = {"-gsck_pc_gs_scheduler level -gsck_pc_gs_format csr", "-gsck_pc_gs_scheduler element -gsck_pc_gs_format csr", "-gsck_pc_gs_scheduler level -gsck_pc_gs_format csc", "-gsck_pc_gs_scheduler element -gsck_pc_gs_format csc"};
  const char *kind[] = {"-gsck_pc_gs_type symmetric -gsck_pc_gs_its 2", "-gsck_pc_gs_type forward -gsck_pc_gs_omega 1.3 -gsck_pc_gs_its 2", "-gsck_pc_gs_type backward -gsck_pc_gs_omega 0.7 -gsck_pc_gs_its 2"};
  Vec         b, x0, yh, yc, w;
  PetscInt    outits;
  PCRichardsonConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &b, &x0));
  PetscCall(VecDuplicate(b, &yh));
  PetscCall(VecDuplicate(b, &yc));
  PetscCall(VecDuplicate(b, &w));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(VecSetRandom(x0, rnd));
  for (PetscInt o = 0; o < 4; o++)
    for (PetscInt t = 0; t < 3; t++) {
      PC        ph, pc;
      char      all[512];
      PetscReal e[3], nrm, err;
      PetscCall(PetscSNPrintf(all, sizeof(all), "%s %s", opts[o], kind[t]));
      PetscCall(MakeGS(A, "host", all, &ph));
      PetscCall(MakeGS(A, "cuda", all, &pc));
      for (PetscInt m = 0; m < 3; m++) {
        if (m == 0) {
          PetscCall(PCApply(ph, b, yh));
          PetscCall(PCApply(pc, b, yc));
        } else if (m == 1) {
          PetscCall(VecCopy(x0, yh));
          PetscCall(VecCopy(x0, yc));
          PetscCall(PCApplyRichardson(ph, b, yh, w, 0, 0, 0, 2, PETSC_FALSE, &outits, &reason));
          PetscCall(PCApplyRichardson(pc, b, yc, w, 0, 0, 0, 2, PETSC_FALSE, &outits, &reason));
        } else {
          PetscCall(PCGSSetIterations(ph, 1));
          PetscCall(PCGSSetIterations(pc, 1));
          PetscCall(PCApplyTranspose(ph, b, yh));
          PetscCall(PCApplyTranspose(pc, b, yc));
        }
        PetscCall(VecNorm(yh, NORM_INFINITY, &nrm));
        PetscCall(VecAXPY(yc, -1.0, yh));
        PetscCall(VecNorm(yc, NORM_INFINITY, &err));
        e[m] = err / PetscMax(nrm, PETSC_SMALL);
      }
      {
        const PetscBool ok = (PetscBool)(e[0] < 1e-12 && e[1] < 1e-12 && e[2] < 1e-12);
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "gs %-22s %-50s apply %9.2e richardson %9.2e transpose %9.2e %s\n", name, all, (double)e[0], (double)e[1], (double)e[2], ok ? "PASS" : "FAIL"));
        if (ok) npass++;
        else nfail++;
      }
      PetscCall(PCDestroy(&ph));
      PetscCall(PCDestroy(&pc));
    }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&yh));
  PetscCall(VecDestroy(&yc));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a structurally nonsymmetric convection-diffusion matrix (two-vector CSR sweeps) */
static PetscErrorCode BuildNonsym(PetscInt m, Mat *A)
{
  PetscInt n = m * m;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 7, NULL, A));
  for (PetscInt r = 0; r < n; r++) {
    PetscInt i = r % m, j = r / m;
    if (i > 0) PetscCall(MatSetValue(*A, r, r - 1, -1.3, INSERT_VALUES));
    if (i < m - 1) PetscCall(MatSetValue(*A, r, r + 1, -0.7, INSERT_VALUES));
    if (j > 0) PetscCall(MatSetValue(*A, r, r - m, -1.0, INSERT_VALUES));
    if (j < m - 1) PetscCall(MatSetValue(*A, r, r + m, -1.0, INSERT_VALUES));
    if (r % 5 == 0 && r + 2 * m + 1 < n) PetscCall(MatSetValue(*A, r, r + 2 * m + 1, -0.3, INSERT_VALUES));
    PetscCall(MatSetValue(*A, r, r, 5.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckGSAll(PetscBool avail, PetscRandom rnd)
{
  Mat       A;
  PetscBool quick = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-gs_quick", &quick, NULL));
  if (!avail) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "gs: CUDA backend unavailable, sweeps not compared\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvBuildStencil(64, 64, 1, 5, &A));
  PetscCall(CheckGS(A, "lap2d5_64x64", rnd));
  PetscCall(MatDestroy(&A));
  if (quick) PetscFunctionReturn(PETSC_SUCCESS); /* sanitizer runs */
  PetscCall(SpTrsvBuildStencil(32, 32, 32, 27, &A));
  PetscCall(CheckGS(A, "lap3d27_32x32x32", rnd));
  PetscCall(MatDestroy(&A));
  PetscCall(BuildNonsym(80, &A));
  PetscCall(CheckGS(A, "nonsym_80x80", rnd));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Case                    *cases;
  PetscInt                 ncases = 0, ncfg = 0, nrhs = 3;
  Config                   cfgs[MAXCFG];
  char                     matdir[PETSC_MAX_PATH_LEN] = "", only[4096] = "", only_solver[64] = "", only_tag[64] = "", skip_solver[256] = "";
  PetscBool                hasdir = PETSC_FALSE, hasonly = PETSC_FALSE, norefac = PETSC_FALSE, list = PETSC_FALSE, with_chain = PETSC_FALSE, avail;
  PetscBool                list_configs = PETSC_FALSE, assume_cuda = PETSC_FALSE;
  PetscReal                tol = 1e-12, tol_mm = 1e-9;
  const SpTrsvBackendOps  *cuda;
  const char              *why;
  PetscRandom              rnd;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-matdir", matdir, sizeof(matdir), &hasdir));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-cases", only, sizeof(only), &hasonly));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nrhs", &nrhs, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol_mm", &tol_mm, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-no_refactor", &norefac, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-list", &list, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-list_configs", &list_configs, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-assume_cuda", &assume_cuda, NULL));
  PetscCheck(!assume_cuda || list_configs, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "-assume_cuda only lists the configurations: give -list_configs too");
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-with_chain", &with_chain, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-only_solver", only_solver, sizeof(only_solver), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-only_tag", only_tag, sizeof(only_tag), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-skip_solver", skip_solver, sizeof(skip_solver), NULL));
  PetscCheck(nrhs >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-nrhs must be positive");

  PetscCall(PetscMalloc1(MAXCASES, &cases));
  /* 2-D 5-point: small (sanitizer case), square, thin (16 rows per level at most), large */
  PetscCall(AddStencil(cases, &ncases, 5, 64, 64, 1, PETSC_FALSE));
  PetscCall(AddStencil(cases, &ncases, 5, 512, 512, 1, PETSC_FALSE));
  PetscCall(AddStencil(cases, &ncases, 5, 16, 4096, 1, PETSC_FALSE));
  PetscCall(AddStencil(cases, &ncases, 5, 1024, 1024, 1, PETSC_FALSE));
  PetscCall(AddStencil(cases, &ncases, 5, 128, 128, 1, PETSC_TRUE));
  /* 2-D 9-point */
  PetscCall(AddStencil(cases, &ncases, 9, 256, 256, 1, PETSC_FALSE));
  PetscCall(AddStencil(cases, &ncases, 9, 32, 2048, 1, PETSC_FALSE));
  /* 3-D 7-point: fused and separate launches, thin */
  PetscCall(AddStencil(cases, &ncases, 7, 32, 32, 32, PETSC_FALSE));
  PetscCall(AddStencil(cases, &ncases, 7, 64, 64, 64, PETSC_FALSE));
  PetscCall(AddStencil(cases, &ncases, 7, 8, 8, 2048, PETSC_FALSE));
  /* 3-D 27-point: long rows (K = 16) */
  PetscCall(AddStencil(cases, &ncases, 27, 32, 32, 32, PETSC_FALSE));
  PetscCall(AddStencil(cases, &ncases, 27, 48, 48, 48, PETSC_FALSE));
  PetscCall(AddStencil(cases, &ncases, 27, 8, 8, 1024, PETSC_FALSE));
  PetscCall(AddStencil(cases, &ncases, 27, 16, 16, 16, PETSC_TRUE));
  /* 27-point small enough for racecheck to go through every configuration in one step (16^3 did 36 of them in 400 s) */
  PetscCall(AddStencil(cases, &ncases, 27, 10, 10, 10, PETSC_TRUE));
  /* filled factors in nested dissection: wide supernodes (sptrsv_supernodal's team and cuBLAS kernels) */
  PetscCall(AddFilled(cases, &ncases, 5, 96, 96, 1, 40));
  PetscCall(AddFilled(cases, &ncases, 7, 20, 20, 20, 30));
  /* chains: one row per level */
  PetscCall(AddChain(cases, &ncases, 100000, 2));
  PetscCall(AddChain(cases, &ncases, 100000, 3));
  /* element path: a 10^6-row chain, a row depending on every earlier row, mostly empty rows */
  PetscCall(AddShape(cases, &ncases, GEN_CHAIN, 1000000, "elem_chain_bidiag"));
  cases[ncases - 1].npts = 2;
  PetscCall(AddShape(cases, &ncases, GEN_DENSEROW, 5000, "elem_denserow"));
  PetscCall(AddShape(cases, &ncases, GEN_EMPTYROWS, 300000, "elem_emptyrows"));
  /* strong locality (sptrsv_locality's chain kernel): every window width (2 .. 128: 1, 2 and 4 accumulators per lane),
     several groups per warp, a component interleaved with others (permuted rows), a last block cut short */
  PetscCall(AddBanded(cases, &ncases, GEN_BANDED, 20000, 1, PETSC_FALSE));
  PetscCall(AddBanded(cases, &ncases, GEN_BANDED, 20000, 2, PETSC_FALSE));
  PetscCall(AddBanded(cases, &ncases, GEN_BANDED, 20000, 8, PETSC_FALSE));
  PetscCall(AddBanded(cases, &ncases, GEN_BANDED, 20000, 32, PETSC_FALSE));
  PetscCall(AddBanded(cases, &ncases, GEN_BLOCKDIAG, 100000, 8, PETSC_FALSE));
  PetscCall(AddBanded(cases, &ncases, GEN_BLOCKDIAG, 100000, 32, PETSC_FALSE));
  PetscCall(AddBanded(cases, &ncases, GEN_BLOCKDIAG, 25000, 100, PETSC_FALSE));
  PetscCall(AddBanded(cases, &ncases, GEN_BLOCKDIAG, 50000, 16, PETSC_TRUE));
  PetscCall(AddBanded(cases, &ncases, GEN_BANDED, 2000, 2, PETSC_FALSE)); /* small ones for the sanitizers */
  PetscCall(AddBanded(cases, &ncases, GEN_BANDED, 3000, 32, PETSC_FALSE));
  PetscCall(AddBanded(cases, &ncases, GEN_BLOCKDIAG, 2500, 100, PETSC_FALSE));
  PetscCall(AddBanded(cases, &ncases, GEN_BLOCKDIAG, 5000, 16, PETSC_TRUE));
  /* long chains for racecheck: one group above SPTRSV_CHAIN_LONG_ROWS (4096 rows: the chain kernel loads further ahead) */
  PetscCall(AddBanded(cases, &ncases, GEN_BANDED, 4500, 1, PETSC_FALSE));
  PetscCall(AddBanded(cases, &ncases, GEN_BANDED, 4500, 32, PETSC_FALSE));
#if defined(SPTRSV_NO_MMLOAD)
  if (hasdir && matdir[0]) PetscCall(PetscPrintf(PETSC_COMM_SELF, "-matdir %s ignored: built without the Matrix Market reader (zlib missing)\n", matdir));
#else
  if (hasdir && matdir[0]) PetscCall(AddFiles(cases, &ncases, matdir));
#endif
  if (list) {
    const char *const *sw;
    PetscInt           nsw;
    for (PetscInt k = 0; k < ncases; k++) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", cases[k].name));
    PetscCall(SweepCheckNames(&nsw, &sw));
    for (PetscInt k = 0; k < nsw; k++) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", sw[k]));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "gs\nisai\n"));
    PetscCall(PetscFree(cases));
    PetscCall(PetscFinalize());
    return 0;
  }

  /* what runs: host csc always; the CUDA combinations when a device is usable */
  ADD_CONFIG("host", "csc", PETSC_FALSE, NULL);
  ADD_CONFIG("host", "csr", PETSC_FALSE, MATSOLVERSPTRSVSYNCFREE, "alap", "warpell", NULL, NULL);
  ADD_CONFIG("host", "csr", PETSC_FALSE, MATSOLVERSPTRSVSYNCFREE, "natural", "warpell", NULL, NULL);
  ADD_CONFIG("host", "csr", PETSC_FALSE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, "64");
  ADD_CONFIG("host", "csr", PETSC_FALSE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, "64", "regions");
  /* SN_BLOCKS: the dense-block kernels whatever the width (small cases may have no supernode as wide as the default
     -mat_sptrsv_supernode_min_width, which hands such a triangle to a nested sync-free solver) */
  ADD_CONFIG("host", "csr", PETSC_FALSE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, SN_BLOCKS, "-sn");
  ADD_CONFIG("host", "csr", PETSC_FALSE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode pull -mat_sptrsv_invert_diag -mat_sptrsv_merge" SN_BLOCKS, "-snpim");
  ADD_CONFIG("host", "csr", PETSC_FALSE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_invert_diag -mat_sptrsv_supernode_split always" SN_BLOCKS, "-snhs");
  ADD_CONFIG("host", "csr", PETSC_FALSE, MATSOLVERSPTRSVPINV, NULL, NULL, NULL, NULL, "-mat_sptrsv_pinv_fill 4", "-pv4");
  PetscCall(SpTrsvBackendCUDAGet(&cuda, &avail, &why));
  if (avail || assume_cuda) {
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, NULL);
    ADD_CONFIG("cuda", "csc", PETSC_FALSE, NULL);
    ADD_CONFIG("cuda", "csc", PETSC_TRUE, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVELEMENT);
    ADD_CONFIG("cuda", "csc", PETSC_FALSE, MATSOLVERSPTRSVELEMENT);
    ADD_CONFIG("cuda", "csc", PETSC_TRUE, MATSOLVERSPTRSVELEMENT);
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVSYNCFREE, "asap", NULL, NULL, NULL); /* the ASAP level dispatch (asked for: the default is runs on the GPU) */
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSYNCFREE, "alap", NULL, NULL, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVSYNCFREE, "asap", "warpell", NULL, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSYNCFREE, "alap", "warpell", NULL, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVSYNCFREE, "natural", NULL, NULL, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVSYNCFREE, "natural", "warpell", NULL, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVSYNCFREE, "runs", NULL, NULL, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSYNCFREE, "runs", NULL, NULL, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVSYNCFREE, "runs", NULL, NULL, NULL, "-mat_sptrsv_run_poll lane", "-sfrp"); /* one lane polls (the default: every lane) */
    /* the default cap (one block holds up to 227 KB of x), and 64 rows: many sub-graphs, levels and launches */
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, NULL);
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, "64");
    /* each partitioner forced: the paper's, and the regions (the best R of the model, and regions within 64 rows) */
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, NULL, "paper");
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, NULL, "regions");
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, "64", "regions");
    /* the kernel's stages forced down (the default takes the highest that fits: entries staged), packing off (the
       partition of locality run 2), and 64-row regions at stage 1; long rows (elem_denserow, the circuit matrices)
       run a warp each in all of them */
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, NULL, "regions", "-mat_sptrsv_locality_stage 0 -mat_sptrsv_locality_pack 0", "-ls0");
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, "64", "regions", "-mat_sptrsv_locality_stage 1", "-ls1");
    /* the kernels forced: the sub-graph slots everywhere; the chain (-with_chain: only cases whose reach fits a window) */
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, NULL, NULL, "-mat_sptrsv_locality_kernel slots", "-lsl");
    if (with_chain) ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, NULL, NULL, "-mat_sptrsv_locality_kernel chain", "-lch");
    /* the blocks kernel (-with_chain too: the same reach), with a graph; without, and with a bound of 3 on the blocks'
       condition number, so that blocks solved by substitution mix with inverted ones */
    if (with_chain) ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, NULL, NULL, "-mat_sptrsv_locality_kernel blocks", "-lbk");
    if (with_chain) ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, NULL, NULL, "-mat_sptrsv_locality_kernel blocks -mat_sptrsv_locality_block_cond 3", "-lbc");
    if (with_chain) ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVLOCALITY, NULL, NULL, NULL, NULL, "-mat_sptrsv_locality_kernel blocks -mat_sptrsv_locality_block_rows 128", "-lb128");
    /* auto (push for L, pull for U) with and without a graph; pull with the inverted diagonal; push with merging and
       relaxation and cuBLAS from width 8; pull with cuBLAS from width 8 (the filled cases have such supernodes) */
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, SN_BLOCKS, "-sn");
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, SN_BLOCKS, "-sn");
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode pull -mat_sptrsv_invert_diag" SN_BLOCKS, "-snpi");
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode push -mat_sptrsv_merge -mat_sptrsv_supernode_relax 0.3 -mat_sptrsv_supernode_cublas_width 8" SN_BLOCKS, "-snmc");
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode pull -mat_sptrsv_supernode_cublas_width 8" SN_BLOCKS, "-snpc");
    /* split levels (inverted supernodes as row tasks over many blocks): every level split, push and pull, graph off
       and on (the filled cases have wide supernodes, the chain single rows); and the model's choice (auto) */
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode push -mat_sptrsv_invert_diag -mat_sptrsv_supernode_split always" SN_BLOCKS, "-snus");
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode pull -mat_sptrsv_invert_diag -mat_sptrsv_supernode_split always" SN_BLOCKS, "-snls");
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_invert_diag -mat_sptrsv_supernode_split auto" SN_BLOCKS, "-snsa");
    /* -mat_sptrsv_invert_diag auto with a bound of 20: the filled cases mix inverted blocks and blocks solved by the
       column sweep, team and (split always) split ones, push and pull */
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_invert_diag_cond 20" SN_BLOCKS, "-snk");
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode push -mat_sptrsv_invert_diag_cond 20 -mat_sptrsv_supernode_split always" SN_BLOCKS, "-snkp");
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, "-mat_sptrsv_supernode_mode pull -mat_sptrsv_invert_diag_cond 20 -mat_sptrsv_supernode_split always" SN_BLOCKS, "-snkl");
    /* the default: narrow triangles delegated to a nested sync-free solver (its kernels, the forwarded refreshes:
       host values, and the GPU numeric ILU's device values), wide ones on the dense blocks */
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVSUPERNODAL, NULL, NULL, NULL, NULL, NULL, "-snsf");
    /* no fill (parts = pairs of levels on stencils: many launches, fused runs), and fill 4 (fewer, larger parts), graphs off and on */
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVPINV, NULL, NULL, NULL, NULL, NULL, "-pv");
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVPINV, NULL, NULL, NULL, NULL, NULL, "-pv");
    ADD_CONFIG("cuda", "csr", PETSC_TRUE, MATSOLVERSPTRSVPINV, NULL, NULL, NULL, NULL, "-mat_sptrsv_pinv_fill 4", "-pv4");
    /* cuSPARSE's SpSV behind our factors (host values, the GPU numeric ILU's device values, transposes); the automatic
       choice with its measured check (which may hand a triangle to cusparse at the first numeric factorization) */
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSVCUSPARSE, NULL, NULL, NULL, NULL, NULL, "-cusp");
    ADD_CONFIG("cuda", "csr", PETSC_FALSE, MATSOLVERSPTRSV, NULL, NULL, NULL, NULL, "-mat_sptrsv_auto_measure 1", "-auto");
  }
  if (avail) PetscCall(PetscPrintf(PETSC_COMM_SELF, "CUDA backend available (%s): comparing cuda csr/csc, graph off/on, the level, element, syncfree, locality, supernodal, pinv and cusparse paths and the automatic choice, and host csc, host syncfree, host locality, host supernodal and host pinv with host csr\n", why));
  else if (!assume_cuda) PetscCall(PetscPrintf(PETSC_COMM_SELF, "CUDA backend unavailable (%s): SKIPPING the CUDA comparisons; comparing host csc with host csr only\n", why));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "PETSc has CUDA: cuda solves use VECCUDA vectors in place (all but the last right-hand side) and host vectors (the last)\n"));
#else
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "PETSc without CUDA: cuda solves copy host vectors in and out\n"));
#endif
  if (only_solver[0]) { /* -only_solver: the configurations of one MatSolverType (sptrsv_level for the level ones) */
    PetscInt keep = 0;
    for (PetscInt f = 0; f < ncfg; f++)
      if (!strcmp(cfgs[f].solver ? cfgs[f].solver : MATSOLVERSPTRSVLEVEL, only_solver)) cfgs[keep++] = cfgs[f];
    ncfg = keep;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "-only_solver %s: %" PetscInt_FMT " configurations\n", only_solver, ncfg));
  }
  if (skip_solver[0]) { /* -skip_solver: without the configurations of these MatSolverTypes, a comma-separated list */
    PetscInt keep = 0;
    for (PetscInt f = 0; f < ncfg; f++) {
      PetscBool skip;
      PetscCall(PetscStrInList(cfgs[f].solver ? cfgs[f].solver : MATSOLVERSPTRSVLEVEL, skip_solver, ',', &skip));
      if (!skip) cfgs[keep++] = cfgs[f];
    }
    ncfg = keep;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "-skip_solver %s: %" PetscInt_FMT " configurations\n", skip_solver, ncfg));
  }
  if (only_tag[0]) { /* -only_tag: the configurations of these report tags without their dash, a comma-separated list (e.g.
                        lch: the chain kernel forced; PETSc would read "-lch" as an option of its own) */
    PetscInt keep = 0;
    PetscCheck(only_tag[0] != '-', PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-only_tag %s: give the tags without their dash (e.g. -only_tag lch,lbk)", only_tag);
    for (PetscInt f = 0; f < ncfg; f++) {
      const char *tag = ConfigTag(&cfgs[f]);
      PetscBool   want;

      PetscCall(PetscStrInList(tag[0] == '-' ? tag + 1 : tag, only_tag, ',', &want));
      if (want) cfgs[keep++] = cfgs[f];
    }
    ncfg = keep;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "-only_tag %s: %" PetscInt_FMT " configurations\n", only_tag, ncfg));
  }
  if (list_configs) { /* the configurations as they would run; with -assume_cuda: every registered path has a CUDA one */
    PetscInt npaths, missing = 0;
    for (PetscInt f = 0; f < ncfg; f++) PetscCall(PetscPrintf(PETSC_COMM_SELF, "config %-4s %-3s graph %-3s %-18s %s\n", cfgs[f].backend, cfgs[f].format, cfgs[f].graph ? "on" : "off", cfgs[f].solver ? cfgs[f].solver : MATSOLVERSPTRSVLEVEL, ConfigTag(&cfgs[f])));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " configurations\n", ncfg));
    PetscCall(SpTrsvPathGetCount(&npaths));
    for (PetscInt i = 0; assume_cuda && i < npaths; i++) {
      SpTrsvPath path;
      PetscInt   nc = 0;
      PetscCall(SpTrsvPathGetByIndex(i, &path));
      for (PetscInt f = 0; f < ncfg; f++)
        if (!strcmp(cfgs[f].backend, "cuda") && !strcmp(cfgs[f].solver ? cfgs[f].solver : MATSOLVERSPTRSVLEVEL, path->solvertype)) nc++;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "registered path %-18s %" PetscInt_FMT " CUDA configurations\n", path->solvertype, nc));
      if (!nc) missing++;
    }
    if (missing) PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAIL: %" PetscInt_FMT " registered paths without a CUDA configuration (add them to the configurations above)\n", missing));
    PetscCall(PetscFree(cases));
    PetscCall(PetscFinalize());
    return missing ? 1 : 0;
  }
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetSeed(rnd, 20240607));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(PrintHeader());
  for (PetscInt k = 0; k < ncases; k++) {
    if (hasonly && !InList(only, cases[k].name)) continue;
    if (cases[k].element_only) { /* host csc and the element configurations, one right-hand side */
      Config   ecfg[MAXCFG];
      PetscInt ne = 0;
      for (PetscInt f = 0; f < ncfg; f++)
        if (!strcmp(cfgs[f].backend, "host") || (cfgs[f].solver && !cfgs[f].extra && !cfgs[f].tag)) ecfg[ne++] = cfgs[f]; /* not the supernodal ones: a launch per level */
      PetscCall(RunCase(&cases[k], ne, ecfg, 1, tol, PETSC_FALSE, rnd));
    } else PetscCall(RunCase(&cases[k], ncfg, cfgs, nrhs, cases[k].type == GEN_FILE ? tol_mm : tol, (PetscBool)!norefac, rnd));
  }
  if (!hasonly || InList(only, "gs")) PetscCall(CheckGSAll(avail, rnd));
  { /* sweep solvers directly (both backends against a natural-order sweep), pointwise_mult */
    const char *const *sw;
    PetscInt           nsw;
    PetscCall(SweepCheckNames(&nsw, &sw));
    for (PetscInt w = 0; w < nsw; w++)
      if (!hasonly || InList(only, sw[w])) PetscCall(SweepCheckRun(w, avail ? cuda : NULL, rnd, tol, &npass, &nfail));
  }
  if (!hasonly || InList(only, "isai")) { /* PC isai: GPU apply (cuSPARSE SpMV) against the host apply */
    PetscBool quick = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-gs_quick", &quick, NULL));
    PetscCall(ISAICheckRun(rnd, tol, quick, &npass, &nfail));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "tolerances: %g (generated), %g (Matrix Market); %" PetscInt_FMT " skipped\n", (double)tol, (double)tol_mm, nskip));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  /* a check that compared nothing (filters that left no configuration, cases that matched no name) is a failure, not a pass */
  if (npass + nfail == 0) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAIL: no comparison ran (check -cases, -only_solver, -only_tag)\n"));
    nfail = 1;
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFree(cases));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
