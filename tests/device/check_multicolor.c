static char help[] = "Device check of the multicolor sweeps of PC gs (-pc_gs_ordering multicolor): the CUDA kernels (src/cuda/gs_multicolor.cu)\n"
                     "against the host executor (src/mat/gs/multicolor.c) on random right-hand sides, forward/backward/symmetric,\n"
                     "omega != 1, its > 1, the diagonal shift, CUDA graphs on and off, the transposed application, values refreshed\n"
                     "twice, and, with a CUDA PETSc, a MATSEQAIJCUSPARSE matrix whose values are gathered on the GPU in place. The colouring\n"
                     "(jp, dmda, natural) and colour-ordered storage built on the GPU equal the host's entry for entry.\n"
                     "The exact ordering (-pc_gs_ordering exact) on a MATSEQAIJCUSPARSE matrix likewise: its L, U and inverse diagonal\n"
                     "gathered on the GPU (src/cuda/gs_exact.cu) at setup and at every refresh, handed to the level and element sweeps\n"
                     "(CSR and CSC) device to device, against the host PC on the same values; a zero diagonal and a NaN fall back to the host.\n"
                     "  -require_cuda   fail when the CUDA backend is unavailable (tests/device/run.sh); otherwise only the host runs\n"
                     "  -quick          the small grid only (compute-sanitizer runs)\n\n";

#include <petscksp.h>
#include <petscsptrsv.h>
#include <sptrsv/backend.h>
#include <sptrsv/multicolor.h>
#include "../../examples/common/stencil.h"

static PetscInt npass = 0, nfail = 0;

static void Count(PetscBool ok)
{
  if (ok) npass++;
  else nfail++;
}

/* a PC gs with the ordering (exact, multicolor) on A with the backend and the options (prefix mcck_) */
static PetscErrorCode MakeGS(Mat A, const char *backend, const char *ordering, const char *opts, PC *pc)
{
  const char *keys[] = {"-mcck_pc_gs_type", "-mcck_pc_gs_its", "-mcck_pc_gs_omega", "-mcck_pc_gs_diagonal_shift", "-mcck_pc_gs_graph", "-mcck_pc_gs_backend", "-mcck_pc_gs_ordering", "-mcck_pc_gs_scheduler", "-mcck_pc_gs_format"};

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, pc));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetType(*pc, PCGS));
  PetscCall(PCSetOptionsPrefix(*pc, "mcck_"));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(PetscOptionsSetValue(NULL, "-mcck_pc_gs_backend", backend));
  PetscCall(PetscOptionsSetValue(NULL, "-mcck_pc_gs_ordering", ordering));
  PetscCall(PCSetFromOptions(*pc));
  PetscCall(PCSetUp(*pc));
  for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) PetscCall(PetscOptionsClearValue(NULL, keys[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* |yc - yh| / |yh| (inf norms), through host arrays: yh and yc may be of different types (VECSEQ, VECSEQCUDA) */
static PetscErrorCode RelErr(Vec yh, Vec yc, PetscReal *e)
{
  const PetscScalar *h, *c;
  PetscInt           n;
  PetscReal          nrm = 0, err = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(yh, &n));
  PetscCall(VecGetArrayRead(yh, &h));
  PetscCall(VecGetArrayRead(yc, &c));
  for (PetscInt i = 0; i < n; i++) {
    nrm = PetscMax(nrm, PetscAbsScalar(h[i]));
    err = PetscMax(err, PetscAbsScalar(c[i] - h[i]));
  }
  PetscCall(VecRestoreArrayRead(yc, &c));
  PetscCall(VecRestoreArrayRead(yh, &h));
  *e = (PetscIsInfOrNanReal(err) || PetscIsInfOrNanReal(nrm)) ? PETSC_INFINITY : err / PetscMax(nrm, PETSC_SMALL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = x through host arrays (x and y may be of different types) */
static PetscErrorCode CopyAcross(Vec x, Vec y)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayWrite(y, &b));
  PetscCall(PetscArraycpy(b, a, n));
  PetscCall(VecRestoreArrayWrite(y, &b));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether -ksp_view of pc holds str (written to a scratch file and read back) */
static PetscErrorCode ViewContains(PC pc, const char *str, PetscBool *has)
{
  PetscViewer v;
  char        path[PETSC_MAX_PATH_LEN] = "check_multicolor_view.txt", buf[8192];
  FILE       *f;
  size_t      len;

  PetscFunctionBeginUser;
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &v));
  PetscCall(PCView(pc, v));
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(PetscFOpen(PETSC_COMM_SELF, path, "r", &f));
  len      = fread(buf, 1, sizeof(buf) - 1, f);
  buf[len] = 0;
  PetscCall(PetscFClose(PETSC_COMM_SELF, f));
  (void)remove(path);
  *has = (PetscBool)(strstr(buf, str) != NULL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApply (its from zero), PCApplyRichardson (2 outer iterations from a random iterate) and PCApplyTranspose (one
   iteration) of the cuda PC (on Ad: A itself or its cusparse copy) against the host PC (on A) */
static PetscErrorCode Compare(Mat A, Mat Ad, const char *name, const char *ord, const char *opts, PetscBool cuda, PetscRandom rnd, const char *phase, PC *ph, PC *pc)
{
  Vec                         b, x0, yh, yc, bd, x0d, w, wd;
  PetscInt                    outits;
  PCRichardsonConvergedReason reason;
  PetscReal                   e[3] = {0, 0, 0};
  PetscBool                   ok;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &b, &x0));
  PetscCall(VecDuplicate(b, &yh));
  PetscCall(VecDuplicate(b, &w));
  PetscCall(MatCreateVecs(Ad, &bd, &x0d));
  PetscCall(VecDuplicate(bd, &yc));
  PetscCall(VecDuplicate(bd, &wd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(VecSetRandom(x0, rnd));
  PetscCall(CopyAcross(b, bd));
  PetscCall(CopyAcross(x0, x0d));
  for (PetscInt m = 0; m < 3; m++) {
    if (m == 0) {
      PetscCall(PCApply(*ph, b, yh));
      if (cuda) PetscCall(PCApply(*pc, bd, yc));
    } else if (m == 1) {
      PetscCall(VecCopy(x0, yh));
      PetscCall(VecCopy(x0d, yc)); /* same types */
      PetscCall(PCApplyRichardson(*ph, b, yh, w, 0, 0, 0, 2, PETSC_FALSE, &outits, &reason));
      if (cuda) PetscCall(PCApplyRichardson(*pc, bd, yc, wd, 0, 0, 0, 2, PETSC_FALSE, &outits, &reason));
    } else {
      PetscCall(PCGSSetIterations(*ph, 1));
      PetscCall(PCApplyTranspose(*ph, b, yh));
      if (cuda) {
        PetscCall(PCGSSetIterations(*pc, 1));
        PetscCall(PCApplyTranspose(*pc, bd, yc));
      }
    }
    if (cuda) PetscCall(RelErr(yh, yc, &e[m]));
  }
  ok = (PetscBool)(e[0] < 1e-12 && e[1] < 1e-12 && e[2] < 1e-12);
  if (cuda) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-5s %-18s %-5s %-86s apply %9.2e richardson %9.2e transpose %9.2e %s\n", ord, name, phase, opts, (double)e[0], (double)e[1], (double)e[2], ok ? "PASS" : "FAIL"));
    Count(ok);
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&yh));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&bd));
  PetscCall(VecDestroy(&x0d));
  PetscCall(VecDestroy(&yc));
  PetscCall(VecDestroy(&wd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the short name of an ordering in the output, and its option value */
static const char *OrdName(PetscBool exact)
{
  return exact ? "exact" : "mc";
}

static const char *OrdValue(PetscBool exact)
{
  return exact ? "exact" : "multicolor";
}

/* on a cusparse matrix the cuda PC says in -ksp_view that its last values were gathered on the GPU */
static PetscErrorCode CheckViewDevice(PC pc, const char *name, PetscBool exact, const char *phase)
{
  PetscBool dev;

  PetscFunctionBeginUser;
  PetscCall(ViewContains(pc, "values gathered on the GPU from the matrix's device array (no host copy)", &dev));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-5s %-18s %-5s values gathered on the GPU from the cusparse matrix: %s\n", OrdName(exact), name, phase, dev ? "PASS" : "FAIL"));
  Count(dev);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* every option set on A (host) and Ad (cuda); then new values on the same pattern twice (MatScale, MatShift), PCSetUp,
   compare again */
static PetscErrorCode CheckMatrix(Mat A0, const char *name, PetscBool cuda, PetscBool devmat, PetscBool exact, PetscRandom rnd)
{
  const char *mcopts[] = {
    "-mcck_pc_gs_type symmetric -mcck_pc_gs_its 1",
    "-mcck_pc_gs_type symmetric -mcck_pc_gs_its 3 -mcck_pc_gs_omega 1.3",
    "-mcck_pc_gs_type forward -mcck_pc_gs_its 2 -mcck_pc_gs_omega 0.8",
    "-mcck_pc_gs_type backward -mcck_pc_gs_its 2 -mcck_pc_gs_omega 1.5 -mcck_pc_gs_diagonal_shift 0.2",
    "-mcck_pc_gs_type symmetric -mcck_pc_gs_its 2 -mcck_pc_gs_graph 0",
    "-mcck_pc_gs_type forward -mcck_pc_gs_its 1 -mcck_pc_gs_graph 0 -mcck_pc_gs_diagonal_shift 0.1",
  };
  /* the exact ordering's sweeps on both paths that run them, rows (CSR) and columns (CSC) */
  const char *exopts[] = {
    "-mcck_pc_gs_type symmetric -mcck_pc_gs_its 1",
    "-mcck_pc_gs_type symmetric -mcck_pc_gs_its 3 -mcck_pc_gs_omega 1.3 -mcck_pc_gs_scheduler level",
    "-mcck_pc_gs_type forward -mcck_pc_gs_its 2 -mcck_pc_gs_omega 0.8 -mcck_pc_gs_format csc",
    "-mcck_pc_gs_type backward -mcck_pc_gs_its 2 -mcck_pc_gs_omega 1.5 -mcck_pc_gs_diagonal_shift 0.2 -mcck_pc_gs_scheduler level -mcck_pc_gs_format csc",
    "-mcck_pc_gs_type symmetric -mcck_pc_gs_its 2 -mcck_pc_gs_graph 0 -mcck_pc_gs_format csc",
    "-mcck_pc_gs_type forward -mcck_pc_gs_its 1 -mcck_pc_gs_graph 0 -mcck_pc_gs_diagonal_shift 0.1 -mcck_pc_gs_scheduler level",
  };
  const char       **opts  = exact ? exopts : mcopts;
  const char *const  ord   = OrdName(exact);
  const PetscScalar  sc[2] = {0.8, 1.1}, sh[2] = {0.25, -0.1};
  const char *const  ph2[2] = {"refr1", "refr2"};

  PetscFunctionBeginUser;
  for (size_t o = 0; o < sizeof(mcopts) / sizeof(mcopts[0]); o++) {
    Mat A, Ad = NULL;
    PC  ph, pc = NULL;

    PetscCall(MatDuplicate(A0, MAT_COPY_VALUES, &A));
#if defined(PETSC_HAVE_CUDA)
    if (devmat) PetscCall(MatConvert(A, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, &Ad));
#endif
    if (!Ad) {
      PetscCall(PetscObjectReference((PetscObject)A));
      Ad = A;
    }
    PetscCall(MakeGS(A, "host", OrdValue(exact), opts[o], &ph));
    if (cuda) PetscCall(MakeGS(Ad, "cuda", OrdValue(exact), opts[o], &pc));
    if (cuda && Ad != A) PetscCall(CheckViewDevice(pc, name, exact, "fresh"));
    PetscCall(Compare(A, Ad, name, ord, opts[o], cuda, rnd, "fresh", &ph, &pc));
    /* new values on the same pattern, twice: scale, shift (the refresh: no re-colouring, no re-analysis) */
    for (PetscInt r = 0; r < 2; r++) {
      PetscCall(MatScale(A, sc[r]));
      PetscCall(MatShift(A, sh[r]));
      if (Ad != A) {
        PetscCall(MatScale(Ad, sc[r]));
        PetscCall(MatShift(Ad, sh[r]));
      }
      PetscCall(PCSetOperators(ph, A, A));
      PetscCall(PCSetUp(ph));
      if (cuda) {
        PetscCall(PCSetOperators(pc, Ad, Ad));
        PetscCall(PCSetUp(pc));
        if (Ad != A) PetscCall(CheckViewDevice(pc, name, exact, ph2[r]));
      }
      PetscCall(Compare(A, Ad, name, ord, opts[o], cuda, rnd, ph2[r], &ph, &pc));
    }
    PetscCall(PCDestroy(&ph));
    PetscCall(PCDestroy(&pc));
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&Ad));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a grid description of SpTrsvBuildStencil's m x m x m natural ordering (dof 1): star (5/7-point) or box (9/27) */
static void StencilGrid(PetscInt m, PetscInt dim, PetscBool box, SpTrsvGrid *g)
{
  g->dim = dim;
  g->dof = 1;
  g->s   = 1;
  g->box = box;
  g->xs = g->ys = g->zs = 0;
  g->xm = g->ym = m;
  g->zm = dim == 3 ? m : 1;
}

/* the storage of A coloured by type (grid for dmda/auto) on the host and on the GPU: equal entry for entry */
static PetscErrorCode CheckStorage(Mat A, const char *name, SpTrsvColoringType type, const SpTrsvGrid *grid, const SpTrsvBackendOps *cudaops)
{
  SpTrsvColoringSpec spec;
  SpTrsvMC           h, d;
  PetscBool          ok;
  PetscInt           bad = -1;

  PetscFunctionBeginUser;
  spec.type = type;
  if (grid) spec.grid = *grid;
  else PetscCall(PetscMemzero(&spec.grid, sizeof(spec.grid)));
  PetscCall(SpTrsvMCCreate(A, 1.0, 0.0, &SpTrsvBackendHost, PETSC_FALSE, &spec, "-check_coloring", &h));
  PetscCall(SpTrsvMCCreate(A, 1.0, 0.0, cudaops, PETSC_TRUE, &spec, "-check_coloring", &d));
  PetscCall(SpTrsvMCGetHostPattern(d));
  ok = (PetscBool)(h->ncolors == d->ncolors && h->nnz == d->nnz && h->coloring == d->coloring && h->grid_badrow == d->grid_badrow && d->on_device);
  for (PetscInt c = 0; ok && c <= h->ncolors; c++) ok = (PetscBool)(h->colptr[c] == d->colptr[c]);
  for (PetscInt k = 0; ok && k < h->n; k++) {
    ok = (PetscBool)(h->perm[k] == d->perm[k] && h->ptr[k + 1] == d->ptr[k + 1] && h->dmap[k] == d->dmap[k] && h->ipos[k] == d->ipos[k]);
    if (!ok) bad = k;
  }
  for (PetscInt q = 0; ok && q < h->nnz; q++) {
    ok = (PetscBool)(h->idx[q] == d->idx[q] && h->vmap[q] == d->vmap[q]);
    if (!ok) bad = q;
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "mc storage %-22s %-7s -> %-7s colours %3" PetscInt_FMT " (gpu %3" PetscInt_FMT ", %3" PetscInt_FMT " jp rounds) entries %9" PetscInt_FMT " grid rule bad row %" PetscInt_FMT "%s %s\n", name, SpTrsvColoringTypes[type], SpTrsvColoringTypes[d->coloring], h->ncolors, d->ncolors, d->rounds, h->nnz, h->grid_badrow, bad >= 0 ? " (first difference found)" : "", ok ? "PASS" : "FAIL"));
  Count(ok);
  PetscCall(SpTrsvMCDestroy(&h));
  PetscCall(SpTrsvMCDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rows 0 .. q-1 all coupled (a clique: q colours, several 64-colour windows) and a random sparse rest with a diagonal */
static PetscErrorCode CliqueMatrix(PetscInt n, PetscInt q, PetscRandom rnd, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, q + 8, NULL, A));
  for (PetscInt r = 0; r < n; r++) {
    if (r < q)
      for (PetscInt c = 0; c < q; c++)
        if (c != r) PetscCall(MatSetValue(*A, r, c, -0.01, INSERT_VALUES));
    for (PetscInt k = 0; k < 3; k++) {
      PetscReal u;
      PetscCall(PetscRandomGetValueReal(rnd, &u));
      PetscCall(MatSetValue(*A, r, (PetscInt)(u * n) % n, -0.1, INSERT_VALUES)); /* one-sided: a nonsymmetric pattern */
    }
    PetscCall(MatSetValue(*A, r, r, 10.0, INSERT_VALUES)); /* last: a random column may be r (diagonally dominant for the sweeps) */
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the GPU colourings and storage against the host's on stencils (with their grid rules), a clique, a random pattern */
static PetscErrorCode CheckStorages(const SpTrsvBackendOps *cudaops, PetscBool quick, PetscRandom rnd)
{
  Mat        A;
  SpTrsvGrid g;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvBuildStencil(24, 24, 24, 7, &A));
  StencilGrid(24, 3, PETSC_FALSE, &g);
  PetscCall(CheckStorage(A, "lap3d7_24^3", SPTRSV_COLORING_JP, NULL, cudaops));
  PetscCall(CheckStorage(A, "lap3d7_24^3", SPTRSV_COLORING_NATURAL, NULL, cudaops));
  PetscCall(CheckStorage(A, "lap3d7_24^3", SPTRSV_COLORING_DMDA, &g, cudaops));
  PetscCall(CheckStorage(A, "lap3d7_24^3", SPTRSV_COLORING_AUTO, &g, cudaops));
  PetscCall(MatDestroy(&A));
  PetscCall(SpTrsvBuildStencil(quick ? 10 : 40, quick ? 10 : 40, quick ? 10 : 40, 27, &A));
  StencilGrid(quick ? 10 : 40, 3, PETSC_FALSE, &g); /* a star rule on a box stencil: auto falls back to jp */
  PetscCall(CheckStorage(A, "lap3d27", SPTRSV_COLORING_AUTO, &g, cudaops));
  g.box = PETSC_TRUE;
  PetscCall(CheckStorage(A, "lap3d27 (box rule)", SPTRSV_COLORING_AUTO, &g, cudaops));
  PetscCall(MatDestroy(&A));
  PetscCall(SpTrsvBuildStencil(quick ? 30 : 300, quick ? 30 : 300, 1, 5, &A));
  PetscCall(CheckStorage(A, "lap2d5", SPTRSV_COLORING_JP, NULL, cudaops));
  PetscCall(MatDestroy(&A));
  PetscCall(CliqueMatrix(quick ? 500 : 20000, 150, rnd, &A));
  PetscCall(CheckStorage(A, "clique150+random", SPTRSV_COLORING_JP, NULL, cudaops));
  PetscCall(CheckStorage(A, "clique150+random", SPTRSV_COLORING_NATURAL, NULL, cudaops));
  PetscCall(MatDestroy(&A));
  if (!quick) {
    PetscCall(SpTrsvBuildStencil(129, 129, 129, 7, &A));
    StencilGrid(129, 3, PETSC_FALSE, &g);
    PetscCall(CheckStorage(A, "lap3d7_129^3", SPTRSV_COLORING_JP, NULL, cudaops));
    PetscCall(CheckStorage(A, "lap3d7_129^3", SPTRSV_COLORING_AUTO, &g, cudaops));
    PetscCall(MatDestroy(&A));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the 8 x 8 five-point Laplacian with entry (r, c) set to v; Ad: its cusparse copy with devmat (a CUDA PETSc), else A */
static PetscErrorCode SmallWith(PetscInt r, PetscInt c, PetscScalar v, PetscBool devmat, Mat *A, Mat *Ad)
{
  PetscFunctionBeginUser;
  PetscCall(SpTrsvBuildStencil(8, 8, 1, 5, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
  PetscCall(MatSetValue(*A, r, c, v, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  *Ad = NULL;
#if defined(PETSC_HAVE_CUDA)
  if (devmat) PetscCall(MatConvert(*A, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, Ad));
#endif
  if (!*Ad) {
    PetscCall(PetscObjectReference((PetscObject)*A));
    *Ad = *A;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApply of pc on a vector of ones of A's type: its failed reason and whether y is all Inf/NaN */
static PetscErrorCode ApplyOnes(PC pc, Mat A, PCFailedReason *reason, PetscBool *inf)
{
  Vec       b, y;
  PetscReal nrm;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &b, &y));
  PetscCall(VecSet(b, 1.0));
  PetscCall(PCApply(pc, b, y));
  PetscCall(PCGetFailedReason(pc, reason));
  PetscCall(VecMin(y, NULL, &nrm));
  *inf = (PetscBool)PetscIsInfOrNanReal(nrm);
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a zero diagonal entry with omega = 1 and a negative shift: the device gather flags it, the host refresh names the
   row (-ksp_view: values read from the host array), and both PCs fail as PCSOR (PC_FACTOR_NUMERIC_ZEROPIVOT) */
static PetscErrorCode CheckZeroDiagonal(PetscBool cuda, PetscBool devmat, PetscBool exact)
{
  Mat            A, Ad;
  PC             ph, pc = NULL;
  PCFailedReason rh, rc = PC_FACTOR_NUMERIC_ZEROPIVOT;
  PetscBool      inf, named = PETSC_TRUE, host = PETSC_TRUE, ok;

  PetscFunctionBeginUser;
  PetscCall(SmallWith(5, 5, 0.0, devmat, &A, &Ad));
  PetscCall(MakeGS(A, "host", OrdValue(exact), "-mcck_pc_gs_diagonal_shift -0.5", &ph));
  PetscCall(ApplyOnes(ph, A, &rh, &inf));
  if (cuda) {
    PetscCall(MakeGS(Ad, "cuda", OrdValue(exact), "-mcck_pc_gs_diagonal_shift -0.5", &pc));
    PetscCall(ApplyOnes(pc, Ad, &rc, &inf));
    PetscCall(ViewContains(pc, "FAILED: zero diagonal on row 5 ", &named));
    PetscCall(ViewContains(pc, "values read from the matrix's host array", &host));
  }
  ok = (PetscBool)(rh == PC_FACTOR_NUMERIC_ZEROPIVOT && rc == PC_FACTOR_NUMERIC_ZEROPIVOT && named && host);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-5s zero diagonal (shift -0.5)%s: host %s, cuda %s, row named %s, host refresh %s %s\n", OrdName(exact), Ad != A ? " cusparse" : "", PCFailedReasons[rh], cuda ? PCFailedReasons[rc] : "(not run)", named ? "yes" : "no", host ? "yes" : "no", ok ? "PASS" : "FAIL"));
  Count(ok);
  PetscCall(PCDestroy(&ph));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&Ad));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a NaN off-diagonal value: the device gather flags it, the host refresh names the row and the applies return Inf;
   then a finite value on the same pattern, PCSetUp: on the GPU again (cusparse), equal to the host PC */
static PetscErrorCode CheckNaN(PetscBool cuda, PetscBool devmat, PetscBool exact, PetscRandom rnd)
{
  Mat            A, Ad;
  PC             ph, pc = NULL;
  PCFailedReason r;
  PetscBool      infh, infc = PETSC_TRUE, named = PETSC_TRUE, host = PETSC_TRUE, ok;
  const char    *name;

  PetscFunctionBeginUser;
  PetscCall(SmallWith(5, 4, (PetscScalar)NAN, devmat, &A, &Ad));
  name = Ad != A ? "lap2d5_8^2_cusp" : "lap2d5_8^2";
  PetscCall(MakeGS(A, "host", OrdValue(exact), "", &ph));
  PetscCall(ApplyOnes(ph, A, &r, &infh));
  if (cuda) {
    PetscCall(MakeGS(Ad, "cuda", OrdValue(exact), "", &pc));
    PetscCall(ApplyOnes(pc, Ad, &r, &infc));
    PetscCall(ViewContains(pc, "NaN/Inf in row 5 ", &named));
    PetscCall(ViewContains(pc, "values read from the matrix's host array", &host));
  }
  ok = (PetscBool)(infh && infc && named && host);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-5s NaN at (5, 4) %-15s: applies Inf: host %s, cuda %s; row named %s, host refresh %s %s\n", OrdName(exact), name, infh ? "yes" : "no", cuda ? (infc ? "yes" : "no") : "(not run)", named ? "yes" : "no", host ? "yes" : "no", ok ? "PASS" : "FAIL"));
  Count(ok);
  /* a finite value again: the next refresh is on the GPU */
  PetscCall(MatSetValue(A, 5, 4, -1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  if (Ad != A) {
    PetscCall(MatSetValue(Ad, 5, 4, -1.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(Ad, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(Ad, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(PCSetUp(ph));
  if (cuda) {
    PetscCall(PCSetUp(pc));
    if (Ad != A) PetscCall(CheckViewDevice(pc, name, exact, "fixed"));
  }
  PetscCall(Compare(A, Ad, name, OrdName(exact), "(NaN replaced, same pattern)", cuda, rnd, "fixed", &ph, &pc));
  PetscCall(PCDestroy(&ph));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&Ad));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const SpTrsvBackendOps *cudaops;
  const char             *why   = NULL;
  PetscBool               avail = PETSC_FALSE, require = PETSC_FALSE, quick = PETSC_FALSE, devmat = PETSC_FALSE;
  PetscRandom             rnd;
  Mat                     A;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_cuda", &require, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-quick", &quick, NULL));
  PetscCall(SpTrsvBackendCUDAGet(&cudaops, &avail, &why));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_multicolor: CUDA backend %s%s%s\n", avail ? "available" : "unavailable", why ? ": " : "", why ? why : ""));
#if defined(PETSC_HAVE_CUDA)
  devmat = avail;
#endif
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261124));
  PetscCall(PetscRandomSeed(rnd));
  if (avail) PetscCall(CheckStorages(cudaops, quick, rnd));
  for (PetscInt e = 0; e < 2; e++) { /* multicolor, then exact */
    const PetscBool exact = (PetscBool)(e == 1);

    PetscCall(SpTrsvBuildStencil(24, 24, 24, 7, &A));
    PetscCall(CheckMatrix(A, "lap3d7_24^3", avail, PETSC_FALSE, exact, rnd)); /* exact: the host refresh, uploaded */
    if (devmat) PetscCall(CheckMatrix(A, "lap3d7_24^3_cusp", avail, PETSC_TRUE, exact, rnd));
    PetscCall(MatDestroy(&A));
    if (!quick) {
      PetscCall(SpTrsvBuildStencil(16, 16, 16, 27, &A));
      if (!exact) PetscCall(CheckMatrix(A, "lap3d27_16^3", avail, PETSC_FALSE, exact, rnd));
      if (devmat) PetscCall(CheckMatrix(A, "lap3d27_16^3_cusp", avail, PETSC_TRUE, exact, rnd));
      PetscCall(MatDestroy(&A));
      PetscCall(SpTrsvBuildBlockCD(16, 3, 0.3, MATSEQAIJ, &A));
      if (!exact) PetscCall(CheckMatrix(A, "blockcd_16^3_bs3", avail, PETSC_FALSE, exact, rnd));
      if (devmat) PetscCall(CheckMatrix(A, "blockcd_16^3_cusp", avail, PETSC_TRUE, exact, rnd));
      PetscCall(MatDestroy(&A));
      if (exact && devmat) { /* a pattern that is not structurally symmetric: two-vector CSR sweeps */
        PetscCall(CliqueMatrix(2000, 40, rnd, &A));
        PetscCall(CheckMatrix(A, "clique40+rand_cusp", avail, PETSC_TRUE, exact, rnd));
        PetscCall(MatDestroy(&A));
      }
    }
    PetscCall(CheckZeroDiagonal(avail, PETSC_FALSE, exact));
    if (devmat) PetscCall(CheckZeroDiagonal(avail, PETSC_TRUE, exact));
    if (devmat) PetscCall(CheckNaN(avail, PETSC_TRUE, exact, rnd));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  if (!avail) PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_multicolor: device comparisons skipped (host executor only)\n"));
  if (require && !avail) nfail++;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_multicolor: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
