/*
   Complete LU of a MATSEQAIJ by SuperLU 5 (dgstrf), converted into the plugin's triangles.

   SuperLU factors  P_r A P_c = L U  with A given by columns (NC format: the CSC of A, made here from its CSR once
   per numeric phase through a map built at the symbolic phase). P_c is the column ordering (PETSc's, from the
   column IS of MatLUFactorSymbolic, or SuperLU's COLAMD) followed by the postorder of the column elimination tree
   that sp_preorder() applies; P_r comes from partial pivoting with threshold DiagPivotThresh, so it is numeric.

   SuperLU's storage, after dgstrf (its row indices are already in pivot order, see fixupL() and copy_to_ucol()):
   - L in SC format: supernode k holds columns [sup_to_col[k], sup_to_col[k+1]), a dense block of nsupr rows
     (rowind[rowind_colptr[fsupc] ...]) by nsupc columns, column-major at nzval[nzval_colptr[j]]. Its first nsupc
     rows are the supernode's own columns: the strict lower part of that diagonal block belongs to L (unit
     diagonal implied), the diagonal and the upper part to U; the rows below belong to L.
   - U in NC format: the entries of U above the supernode blocks (rows of earlier supernodes), by column.
   This file builds the CSR of L (strict, unit) and of U (strict) with, for every slot, the index of its value in
   SuperLU's arrays (an "image"), the map of U's diagonal, and the partition sup_to_col. The triangles keep that
   pattern as long as a refactorization gives the same pivot order and pattern; otherwise they are rebuilt
   (head->rebuilt: the factor Mat redoes the analysis).
   In the plugin's convention (factor.h) rperm = P_r^T (rperm[perm_r[i]] = i) and cperm = P_c (cperm[perm_c[j]] = j).
*/
#include <sptrsv/direct.h>
#include <petsc/private/matimpl.h>
#if defined(PETSC_SPTRSV_HAVE_SUPERLU)
#include <slu_ddefs.h>

typedef struct {
  SpTrsvDirectHead  head; /* first: read through SpTrsvFactorDirectHead() */
  PetscInt          n, nnzA;
  PetscInt         *ai, *aj;         /* A's CSR pattern at the symbolic phase (the numeric phase checks it) */
  int              *colptr, *rowind; /* CSC pattern of A (SuperLU's NC) */
  double           *nzval;
  PetscInt         *cmap;            /* CSC slot -> CSR slot of A */
  int              *perm_c0;         /* the column ordering given to sp_preorder() */
  int              *perm_c, *perm_r, *etree, *perm_r_prev;
  PetscReal         thresh;
  SuperMatrix       L, U;
  PetscBool         haveLU;
  SpTrsvDirectImage im; /* lmap/umap: < lnz in L's nzval, else lnz + index in U's nzval; dmap: in L's nzval */
  PetscBool         nonfinite; /* the last factorization had NaN/Inf in A (factored with zeros there) */
} SpTrsvLUSym;

static void SpTrsvLUFreeFactors(SpTrsvLUSym *sym)
{
  if (sym->haveLU) {
    Destroy_SuperNode_Matrix(&sym->L);
    Destroy_CompCol_Matrix(&sym->U);
    sym->haveLU = PETSC_FALSE;
  }
}

static PetscErrorCode SpTrsvLUSymDestroy(void **ctx)
{
  SpTrsvLUSym *sym = (SpTrsvLUSym *)*ctx;

  PetscFunctionBegin;
  if (!sym) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvLUFreeFactors(sym);
  PetscCall(SpTrsvDirectImageReset(&sym->im));
  PetscCall(PetscFree2(sym->ai, sym->aj));
  PetscCall(PetscFree4(sym->colptr, sym->rowind, sym->nzval, sym->cmap));
  PetscCall(PetscFree5(sym->perm_c0, sym->perm_c, sym->perm_r, sym->etree, sym->perm_r_prev));
  PetscCall(PetscFree(sym));
  *ctx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triangles' patterns and value maps from SuperLU's L (SC) and U (NC); checks what the conversion relies on */
static PetscErrorCode SpTrsvLUImageBuild(SpTrsvLUSym *sym, SpTrsvDirectImage *im)
{
  const PetscInt n  = sym->n;
  SCformat      *Ls = (SCformat *)sym->L.Store;
  NCformat      *Us = (NCformat *)sym->U.Store;
  const int      nsup = Ls->nsuper + 1, *xsup = Ls->sup_to_col, *lrow = Ls->rowind, *lrp = Ls->rowind_colptr, *lvp = Ls->nzval_colptr;
  const PetscInt lnz = Ls->nzval_colptr[n];

  PetscFunctionBegin;
  PetscCheck(xsup[0] == 0 && xsup[nsup] == n, PETSC_COMM_SELF, PETSC_ERR_LIB, "SuperLU's supernodes cover [%d, %d), not [0, %" PetscInt_FMT ")", xsup[0], xsup[nsup], n);
  PetscCall(SpTrsvDirectImageCreate(n, im));
  for (int pass = 0; pass < 2; pass++) { /* count, then store */
    if (pass) PetscCall(SpTrsvDirectImageAllocate(im));
    for (int k = 0; k < nsup; k++) {
      const int fsupc = xsup[k], lsupc = xsup[k + 1], nsupc = lsupc - fsupc, istart = lrp[fsupc], nsupr = lrp[fsupc + 1] - istart;

      PetscCheck(nsupc > 0 && nsupr >= nsupc, PETSC_COMM_SELF, PETSC_ERR_LIB, "SuperLU's supernode %d: %d columns, %d rows", k, nsupc, nsupr);
      for (int j = fsupc; j < lsupc; j++) {
        const int jj = j - fsupc;

        /* U above the supernode (rows of earlier supernodes) */
        for (int q = Us->colptr[j]; q < Us->colptr[j + 1]; q++) {
          const int r = Us->rowind[q];

          PetscCheck(r >= 0 && r < fsupc, PETSC_COMM_SELF, PETSC_ERR_LIB, "SuperLU's U has row %d in column %d (supernode starts at %d)", r, j, fsupc);
          SpTrsvDirectImageAddU(im, r, j, lnz + q);
        }
        /* the column of the supernode block: U above the diagonal, the diagonal, L below */
        for (int i = 0; i < nsupr; i++) {
          const int r = lrow[istart + i];

          if (i < nsupc) PetscCheck(r == fsupc + i, PETSC_COMM_SELF, PETSC_ERR_LIB, "SuperLU's supernode %d: diagonal block row %d is %d, expected %d", k, i, r, fsupc + i);
          else PetscCheck(r >= lsupc && r < n, PETSC_COMM_SELF, PETSC_ERR_LIB, "SuperLU's supernode %d: row %d outside (%d, %" PetscInt_FMT ")", k, r, lsupc - 1, n);
          if (i < jj) SpTrsvDirectImageAddU(im, r, j, lvp[j] + i);
          else if (i == jj) SpTrsvDirectImageSetDiag(im, j, lvp[j] + i);
          else SpTrsvDirectImageAddL(im, r, j, lvp[j] + i);
        }
      }
    }
  }
  PetscCall(SpTrsvDirectImageFinish(im, nsup, xsup));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a permutation array as the plugin keeps it: NULL for the identity */
static PetscErrorCode SpTrsvLUInversePerm(PetscInt n, const int *perm, PetscInt **out)
{
  PetscBool identity = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PetscFree(*out));
  for (PetscInt i = 0; i < n && identity; i++) identity = (PetscBool)(perm[i] == i);
  if (identity) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(n, out));
  for (PetscInt i = 0; i < n; i++) (*out)[perm[i]] = i;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvLUFactorize - SuperLU's factorization of A's current values (NaN/Inf replaced by 0, sym->nonfinite says so),
  then the triangles: kept when the pivot order and pattern are those they have (*rebuilt false), else rebuilt
*/
static PetscErrorCode SpTrsvLUFactorize(SpTrsvLUSym *sym, const PetscScalar *aa, SpTrsvFactor fac, PetscBool *rebuilt)
{
  const PetscInt    n = sym->n;
  superlu_options_t options;
  SuperLUStat_t     stat;
  SuperMatrix       A, AC;
  GlobalLU_t        Glu;
  int               info = 0;
  SpTrsvDirectImage im;
  PetscBool         same, created, seen_ok = PETSC_TRUE;
  const double     *lval, *uval;

  PetscFunctionBegin;
  *rebuilt       = PETSC_FALSE;
  sym->nonfinite = PETSC_FALSE;
  for (PetscInt p = 0; p < sym->nnzA; p++) {
    const PetscScalar v = aa[sym->cmap[p]];

    if (PetscIsInfOrNanScalar(v)) {
      sym->nonfinite = PETSC_TRUE;
      sym->nzval[p]  = 0.0;
    } else sym->nzval[p] = PetscRealPart(v);
  }
  SpTrsvLUFreeFactors(sym);
  set_default_options(&options);
  options.Fact            = DOFACT;
  options.ColPerm         = MY_PERMC;
  options.DiagPivotThresh = (double)sym->thresh;
  options.PrintStat       = NO;
  PetscCall(PetscArraycpy(sym->perm_c, sym->perm_c0, n));
  dCreate_CompCol_Matrix(&A, (int)n, (int)n, (int)sym->nnzA, sym->nzval, sym->rowind, sym->colptr, SLU_NC, SLU_D, SLU_GE);
  StatInit(&stat);
  sp_preorder(&options, &A, sym->perm_c, sym->etree, &AC); /* perm_c: the ordering, then the etree's postorder */
  PetscCall(PetscMemzero(&Glu, sizeof(Glu)));
  dgstrf(&options, &AC, sp_ienv(2), sp_ienv(1), sym->etree, NULL, 0, sym->perm_c, sym->perm_r, &sym->L, &sym->U, &Glu, &stat, &info);
  PetscCall(PetscLogFlops((PetscLogDouble)stat.ops[FACT]));
  StatFree(&stat);
  Destroy_CompCol_Permuted(&AC);
  Destroy_SuperMatrix_Store(&A);
  PetscCheck(info >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "SuperLU dgstrf: argument %d is illegal", -info);
  PetscCheck(info <= n, PETSC_COMM_SELF, PETSC_ERR_MEM, "SuperLU dgstrf ran out of memory (%d bytes allocated when it failed)", info - (int)n);
  sym->haveLU = PETSC_TRUE;
  /* a structurally singular matrix leaves a column without a pivot row: perm_r is then not a permutation */
  {
    PetscBT seen;
    PetscCall(PetscBTCreate(n, &seen));
    for (PetscInt i = 0; i < n && seen_ok; i++) seen_ok = (PetscBool)(sym->perm_r[i] >= 0 && sym->perm_r[i] < n && !PetscBTLookupSet(seen, sym->perm_r[i]));
    PetscCall(PetscBTDestroy(&seen));
  }
  PetscCheck(seen_ok, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "The matrix is structurally singular: SuperLU found no pivot row for some column (zero pivot at column %d of the ordered matrix)", info ? info - 1 : -1);

  PetscCall(PetscLogEventBegin(SPTRSV_DirectConvert, 0, 0, 0, 0));
  PetscCall(SpTrsvLUImageBuild(sym, &im));
  same = PETSC_FALSE;
  if (fac->L) PetscCall(SpTrsvDirectImageSamePattern(&sym->im, &im, &same));
  if (same) PetscCall(PetscArraycmp(sym->perm_r, sym->perm_r_prev, n, &same));
  if (!same) { /* else the triangles keep their patterns and take the values through the new maps */
    /* the triangles adopt copies of the patterns (the image keeps its own, to compare the next factorization) */
    PetscCall(SpTrsvDirectImageInstall(&im, PETSC_TRUE, PETSC_FALSE, fac, &created));
    if (!created) *rebuilt = PETSC_TRUE;
    PetscCall(SpTrsvLUInversePerm(n, sym->perm_r, &fac->rperm));
    PetscCall(SpTrsvLUInversePerm(n, sym->perm_c, &fac->cperm));
    PetscCall(PetscArraycpy(sym->perm_r_prev, sym->perm_r, n));
  }
  PetscCall(SpTrsvDirectImageReset(&sym->im));
  sym->im = im;
  /* values */
  lval = (const double *)((SCformat *)sym->L.Store)->nzval;
  uval = (const double *)((NCformat *)sym->U.Store)->nzval;
  {
    const PetscInt lnz = ((SCformat *)sym->L.Store)->nzval_colptr[n];
    PetscScalar   *la = fac->L->a, *ua = fac->U->a, *idiag = fac->U->idiag;

    for (PetscInt p = 0; p < im.li[n]; p++) la[p] = lval[im.lmap[p]];
    for (PetscInt p = 0; p < im.ui[n]; p++) ua[p] = im.umap[p] < lnz ? lval[im.umap[p]] : uval[im.umap[p] - lnz];
    for (PetscInt k = 0; k < n; k++) idiag[k] = 1.0 / lval[im.dmap[k]];
  }
  PetscCall(PetscLogEventEnd(SPTRSV_DirectConvert, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvLUStructuralRank - a column of A that no maximum transversal covers (-1: A is structurally nonsingular), by
  depth-first augmenting paths (MC21) on the CSC. SuperLU's pivot search reads out of bounds on a column left without
  any candidate row, which only a structurally singular matrix can give (its symbolic factorization has no
  cancellation): such a matrix is refused before dgstrf.
*/
static PetscErrorCode SpTrsvLUStructuralRank(PetscInt n, const int *colptr, const int *rowind, PetscInt *badcol)
{
  PetscInt *rowmatch, *stamp, *stack, *via, *next;

  PetscFunctionBegin;
  *badcol = -1;
  PetscCall(PetscMalloc5(n + 1, &rowmatch, n + 1, &stamp, n + 1, &stack, n + 1, &via, n + 1, &next));
  for (PetscInt r = 0; r < n; r++) rowmatch[r] = stamp[r] = -1;
  for (PetscInt j = 0; j < n && *badcol < 0; j++) {
    PetscInt top = 0, found = -1;

    for (PetscInt p = colptr[j]; p < colptr[j + 1] && found < 0; p++) /* cheap assignment first */
      if (rowmatch[rowind[p]] < 0) found = rowind[p];
    if (found >= 0) {
      rowmatch[found] = j;
      continue;
    }
    stack[0] = j;
    next[0]  = colptr[j];
    while (top >= 0 && found < 0) {
      const PetscInt c = stack[top];

      if (next[top] < colptr[c + 1]) {
        const PetscInt r = rowind[next[top]++];

        if (stamp[r] == j) continue;
        stamp[r] = j;
        if (rowmatch[r] < 0) found = r;
        else { /* go on through the column that holds r */
          top++;
          stack[top] = rowmatch[r];
          via[top]   = r;
          next[top]  = colptr[rowmatch[r]];
        }
      } else top--;
    }
    if (found < 0) *badcol = j;
    else
      for (PetscInt r = found; top >= 0; top--) { /* augment: each column on the path takes the row found after it */
        const PetscInt c = stack[top], prev = top ? via[top] : -1;

        rowmatch[r] = c;
        r           = prev;
      }
  }
  PetscCall(PetscFree5(rowmatch, stamp, stack, via, next));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the symbolic phase with A's CSR at hand: the CSC map, the column ordering, the first factorization */
static PetscErrorCode SpTrsvLUSymbolicCore(Mat A, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, IS col, const SpTrsvDirectOptions *o, SpTrsvFactor fac, SpTrsvLUSym *sym)
{
  const PetscInt n = fac->n, nnz = ai[n];
  PetscInt      *pos, *cperm = NULL;
  PetscBool      rebuilt;

  PetscFunctionBegin;
  PetscCheck(nnz < PETSC_INT_MAX / 2, PETSC_COMM_SELF, PETSC_ERR_SUP, "SuperLU takes int indices: %" PetscInt_FMT " nonzeros are too many", nnz);
  sym->nnzA = fac->nnzA = nnz;
  PetscCall(PetscMalloc2(n + 1, &sym->ai, nnz + 1, &sym->aj));
  PetscCall(PetscArraycpy(sym->ai, ai, n + 1));
  PetscCall(PetscArraycpy(sym->aj, aj, nnz));
  PetscCall(PetscMalloc4(n + 1, &sym->colptr, nnz + 1, &sym->rowind, nnz + 1, &sym->nzval, nnz + 1, &sym->cmap));
  PetscCall(PetscMalloc5(n + 1, &sym->perm_c0, n + 1, &sym->perm_c, n + 1, &sym->perm_r, n + 1, &sym->etree, n + 1, &sym->perm_r_prev));
  /* CSC of A by a counting sort of the CSR (rows ascend in each column) */
  PetscCall(PetscCalloc1(n + 1, &pos));
  for (PetscInt p = 0; p < nnz; p++) pos[aj[p] + 1]++;
  for (PetscInt c = 0; c < n; c++) pos[c + 1] += pos[c];
  for (PetscInt c = 0; c <= n; c++) sym->colptr[c] = (int)pos[c];
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt p = ai[i]; p < ai[i + 1]; p++) {
      const PetscInt q = pos[aj[p]]++;
      sym->rowind[q] = (int)i;
      sym->cmap[q]   = p;
      sym->nzval[q]  = 0.0;
    }
  PetscCall(PetscFree(pos));
  {
    PetscInt badcol;

    PetscCall(SpTrsvLUStructuralRank(n, sym->colptr, sym->rowind, &badcol));
    PetscCheck(badcol < 0, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "The matrix is structurally singular: no pivot can be found for column %" PetscInt_FMT " (a maximum transversal leaves it uncovered); SuperLU cannot factor it", badcol);
  }
  /* the column ordering: PETSc's column IS (perm_c0[col[k]] = k), or COLAMD (also when the PC passed no IS:
     -pc_factor_mat_ordering_type external) */
  if (o->lu_ordering == SPTRSV_LU_ORDERING_COLAMD || !col) {
    SuperMatrix S;

    dCreate_CompCol_Matrix(&S, (int)n, (int)n, (int)nnz, sym->nzval, sym->rowind, sym->colptr, SLU_NC, SLU_D, SLU_GE);
    get_perm_c(3, &S, sym->perm_c0);
    Destroy_SuperMatrix_Store(&S);
    PetscCall(PetscStrncpy(sym->head.ordering, "colamd (SuperLU's)", sizeof(sym->head.ordering)));
  } else {
    PetscCall(SpTrsvFactorGetPerm(col, n, "column", &cperm));
    for (PetscInt k = 0; k < n; k++) sym->perm_c0[cperm ? cperm[k] : k] = (int)k;
    PetscCall(PetscFree(cperm));
    PetscCall(PetscSNPrintf(sym->head.ordering, sizeof(sym->head.ordering), "%s (PETSc's columns, SuperLU's partial pivoting, threshold %g)", o->petsc_ordering, (double)o->pivot_threshold));
  }
  PetscCall(SpTrsvLUFactorize(sym, aa, fac, &rebuilt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorLUSymbolic - order, factor A's current values once (the pattern of L and U depends on the pivots),
  build the triangles with SuperLU's supernode partition; the numeric phase that follows on the same values reuses
  this factorization (the zero pivot check and its report belong to the numeric phase)
*/
PetscErrorCode SpTrsvFactorLUSymbolic(Mat A, IS col, const MatFactorInfo *info, const SpTrsvDirectOptions *o, SpTrsvFactor fac)
{
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
  SpTrsvLUSym       *sym;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorCheckMat(A, fac->n));
  PetscCheck(fac->ftype == MAT_FACTOR_LU, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Not an LU factor");
#if defined(PETSC_USE_COMPLEX) || !defined(PETSC_USE_REAL_DOUBLE)
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The LU factor of the sptrsv_* solver types calls SuperLU's real double precision routines: build PETSc with real double scalars");
#endif
  PetscCheck(fac->n < PETSC_INT_MAX / 2, PETSC_COMM_SELF, PETSC_ERR_SUP, "SuperLU takes int indices: %" PetscInt_FMT " rows are too many", fac->n);
  PetscCall(SpTrsvFactorReset(fac));
  PetscCall(PetscNew(&sym));
  fac->sym        = sym;
  fac->symdestroy = SpTrsvLUSymDestroy;
  sym->n          = fac->n;
  sym->thresh     = o->pivot_threshold;
  PetscCall(PetscSNPrintf(sym->head.library, sizeof(sym->head.library), "SuperLU %d.%d.%d", SUPERLU_MAJOR_VERSION, SUPERLU_MINOR_VERSION, SUPERLU_PATCH_VERSION));
  if (info->shifttype != (PetscReal)MAT_SHIFT_NONE) PetscCall(PetscInfo(A, "The LU factor from SuperLU ignores -pc_factor_shift_type (pivoting instead)\n"));
  PetscCall(SpTrsvMatGetCSR(A, &ai, &aj, &aa));
  ierr = SpTrsvLUSymbolicCore(A, ai, aj, aa, col, o, fac, sym);
  PetscCall(SpTrsvMatRestoreCSR(A, &ai, &aj, &aa));
  PetscCall(ierr);
  PetscCall(SpTrsvDirectHeadSetCounts(fac, &sym->head));
  PetscCall(SpTrsvDirectMarkFresh(A, &sym->head));
  PetscCall(PetscInfo(A, "LU (%s, ordering %s): nnz(L) %" PetscInt_FMT ", nnz(U) %" PetscInt_FMT ", %" PetscInt_FMT " supernodes (widest %" PetscInt_FMT "), fill ratio %g\n", sym->head.library, sym->head.ordering, sym->head.nnzL, sym->head.nnzU, sym->head.nsuper, sym->head.maxsuper,
                      fac->nnzA ? (double)(sym->head.nnzL + sym->head.nnzU - fac->n) / (double)fac->nnzA : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorLUNumeric - factor A's current values (unless the symbolic phase just did), refresh the triangles
  (rebuilt when the pivot order or pattern changed: sym->head.rebuilt), then PETSc's checks: NaN/Inf in A, a pivot
  |U(k,k)| <= info->zeropivot (MAT_FACTOR_NUMERIC_ZEROPIVOT, or an error with A->erroriffailure), NaN/Inf in L/U
*/
/* SpTrsvDirectNumericValues' consumer: SuperLU refactors with A's values unless the symbolic phase's factorization of
   these values is still fresh */
typedef struct {
  SpTrsvLUSym *sym;
  SpTrsvFactor fac;
  PetscBool    fresh, rebuilt;
} SpTrsvLUTakeCtx;

static PetscErrorCode SpTrsvLUTakeValues(void *ctx, const PetscScalar *aa)
{
  SpTrsvLUTakeCtx *t = (SpTrsvLUTakeCtx *)ctx;

  PetscFunctionBegin;
  if (!t->fresh) PetscCall(SpTrsvLUFactorize(t->sym, aa, t->fac, &t->rebuilt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvFactorLUNumeric(Mat A, const MatFactorInfo *info, SpTrsvFactor fac)
{
  SpTrsvLUSym    *sym     = (SpTrsvLUSym *)fac->sym;
  const PetscBool errorif = A->erroriffailure;
  const PetscInt  n       = fac->n;
  SpTrsvLUTakeCtx take    = {sym, fac, PETSC_FALSE, PETSC_FALSE};

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorCheckMat(A, n));
  PetscCheck(fac->ftype == MAT_FACTOR_LU && sym && fac->L && fac->U, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Call the symbolic LU factorization before the numeric one");
  PetscCall(PetscLogEventBegin(SPTRSV_LUNumeric, A, 0, 0, 0));
  PetscCall(SpTrsvDirectTakeFresh(A, &sym->head, &take.fresh));
  PetscCall(SpTrsvDirectNumericValues(A, fac, sym->nnzA, sym->ai, sym->aj, "LU", SpTrsvLUTakeValues, &take));
  sym->head.nnumeric++;
  sym->head.rebuilt = take.rebuilt;
  if (take.rebuilt) {
    sym->head.nrebuild++;
    PetscCall(SpTrsvDirectHeadSetCounts(fac, &sym->head));
    PetscCall(PetscInfo(A, "SuperLU chose another pivot order (or pattern) than for the triangles: rebuilt (nnz(L) %" PetscInt_FMT ", nnz(U) %" PetscInt_FMT "), their analysis is redone\n", sym->head.nnzL, sym->head.nnzU));
  }
  if (!fac->nonfinite) {
    const double *lval = (const double *)((SCformat *)sym->L.Store)->nzval;

    for (PetscInt k = 0; k < n; k++) {
      const PetscReal d = PetscAbsReal(lval[sym->im.dmap[k]]);

      if (d <= info->zeropivot) {
        char msg[256];
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "Zero pivot in row %" PetscInt_FMT " of the factored matrix (row %" PetscInt_FMT " of the input): |pivot| %g <= tolerance %g (SuperLU, -mat_sptrsv_lu_pivot_threshold %g)", k, fac->rperm ? fac->rperm[k] : k, (double)d, (double)info->zeropivot, (double)sym->thresh));
        PetscCall(SpTrsvDirectZeroPivot(fac, errorif, PETSC_ERR_MAT_LU_ZRPVT, k, d, msg));
        break;
      }
    }
  }
  PetscCall(SpTrsvDirectNumericFinish(fac, errorif, (PetscBool)!take.fresh));
  PetscCall(PetscLogEventEnd(SPTRSV_LUNumeric, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif
