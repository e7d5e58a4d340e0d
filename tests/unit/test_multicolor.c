static char help[] = "Tests of the multicolor ordering of PC gs (host backend): the natural and jp colourings are valid (no two adjacent rows\n"
                     "share a colour) on generated and Matrix Market matrices, jp is the greedy colouring in priority order, the dmda rule\n"
                     "is used for a DMDA matrix and rejected for a matrix it does not colour; PCApply and PCApplyRichardson of -pc_gs_ordering multicolor equal\n"
                     "PCSOR on the colour-permuted matrix (MatPermute); PCApplyTranspose is the transpose; a value refresh follows A.\n"
                     "  -matdir <dir>  directory of the Matrix Market test matrices (default tests/data/matrices: run from the repository root)\n\n";

#include <petscksp.h>
#include <petscdmda.h>
#include <petscsptrsv.h>
#include <sptrsv/coloring.h>
#include "../../examples/common/mmload.h"

#include "unit_common.h"

static char matdir[PETSC_MAX_PATH_LEN] = "tests/data/matrices";

/* the colouring the tests make and ask PC gs for (-mcgs_pc_gs_coloring) */
static SpTrsvColoringType method = SPTRSV_COLORING_NATURAL;
static DM                 pcdm   = NULL; /* a DMDA given to PC gs (PCSetDM) */

/* an m^d grid (d = 2 or 3) with the 5/7-point (wide = false) or 9/27-point (wide) stencil; skew > 0 makes the
   values nonsymmetric, extra > 0 adds one-sided couplings (a structurally nonsymmetric pattern) */
static PetscErrorCode Grid(PetscInt m, PetscInt d, PetscBool wide, PetscReal skew, PetscInt extra, Mat *A)
{
  const PetscInt mz = d == 3 ? m : 1, n = m * m * mz;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 28, NULL, A));
  PetscCall(MatSetOption(*A, MAT_USE_INODES, PETSC_FALSE)); /* PCSOR's point sweeps, as PC gs */
  for (PetscInt z = 0; z < mz; z++)
    for (PetscInt y = 0; y < m; y++)
      for (PetscInt x = 0; x < m; x++) {
        const PetscInt row = (z * m + y) * m + x;
        PetscInt       nb  = 0;

        for (PetscInt dz = (d == 3 ? -1 : 0); dz <= (d == 3 ? 1 : 0); dz++)
          for (PetscInt dy = -1; dy <= 1; dy++)
            for (PetscInt dx = -1; dx <= 1; dx++) {
              const PetscInt X = x + dx, Y = y + dy, Z = z + dz, far = PetscAbsInt(dx) + PetscAbsInt(dy) + PetscAbsInt(dz);
              if (!far || (!wide && far > 1) || X < 0 || Y < 0 || Z < 0 || X >= m || Y >= m || Z >= mz) continue;
              PetscCall(MatSetValue(*A, row, (Z * m + Y) * m + X, -1.0 + skew * dx, INSERT_VALUES));
              nb++;
            }
        if (extra && row % extra == 0 && row + 2 * m + 3 < n) PetscCall(MatSetValue(*A, row, row + 2 * m + 3, -0.3, INSERT_VALUES));
        PetscCall(MatSetValue(*A, row, row, nb + 0.5 + 0.01 * (row % 7), INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* jp: every row has the smallest colour that none of its neighbours before it in the jp order holds (the greedy rule) */
static PetscErrorCode CheckJPGreedy(PetscInt n, const PetscInt *ia, const PetscInt *ja, const PetscInt *color)
{
  PetscInt *ti, *tj, *fill, *mark, worst = -1;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc3(n + 1, &ti, n + 1, &fill, n + 2, &mark));
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) ti[ja[p] + 1]++;
  for (PetscInt c = 0; c < n; c++) ti[c + 1] += ti[c];
  PetscCall(PetscMalloc1(ti[n] + 1, &tj));
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) tj[ti[ja[p]] + fill[ja[p]]++] = r;
  for (PetscInt v = 0; v < n && worst < 0; v++) {
    PetscInt c = 0;

    for (PetscInt p = ia[v]; p < ia[v + 1]; p++)
      if (ja[p] != v && SpTrsvColoringBefore((unsigned int)ja[p], (unsigned int)v) && color[ja[p]] <= n) mark[color[ja[p]]] = v + 1;
    for (PetscInt p = ti[v]; p < ti[v + 1]; p++)
      if (tj[p] != v && SpTrsvColoringBefore((unsigned int)tj[p], (unsigned int)v) && color[tj[p]] <= n) mark[color[tj[p]]] = v + 1;
    while (mark[c] == v + 1) c++;
    if (color[v] != c) worst = v;
  }
  EXPECT(worst < 0, "jp: row %" PetscInt_FMT " does not have the smallest colour free among its neighbours before it", worst);
  PetscCall(PetscFree(tj));
  PetscCall(PetscFree3(ti, fill, mark));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the colouring PC gs makes with method (dmda: the rule of pcdm), and its order: perm[k] = the row at position k */
static PetscErrorCode Colour(Mat A, PetscInt *ncolors, PetscInt **perm)
{
  PetscInt        n, nr, *color, *colptr, bad;
  const PetscInt *ia, *ja;
  PetscBool       done;

  PetscFunctionBeginUser;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCall(PetscMalloc1(n + 1, &color));
  PetscCall(PetscMalloc1(n + 1, perm));
  if (method == SPTRSV_COLORING_NATURAL) PetscCall(SpTrsvColoringGreedy(n, ia, ja, NULL, ncolors, color));
  else if (method == SPTRSV_COLORING_JP) {
    PetscCall(SpTrsvColoringJP(n, ia, ja, ncolors, color));
    PetscCall(CheckJPGreedy(n, ia, ja, color));
  } else {
    SpTrsvGrid g;

    PetscCall(SpTrsvGridFromDM(pcdm, n, &g));
    EXPECT(g.dim > 0, "the DMDA's grid does not describe the matrix's %" PetscInt_FMT " rows", n);
    PetscCall(SpTrsvColoringGridRule(&g, n, ncolors, color));
  }
  PetscCall(SpTrsvColoringCheck(n, ia, ja, color, &bad));
  PetscCall(PetscMalloc1(*ncolors + 1, &colptr));
  PetscCall(SpTrsvColoringOrder(n, ncolors, color, colptr, *perm));
  EXPECT(bad < 0, "colouring: row %" PetscInt_FMT " shares its colour with a neighbour", bad);
  for (PetscInt c = 0; c < *ncolors; c++) EXPECT(colptr[c + 1] > colptr[c], "colouring: colour %" PetscInt_FMT " is empty", c);
  /* every entry, either direction, joins different colours */
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++)
      if (ja[p] != r && color[ja[p]] == color[r]) EXPECT(PETSC_FALSE, "colouring: (%" PetscInt_FMT ", %" PetscInt_FMT ") joins colour %" PetscInt_FMT " to itself", r, ja[p], color[r]);
  nr = n;
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  /* the checker itself must catch a clash: give a row the colour of a neighbour */
  if (*ncolors > 1) {
    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
    for (PetscInt r = 0; r < n; r++)
      if (ia[r + 1] - ia[r] > 1) {
        const PetscInt c = ja[ia[r]] != r ? ja[ia[r]] : ja[ia[r] + 1], keep = color[r];
        color[r] = color[c];
        PetscCall(SpTrsvColoringCheck(n, ia, ja, color, &bad));
        EXPECT(bad >= 0, "colouring check missed a clash at row %" PetscInt_FMT, r);
        color[r] = keep;
        break;
      }
    PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  }
  PetscCall(PetscFree(colptr));
  PetscCall(PetscFree(color));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y[k] = x[perm[k]] */
static PetscErrorCode Permute(Vec x, const PetscInt *perm, Vec y)
{
  const PetscScalar *xa;
  PetscScalar       *ya;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArray(y, &ya));
  for (PetscInt k = 0; k < n; k++) ya[k] = xa[perm[k]];
  PetscCall(VecRestoreArray(y, &ya));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* |x - P^T y| / |x| with y in colour order */
static PetscErrorCode RelDiffPermuted(Vec y, const PetscInt *perm, Vec x, PetscReal *d)
{
  Vec       xp;
  PetscReal nx;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(x, &xp));
  PetscCall(Permute(x, perm, xp));
  PetscCall(VecAXPY(xp, -1.0, y));
  PetscCall(VecNorm(xp, NORM_INFINITY, d));
  PetscCall(VecNorm(y, NORM_INFINITY, &nx));
  *d /= PetscMax(nx, PETSC_SMALL);
  PetscCall(VecDestroy(&xp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PCGSType  type;
  PetscReal omega, shift;
  PetscInt  its;
} MCCase;

/* PCSOR on B and PC gs -pc_gs_ordering multicolor (host) on A, both with the case's options */
static PetscErrorCode MakePCs(Mat A, Mat B, const MCCase *c, PC *sor, PC *gs)
{
  MatSORType st = c->type == PC_GS_FORWARD ? SOR_FORWARD_SWEEP : (c->type == PC_GS_BACKWARD ? SOR_BACKWARD_SWEEP : SOR_SYMMETRIC_SWEEP);
  char       shift[32];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(shift, sizeof(shift), "%g", (double)c->shift));
  PetscCall(PCCreate(PETSC_COMM_SELF, sor));
  PetscCall(PCSetOperators(*sor, B, B));
  PetscCall(PCSetType(*sor, PCSOR));
  PetscCall(PCSORSetSymmetric(*sor, st));
  PetscCall(PCSORSetOmega(*sor, c->omega));
  PetscCall(PCSORSetIterations(*sor, c->its, 1));
  PetscCall(PCSetOptionsPrefix(*sor, "mcsor_"));
  PetscCall(PetscOptionsSetValue(NULL, "-mcsor_pc_sor_diagonal_shift", shift));
  PetscCall(PCSetFromOptions(*sor));
  PetscCall(PetscOptionsClearValue(NULL, "-mcsor_pc_sor_diagonal_shift"));
  PetscCall(PCSetUp(*sor));

  PetscCall(PCCreate(PETSC_COMM_SELF, gs));
  PetscCall(PCSetOperators(*gs, A, A));
  PetscCall(PCSetType(*gs, PCGS));
  PetscCall(PCGSSetType(*gs, c->type));
  PetscCall(PCGSSetOmega(*gs, c->omega));
  PetscCall(PCGSSetIterations(*gs, c->its));
  PetscCall(PCGSSetOrdering(*gs, PC_GS_ORDERING_MULTICOLOR));
  PetscCall(PCSetOptionsPrefix(*gs, "mcgs_"));
  if (pcdm) PetscCall(PCSetDM(*gs, pcdm));
  PetscCall(PetscOptionsSetValue(NULL, "-mcgs_pc_gs_coloring", method == SPTRSV_COLORING_DMDA ? "auto" : SpTrsvColoringTypes[method]));
  PetscCall(PetscOptionsSetValue(NULL, "-mcgs_pc_gs_backend", "host"));
  PetscCall(PetscOptionsSetValue(NULL, "-mcgs_pc_gs_diagonal_shift", shift));
  PetscCall(PCSetFromOptions(*gs));
  PetscCall(PetscOptionsClearValue(NULL, "-mcgs_pc_gs_backend"));
  PetscCall(PetscOptionsClearValue(NULL, "-mcgs_pc_gs_coloring"));
  PetscCall(PetscOptionsClearValue(NULL, "-mcgs_pc_gs_diagonal_shift"));
  PetscCall(PCSetUp(*gs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B = P A P^T: row k of B is row perm[k] of A */
static PetscErrorCode PermutedMatrix(Mat A, const PetscInt *perm, Mat *B)
{
  IS       is;
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, perm, PETSC_USE_POINTER, &is));
  PetscCall(ISSetPermutation(is));
  PetscCall(MatPermute(A, is, is, B));
  PetscCall(MatSetOption(*B, MAT_USE_INODES, PETSC_FALSE));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCApply and PCApplyRichardson (zero and nonzero guess) of multicolor PC gs on A against PCSOR on P A P^T */
static PetscErrorCode TestCase(Mat A, const char *mname, const PetscInt *perm, const MCCase *c, PetscRandom rnd)
{
  Mat                         B;
  PC                          sor, gs;
  Vec                         b, x0, bp, x0p, ys, yg, w;
  PetscReal                   d;
  PetscInt                    outits;
  PCRichardsonConvergedReason reason;
  char                        name[256];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s %s omega %g its %" PetscInt_FMT " shift %g", mname, PCGSTypes[c->type], (double)c->omega, c->its, (double)c->shift));
  PetscCall(PermutedMatrix(A, perm, &B));
  PetscCall(MakePCs(A, B, c, &sor, &gs));
  PetscCall(MatCreateVecs(A, &b, &x0));
  PetscCall(VecDuplicate(b, &bp));
  PetscCall(VecDuplicate(b, &x0p));
  PetscCall(VecDuplicate(b, &ys));
  PetscCall(VecDuplicate(b, &yg));
  PetscCall(VecDuplicate(b, &w));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(VecSetRandom(x0, rnd));
  PetscCall(Permute(b, perm, bp));
  PetscCall(Permute(x0, perm, x0p));

  PetscCall(VecSet(yg, 1e30)); /* y's content must not matter with a zero guess */
  PetscCall(PCApply(sor, bp, ys));
  PetscCall(PCApply(gs, b, yg));
  PetscCall(RelDiffPermuted(ys, perm, yg, &d));
  EXPECT(d < 1e-12, "%s: PCApply differs from PCSOR on the colour-permuted matrix by %g", name, (double)d);
  for (PetscInt z = 0; z < 2; z++) {
    PetscCall(VecCopy(x0p, ys));
    PetscCall(VecCopy(x0, yg));
    PetscCall(PCApplyRichardson(sor, bp, ys, w, 0, 0, 0, 2, (PetscBool)z, &outits, &reason));
    PetscCall(PCApplyRichardson(gs, b, yg, w, 0, 0, 0, 2, (PetscBool)z, &outits, &reason));
    PetscCall(RelDiffPermuted(ys, perm, yg, &d));
    EXPECT(d < 1e-12 && outits == 2, "%s: PCApplyRichardson (%s guess) differs from PCSOR on the colour-permuted matrix by %g", name, z ? "zero" : "nonzero", (double)d);
  }
  /* one iteration: <M^{-T} u, v> = <u, M^{-1} v> */
  if (c->its == 1) {
    PetscScalar l, r;

    PetscCall(PCApply(gs, b, yg));
    PetscCall(PCApplyTranspose(gs, x0, ys));
    PetscCall(VecDot(ys, b, &l));
    PetscCall(VecDot(x0, yg, &r));
    EXPECT(PetscAbsScalar(l - r) < 1e-12 * PetscMax(PetscAbsScalar(l), 1.0), "%s: PCApplyTranspose is not the transpose: %g vs %g", name, (double)PetscRealPart(l), (double)PetscRealPart(r));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&bp));
  PetscCall(VecDestroy(&x0p));
  PetscCall(VecDestroy(&ys));
  PetscCall(VecDestroy(&yg));
  PetscCall(VecDestroy(&w));
  PetscCall(PCDestroy(&sor));
  PetscCall(PCDestroy(&gs));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* colour A, check the colouring, and compare sweeps (when sweeps) over the cases */
static PetscErrorCode TestMatrix(Mat A, const char *name, PetscBool sweeps, PetscInt minc, PetscInt maxc, PetscRandom rnd)
{
  static const MCCase cases[] = {
    {PC_GS_SYMMETRIC, 1.0, 0.0, 1},
    {PC_GS_FORWARD,   1.0, 0.0, 1},
    {PC_GS_BACKWARD,  1.0, 0.0, 1},
    {PC_GS_SYMMETRIC, 1.4, 0.0, 2},
    {PC_GS_FORWARD,   0.7, 0.0, 3},
    {PC_GS_BACKWARD,  1.2, 0.5, 1},
    {PC_GS_SYMMETRIC, 1.0, 0.5, 1},
  };
  PetscInt nc, *perm;

  PetscFunctionBeginUser;
  /* natural: the expected counts; jp (PC gs's default without a DMDA): a valid colouring, sweeps in its order */
  for (PetscInt m = 0; m < 2; m++) {
    method = m ? SPTRSV_COLORING_JP : SPTRSV_COLORING_NATURAL;
    PetscCall(Colour(A, &nc, &perm));
    if (!m) EXPECT(nc >= minc && nc <= maxc, "%s: %" PetscInt_FMT " colours, expected %" PetscInt_FMT " .. %" PetscInt_FMT, name, nc, minc, maxc);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " colours (%s)\n", name, nc, SpTrsvColoringTypes[method]));
    if (sweeps)
      for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) PetscCall(TestCase(A, name, perm, &cases[k], rnd));
    PetscCall(PetscFree(perm));
  }
  method = SPTRSV_COLORING_NATURAL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values on the same pattern: one refresh, and the sweeps follow the new values */
static PetscErrorCode TestRefresh(PetscRandom rnd)
{
  Mat       A, B;
  PC        sor, gs;
  Vec       b, bp, ys, yg;
  PetscReal d;
  PetscInt  nc, *perm;
  MCCase    c = {PC_GS_SYMMETRIC, 1.2, 0.0, 2};

  PetscFunctionBeginUser;
  PetscCall(Grid(7, 3, PETSC_TRUE, 0.2, 0, &A));
  PetscCall(Colour(A, &nc, &perm));
  PetscCall(PermutedMatrix(A, perm, &B));
  PetscCall(MakePCs(A, B, &c, &sor, &gs));
  PetscCall(MatCreateVecs(A, &b, &ys));
  PetscCall(VecDuplicate(b, &yg));
  PetscCall(VecDuplicate(b, &bp));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(Permute(b, perm, bp));
  PetscCall(PCApply(gs, b, yg));
  PetscCall(MatShift(A, 1.5));
  PetscCall(MatScale(A, 0.75));
  PetscCall(MatShift(B, 1.5));
  PetscCall(MatScale(B, 0.75));
  PetscCall(PCSetOperators(sor, B, B));
  PetscCall(PCSetOperators(gs, A, A));
  PetscCall(PCSetUp(sor));
  PetscCall(PCSetUp(gs));
  PetscCall(PCApply(sor, bp, ys));
  PetscCall(PCApply(gs, b, yg));
  PetscCall(RelDiffPermuted(ys, perm, yg, &d));
  EXPECT(d < 1e-12, "refresh: after new values PC gs (multicolor) differs from PCSOR on the permuted matrix by %g", (double)d);
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&bp));
  PetscCall(VecDestroy(&ys));
  PetscCall(VecDestroy(&yg));
  PetscCall(PCDestroy(&sor));
  PetscCall(PCDestroy(&gs));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(PetscFree(perm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  a DMDA matrix (dim, stencil width sw, dof, stencil type mst) with PC gs given a DMDA of type pst on the same grid: auto
  colours with the dmda rule (ncol colours, sweeps compared) when it colours the matrix, with jp otherwise (ncol = 0)
*/
static PetscErrorCode TestGrid(PetscInt dim, PetscInt sw, PetscInt dof, DMDAStencilType mst, DMDAStencilType pst, PetscInt ncol, PetscInt ncolmax, PetscRandom rnd)
{
  static const MCCase c = {PC_GS_SYMMETRIC, 1.1, 0.0, 1};
  DM                  da, pda;
  Mat                 A;
  PetscInt            m = 7, n, nc, *perm;
  const PetscInt     *ia, *ja;
  PetscScalar        *aa;
  PetscBool           done;
  char                name[128];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "DMDA %" PetscInt_FMT "-D %s width %" PetscInt_FMT " dof %" PetscInt_FMT " (PC's DMDA %s)", dim, mst == DMDA_STENCIL_BOX ? "box" : "star", sw, dof, pst == DMDA_STENCIL_BOX ? "box" : "star"));
  for (PetscInt k = 0; k < 2; k++) {
    DM *d = k ? &pda : &da;
    if (dim == 2) PetscCall(DMDACreate2d(PETSC_COMM_SELF, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, k ? pst : mst, m, m, 1, 1, dof, sw, NULL, NULL, d));
    else PetscCall(DMDACreate3d(PETSC_COMM_SELF, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, k ? pst : mst, m, m, m, 1, 1, 1, dof, sw, NULL, NULL, NULL, d));
    PetscCall(DMSetUp(*d));
  }
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(MatSetOption(A, MAT_USE_INODES, PETSC_FALSE));
  /* every stored entry -1 - 0.1 (r % 3), the diagonal the row length: diagonally dominant */
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCall(MatSeqAIJGetArray(A, &aa));
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) aa[p] = ja[p] == r ? (PetscScalar)(ia[r + 1] - ia[r] + 1) : -1.0 - 0.1 * (r % 3);
  PetscCall(MatSeqAIJRestoreArray(A, &aa));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  pcdm   = pda;
  method = ncol ? SPTRSV_COLORING_DMDA : SPTRSV_COLORING_JP;
  PetscCall(Colour(A, &nc, &perm));
  if (ncol) EXPECT(nc >= ncol && nc <= ncolmax, "%s: %" PetscInt_FMT " colours, expected %" PetscInt_FMT " .. %" PetscInt_FMT, name, nc, ncol, ncolmax);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " colours (%s)\n", name, nc, SpTrsvColoringTypes[method]));
  PetscCall(TestCase(A, name, perm, &c, rnd)); /* PC gs with -pc_gs_coloring auto must have coloured as method did */
  PetscCall(PetscFree(perm));
  pcdm   = NULL;
  method = SPTRSV_COLORING_NATURAL;
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(DMDestroy(&pda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a matrix of -matdir (skipped with a message when missing); sweeps only for matrices with a full nonzero diagonal */
static PetscErrorCode TestFile(const char *name, PetscBool sweeps, PetscRandom rnd)
{
  char      file[PETSC_MAX_PATH_LEN];
  PetscBool exists;
  Mat       A;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(file, sizeof(file), "%s/%s.mtx.gz", matdir, name));
  PetscCall(PetscTestFile(file, 'r', &exists));
  EXPECT(exists, "missing %s (set -matdir)", file);
  if (!exists) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvLoadMatrixMarket(file, &A));
  PetscCall(MatSetOption(A, MAT_USE_INODES, PETSC_FALSE));
  PetscCall(TestMatrix(A, name, sweeps, 1, 1000, rnd));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;
  Mat         A;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-matdir", matdir, sizeof(matdir), NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261124));
  PetscCall(PetscRandomSeed(rnd));
  /* generated grids: red-black for 5/7-point, 4 and 8 colours for 9/27-point (greedy in natural order) */
  PetscCall(Grid(12, 2, PETSC_FALSE, 0.0, 0, &A));
  PetscCall(TestMatrix(A, "2-D 5-point", PETSC_TRUE, 2, 2, rnd));
  PetscCall(MatDestroy(&A));
  PetscCall(Grid(11, 2, PETSC_TRUE, 0.3, 0, &A));
  PetscCall(TestMatrix(A, "2-D 9-point nonsymmetric", PETSC_TRUE, 4, 4, rnd));
  PetscCall(MatDestroy(&A));
  PetscCall(Grid(6, 3, PETSC_FALSE, 0.1, 0, &A));
  PetscCall(TestMatrix(A, "3-D 7-point", PETSC_TRUE, 2, 2, rnd));
  PetscCall(MatDestroy(&A));
  PetscCall(Grid(5, 3, PETSC_TRUE, 0.0, 0, &A));
  PetscCall(TestMatrix(A, "3-D 27-point", PETSC_TRUE, 8, 8, rnd));
  PetscCall(MatDestroy(&A));
  PetscCall(Grid(10, 2, PETSC_FALSE, 0.2, 7, &A));
  PetscCall(TestMatrix(A, "2-D 5-point, structurally nonsymmetric", PETSC_TRUE, 2, 20, rnd));
  PetscCall(MatDestroy(&A));
  /* Matrix Market matrices: colourings of general patterns; sweeps on those with a nonzero diagonal */
  PetscCall(TestFile("494_bus", PETSC_TRUE, rnd));
  PetscCall(TestFile("bcsstk13", PETSC_TRUE, rnd));
  PetscCall(TestFile("watt_2", PETSC_FALSE, rnd));
  PetscCall(TestFile("west0479", PETSC_FALSE, rnd));
  PetscCall(TestFile("cryg2500", PETSC_FALSE, rnd));
  PetscCall(TestFile("rajat19", PETSC_FALSE, rnd));
  PetscCall(TestRefresh(rnd));
  PetscCall(TestGrid(2, 1, 2, DMDA_STENCIL_STAR, DMDA_STENCIL_STAR, 2, 4, rnd));  /* red-black per component */
  PetscCall(TestGrid(3, 1, 1, DMDA_STENCIL_STAR, DMDA_STENCIL_STAR, 2, 2, rnd));  /* red-black */
  PetscCall(TestGrid(2, 2, 1, DMDA_STENCIL_BOX, DMDA_STENCIL_BOX, 9, 9, rnd));    /* 3 x 3 residues */
  PetscCall(TestGrid(3, 1, 1, DMDA_STENCIL_BOX, DMDA_STENCIL_STAR, 0, 0, rnd));   /* a 27-point matrix, a star DMDA: jp */
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_multicolor: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
