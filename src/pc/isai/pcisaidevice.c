/*
   PC isai's GPU factorization pipeline: when the apply runs on the GPU and the factor is a block ILU
   (block sizes 2..8), the whole numeric setup stays on the device:
     1. the matrix's values (a MATSEQAIJCUSPARSE's device array in place, or a host AIJ/BAIJ array
        uploaded once) are gathered into the block factor (src/cuda/bilu_kernels.cu),
     2. the block ILU is computed there, level set by level set,
     3. the ISAI columns of N_L and N_U are solved from it in place (src/cuda/isai_kernels.cu),
     4. their values are written straight into the device value arrays of the MATSEQAIJCUSPARSE
        matrices the apply multiplies by (src/cuda/block_expand_kernels.cu).
   Only the symbolic phase (block ILU pattern, ISAI patterns, the maps between them) runs on the host,
   once per nonzero pattern. The arithmetic is the host path's, so both give the same preconditioner up
   to rounding; errors (non-finite entries, zero pivots) name the entry or the block row as the host does.
   The host copies of N_L, N_U (PCISAIGetApplyMatrices()) are refreshed only when asked for.
*/
#include "pcisaiimpl.h"
#if defined(PETSC_SPTRSV_HAVE_CUDA) && defined(PETSC_HAVE_CUDA)
  #include <sptrsv/isai_cuda.h>
  #include <petsctime.h>
  #define PCISAI_DEVICE_PIPELINE 1
#endif

/*
  PCISAIDeviceUsable_Private - whether this setup can factor on the GPU: GPU apply, a CUDA build against
  a CUDA PETSc, a usable device, ILU on blocks of size 2..8, real scalars, shift type none or inblocks
*/
PetscErrorCode PCISAIDeviceUsable_Private(PC pc, PetscBool gpu, PetscBool scalar, PetscInt bs, PetscBool *usable)
{
  PetscFunctionBegin;
  *usable = PETSC_FALSE;
#if defined(PCISAI_DEVICE_PIPELINE) && defined(SPTRSV_CUDA_SCALAR_OK)
  PC_ISAI *jac = (PC_ISAI *)pc->data;
  if (gpu && jac->gpufactor_req && !scalar && bs >= 2 && jac->ftype == MAT_FACTOR_ILU) {
    const SpTrsvBackendOps *cuda;
    const char             *why;

    PetscCall(SpTrsvBackendCUDAGet(&cuda, usable, &why));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PCISAI_DEVICE_PIPELINE)
/* the factor slot of block (br, bc), which the symbolic phase guarantees; -1 if absent */
static PetscInt PCISAIFactorSlot_Private(SpTrsvBILU f, PetscInt br, PetscInt bc)
{
  const PetscInt *li = f->L->i, *lj = f->L->j, *ui = f->U->i, *uj = f->U->j;
  const PetscInt  fi = li[br] + ui[br] + br, fd = fi + li[br + 1] - li[br];
  PetscInt        loc;

  if (bc == br) return fd;
  if (bc < br) {
    if (PetscFindInt(bc, li[br + 1] - li[br], lj + li[br], &loc) || loc < 0) return -1;
    return fi + loc;
  }
  if (PetscFindInt(bc, ui[br + 1] - ui[br], uj + ui[br], &loc) || loc < 0) return -1;
  return fd + 1 + loc;
}

/* the pattern of the matrix in its own value order: scalar CSR (AIJ) or block CSR (BAIJ) */
static PetscErrorCode PCISAIGetInputPattern_Private(Mat P, PetscBool isbaij, PetscInt *nr, const PetscInt **ia, const PetscInt **ja)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(P, 0, PETSC_FALSE, isbaij, nr, ia, ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot access the pattern of the matrix");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAIRestoreInputPattern_Private(Mat P, PetscBool isbaij, PetscInt *nr, const PetscInt **ia, const PetscInt **ja)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatRestoreRowIJ(P, 0, PETSC_FALSE, isbaij, nr, ia, ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* row and column of value k of the matrix's value array */
static PetscErrorCode PCISAIValueLocation_Private(Mat P, PetscBool isbaij, PetscInt bs, PetscInt k, PetscInt *row, PetscInt *col)
{
  const PetscInt *ia, *ja;
  PetscInt        nr, r = 0, p = isbaij ? k / (bs * bs) : k, e = isbaij ? k % (bs * bs) : 0;

  PetscFunctionBegin;
  PetscCall(PCISAIGetInputPattern_Private(P, isbaij, &nr, &ia, &ja));
  while (r < nr - 1 && ia[r + 1] <= p) r++;
  *row = isbaij ? r * bs + e % bs : r;
  *col = isbaij ? ja[p] * bs + e / bs : ja[p];
  PetscCall(PCISAIRestoreInputPattern_Private(P, isbaij, &nr, &ia, &ja));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* amap: value k of the matrix's value array -> value index in the factor F */
static PetscErrorCode PCISAIValueMap_Private(Mat P, PetscBool isbaij, SpTrsvBILU f, PetscInt *nval, PetscInt **amap)
{
  const PetscInt  bs = f->bs, bs2 = bs * bs;
  const PetscInt *ia, *ja;
  PetscInt        nr, *m;

  PetscFunctionBegin;
  PetscCall(PCISAIGetInputPattern_Private(P, isbaij, &nr, &ia, &ja));
  *nval = isbaij ? ia[nr] * bs2 : ia[nr];
  PetscCall(PetscMalloc1(*nval + 1, &m));
  for (PetscInt r = 0; r < nr; r++) {
    const PetscInt br = isbaij ? r : r / bs, rr = isbaij ? 0 : r % bs;
    PetscInt       lastbc = -1, slot = -1;
    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) {
      const PetscInt bc = isbaij ? ja[p] : ja[p] / bs;

      if (bc != lastbc) { /* the bs entries of a block row's block are consecutive in a scalar row */
        slot   = PCISAIFactorSlot_Private(f, br, bc);
        lastbc = bc;
      }

      PetscCheck(slot >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Block (%" PetscInt_FMT ", %" PetscInt_FMT ") of the matrix is not in the block ILU pattern", br, bc);
      if (isbaij)
        for (PetscInt e = 0; e < bs2; e++) m[p * bs2 + e] = slot * bs2 + e;
      else m[p] = slot * bs2 + rr + (ja[p] % bs) * bs;
    }
  }
  PetscCall(PCISAIRestoreInputPattern_Private(P, isbaij, &nr, &ia, &ja));
  *amap = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* source slots in F of the blocks of the whole triangle (pattern ti of SpTrsvBlockTriGetFull()) */
static PetscErrorCode PCISAITriangleSources_Private(SpTrsvBILU f, SpTrsvBlockTri T, const PetscInt *ti, PetscInt **src)
{
  const PetscInt *li = f->L->i, *ui = f->U->i;
  PetscInt       *s;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(ti[T->n] + 1, &s));
  for (PetscInt r = 0; r < T->n; r++) {
    const PetscInt fi = li[r] + ui[r] + r, fd = fi + li[r + 1] - li[r];
    for (PetscInt t = ti[r]; t < ti[r + 1]; t++) {
      if (T->uplo == SPTRSV_LOWER) s[t] = (t == ti[r + 1] - 1) ? -1 : fi + (t - ti[r]); /* unit diagonal last */
      else s[t] = fd + (t - ti[r]);
    }
  }
  *src = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* apply matrix k (AL, AU, ATL, ATU) on the GPU; its device value array exists once the matrix has been
   copied to the GPU */
static PetscErrorCode PCISAIDeviceMat_Private(PC_ISAI *jac, PetscInt k, PetscInt n, const PetscInt *bi, const PetscInt *bj, Mat *M)
{
  const PetscScalar *v;

  PetscFunctionBegin;
  PetscCall(SpTrsvBlockMatCreateExpanded(n, jac->bs, bi, bj, MATSEQAIJCUSPARSE, &jac->xi[k], &jac->xj[k], &jac->xa[k], M));
  PetscCall(MatBindToCPU(*M, PETSC_FALSE));
  PetscCall(MatSeqAIJCUSPARSEGetArrayRead(*M, &v));
  PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(*M, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAIExpandInto_Private(void *e, const PetscScalar *src, Mat M)
{
  PetscScalar *v;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJCUSPARSEGetArrayWrite(M, &v));
  PetscCall(SpTrsvCUDAExpandApply((SpTrsvCUDAExpand)e, src, v));
  PetscCall(MatSeqAIJCUSPARSERestoreArrayWrite(M, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the symbolic phase: block ILU pattern, ISAI patterns, maps and device objects */
static PetscErrorCode PCISAIDeviceSymbolic_Private(PC pc, PetscBool isbaij)
{
  PC_ISAI       *jac = (PC_ISAI *)pc->data;
  SpTrsvBlockCSR B;
  PetscErrorCode ierr;
  PetscInt      *amap = NULL, *src = NULL;
  PetscLogDouble t0, t1, t2, t3;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvBlockCSRGet(pc->pmat, jac->bs, &B));
  ierr = SpTrsvBILUCreate(B.n, B.bs, &jac->bilu);
  if (!ierr) ierr = SpTrsvBILUSymbolic(&B, NULL, NULL, &jac->info, jac->bilu);
  PetscCall(SpTrsvBlockCSRRestore(&B));
  PetscCall(ierr);
  jac->L = jac->bilu->L;
  jac->U = jac->bilu->U;
  PetscCall(PCISAIValueMap_Private(pc->pmat, isbaij, jac->bilu, &jac->nval, &amap));
  PetscCall(SpTrsvCUDABILUCreate(jac->bilu, jac->nval, amap, (SpTrsvCUDABILU *)&jac->gF));
  PetscCall(PetscFree(amap));
  PetscCall(SpTrsvCUDABILUGetLevels((SpTrsvCUDABILU)jac->gF, &jac->nlevels));
  PetscCall(PetscTime(&t1));

  PetscCall(SpTrsvISAICreate(jac->L, jac->power, &jac->NL));
  PetscCall(SpTrsvISAICreate(jac->U, jac->power, &jac->NU));
  jac->time_pattern = jac->NL->time_pattern + jac->NU->time_pattern;
  PetscCall(SpTrsvCUDAISAICreateOnBILU(jac->NL, (SpTrsvCUDABILU)jac->gF, (SpTrsvCUDAISAI *)&jac->gNL));
  PetscCall(SpTrsvCUDAISAICreateOnBILU(jac->NU, (SpTrsvCUDABILU)jac->gF, (SpTrsvCUDAISAI *)&jac->gNU));
  jac->gpucols = PETSC_TRUE;
  { /* BSR SpMVs on the device values of N_L, N_U themselves */
    const PetscScalar *na;

    PetscCall(SpTrsvCUDAISAIGetDeviceValues((SpTrsvCUDAISAI)jac->gNL, &na));
    PetscCall(SpTrsvCUDABSRCreate(jac->NL->n, jac->bs, jac->NL->i, jac->NL->j, na, (SpTrsvCUDABSR *)&jac->gBL));
    PetscCall(SpTrsvCUDAISAIGetDeviceValues((SpTrsvCUDAISAI)jac->gNU, &na));
    PetscCall(SpTrsvCUDABSRCreate(jac->NU->n, jac->bs, jac->NU->i, jac->NU->j, na, (SpTrsvCUDABSR *)&jac->gBU));
  }

  PetscCall(PetscTime(&t2));
  /* the device matrices the apply multiplies by (the host copies of N_L, N_U are made when asked for) */
  PetscCall(PCISAIDeviceMat_Private(jac, 0, jac->NL->n, jac->NL->i, jac->NL->j, &jac->AL));
  PetscCall(PCISAIDeviceMat_Private(jac, 1, jac->NU->n, jac->NU->i, jac->NU->j, &jac->AU));
  PetscCall(SpTrsvCUDAExpandCreate(jac->NL->n, jac->bs, jac->NL->i, NULL, (SpTrsvCUDAExpand *)&jac->gEL));
  PetscCall(SpTrsvCUDAExpandCreate(jac->NU->n, jac->bs, jac->NU->i, NULL, (SpTrsvCUDAExpand *)&jac->gEU));
  if (jac->relax > 0) {
    PetscCall(SpTrsvBlockTriGetFull(jac->L, &jac->tli, &jac->tlj));
    PetscCall(SpTrsvBlockTriGetFull(jac->U, &jac->tui, &jac->tuj));
    PetscCall(PCISAIDeviceMat_Private(jac, 2, jac->L->n, jac->tli, jac->tlj, &jac->ATL));
    PetscCall(PCISAIDeviceMat_Private(jac, 3, jac->U->n, jac->tui, jac->tuj, &jac->ATU));
    PetscCall(PCISAITriangleSources_Private(jac->bilu, jac->L, jac->tli, &src));
    PetscCall(SpTrsvCUDAExpandCreate(jac->L->n, jac->bs, jac->tli, src, (SpTrsvCUDAExpand *)&jac->gETL));
    PetscCall(PetscFree(src));
    PetscCall(PCISAITriangleSources_Private(jac->bilu, jac->U, jac->tui, &src));
    PetscCall(SpTrsvCUDAExpandCreate(jac->U->n, jac->bs, jac->tui, src, (SpTrsvCUDAExpand *)&jac->gETU));
    PetscCall(PetscFree(src));
  }
  PetscCall(PetscTime(&t3));
  jac->time_symbolic = t3 - t0;
  PetscCall(PetscInfo(pc, "GPU pipeline symbolic phase: block ILU pattern and value map %g s, ISAI patterns %g s, device matrices %g s\n", t1 - t0, t2 - t1, t3 - t2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the matrix's values where they are: a MATSEQAIJCUSPARSE's device array, else the host array */
static PetscErrorCode PCISAIGetValues_Private(Mat P, PetscBool isbaij, const PetscScalar **v, PetscMemType *mtype, PetscBool *dev)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)P, MATSEQAIJCUSPARSE, dev));
  if (*dev) {
    PetscCall(MatSeqAIJCUSPARSEGetArrayRead(P, v));
    *mtype = PETSC_MEMTYPE_DEVICE;
  } else {
    if (isbaij) PetscCall(MatSeqBAIJGetArray(P, (PetscScalar **)v));
    else PetscCall(MatSeqAIJGetArrayRead(P, v));
    *mtype = PETSC_MEMTYPE_HOST;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCISAIRestoreValues_Private(Mat P, PetscBool isbaij, const PetscScalar **v, PetscBool dev)
{
  PetscFunctionBegin;
  if (dev) PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(P, v));
  else if (isbaij) PetscCall(MatSeqBAIJRestoreArray(P, (PetscScalar **)v));
  else PetscCall(MatSeqAIJRestoreArrayRead(P, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*
  PCISAIDeviceSetUp_Private - symbolic (when build) and numeric setup on the GPU; PCSetUp_ISAI() has
  checked PCISAIDeviceUsable_Private() and freed the old data when build
*/
PetscErrorCode PCISAIDeviceSetUp_Private(PC pc, PetscBool build)
{
#if defined(PCISAI_DEVICE_PIPELINE)
  PC_ISAI           *jac = (PC_ISAI *)pc->data;
  Mat                P   = pc->pmat;
  PetscBool          isbaij, dev;
  const PetscScalar *v;
  PetscMemType       mtype = PETSC_MEMTYPE_HOST;
  PetscInt           bad, zr, zp, nr;
  const PetscInt    *ia, *ja;
  const PetscScalar *na;
  PetscLogDouble     t0, t1;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)P, MATSEQBAIJ, &isbaij));
  if (build) PetscCall(PCISAIDeviceSymbolic_Private(pc, isbaij));
  else {
    PetscCall(PCISAIGetInputPattern_Private(P, isbaij, &nr, &ia, &ja));
    zr = isbaij ? ia[nr] * jac->bs * jac->bs : ia[nr];
    PetscCall(PCISAIRestoreInputPattern_Private(P, isbaij, &nr, &ia, &ja));
    PetscCheck(zr == jac->nval, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONGSTATE, "The matrix has %" PetscInt_FMT " stored values, the GPU block ILU was built for %" PetscInt_FMT ": a new nonzero pattern needs DIFFERENT_NONZERO_PATTERN", zr, jac->nval);
    jac->time_symbolic = 0;
  }

  /* 1-2: block ILU on the device */
  PetscCall(PetscTime(&t0));
  PetscCall(PCISAIGetValues_Private(P, isbaij, &v, &mtype, &dev));
  ierr = SpTrsvCUDABILUNumeric((SpTrsvCUDABILU)jac->gF, v, mtype, jac->info.shiftamount, &bad, &zr, &zp);
  PetscCall(PCISAIRestoreValues_Private(P, isbaij, &v, dev));
  PetscCall(ierr);
  PetscCall(PetscTime(&t1));
  jac->time_factor = t1 - t0;
  /* failures as the host path's (PCISAIFactorOutcome_Private()): errors with pc->erroriffailure, else a NaN/Inf
     is remembered and a zero pivot fails the PC; the apply then returns Inf */
  if (bad >= 0) {
    PetscInt row = -1, col = -1;

    PetscCall(PCISAIValueLocation_Private(P, isbaij, jac->bs, bad, &row, &col));
    PetscCheck(!pc->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_FP, "Matrix entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is not finite (NaN or Inf)", row, col);
    PetscCall(PetscInfo(pc, "PC isai: matrix entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is not finite (NaN or Inf): the apply returns Inf\n", row, col));
    jac->nonfinite = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (zr >= 0) {
    PetscCheck(!pc->erroriffailure, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Zero pivot in the diagonal block of block row %" PetscInt_FMT " (rows %" PetscInt_FMT " to %" PetscInt_FMT "), at its row %" PetscInt_FMT ": the matrix's diagonal block of this row is zero or the pivot block (the diagonal block after the elimination) is singular (GPU block ILU)", zr,
               zr * jac->bs, zr * jac->bs + jac->bs - 1, zp);
    jac->failed      = PC_FACTOR_NUMERIC_ZEROPIVOT;
    jac->failrow     = zr * jac->bs + zp;
    pc->failedreason = jac->failed;
    PetscCall(PetscInfo(pc, "PC isai: zero pivot in the diagonal block of block row %" PetscInt_FMT " (GPU block ILU): the PC failed (%s)\n", zr, PCFailedReasons[jac->failed]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }

  /* 3: ISAI columns from the factor in place; 4: values of the apply matrices */
  PetscCall(SpTrsvCUDAISAINumeric((SpTrsvCUDAISAI)jac->gNL, jac->NL, NULL, PETSC_FALSE));
  PetscCall(SpTrsvCUDAISAINumeric((SpTrsvCUDAISAI)jac->gNU, jac->NU, NULL, PETSC_FALSE));
  PetscCall(SpTrsvCUDAISAIGetDeviceValues((SpTrsvCUDAISAI)jac->gNL, &na));
  PetscCall(PCISAIExpandInto_Private(jac->gEL, na, jac->AL));
  PetscCall(SpTrsvCUDAISAIGetDeviceValues((SpTrsvCUDAISAI)jac->gNU, &na));
  PetscCall(PCISAIExpandInto_Private(jac->gEU, na, jac->AU));
  if (jac->ATL) {
    SpTrsvCUDABILUArrays f;

    PetscCall(SpTrsvCUDABILUGetArrays((SpTrsvCUDABILU)jac->gF, &f));
    PetscCall(PCISAIExpandInto_Private(jac->gETL, f.fa, jac->ATL));
    PetscCall(PCISAIExpandInto_Private(jac->gETU, f.fa, jac->ATU));
  }
  jac->host_stale = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)pc), PETSC_ERR_PLIB, "GPU factorization requested from a build without CUDA");
#endif
}

/* PCISAIDeviceSyncHost_Private - bring the host copies of N_L, N_U up to date (for PCISAIGetApplyMatrices()) */
PetscErrorCode PCISAIDeviceSyncHost_Private(PC pc)
{
  PC_ISAI *jac = (PC_ISAI *)pc->data;

  PetscFunctionBegin;
  if (!jac->host_stale) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(PCISAI_DEVICE_PIPELINE)
  if (!jac->ML) { /* made on the first request only: the GPU pipeline does not need them */
    PetscCall(SpTrsvBlockMatCreate(jac->NL->n, jac->bs, jac->NL->i, jac->NL->j, &jac->ML));
    PetscCall(SpTrsvBlockMatCreate(jac->NU->n, jac->bs, jac->NU->i, jac->NU->j, &jac->MU));
  }
  PetscCall(SpTrsvCUDAISAIDownload((SpTrsvCUDAISAI)jac->gNL, jac->NL));
  PetscCall(SpTrsvCUDAISAIDownload((SpTrsvCUDAISAI)jac->gNU, jac->NU));
  PetscCall(SpTrsvBlockMatSetValues(jac->ML, jac->NL->a));
  PetscCall(SpTrsvBlockMatSetValues(jac->MU, jac->NU->a));
#endif
  jac->host_stale = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCISAIDeviceFree_Private(PC_ISAI *jac)
{
  PetscFunctionBegin;
#if defined(PCISAI_DEVICE_PIPELINE)
  PetscCall(SpTrsvCUDABSRDestroy((SpTrsvCUDABSR *)&jac->gBL));
  PetscCall(SpTrsvCUDABSRDestroy((SpTrsvCUDABSR *)&jac->gBU));
  PetscCall(SpTrsvCUDAExpandDestroy((SpTrsvCUDAExpand *)&jac->gEL));
  PetscCall(SpTrsvCUDAExpandDestroy((SpTrsvCUDAExpand *)&jac->gEU));
  PetscCall(SpTrsvCUDAExpandDestroy((SpTrsvCUDAExpand *)&jac->gETL));
  PetscCall(SpTrsvCUDAExpandDestroy((SpTrsvCUDAExpand *)&jac->gETU));
  PetscCall(SpTrsvCUDAISAIDestroy((SpTrsvCUDAISAI *)&jac->gNL)); /* the ISAIs read the factor: first */
  PetscCall(SpTrsvCUDAISAIDestroy((SpTrsvCUDAISAI *)&jac->gNU));
  PetscCall(SpTrsvCUDABILUDestroy((SpTrsvCUDABILU *)&jac->gF));
#endif
  jac->gpufactor  = PETSC_FALSE;
  jac->host_stale = PETSC_FALSE;
  jac->nval       = 0;
  jac->nlevels    = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCISAIDeviceApply_Private - y = N_U (N_L x) with cuSPARSE's BSR SpMV on CUDA vectors, when the GPU pipeline
  made the BSR forms and the apply has no relaxation steps (*done = PETSC_FALSE otherwise: the caller uses
  the CSR matrices)
*/
PetscErrorCode PCISAIDeviceApply_Private(PC pc, Vec x, Vec y, PetscBool *done)
{
  PetscFunctionBegin;
  *done = PETSC_FALSE;
#if defined(PCISAI_DEVICE_PIPELINE)
  {
    PC_ISAI           *jac = (PC_ISAI *)pc->data;
    PetscBool          cx, cy;
    const PetscScalar *xa;
    PetscScalar       *wa, *ya;

    if (!jac->gBL || !jac->bsr || jac->relax > 0 || !jac->w) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(PetscObjectTypeCompare((PetscObject)x, VECSEQCUDA, &cx));
    PetscCall(PetscObjectTypeCompare((PetscObject)y, VECSEQCUDA, &cy));
    if (!cx || !cy) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(PetscLogGpuTimeBegin());
    PetscCall(VecCUDAGetArrayRead(x, &xa));
    PetscCall(VecCUDAGetArrayWrite(jac->w, &wa));
    PetscCall(SpTrsvCUDABSRMult((SpTrsvCUDABSR)jac->gBL, xa, wa));
    PetscCall(VecCUDARestoreArrayWrite(jac->w, &wa));
    PetscCall(VecCUDARestoreArrayRead(x, &xa));
    PetscCall(VecCUDAGetArrayRead(jac->w, &xa));
    PetscCall(VecCUDAGetArrayWrite(y, &ya));
    PetscCall(SpTrsvCUDABSRMult((SpTrsvCUDABSR)jac->gBU, xa, ya));
    PetscCall(VecCUDARestoreArrayWrite(y, &ya));
    PetscCall(VecCUDARestoreArrayRead(jac->w, &xa));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(2.0 * jac->bs * jac->bs * (jac->NL->i[jac->NL->n] + jac->NU->i[jac->NU->n])));
    *done = PETSC_TRUE;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
