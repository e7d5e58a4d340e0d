/* The locality path's second look at the automatic choice (its registry entry's auto_refine) */
#include <sptrsv/auto.h>
#include <sptrsv/paths/locality.h>

/*
  SpTrsvAutoRefine_locality - with a model (the GPU): when op(T)'s chain analysis accepts it (src/mat/paths/locality/chain.c,
  locality_blocks.c), the locality path would run its chain or blocks kernel (-mat_sptrsv_locality_kernel auto picks the one
  its own models predict fastest); the fitted model entry knows the slot kernel only, so the faster of the two predictions
  replaces the entry's solve time of candidate k when smaller (the chooser then ranks the candidates again)
*/
PetscErrorCode SpTrsvAutoRefine_locality(const SpTrsvOp *op, const void *own, SpTrsvAutoChoice *choice, PetscInt k)
{
  const SpTrsvLocalityOptions *opts = (const SpTrsvLocalityOptions *)own;
  PetscInt                    *order;
  SpTrsvLocalityChain          ch;
  SpTrsvLocalityBlocks         blk;

  PetscFunctionBegin;
  if (opts->locality_kernel == SPTRSV_LOCALITY_KERNEL_SLOTS) PetscFunctionReturn(PETSC_SUCCESS);
  { /* a cheap look first: the chain analysis (components, orders) finds a window only where each row's dependencies lie
       within SPTRSV_CHAIN_MAX_WIDTH rows of it in its component's order; in the row order a triangle whose reach is wider
       (one connected grid: 2-D and 3-D stencils) has none unless its components interleave, which the full analysis is
       then not asked about (it costs a pass over the DAG, tens of ms on a million rows) */
    for (PetscInt i = 0; i < op->n; i++) /* stops at the first dependency out of reach: a few rows on a grid */
      for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++)
        if (PetscAbsInt(i - op->rj[e]) >= SPTRSV_CHAIN_MAX_WIDTH) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1(op->n + 1, &order));
  PetscCall(SpTrsvLocalityChainCreate(op, opts->locality_sms > 0 ? opts->locality_sms : SPTRSV_LOCALITY_DEFAULT_SMS, order, &ch));
  PetscCall(PetscMemzero(&blk, sizeof(blk)));
  if (ch.W && opts->locality_kernel != SPTRSV_LOCALITY_KERNEL_CHAIN && (!opts->locality_block_rows || SpTrsvLocalityBlockRowsValid(opts->locality_block_rows, ch.W))) PetscCall(SpTrsvLocalityBlocksCreate(op, order, &ch, opts->locality_block_rows, opts->locality_block_cond, &blk));
  PetscCall(PetscFree(order));
  if (ch.W && (ch.accepted || blk.accepted)) { /* the kernel locality's auto would compare with the slot kernel's entry */
    const PetscBool useblk  = (PetscBool)(blk.accepted && (!ch.accepted || opts->locality_kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS || SpTrsvLocalityBlocksRankUs(&blk) < ch.predicted_us));
    const PetscReal rank_ms = (useblk ? SpTrsvLocalityBlocksRankUs(&blk) : ch.predicted_us) / 1000;
    choice->chain_ms        = (useblk ? blk.predicted_us : ch.predicted_us) / 1000;
    choice->chain_reach     = ch.reach;
    choice->chain_W         = ch.W;
    choice->chain_B         = useblk ? blk.B : 0;
    if (rank_ms < choice->solve_ms[k]) choice->solve_ms[k] = choice->chain_ms;
  }
  PetscCall(SpTrsvLocalityChainDestroy(&ch));
  PetscCall(SpTrsvLocalityBlocksDestroy(&blk));
  PetscFunctionReturn(PETSC_SUCCESS);
}
