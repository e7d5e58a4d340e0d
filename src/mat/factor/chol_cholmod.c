/*
   Complete Cholesky of a MATSEQAIJ by CHOLMOD's supernodal factorization, converted into the plugin's triangles.

   CHOLMOD reads the upper triangle of A, as PETSc's Cholesky does: A's CSR read as a CSC matrix M (column j = row j
   of A, so M = A^T) with stype = -1 (only the lower triangle of M, i.e. the upper one of A, is used). It factors
   P A P^T = Lc Lc^T, P from cholmod_analyze_p() (PETSc's ordering with CHOLMOD_GIVEN, or CHOLMOD's own: AMD, METIS,
   its nested dissection, or its default strategy), always postordered; L->Perm is the final permutation, which is
   the plugin's rperm = cperm.

   Supernodal storage: supernode s holds columns [super[s], super[s+1]); its row indices are s[pi[s] ...] (the first
   ncols are the supernode's own columns), its values a column-major block of nrows x ncols at x[px[s]].
   The triangles are those of the ICC factor (factor.h): with d = diag(Lc), A(P,P) = Lu D Lu^T where Lu = Lc diag(d)^-1
   is unit lower and D = diag(d)^2, stored as L = Lu and U = D Lu^T (idiag = 1/d^2), so every path solves it as an
   ICC factor: L(r,j) = Lc(r,j)/d_j, U(j,r) = d_j Lc(r,j). The pattern depends on A's pattern and P only, so the
   maps from the triangles' slots into Lc's values are made once by the symbolic phase.

   Overlap (-mat_sptrsv_cholesky_overlap, default on): the symbolic phase, A's values at hand, starts
   cholmod_factorize() of them in a host thread and returns; the factor Mat then analyses the triangles and sets up
   their executors (pattern only) while CHOLMOD works. The numeric phase joins the thread and takes its factor when A
   is the same matrix in the same state (SpTrsvDirectTakeFresh, as LU's symbolic factorization), else factors again.
   While it runs, the thread alone touches As, L and the CHOLMOD common (its error handler is off: PETSc is not
   thread-safe; a status other than success is reported after the join); everything else waits for the join (the
   numeric phase, a new symbolic phase, the factor's destruction).
*/
#include <sptrsv/direct.h>
#include <petsc/private/matimpl.h>
#if defined(PETSC_SPTRSV_HAVE_CHOLMOD)
#include <cholmod.h>
#include <pthread.h>

typedef struct {
  SpTrsvDirectHead  head; /* first: read through SpTrsvFactorDirectHead() */
  PetscInt          n, nnzA;
  PetscInt         *ai, *aj; /* A's CSR pattern at the symbolic phase */
  int              *Ap, *Ai; /* the same as CHOLMOD's int arrays */
  double           *Ax;
  cholmod_common    c;
  PetscBool         started;
  cholmod_sparse    As;
  cholmod_factor   *L;
  SpTrsvDirectImage im; /* its maps: slots of L and U, and column j's diagonal -> index in L->x (the patterns are L's and U's) */
  pthread_t         thread;   /* the symbolic phase's cholmod_factorize() (overlap) */
  PetscBool         running;  /* the thread was started and not yet joined (head.fresh: its factor not yet taken) */
} SpTrsvCholSym;

static const char *SpTrsvCholmodOrderingName(int ordering)
{
  switch (ordering) {
  case CHOLMOD_NATURAL:
    return "natural";
  case CHOLMOD_GIVEN:
    return "given";
  case CHOLMOD_AMD:
    return "amd";
  case CHOLMOD_METIS:
    return "metis";
  case CHOLMOD_NESDIS:
    return "nesdis";
  case CHOLMOD_COLAMD:
    return "colamd";
  case CHOLMOD_POSTORDERED:
    return "postordered";
  default:
    return "unknown";
  }
}

/* CHOLMOD's errors and warnings go to -info (its return status is checked where it is called) */
static void SpTrsvCholmodError(int status, const char *file, int line, const char *message)
{
  (void)PetscInfo(NULL, "CHOLMOD %s %d (%s:%d): %s\n", status < 0 ? "error" : "warning", status, file, line, message);
}

static void *SpTrsvCholFactorThread(void *ctx)
{
  SpTrsvCholSym *sym = (SpTrsvCholSym *)ctx;

  (void)cholmod_factorize(&sym->As, sym->L, &sym->c); /* its status stays in sym->c.status */
  return NULL;
}

/* wait for the symbolic phase's factorization, if one runs; CHOLMOD's error handler back on, its status to -info */
static PetscErrorCode SpTrsvCholJoin(SpTrsvCholSym *sym)
{
  PetscFunctionBegin;
  if (!sym->running) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!pthread_join(sym->thread, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "Could not join the thread of CHOLMOD's numeric factorization");
  sym->running         = PETSC_FALSE;
  sym->c.error_handler = SpTrsvCholmodError;
  if (sym->c.status != CHOLMOD_OK) PetscCall(PetscInfo(NULL, "CHOLMOD's numeric factorization in the host thread ended with status %d%s\n", sym->c.status, sym->c.status == CHOLMOD_NOT_POSDEF ? " (not positive definite)" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvCholSymDestroy(void **ctx)
{
  SpTrsvCholSym *sym = (SpTrsvCholSym *)*ctx;

  PetscFunctionBegin;
  if (!sym) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SpTrsvCholJoin(sym));
  if (sym->started) {
    if (sym->L) cholmod_free_factor(&sym->L, &sym->c);
    cholmod_finish(&sym->c);
  }
  PetscCall(PetscFree2(sym->ai, sym->aj));
  PetscCall(PetscFree3(sym->Ap, sym->Ai, sym->Ax));
  PetscCall(SpTrsvDirectImageReset(&sym->im));
  PetscCall(PetscFree(sym));
  *ctx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triangles' patterns and the maps into Lc's values, from the supernodal symbolic factor: row r of L gets one
   entry per column j < r of Lc with Lc(r,j) stored, row j of U one per entry below the diagonal of column j; columns
   in ascending order: the columns of each row of L come out sorted; a row of U is a column of Lc, whose rows ascend
   (checked in the first walk) */
static PetscErrorCode SpTrsvCholBuildTriangles(SpTrsvCholSym *sym, SpTrsvFactor fac)
{
  const PetscInt     n = sym->n;
  cholmod_factor    *L = sym->L;
  const int          nsup = (int)L->nsuper, *super = (const int *)L->super, *pi = (const int *)L->pi, *px = (const int *)L->px, *ls = (const int *)L->s;
  SpTrsvDirectImage *im = &sym->im;
  PetscInt           nz = 0;

  PetscFunctionBegin;
  PetscCheck(L->is_super && super[0] == 0 && super[nsup] == n, PETSC_COMM_SELF, PETSC_ERR_LIB, "CHOLMOD did not return a supernodal factor covering [0, %" PetscInt_FMT ")", n);
  PetscCall(SpTrsvDirectImageCreate(n, im));
  for (int pass = 0; pass < 2; pass++) { /* count, then store */
    if (pass) {
      PetscCall(SpTrsvDirectImageAllocate(im));
      PetscCheck(im->li[n] == nz && im->ui[n] == nz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cholesky conversion counted %" PetscInt_FMT " and %" PetscInt_FMT " entries, expected %" PetscInt_FMT, im->li[n], im->ui[n], nz);
    }
    for (int s = 0; s < nsup; s++) {
      const int k1 = super[s], k2 = super[s + 1], nscol = k2 - k1, psi = pi[s], nsrow = pi[s + 1] - psi, psx = px[s];

      if (!pass) {
        PetscCheck(nscol > 0 && nsrow >= nscol, PETSC_COMM_SELF, PETSC_ERR_LIB, "CHOLMOD's supernode %d: %d columns, %d rows", s, nscol, nsrow);
        for (int i = 0; i < nsrow; i++) {
          const int r = ls[psi + i];

          if (i < nscol) PetscCheck(r == k1 + i, PETSC_COMM_SELF, PETSC_ERR_LIB, "CHOLMOD's supernode %d: row %d of its diagonal block is %d, expected %d", s, i, r, k1 + i);
          else PetscCheck(r > ls[psi + i - 1] && r < n, PETSC_COMM_SELF, PETSC_ERR_LIB, "CHOLMOD's supernode %d: row indices not ascending at %d (%d)", s, i, r);
        }
        nz += (PetscInt)nscol * nsrow - (PetscInt)nscol * (nscol + 1) / 2;
      }
      for (int j = k1; j < k2; j++) {
        const int jj = j - k1;

        SpTrsvDirectImageSetDiag(im, j, psx + jj + (PetscInt)jj * nsrow);
        for (int i = jj + 1; i < nsrow; i++) {
          const int      r = ls[psi + i];
          const PetscInt v = psx + i + (PetscInt)jj * nsrow;

          SpTrsvDirectImageAddL(im, r, j, v);
          SpTrsvDirectImageAddU(im, j, r, v);
        }
      }
    }
  }
  PetscCall(SpTrsvDirectImageFinish(im, nsup, super));
  /* the triangles take the patterns; the image keeps the maps */
  PetscCall(SpTrsvDirectImageInstall(im, PETSC_FALSE, PETSC_TRUE, fac, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the symbolic phase with A's CSR at hand */
static PetscErrorCode SpTrsvCholSymbolicCore(const PetscInt *ai, const PetscInt *aj, IS perm, const SpTrsvDirectOptions *o, SpTrsvFactor fac, SpTrsvCholSym *sym)
{
  const PetscInt n = fac->n, nnz = ai[n];
  PetscInt      *pp = NULL;
  int           *uperm = NULL;
  PetscBool      given = (PetscBool)(o->chol_ordering == SPTRSV_CHOL_ORDERING_PETSC && perm);
  const int     *lp;
  PetscBool      identity = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCheck(nnz < PETSC_INT_MAX / 2, PETSC_COMM_SELF, PETSC_ERR_SUP, "CHOLMOD (int version) takes int indices: %" PetscInt_FMT " nonzeros are too many", nnz);
  sym->nnzA = fac->nnzA = nnz;
  PetscCall(PetscMalloc2(n + 1, &sym->ai, nnz + 1, &sym->aj));
  PetscCall(PetscArraycpy(sym->ai, ai, n + 1));
  PetscCall(PetscArraycpy(sym->aj, aj, nnz));
  PetscCall(PetscMalloc3(n + 1, &sym->Ap, nnz + 1, &sym->Ai, nnz + 1, &sym->Ax));
  for (PetscInt i = 0; i <= n; i++) sym->Ap[i] = (int)ai[i];
  for (PetscInt p = 0; p < nnz; p++) {
    sym->Ai[p] = (int)aj[p];
    sym->Ax[p] = 0.0;
  }
  sym->As.nrow   = (size_t)n;
  sym->As.ncol   = (size_t)n;
  sym->As.nzmax  = (size_t)nnz;
  sym->As.p      = sym->Ap;
  sym->As.i      = sym->Ai;
  sym->As.x      = sym->Ax;
  sym->As.stype  = -1; /* M = A^T, its lower triangle = A's upper one */
  sym->As.itype  = CHOLMOD_INT;
  sym->As.xtype  = CHOLMOD_REAL;
  sym->As.dtype  = CHOLMOD_DOUBLE;
  sym->As.sorted = 1;
  sym->As.packed = 1;

  cholmod_start(&sym->c);
  sym->started          = PETSC_TRUE;
  sym->c.supernodal     = CHOLMOD_SUPERNODAL;
  sym->c.print          = 0;
  sym->c.error_handler  = SpTrsvCholmodError;
  switch (o->chol_ordering) {
  case SPTRSV_CHOL_ORDERING_PETSC:
    if (given) {
      sym->c.nmethods           = 1;
      sym->c.method[0].ordering = CHOLMOD_GIVEN;
      PetscCall(SpTrsvFactorGetPerm(perm, n, "symmetric", &pp));
      PetscCall(PetscMalloc1(n + 1, &uperm));
      for (PetscInt k = 0; k < n; k++) uperm[k] = (int)(pp ? pp[k] : k);
      PetscCall(PetscFree(pp));
    } /* no IS (-pc_factor_mat_ordering_type external): CHOLMOD's default strategy */
    break;
  case SPTRSV_CHOL_ORDERING_AMD:
  case SPTRSV_CHOL_ORDERING_METIS:
  case SPTRSV_CHOL_ORDERING_NESDIS:
    sym->c.nmethods           = 1;
    sym->c.method[0].ordering = o->chol_ordering == SPTRSV_CHOL_ORDERING_AMD ? CHOLMOD_AMD : (o->chol_ordering == SPTRSV_CHOL_ORDERING_METIS ? CHOLMOD_METIS : CHOLMOD_NESDIS);
    break;
  case SPTRSV_CHOL_ORDERING_AUTO:
    break;
  }
  sym->L = cholmod_analyze_p(&sym->As, uperm, NULL, 0, &sym->c);
  PetscCall(PetscFree(uperm));
  PetscCheck(sym->L && sym->c.status >= 0, PETSC_COMM_SELF, sym->c.status == CHOLMOD_OUT_OF_MEMORY ? PETSC_ERR_MEM : PETSC_ERR_LIB, "CHOLMOD's cholmod_analyze_p failed with status %d (-info shows its message)", sym->c.status);
  if (given) PetscCall(PetscSNPrintf(sym->head.ordering, sizeof(sym->head.ordering), "%s (PETSc's, postordered by CHOLMOD)", o->petsc_ordering));
  else PetscCall(PetscSNPrintf(sym->head.ordering, sizeof(sym->head.ordering), "%s (CHOLMOD's%s)", SpTrsvCholmodOrderingName(sym->L->ordering), o->chol_ordering == SPTRSV_CHOL_ORDERING_PETSC || o->chol_ordering == SPTRSV_CHOL_ORDERING_AUTO ? " choice" : ""));
  lp = (const int *)sym->L->Perm;
  for (PetscInt k = 0; k < n && identity; k++) identity = (PetscBool)(lp[k] == k);
  if (!identity) {
    PetscCall(PetscMalloc1(n, &fac->rperm));
    PetscCall(PetscMalloc1(n, &fac->cperm));
    for (PetscInt k = 0; k < n; k++) fac->rperm[k] = fac->cperm[k] = lp[k];
  }
  PetscCall(SpTrsvCholBuildTriangles(sym, fac));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorCholeskySymbolic - CHOLMOD's supernodal analysis with the ordering of -mat_sptrsv_cholesky_ordering, the
  triangles' patterns and maps, the supernode partition
*/
PetscErrorCode SpTrsvFactorCholeskySymbolic(Mat A, IS perm, const MatFactorInfo *info, const SpTrsvDirectOptions *o, SpTrsvFactor fac)
{
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
  SpTrsvCholSym     *sym;
  PetscErrorCode     ierr;
  double             fl = 0;

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorCheckMat(A, fac->n));
  PetscCheck(fac->ftype == MAT_FACTOR_CHOLESKY, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Not a Cholesky factor");
#if defined(PETSC_USE_COMPLEX) || !defined(PETSC_USE_REAL_DOUBLE)
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The Cholesky factor of the sptrsv_* solver types calls CHOLMOD's real double precision routines: build PETSc with real double scalars");
#endif
  PetscCheck(fac->n < PETSC_INT_MAX / 2, PETSC_COMM_SELF, PETSC_ERR_SUP, "CHOLMOD (int version) takes int indices: %" PetscInt_FMT " rows are too many", fac->n);
  PetscCall(SpTrsvFactorReset(fac));
  PetscCall(PetscNew(&sym));
  fac->sym        = sym;
  fac->symdestroy = SpTrsvCholSymDestroy;
  sym->n          = fac->n;
  PetscCall(PetscSNPrintf(sym->head.library, sizeof(sym->head.library), "CHOLMOD %d.%d.%d", CHOLMOD_MAIN_VERSION, CHOLMOD_SUB_VERSION, CHOLMOD_SUBSUB_VERSION));
  if (info->shifttype != (PetscReal)MAT_SHIFT_NONE) PetscCall(PetscInfo(A, "The Cholesky factor from CHOLMOD ignores -pc_factor_shift_type\n"));
  PetscCall(SpTrsvMatGetCSR(A, &ai, &aj, &aa));
  ierr = SpTrsvCholSymbolicCore(ai, aj, perm, o, fac, sym);
  if (!ierr) fl = sym->c.fl; /* read before a thread may write the common */
  if (!ierr && o->chol_overlap) { /* A's values, if all finite, into As, and CHOLMOD factors them in a host thread */
    PetscBool finite = PETSC_TRUE;

    for (PetscInt p = 0; p < sym->nnzA && finite; p++) finite = (PetscBool)!PetscIsInfOrNanScalar(aa[p]);
    if (finite) {
      for (PetscInt p = 0; p < sym->nnzA; p++) sym->Ax[p] = PetscRealPart(aa[p]);
      sym->c.error_handler = NULL; /* PetscInfo() is not for another thread */
      if (!pthread_create(&sym->thread, NULL, SpTrsvCholFactorThread, sym)) sym->running = PETSC_TRUE;
      else sym->c.error_handler = SpTrsvCholmodError; /* no thread: the numeric phase factors */
    }
  }
  PetscCall(SpTrsvMatRestoreCSR(A, &ai, &aj, &aa));
  PetscCall(ierr);
  if (sym->running) PetscCall(SpTrsvDirectMarkFresh(A, &sym->head));
  PetscCall(SpTrsvDirectHeadSetCounts(fac, &sym->head));
  PetscCall(PetscInfo(A, "Cholesky (%s, ordering %s): nnz(L) %" PetscInt_FMT ", %" PetscInt_FMT " supernodes (widest %" PetscInt_FMT "), %g flops predicted%s\n", sym->head.library, sym->head.ordering, sym->head.nnzL, sym->head.nsuper, sym->head.maxsuper, fl, sym->running ? "; its numeric factorization runs in a host thread beside the analysis" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorCholeskyNumeric - cholmod_factorize() of A's current values (NaN/Inf replaced by 0: the factor is then
  marked non-finite and its solves give NaN), the triangles' values, then PETSc's checks: a matrix that is not
  positive definite (CHOLMOD stops at L->minor) or a pivot d^2 <= info->zeropivot is MAT_FACTOR_NUMERIC_ZEROPIVOT (an
  error with A->erroriffailure); NaN/Inf in the factor as for ICC
*/
/* SpTrsvDirectNumericValues' consumer: A's values into CHOLMOD's copy of A (zeros for NaN/Inf, as ICC), unless the
   symbolic phase's thread factored these very values (fresh) */
typedef struct {
  SpTrsvCholSym *sym;
  PetscBool      fresh;
} SpTrsvCholTakeCtx;

static PetscErrorCode SpTrsvCholTakeValues(void *ctx, const PetscScalar *aa)
{
  SpTrsvCholTakeCtx *t   = (SpTrsvCholTakeCtx *)ctx;
  SpTrsvCholSym     *sym = t->sym;

  PetscFunctionBegin;
  if (t->fresh) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt p = 0; p < sym->nnzA; p++) sym->Ax[p] = PetscIsInfOrNanScalar(aa[p]) ? 0.0 : PetscRealPart(aa[p]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvFactorCholeskyNumeric(Mat A, const MatFactorInfo *info, SpTrsvFactor fac)
{
  SpTrsvCholSym  *sym     = (SpTrsvCholSym *)fac->sym;
  const PetscBool errorif = A->erroriffailure;
  const PetscInt  n       = fac->n;
  PetscInt        minor;
  const double   *lx;
  SpTrsvCholTakeCtx take = {sym, PETSC_FALSE};

  PetscFunctionBegin;
  PetscCall(SpTrsvFactorCheckMat(A, n));
  PetscCheck(fac->ftype == MAT_FACTOR_CHOLESKY && sym && sym->L && fac->L && fac->U, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Call the symbolic Cholesky factorization before the numeric one");
  PetscCall(PetscLogEventBegin(SPTRSV_CholNumeric, A, 0, 0, 0));
  PetscCall(SpTrsvCholJoin(sym)); /* the symbolic phase's thread, if it still runs */
  PetscCall(SpTrsvDirectTakeFresh(A, &sym->head, &take.fresh)); /* marked fresh only where the thread started */
  PetscCall(SpTrsvDirectNumericValues(A, fac, sym->nnzA, sym->ai, sym->aj, "Cholesky", SpTrsvCholTakeValues, &take));
  if (take.fresh) sym->head.noverlap++;
  else cholmod_factorize(&sym->As, sym->L, &sym->c);
  PetscCheck(sym->c.status >= 0, PETSC_COMM_SELF, sym->c.status == CHOLMOD_OUT_OF_MEMORY ? PETSC_ERR_MEM : PETSC_ERR_LIB, "CHOLMOD's cholmod_factorize failed with status %d (-info shows its message)", sym->c.status);
  PetscCall(PetscLogFlops(sym->c.fl));
  minor = sym->c.status == CHOLMOD_NOT_POSDEF ? (PetscInt)sym->L->minor : n;
  lx    = (const double *)sym->L->x;

  PetscCall(PetscLogEventBegin(SPTRSV_DirectConvert, 0, 0, 0, 0));
  {
    const PetscInt *li = fac->L->i, *lj = fac->L->j, *ui = fac->U->i;
    PetscScalar    *la = fac->L->a, *ua = fac->U->a, *idiag = fac->U->idiag;

    /* columns from minor on were not computed (the factorization stopped there): zeros, the factor has failed */
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt p = li[r]; p < li[r + 1]; p++) la[p] = lj[p] < minor ? lx[sym->im.lmap[p]] / lx[sym->im.dmap[lj[p]]] : 0.0;
    for (PetscInt j = 0; j < n; j++) {
      const double d = j < minor ? lx[sym->im.dmap[j]] : 0.0;

      for (PetscInt q = ui[j]; q < ui[j + 1]; q++) ua[q] = j < minor ? lx[sym->im.umap[q]] * d : 0.0;
      idiag[j] = j < minor ? 1.0 / (d * d) : 0.0;
    }
  }
  PetscCall(PetscLogEventEnd(SPTRSV_DirectConvert, 0, 0, 0, 0));
  sym->head.nnumeric++;
  if (!fac->nonfinite && minor < n) {
    char msg[256];
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "Matrix is not positive definite: CHOLMOD's supernodal Cholesky stopped at row %" PetscInt_FMT " of the factored matrix (row %" PetscInt_FMT " of the input); use -pc_type lu", minor, fac->rperm ? fac->rperm[minor] : minor));
    PetscCall(SpTrsvDirectZeroPivot(fac, errorif, PETSC_ERR_MAT_CH_ZRPVT, minor, 0.0, msg));
  } else if (!fac->nonfinite) {
    for (PetscInt k = 0; k < n; k++) {
      const PetscReal d = lx[sym->im.dmap[k]] * lx[sym->im.dmap[k]];

      if (d <= info->zeropivot) {
        char msg[256];
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "Zero pivot in row %" PetscInt_FMT " of the factored matrix (row %" PetscInt_FMT " of the input): pivot %g <= tolerance %g (CHOLMOD)", k, fac->rperm ? fac->rperm[k] : k, (double)d, (double)info->zeropivot));
        PetscCall(SpTrsvDirectZeroPivot(fac, errorif, PETSC_ERR_MAT_CH_ZRPVT, k, d, msg));
        break;
      }
    }
  }
  PetscCall(SpTrsvDirectNumericFinish(fac, errorif, PETSC_TRUE));
  PetscCall(PetscLogEventEnd(SPTRSV_CholNumeric, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif
