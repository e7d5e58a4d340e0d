/*
   The numeric phase of ILU(k) on the GPU, for factors whose solves run on the CUDA backend
   (-mat_sptrsv_factor_device, src/mat/solvers/factormat.c). Backend-neutral C: the passes are an ops table
   (include/sptrsv/ilu_device.h): the CUDA kernels of src/cuda/ilu_numeric.cu, or the host emulation of the same
   passes in src/mat/factor/ilu_emul.c (tests/unit/test_ilu_device.c); the rules here are those of the host numeric phase
   (SpTrsvFactorNumericRun() + SpTrsvILUNumericRows(), src/mat/factor/factor.c and iluk.c):

   - symbolic phase (once per pattern, SpTrsvFactorILUDeviceSetUp()): the host's pattern of L and U, and the
     map of every nonzero of A's CSR into the factor's value storage (row r[i] of A to factored row i,
     column c to ic[c]) are uploaded once;
   - numeric phase (SpTrsvFactorILUNumericDevice()): A's values (a MATSEQAIJCUSPARSE's device array in place,
     uploaded by PETSc first when only the host holds them; another type's host CSR values, uploaded once), then
     passes of the GPU elimination
     under PETSc's shift loop: a pass that reports a failing pivot (NONZERO, POSITIVE_DEFINITE) is turned
     into SpTrsvShiftCheckPivot()/SpTrsvShiftRefine() calls on the host, with the pivot and row sum the
     kernel read back, and the pass is rerun with the new shift, exactly as the host's do/while loop; zero
     pivots (NONE), INBLOCKS shifts, a non-finite A or factor give the same outcomes and the same errors
     through the same functions. One small copy of flags per pass comes back to the host; the values stay
     on the device (fac->host_stale) until SpTrsvFactorSyncHost() downloads them for a host consumer.
   Without a CUDA build SpTrsvFactorILUDeviceSetUp() says the GPU numeric phase is not available (the emulation
   still runs, for the tests). The CUDA implementation and PETSc's CUDA arrays come from the device-ops table
   (include/sptrsv/deviceops.h). The factor holds the device object with its destroy hook (fac->device_destroy), so
   factor.c never calls into this file.
*/
#include <sptrsv/factor.h>
#include <petsc/private/matimpl.h> /* A->erroriffailure */
#include <sptrsv/ilu_device.h>
#include <sptrsv/deviceops.h>
#include <sptrsv/plan.h> /* SpTrsvLevelsCompute, SpTrsvLevelsSort */
#include <sptrsv/threads.h>

struct _n_SpTrsvILUDevice {
  const SpTrsvILUDeviceOps *ops;
  void                     *ctx;
  PetscLogDouble            flops; /* flops of a pass when every multiplier is nonzero (an upper bound; the host counts the nonzero ones) */
  SpTrsvILUDeviceConfig     cfg;   /* how it runs: the options, the automatic cap resolved */
};

/*
  SpTrsvFactorILUDeviceAvailable - whether this build can run the numeric ILU on the GPU, and why not
*/
PetscErrorCode SpTrsvFactorILUDeviceAvailable(PetscBool *avail, const char **why)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  *avail = (PetscBool)(dev->ilu.ops && !dev->ilu.why);
  if (why) *why = dev->ilu.why;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the factor's destroy hook of its device object (fac->device_destroy) */
static PetscErrorCode SpTrsvILUDeviceDestroy(SpTrsvILUDevice *dp)
{
  PetscFunctionBegin;
  if (!*dp) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*dp)->ctx) PetscCall((*(*dp)->ops->destroy)(&(*dp)->ctx));
  PetscCall(PetscFree(*dp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* position of column c in the sorted cols[lo, hi), or -1 */
static PetscInt SpTrsvILUDeviceFind(const PetscInt *cols, PetscInt lo, PetscInt hi, PetscInt c)
{
  while (lo < hi) {
    const PetscInt mid = lo + (hi - lo) / 2;
    if (cols[mid] < c) lo = mid + 1;
    else if (cols[mid] > c) hi = mid;
    else return mid;
  }
  return -1;
}

/*
  The map of A's nonzeros into F = [L strict | pivots | U strict] (see SpTrsvFactorILUDeviceSetUp()), and the
  flops of a pass, in one walk over the rows; *missing: the first nonzero of A outside the factor's pattern (-1:
  none, which is always the case: every entry of A lies in the level-0 pattern). Without a column permutation
  the columns of A's row and of the factored row both ascend: a merge, no search; with one, a binary search.
*/
static PetscErrorCode SpTrsvILUDeviceMap(SpTrsvFactor fac, const PetscInt *ai, const PetscInt *aj, PetscInt *amap, PetscLogDouble *flops, PetscInt *missing)
{
  SpTrsvILUSym   *sym = (SpTrsvILUSym *)fac->sym;
  const PetscInt  n = fac->n, *rp = fac->rperm, *ic = sym->icperm, *li = fac->L->i, *lj = fac->L->j, *ui = fac->U->i, *uj = fac->U->j, nnzL = li[n];
  PetscLogDouble f = n;

  PetscFunctionBegin;
  *missing = -1;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt row = rp ? rp[i] : i;
    PetscInt       q = li[i], r = ui[i];

    for (PetscInt p = li[i]; p < li[i + 1]; p++) f += 1 + 2.0 * (ui[lj[p] + 1] - ui[lj[p]]);
    for (PetscInt p = ai[row]; p < ai[row + 1]; p++) {
      PetscInt s;

      if (ic) {
        const PetscInt c = ic[aj[p]];

        if (c < i) s = SpTrsvILUDeviceFind(lj, li[i], li[i + 1], c); /* F[0 .. nnzL): L->a */
        else if (c == i) s = nnzL + i;                                   /* F[nnzL + i]: the pivot */
        else {
          s = SpTrsvILUDeviceFind(uj, ui[i], ui[i + 1], c); /* F[nnzL + n ..): U->a */
          if (s >= 0) s += nnzL + n;
        }
      } else {
        const PetscInt c = aj[p];

        if (c < i) {
          while (q < li[i + 1] && lj[q] < c) q++;
          s = (q < li[i + 1] && lj[q] == c) ? q : -1;
        } else if (c == i) s = nnzL + i;
        else {
          while (r < ui[i + 1] && uj[r] < c) r++;
          s = (r < ui[i + 1] && uj[r] == c) ? nnzL + n + r : -1;
        }
      }
      if (s < 0) {
        *missing = p;
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      amap[p] = s;
    }
  }
  *flops = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorILUDeviceSetUp - after SpTrsvFactorILUSymbolic(A, ...): the map of A's nonzeros into the factor's
  value storage F = [L strict | pivots | U strict] and the device copies of the pattern (once per pattern).
  ILU(0) in the natural ordering: the factor's pattern is A's, split at the diagonal, and the implementation
  makes the map itself from the row pointers of A, L and U and A's diagonal positions (no map on the host, none
  uploaded): see SpTrsvILUDeviceOps. level_order: the elimination hands the rows out in level (wavefront) order of L's
  DAG, rows ascending inside a level, instead of increasing rows: every row still comes after the rows it waits for (the
  deadlock-freedom argument of src/cuda/ilu_numeric.cu holds for any topological order) and every row gets the same
  operations (the values and every outcome are those of increasing order), but the rows a GPU holds at once are a slice of
  the wavefront, not a few consecutive grid lines (a 2-D grid in natural order: about eight lines of 1000 rows, each a
  chain through x - 1).
  The automatic residency cap (cfg->blocks_per_sm PETSC_DECIDE): SPTRSV_ILU_AUTO_CAP blocks per SM when the rows are handed
  out in level order and L's levels hold at most SPTRSV_ILU_AUTO_CAP_WIDTH rows on average, else none. Narrow levels leave
  most resident warps polling rows of later levels, and fewer pollers make each hand-over cheaper (a 120^2 grid, 60 rows a
  level: 578 against 617 us a refactorization; ksp ex2 1000^2, 500: PCSetUp 0.085 against 0.097 s); wide levels keep
  every resident warp busy and the cap only lowers the rows in flight (ksp ex45 96^3, 3093 rows a level: 0.079 against
  0.072 s). On an H200 the cap's 4 blocks of 4 warps on 132 SMs hold 2112 rows: the width limit keeps two levels in flight.
  llevel, lnlevels: the ASAP levels of L's rows (SpTrsvLevelsCompute()'s) and their count when the analysis of L's solves
  computed them already (the plan's level_asap), so that level order does not compute them again; NULL, 0: computed here.
*/
PetscErrorCode SpTrsvFactorILUDeviceSetUp(Mat A, SpTrsvFactor fac, const SpTrsvILUDeviceConfig *cfg, const PetscInt *llevel, PetscInt lnlevels)
{
  const SpTrsvDeviceOps *dev;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&dev, NULL, NULL));
  PetscCheck(dev->ilu.ops, PETSC_COMM_SELF, PETSC_ERR_SUP, "The GPU numeric factorization needs a CUDA build of the plugin (WITH_CUDA=1)");
  PetscCall(SpTrsvFactorILUDeviceSetUpOps(A, fac, cfg, llevel, lnlevels, dev->ilu.ops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the flops of a pass when every multiplier is nonzero, part t of L's rows: 1 + 2 |U row j| per entry (i, j) of L */
typedef struct {
  SpTrsvFactor    fac;
  PetscInt        nparts;
  PetscLogDouble *part;
} SpTrsvILUFlopsCtx;

static void SpTrsvILUFlopsPart(void *ctx, PetscInt lo, PetscInt hi)
{
  const SpTrsvILUFlopsCtx *c  = (const SpTrsvILUFlopsCtx *)ctx;
  const PetscInt           n  = c->fac->n, *li = c->fac->L->i, *lj = c->fac->L->j, *ui = c->fac->U->i;

  for (PetscInt t = lo; t < hi; t++) {
    PetscLogDouble f = 0;

    for (PetscInt p = li[SpTrsvThreadsPartStart(n, t, c->nparts)]; p < li[SpTrsvThreadsPartStart(n, t + 1, c->nparts)]; p++) f += 1 + 2.0 * (ui[lj[p] + 1] - ui[lj[p]]);
    c->part[t] = f;
  }
}

/*
  SpTrsvFactorILUDeviceSetUpOps - SpTrsvFactorILUDeviceSetUp() with the implementation ops
*/
PetscErrorCode SpTrsvFactorILUDeviceSetUpOps(Mat A, SpTrsvFactor fac, const SpTrsvILUDeviceConfig *cfg, const PetscInt *llevel, PetscInt lnlevels, const SpTrsvILUDeviceOps *ops)
{
  SpTrsvILUSym   *sym = (SpTrsvILUSym *)fac->sym;
  const PetscInt *ai, *aj;
  PetscInt       *amap = NULL, *order = NULL, missing = -1, nlevels = 0;
  SpTrsvILUDeviceConfig rc;
  PetscLogDouble  flops = 0;
  PetscBool       natural;
  SpTrsvILUDevice d    = NULL;
  PetscErrorCode  ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscCheck(fac->ftype == MAT_FACTOR_ILU && sym && fac->L && fac->U, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The GPU numeric phase needs an ILU factor after its symbolic phase");
  if (fac->device_destroy) PetscCall((*fac->device_destroy)(&fac->device));
  natural = (PetscBool)(fac->levels == 0 && !fac->rperm && !sym->icperm);
  PetscCall(SpTrsvMatGetCSR(A, &ai, &aj, NULL));
  if (natural) { /* the flops of a pass (in the setup's threads): the map is the implementation's */
    SpTrsvILUFlopsCtx c = {fac, SpTrsvThreadsParts(fac->n), NULL};

    ierr = PetscCalloc1(c.nparts, &c.part);
    if (!ierr) ierr = SpTrsvThreadsEach(c.nparts, SpTrsvILUFlopsPart, &c);
    flops = fac->n;
    for (PetscInt t = 0; t < c.nparts && !ierr; t++) flops += c.part[t];
    (void)PetscFree(c.part);
  } else {
    ierr = PetscMalloc1(ai[fac->n] + 1, &amap);
    if (!ierr) ierr = SpTrsvILUDeviceMap(fac, ai, aj, amap, &flops, &missing);
  }
  rc = *cfg;
  if (!ierr && missing < 0 && cfg->level_order && fac->n) { /* the levels of L's DAG (the analysis's, else computed here), rows by level */
    PetscInt *level = NULL, *levptr = NULL;

    if (!llevel) ierr = SpTrsvMallocFaulted1(fac->n, &level);
    if (!ierr) ierr = SpTrsvMallocFaulted1(fac->n, &order);
    if (!ierr && !llevel) ierr = SpTrsvLevelsCompute(fac->n, fac->L->i, fac->L->j, PETSC_TRUE, level, &nlevels);
    if (llevel) nlevels = lnlevels;
    if (!ierr) ierr = SpTrsvLevelsSort(fac->n, llevel ? llevel : level, nlevels, &levptr, order);
    (void)PetscFree(levptr);
    (void)PetscFree(level);
  }
  if (rc.blocks_per_sm < 0) rc.blocks_per_sm = nlevels > 0 && fac->n <= (PetscInt64)SPTRSV_ILU_AUTO_CAP_WIDTH * nlevels ? SPTRSV_ILU_AUTO_CAP : 0; /* level order only */
  if (!ierr && missing < 0) {
    ierr = PetscNew(&d);
    if (!ierr) d->ops = ops;
    if (!ierr) d->cfg = rc;
    if (!ierr) ierr = (*ops->create)(fac, &rc, ai, sym->adiag, amap, order, &d->ctx);
  }
  (void)PetscFree(order);
  PetscCall(SpTrsvMatRestoreCSR(A, &ai, &aj, NULL));
  PetscCall(PetscFree(amap));
  if (ierr) PetscCall(PetscFree(d));
  PetscCall(ierr);
  PetscCheck(missing < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Nonzero %" PetscInt_FMT " of the matrix is missing from its ILU pattern", missing);
  d->flops            = flops;
  fac->device         = d;
  fac->device_destroy = SpTrsvILUDeviceDestroy;
  fac->host_stale     = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A's values for an implementation on the device: a MATSEQAIJCUSPARSE's device array, in place. When only the host
   holds them, PETSc uploads A there now (MatSeqAIJCUSPARSEGetArrayRead()), the copy its own MatMult would make at the
   first product anyway: one upload of A, not a staging copy of the values here and A's own upload in the KSP's first
   MatMult (docs/PERFORMANCE.md, e2e run 18). A preconditioning matrix that is never multiplied on the GPU (Amat not
   Pmat, ASM's sub-matrices) keeps PETSc's device copy (its pattern too) where the staging copy held the values only.
   Any other matrix type, one bound to the CPU, or a host implementation: the host CSR values (a device implementation
   uploads them itself). */
static PetscErrorCode SpTrsvILUDeviceGetInput(const SpTrsvDeviceOps *ops, Mat A, PetscBool device, const PetscScalar **v, PetscMemType *mtype, PetscBool *dev)
{
  PetscFunctionBegin;
  *dev = PETSC_FALSE;
  if (device) PetscCall((*ops->petsc->mat_read)(A, PETSC_FALSE, v, dev));
  if (*dev) {
    *mtype = PETSC_MEMTYPE_DEVICE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqAIJGetArrayRead(A, v));
  *mtype = PETSC_MEMTYPE_HOST;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvILUDeviceRestoreInput(const SpTrsvDeviceOps *ops, Mat A, const PetscScalar **v, PetscBool dev)
{
  PetscFunctionBegin;
  if (dev) {
    PetscCall((*ops->petsc->mat_restore_read)(A, v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqAIJRestoreArrayRead(A, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* row of A's CSR position p */
static PetscInt SpTrsvILUDeviceRowOf(PetscInt n, const PetscInt *ai, PetscInt p)
{
  PetscInt lo = 0, hi = n; /* ai[lo] <= p < ai[hi] */

  while (hi - lo > 1) {
    const PetscInt mid = lo + (hi - lo) / 2;
    if (ai[mid] <= p) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* the shift loop of SpTrsvILUNumericRows() around GPU passes; the outcome of the last pass in *res */
static PetscErrorCode SpTrsvILUDevicePasses(Mat A, const MatFactorInfo *info, SpTrsvFactor fac, const PetscInt *ai, const PetscInt *aj, SpTrsvShiftCtx *sctx, SpTrsvILUPassResult *res)
{
  SpTrsvILUDevice    d      = fac->device;
  const PetscInt     n     = fac->n, *rp = fac->rperm;
  const PetscReal    stype = info->shifttype;
  SpTrsvILUShiftRule rule  = SPTRSV_ILU_SHIFT_NONE;
  PetscReal          rowmax = PETSC_NINFINITY;
  PetscBool          first  = PETSC_TRUE;
  PetscInt           passes = 0;

  PetscFunctionBegin;
  if (stype == (PetscReal)MAT_SHIFT_NONZERO) rule = SPTRSV_ILU_SHIFT_NONZERO;
  else if (stype == (PetscReal)MAT_SHIFT_POSITIVE_DEFINITE) rule = SPTRSV_ILU_SHIFT_PD;
  else if (stype == (PetscReal)MAT_SHIFT_INBLOCKS) rule = SPTRSV_ILU_SHIFT_INBLOCKS;
  if (rule == SPTRSV_ILU_SHIFT_PD) PetscCall((*d->ops->shift_top)(d->ctx, &rowmax));
  PetscCall(SpTrsvShiftSetUpTop(info, rowmax, sctx)); /* checks the shift type */
  do {
    sctx->newshift = PETSC_FALSE;
    PetscCall((*d->ops->factor)(d->ctx, rule, sctx->shift_amount, info->zeropivot, info->shiftamount, res));
    passes++;
    if (first && res->badinput >= 0) { /* before any pivot, as SpTrsvFactorCheckFinite() runs before the rows */
      const PetscInt row = SpTrsvILUDeviceRowOf(n, ai, res->badinput);

      PetscCall(SpTrsvFactorReportNonFiniteInput(row, aj[res->badinput], res->badinput_nan, sctx->erroriffailure));
      fac->nonfinite = PETSC_TRUE;
    }
    first = PETSC_FALSE;
    if (res->fail_row >= 0) { /* NONZERO, POSITIVE_DEFINITE: the first failing pivot asks for a new shift */
      sctx->pv = res->fail_pv;
      sctx->rs = res->fail_rs;
      PetscCall(SpTrsvShiftCheckPivot(info, sctx, res->fail_row, rp ? rp[res->fail_row] : res->fail_row));
      PetscCheck(sctx->newshift, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The GPU factorization flagged the pivot %g of row %" PetscInt_FMT " (row sum %g), the shift rule does not", (double)PetscAbsScalar(res->fail_pv), res->fail_row, (double)res->fail_rs);
    } else if (rule == SPTRSV_ILU_SHIFT_INBLOCKS) {
      sctx->nshift = res->ninblocks;
      if (res->ninblocks) sctx->shift_amount = 0.0;
    } else if (rule == SPTRSV_ILU_SHIFT_NONE && res->zero_first >= 0) {
      /* with errorif the first zero pivot is the error (the host stops there); else the last one is recorded */
      const PetscInt row = sctx->erroriffailure ? res->zero_first : res->zero_last;

      sctx->pv = sctx->erroriffailure ? res->zero_first_pv : res->zero_last_pv;
      PetscCall(SpTrsvShiftCheckPivot(info, sctx, row, rp ? rp[row] : row));
    }
    PetscCall(SpTrsvShiftRefine(info, sctx));
  } while (sctx->newshift);
  if (d->ops->device) PetscCall(PetscLogGpuFlops(d->flops * passes));
  else PetscCall(PetscLogFlops(d->flops * passes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorILUNumericDevice - SpTrsvFactorILUNumeric() on the GPU (after SpTrsvFactorILUDeviceSetUp()): the same
  checks, shifts, outcomes (fac->error, fac->zeropivot_*, fac->nonfinite, fac->shift_amount, fac->nshifts) and
  errors; the values stay on the device (fac->host_stale) and L, U get a new state
*/
PetscErrorCode SpTrsvFactorILUNumericDevice(Mat A, const MatFactorInfo *info, SpTrsvFactor fac)
{
  SpTrsvILUSym          *sym = (SpTrsvILUSym *)fac->sym;
  const PetscInt        *ai, *aj;
  const PetscScalar     *aa;
  PetscMemType           mtype = PETSC_MEMTYPE_HOST;
  PetscBool              dev;
  SpTrsvShiftCtx         sctx;
  SpTrsvILUPassResult    res;
  PetscErrorCode         ierr;
  const PetscBool        errorif = A->erroriffailure;
  const SpTrsvDeviceOps *ops;

  PetscFunctionBegin;
  PetscCall(SpTrsvDeviceOpsGet(&ops, NULL, NULL));
  PetscCall(SpTrsvFactorCheckMat(A, fac->n));
  PetscCheck(fac->ftype == MAT_FACTOR_ILU && sym && fac->L && fac->U && fac->device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Call the symbolic ILU factorization (with the GPU numeric phase set up) before the numeric one");
  fac->error           = MAT_FACTOR_NOERROR;
  fac->zeropivot_value = 0.0;
  fac->zeropivot_row   = 0;
  fac->nonfinite       = PETSC_FALSE;
  PetscCall(PetscMemzero(&sctx, sizeof(sctx)));
  sctx.erroriffailure = errorif;
  PetscCall(SpTrsvMatGetCSR(A, &ai, &aj, NULL));
  ierr = SpTrsvFactorCheckSamePattern(fac->n, sym->nnzA, ai, aj, sym->adiag);
  if (!ierr) {
    ierr = SpTrsvILUDeviceGetInput(ops, A, fac->device->ops->device, &aa, &mtype, &dev);
    if (!ierr) {
      ierr = (*fac->device->ops->set_input)(fac->device->ctx, aa, mtype);
      if (!ierr) ierr = SpTrsvILUDevicePasses(A, info, fac, ai, aj, &sctx, &res);
      PetscCall(SpTrsvILUDeviceRestoreInput(ops, A, &aa, dev));
    }
  }
  PetscCall(SpTrsvMatRestoreCSR(A, &ai, &aj, NULL));
  /* the device values are those of this (possibly failed) pass, whatever happens now */
  fac->host_stale = PETSC_TRUE;
  fac->L->state++;
  fac->U->state++;
  PetscCall(ierr);
  PetscCall(SpTrsvShiftRecord(info, &sctx, fac));
  if (sctx.zeropivot) {
    fac->error           = MAT_FACTOR_NUMERIC_ZEROPIVOT;
    fac->zeropivot_value = sctx.zeropivot_value;
    fac->zeropivot_row   = sctx.zeropivot_row;
  } else if (!fac->nonfinite) {
    /* a finite A can still give an Inf/NaN factor: the first one, L before U, as SpTrsvTriFindNonFinite() */
    for (PetscInt t = 0; t < 2; t++) {
      SpTrsvTri T = t ? fac->U : fac->L;

      if (res.nf_row[t] < 0) continue;
      PetscCall(SpTrsvFactorReportNonFiniteFactor(res.nf_row[t], res.nf_slot[t] < 0 ? -1 : T->j[T->i[res.nf_row[t]] + res.nf_slot[t]], errorif, fac));
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorILUDeviceGetConfig - how the GPU numeric phase of fac runs (after SpTrsvFactorILUDeviceSetUp()): its options,
  the automatic residency cap resolved
*/
PetscErrorCode SpTrsvFactorILUDeviceGetConfig(SpTrsvFactor fac, SpTrsvILUDeviceConfig *cfg)
{
  PetscFunctionBegin;
  PetscCheck(fac->device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The factor has no GPU numeric phase");
  *cfg = fac->device->cfg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorILUDeviceGetArrays - the device arrays of the factor's values: L->a, U->a, U->idiag (same layout)
*/
PetscErrorCode SpTrsvFactorILUDeviceGetArrays(SpTrsvFactor fac, const PetscScalar **la, const PetscScalar **ua, const PetscScalar **idiag)
{
  PetscFunctionBegin;
  PetscCheck(fac->device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The factor has no GPU numeric phase");
  PetscCall((*fac->device->ops->get_arrays)(fac->device->ctx, la, ua, idiag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvFactorSyncHost - make the host's L->a, U->a, U->idiag current after a GPU numeric phase (one download),
  then SpTrsvTriValuesChanged() on L and U (their CSC copies; their states advance)
*/
PetscErrorCode SpTrsvFactorSyncHost(SpTrsvFactor fac)
{
  PetscFunctionBegin;
  if (!fac->host_stale) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall((*fac->device->ops->download)(fac->device->ctx, fac->L->a, fac->U->a, fac->U->idiag));
  fac->host_stale = PETSC_FALSE;
  PetscCall(SpTrsvTriValuesChanged(fac->L));
  PetscCall(SpTrsvTriValuesChanged(fac->U));
  PetscFunctionReturn(PETSC_SUCCESS);
}
