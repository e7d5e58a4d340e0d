/*
   A host emulation of the GPU numeric ILU passes (src/cuda/ilu_numeric.cu), for the tests: the same storage
   F = [L strict | pivots | U strict], the same gather through the value map, the same elimination per row
   (multipliers, updates found by binary search in the row's pattern, dropped fill), the same pivot rules,
   skips, flags and non-finite reports, rows run one after the other in the order the tickets give them out
   (increasing rows, or the level order the driver passes: every dependency of a row comes before it). With it the host test suite checks the
   driver (src/mat/factor/ilu_device.c: shift loop, outcomes, errors), the value map and the reports against
   the host numeric phase (tests/unit/test_ilu_device.c); only the kernels themselves need the GPU
   (tests/device/check_factor.c).
*/
#include <sptrsv/ilu_device.h>

typedef struct {
  PetscInt           n, nnzA, nnzL, nnzU;
  PetscInt          *li, *lj, *ui, *uj, *amap, *ai, *adiag; /* copies: the factor's pattern may be reused by the caller */
  PetscInt          *order;                                 /* the rows in ticket order (NULL: increasing) */
  PetscScalar       *F, *idiag;
  const PetscScalar *input;
  unsigned long long flags[SPTRSV_ILU_NFLAGS];
} SpTrsvILUEmul;

static PetscErrorCode SpTrsvILUEmulCreate(SpTrsvFactor fac, const SpTrsvILUDeviceConfig *cfg, const PetscInt *ai, const PetscInt *adiag, const PetscInt *amap, const PetscInt *order, void **ctx)
{
  SpTrsvILUEmul *e;
  const PetscInt n = fac->n;

  PetscFunctionBegin;
  PetscCall(PetscNew(&e));
  e->n    = n;
  e->nnzA = ai[n];
  e->nnzL = fac->L->i[n];
  e->nnzU = fac->U->i[n];
  PetscCall(PetscMalloc4(n + 1, &e->li, e->nnzL + 1, &e->lj, n + 1, &e->ui, e->nnzU + 1, &e->uj));
  PetscCall(PetscMalloc3(e->nnzA + 1, &e->amap, n + 1, &e->ai, n + 1, &e->adiag));
  PetscCall(PetscArraycpy(e->li, fac->L->i, n + 1));
  PetscCall(PetscArraycpy(e->lj, fac->L->j, e->nnzL));
  PetscCall(PetscArraycpy(e->ui, fac->U->i, n + 1));
  PetscCall(PetscArraycpy(e->uj, fac->U->j, e->nnzU));
  if (amap) PetscCall(PetscArraycpy(e->amap, amap, e->nnzA));
  else { /* ILU(0), natural ordering: the map the CUDA implementation makes on the device (SpTrsvILUNaturalMapKernel) */
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt d = adiag[i];

      for (PetscInt p = ai[i]; p < d; p++) e->amap[p] = e->li[i] + (p - ai[i]);
      e->amap[d] = e->nnzL + i;
      for (PetscInt p = d + 1; p < ai[i + 1]; p++) e->amap[p] = e->nnzL + n + e->ui[i] + (p - d - 1);
    }
  }
  PetscCall(PetscArraycpy(e->ai, ai, n + 1));
  PetscCall(PetscArraycpy(e->adiag, adiag, n));
  PetscCall(PetscMalloc2(e->nnzL + n + e->nnzU + 1, &e->F, n + 1, &e->idiag));
  if (order) {
    PetscCall(PetscMalloc1(n, &e->order));
    PetscCall(PetscArraycpy(e->order, order, n));
  }
  *ctx = e;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvILUEmulSetInput(void *ctx, const PetscScalar *a, PetscMemType mtype)
{
  PetscFunctionBegin;
  PetscCheck(!PetscMemTypeDevice(mtype), PETSC_COMM_SELF, PETSC_ERR_SUP, "The host emulation of the GPU ILU reads host values");
  ((SpTrsvILUEmul *)ctx)->input = a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvILUEmulShiftTop(void *ctx, PetscReal *top)
{
  SpTrsvILUEmul *e = (SpTrsvILUEmul *)ctx;

  PetscFunctionBegin;
  *top = PETSC_NINFINITY;
  for (PetscInt i = 0; i < e->n; i++) {
    const PetscScalar d  = e->input[e->adiag[i]];
    PetscReal         rs = -PetscAbsScalar(d) - PetscRealPart(d);

    for (PetscInt p = e->ai[i]; p < e->ai[i + 1]; p++) rs += PetscAbsScalar(e->input[p]);
    if (rs > 0 && rs > *top) *top = rs; /* the kernel's atomicMax over positive values */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt SpTrsvILUEmulFind(const PetscInt *cols, PetscInt lo, PetscInt hi, PetscInt j)
{
  while (lo < hi) {
    const PetscInt mid = lo + (hi - lo) / 2;
    if (cols[mid] < j) lo = mid + 1;
    else if (cols[mid] > j) hi = mid;
    else return mid;
  }
  return -1;
}

static void SpTrsvILUEmulMin(unsigned long long *f, unsigned long long v)
{
  if (v < *f) *f = v;
}

/* one pass, the kernel's row body for i = 0, 1, ..., n-1 */
static PetscErrorCode SpTrsvILUEmulFactor(void *ctx, SpTrsvILUShiftRule rule, PetscReal shift, PetscReal zeropivot, PetscReal inblocks, SpTrsvILUPassResult *res)
{
  SpTrsvILUEmul     *e  = (SpTrsvILUEmul *)ctx;
  unsigned long long *fl = e->flags;
  PetscScalar       *la = e->F, *dg = e->F + e->nnzL, *ua = e->F + e->nnzL + e->n;
  const PetscBool    restart = (PetscBool)(rule == SPTRSV_ILU_SHIFT_NONZERO || rule == SPTRSV_ILU_SHIFT_PD);

  PetscFunctionBegin;
  for (PetscInt f = 0; f < SPTRSV_ILU_NFLAGS; f++) fl[f] = SPTRSV_ILU_NONE;
  fl[SPTRSV_ILU_F_NINB] = 0;
  PetscCall(PetscArrayzero(e->F, e->nnzL + e->n + e->nnzU));
  for (PetscInt p = 0; p < e->nnzA; p++) {
    const PetscScalar v = e->input[p];
    if (PetscIsInfOrNanScalar(v)) SpTrsvILUEmulMin(&fl[SPTRSV_ILU_F_BAD], ((unsigned long long)p << 1) | (PetscIsNanScalar(v) ? 1ULL : 0ULL));
    e->F[e->amap[p]] = v;
  }
  for (PetscInt t = 0; t < e->n; t++) {
    const PetscInt i = e->order ? e->order[t] : t, ls = e->li[i], le = e->li[i + 1], us = e->ui[i], ue = e->ui[i + 1];
    PetscScalar    pv;
    PetscBool      fail = PETSC_FALSE;

    if (restart && fl[SPTRSV_ILU_F_FAIL] < (unsigned long long)i) continue; /* a smaller row failed */
    dg[i] += shift;
    for (PetscInt p = ls; p < le; p++) {
      const PetscScalar wk = la[p];
      const PetscInt    k  = e->lj[p];
      PetscScalar       mult;

      if (wk == 0.0) continue;
      mult  = wk * e->idiag[k];
      la[p] = mult;
      for (PetscInt q = e->ui[k]; q < e->ui[k + 1]; q++) {
        const PetscInt j = e->uj[q];
        PetscScalar   *t = NULL;
        PetscInt       s;

        if (j < i) {
          if ((s = SpTrsvILUEmulFind(e->lj, p + 1, le, j)) >= 0) t = la + s;
        } else if (j == i) t = dg + i;
        else if ((s = SpTrsvILUEmulFind(e->uj, us, ue, j)) >= 0) t = ua + s;
        if (t) *t -= mult * ua[q];
      }
    }
    pv = dg[i];
    if (rule == SPTRSV_ILU_SHIFT_NONE) {
      if (PetscAbsScalar(pv) <= zeropivot && !PetscIsNanScalar(pv)) {
        SpTrsvILUEmulMin(&fl[SPTRSV_ILU_F_ZFST], (unsigned long long)i);
        SpTrsvILUEmulMin(&fl[SPTRSV_ILU_F_ZLST], ~(unsigned long long)i);
      }
    } else if (rule == SPTRSV_ILU_SHIFT_INBLOCKS) {
      if (PetscAbsScalar(pv) <= zeropivot && !PetscIsNanScalar(pv)) {
        pv += inblocks;
        dg[i] = pv;
        fl[SPTRSV_ILU_F_NINB]++;
      }
    } else {
      PetscReal rs = 0.0;
      for (PetscInt p = ls; p < le; p++) rs += PetscAbsScalar(la[p]);
      for (PetscInt p = us; p < ue; p++) rs += PetscAbsScalar(ua[p]);
      fail = (PetscBool)((rule == SPTRSV_ILU_SHIFT_NONZERO ? PetscAbsScalar(pv) : PetscRealPart(pv)) <= zeropivot * rs && !PetscIsNanScalar(pv));
      if (fail) {
        e->idiag[i] = rs;
        SpTrsvILUEmulMin(&fl[SPTRSV_ILU_F_FAIL], (unsigned long long)i);
      }
    }
    if (fail) continue;
    e->idiag[i] = 1.0 / pv;
    for (PetscInt p = ls; p < le; p++)
      if (PetscIsInfOrNanScalar(la[p])) SpTrsvILUEmulMin(&fl[SPTRSV_ILU_F_NFL], ((unsigned long long)i << 32) | (unsigned long long)(p - ls + 1));
    if (PetscIsInfOrNanScalar(e->idiag[i])) SpTrsvILUEmulMin(&fl[SPTRSV_ILU_F_NFU], (unsigned long long)i << 32);
    for (PetscInt p = us; p < ue; p++)
      if (PetscIsInfOrNanScalar(ua[p])) SpTrsvILUEmulMin(&fl[SPTRSV_ILU_F_NFU], ((unsigned long long)i << 32) | (unsigned long long)(p - us + 1));
  }
  PetscCall(PetscMemzero(res, sizeof(*res)));
  SpTrsvILUPassDecode(fl, res);
  if (res->fail_row >= 0) {
    res->fail_pv = dg[res->fail_row];
    res->fail_rs = PetscRealPart(e->idiag[res->fail_row]);
  }
  if (res->zero_first >= 0) res->zero_first_pv = dg[res->zero_first];
  if (res->zero_last >= 0) res->zero_last_pv = dg[res->zero_last];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvILUEmulGetArrays(void *ctx, const PetscScalar **la, const PetscScalar **ua, const PetscScalar **idiag)
{
  SpTrsvILUEmul *e = (SpTrsvILUEmul *)ctx;

  PetscFunctionBegin;
  if (la) *la = e->F;
  if (ua) *ua = e->F + e->nnzL + e->n;
  if (idiag) *idiag = e->idiag;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvILUEmulDownload(void *ctx, PetscScalar *la, PetscScalar *ua, PetscScalar *idiag)
{
  SpTrsvILUEmul *e = (SpTrsvILUEmul *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscArraycpy(la, e->F, e->nnzL));
  PetscCall(PetscArraycpy(ua, e->F + e->nnzL + e->n, e->nnzU));
  PetscCall(PetscArraycpy(idiag, e->idiag, e->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvILUEmulDestroy(void **ctx)
{
  SpTrsvILUEmul *e = (SpTrsvILUEmul *)*ctx;

  PetscFunctionBegin;
  if (!e) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree4(e->li, e->lj, e->ui, e->uj));
  PetscCall(PetscFree3(e->amap, e->ai, e->adiag));
  PetscCall(PetscFree2(e->F, e->idiag));
  PetscCall(PetscFree(e->order));
  PetscCall(PetscFree(e));
  *ctx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvILUDeviceOps SpTrsvILUDeviceOpsEmul = {"host emulation", PETSC_FALSE, SpTrsvILUEmulCreate, SpTrsvILUEmulSetInput, SpTrsvILUEmulShiftTop, SpTrsvILUEmulFactor, SpTrsvILUEmulGetArrays, SpTrsvILUEmulDownload, SpTrsvILUEmulDestroy};
