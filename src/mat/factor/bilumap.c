/*
   The values of a block ILU factor against the matrix's own value array, for a numeric phase that reads
   that array itself (the GPU block ILU, src/cuda/bilu_kernels.cu). The factor's values are
       F = [L strict | diagonal | U strict], block row by block row, bs*bs values per block, column-major,
   so block row r of F starts at slot li[r] + ui[r] + r, its diagonal block follows its L blocks, and its U
   blocks follow the diagonal. The matrix's array is in scalar CSR order (AIJ cut into blocks) or in block
   CSR order (BAIJ). Every block of the matrix is in the block ILU pattern (the symbolic phase guarantees it).
*/
#include <sptrsv/biluk.h>

/* the pattern of the matrix in its own value order: scalar CSR (AIJ) or block CSR (BAIJ) */
static PetscErrorCode SpTrsvBILUGetInputPattern(Mat A, PetscBool *isbaij, PetscInt *nr, const PetscInt **ia, const PetscInt **ja)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQBAIJ, isbaij));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, *isbaij, nr, ia, ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot access the pattern of the matrix");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvBILURestoreInputPattern(Mat A, PetscBool isbaij, PetscInt *nr, const PetscInt **ia, const PetscInt **ja)
{
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, isbaij, nr, ia, ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the slot in F of block (br, bc), which the symbolic phase guarantees; -1 if absent */
static PetscInt SpTrsvBILUSlot(SpTrsvBILU f, PetscInt br, PetscInt bc)
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

/*
  SpTrsvBILUValueMapCreate - f->amap[k] = the value index in F of value k of the matrix's array, f->nval = the
  number of those values (part of the symbolic phase, on the matrix it read)
*/
PetscErrorCode SpTrsvBILUValueMapCreate(SpTrsvBILU f, Mat A)
{
  const PetscInt  bs = f->bs, bs2 = bs * bs;
  const PetscInt *ia, *ja;
  PetscInt        nr, *m;
  PetscBool       isbaij;

  PetscFunctionBegin;
  PetscCheck(f->L && f->U, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The value map needs the block ILU pattern");
  PetscCall(PetscFree(f->amap));
  PetscCall(SpTrsvBILUGetInputPattern(A, &isbaij, &nr, &ia, &ja));
  f->nval = isbaij ? ia[nr] * bs2 : ia[nr];
  PetscCall(PetscMalloc1(f->nval + 1, &m));
  for (PetscInt r = 0; r < nr; r++) {
    const PetscInt br = isbaij ? r : r / bs, rr = isbaij ? 0 : r % bs;
    PetscInt       lastbc = -1, slot = -1;

    for (PetscInt p = ia[r]; p < ia[r + 1]; p++) {
      const PetscInt bc = isbaij ? ja[p] : ja[p] / bs;

      if (bc != lastbc) { /* the bs entries of a block row's block are consecutive in a scalar row */
        slot   = SpTrsvBILUSlot(f, br, bc);
        lastbc = bc;
      }
      PetscCheck(slot >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Block (%" PetscInt_FMT ", %" PetscInt_FMT ") of the matrix is not in the block ILU pattern", br, bc);
      if (isbaij)
        for (PetscInt e = 0; e < bs2; e++) m[p * bs2 + e] = slot * bs2 + e;
      else m[p] = slot * bs2 + rr + (ja[p] % bs) * bs;
    }
  }
  PetscCall(SpTrsvBILURestoreInputPattern(A, isbaij, &nr, &ia, &ja));
  f->amap = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvBILUGetValueCount - the number of values in the matrix's array (f->nval when the pattern is unchanged) */
PetscErrorCode SpTrsvBILUGetValueCount(SpTrsvBILU f, Mat A, PetscInt *nval)
{
  const PetscInt *ia, *ja;
  PetscInt        nr;
  PetscBool       isbaij;

  PetscFunctionBegin;
  PetscCall(SpTrsvBILUGetInputPattern(A, &isbaij, &nr, &ia, &ja));
  *nval = isbaij ? ia[nr] * f->bs * f->bs : ia[nr];
  PetscCall(SpTrsvBILURestoreInputPattern(A, isbaij, &nr, &ia, &ja));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvBILUValueLocation - the (scalar) row and column of value k of the matrix's array, for messages */
PetscErrorCode SpTrsvBILUValueLocation(SpTrsvBILU f, Mat A, PetscInt k, PetscInt *row, PetscInt *col)
{
  const PetscInt  bs = f->bs;
  const PetscInt *ia, *ja;
  PetscInt        nr, r = 0, p, e;
  PetscBool       isbaij;

  PetscFunctionBegin;
  PetscCall(SpTrsvBILUGetInputPattern(A, &isbaij, &nr, &ia, &ja));
  p = isbaij ? k / (bs * bs) : k;
  e = isbaij ? k % (bs * bs) : 0;
  while (r < nr - 1 && ia[r + 1] <= p) r++;
  *row = isbaij ? r * bs + e % bs : r;
  *col = isbaij ? ja[p] * bs + e / bs : ja[p];
  PetscCall(SpTrsvBILURestoreInputPattern(A, isbaij, &nr, &ia, &ja));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBILUTriangleSources - for the whole triangle T (f->L or f->U, pattern ti of SpTrsvBlockTriGetFull()):
  src[t] = the slot in F of block t, or -1 for the unit diagonal blocks of L (which F does not store)
*/
PetscErrorCode SpTrsvBILUTriangleSources(SpTrsvBILU f, SpTrsvBlockTri T, const PetscInt *ti, PetscInt **src)
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
