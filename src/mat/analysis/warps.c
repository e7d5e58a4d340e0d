/*
   Warp packing of a dispatch order (include/sptrsv/warps.h): the rows at consecutive positions of order[] share
   a warp, K lanes each. The sync-free path packs each (level, length bin) run of its order, or the whole
   natural order; the element path packs each level of its order. Packing never reorders rows: the dispatch
   order, and the deadlock-freedom argument that rests on it (src/mat/analysis/dispatch.c), are unchanged.
*/
#include <sptrsv/warps.h>

/* lanes of a row of len entries: the smallest power of two >= len, at least minK, at most maxK */
int SpTrsvWarpRowLanes(PetscInt len, PetscInt minK, PetscInt maxK)
{
  int K = 1;
  while (K < 32 && K < len) K *= 2;
  return (int)PetscMin(PetscMax((PetscInt)K, minK), maxK);
}

/* a lanes-per-row count the kernels take: a power of two in 1..32 */
PetscBool SpTrsvWarpLanesValid(PetscInt K)
{
  return (PetscBool)(K >= 1 && K <= 32 && (K & (K - 1)) == 0);
}

/*
  SpTrsvWarpPack - cut positions [k0, k1) of order into warps of consecutive rows, greedily: a warp takes the
  next rows while r rows of K lanes fit (r K <= 32, K = SpTrsvWarpRowLanes of the longest of them); appends the
  warps at *nwarps: wstart[w] its first position, wlanes[w] its K (the caller closes wstart with the end)

  Input:
+ op     - the oriented triangle (row lengths: entries of each row of op(T))
. order  - the dispatch order
. k0, k1 - the run of positions to pack
- minK, maxK - lanes per row at least and at most (powers of two, 1 <= minK <= maxK <= 32)

  Input/Output:
+ nwarps - warps so far
. wstart - first position of each warp (room for one warp per row)
- wlanes - lanes per row of each warp
*/
PetscErrorCode SpTrsvWarpPack(const SpTrsvOp *op, const PetscInt *order, PetscInt k0, PetscInt k1, PetscInt minK, PetscInt maxK, PetscInt *nwarps, PetscInt *wstart, int *wlanes)
{
  PetscInt nw = *nwarps;

  PetscFunctionBegin;
  PetscCheck(SpTrsvWarpLanesValid(minK) && SpTrsvWarpLanesValid(maxK) && minK <= maxK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Warp packing: lanes per row between %" PetscInt_FMT " and %" PetscInt_FMT, minK, maxK);
  for (PetscInt k = k0; k < k1;) {
    PetscInt r = 0;
    int      K = (int)minK;
    while (k + r < k1) {
      const PetscInt i = order[k + r];
      const int      Kn = PetscMax(K, SpTrsvWarpRowLanes(op->ri[i + 1] - op->ri[i], minK, maxK));
      if ((r + 1) * Kn > 32) break; /* it does not fit */
      K = Kn;
      r++;
    }
    wstart[nw] = k;
    wlanes[nw] = K;
    nw++;
    k += r;
  }
  *nwarps = nw;
  PetscFunctionReturn(PETSC_SUCCESS);
}
