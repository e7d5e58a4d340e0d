/*
   The locality path's blocks kernel (include/sptrsv/paths/partition.h, "The blocks kernel"): the chain order and groups
   of src/mat/paths/locality/chain.c cut into blocks of B positions, every diagonal block inverted and applied to its coupling
   at the numeric phase. This file holds the plain-C part: the blocks and their cost model, the checks, the numeric
   phase of one block (the host executor's; the CUDA executor runs the same arithmetic in src/cuda/paths/
   locality_blocks.cu) and the host executor, which runs the kernel's arithmetic block by block.
*/
#include <sptrsv/paths/locality_blocks.h>
#include <sptrsv/blockinv.h> /* the inverse of a diagonal block and its condition number: SpTrsvSupernodeInvertColumn, SpTrsvSupernodeCondRow, SpTrsvSupernodeCondKappa */
#include <sptrsv/registry.h>

/*
   The blocks kernel's cost model, in microseconds. The first launch reads X (B (B + 1) / 2 scalars a row), b and
   writes c: bandwidth. The chain launch (R > 0) runs the longest group's blocks one after the other; a step waits for
   its coupling GEMV, R shuffles and A R multiply-adds a lane (everything it reads is staged in shared memory steps
   ahead). Constants from the H200 runs of docs/perf-data/history/locality-blocks-kernel-h200.md ("Block sizes").
*/
#define SPTRSV_BLOCKS_ALPHA_US     3.0    /* a launch */
#define SPTRSV_BLOCKS_BYTES_PER_US 1.6e6  /* the first launch's bandwidth (H200, blockdiag128_262144) */
#define SPTRSV_BLOCKS_STEP_US      0.19   /* a chain step */
#define SPTRSV_BLOCKS_ACC_US       0.11   /* a chain step's cost per accumulator (its staging, stores and substitution test) */
#define SPTRSV_BLOCKS_COL_US       0.012  /* a chain step's cost per coupling column and accumulator */

static PetscReal SpTrsvLocalityBlocksEstimate(PetscInt n, const SpTrsvLocalityBlocks *blk)
{
  const PetscReal first = SPTRSV_BLOCKS_ALPHA_US + ((PetscReal)blk->xsize + 4.0 * n) * sizeof(PetscScalar) / SPTRSV_BLOCKS_BYTES_PER_US;
  PetscReal       step, chain;

  if (!blk->R) return first;
  step  = SPTRSV_BLOCKS_STEP_US + SPTRSV_BLOCKS_ACC_US * blk->A + SPTRSV_BLOCKS_COL_US * blk->R * blk->A;
  chain = SPTRSV_BLOCKS_ALPHA_US + PetscMax((PetscReal)blk->max_group_blocks * step, ((PetscReal)blk->msize + 2.0 * n) * sizeof(PetscScalar) / SPTRSV_BLOCKS_BYTES_PER_US);
  return first + chain;
}

/* the blocks of size B over the groups of ch, the coupling R, the sizes and the prediction (gblk, bptr allocated) */
static PetscErrorCode SpTrsvLocalityBlocksBuild(const SpTrsvOp *op, const PetscInt *order, const SpTrsvLocalityChain *ch, PetscInt B, SpTrsvLocalityBlocks *blk)
{
  const PetscInt n = op->n;
  PetscInt      *pos, *bof;

  PetscFunctionBegin;
  blk->B       = B;
  blk->G       = PetscMin(B, 32);
  blk->A       = B / blk->G;
  blk->nblocks = 0;
  for (PetscInt g = 0; g < ch->ngroups; g++) blk->nblocks += (ch->gptr[g + 1] - ch->gptr[g] + B - 1) / B;
  PetscCall(PetscMalloc2(ch->ngroups + 1, &blk->gblk, blk->nblocks + 1, &blk->bptr));
  blk->gblk[0]          = 0;
  blk->max_group_blocks = 0;
  for (PetscInt g = 0, b = 0; g < ch->ngroups; g++) {
    for (PetscInt p = ch->gptr[g]; p < ch->gptr[g + 1]; p += B) blk->bptr[b++] = p;
    blk->gblk[g + 1]      = b;
    blk->max_group_blocks = PetscMax(blk->max_group_blocks, b - blk->gblk[g]);
  }
  blk->bptr[blk->nblocks] = n;
  /* R: how far before its block's start a row reaches */
  PetscCall(PetscMalloc2(n + 1, &pos, n + 1, &bof));
  for (PetscInt k = 0; k < n; k++) pos[order[k]] = k;
  for (PetscInt b = 0; b < blk->nblocks; b++)
    for (PetscInt k = blk->bptr[b]; k < blk->bptr[b + 1]; k++) bof[k] = b;
  blk->R = 0;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = order[k], p0 = blk->bptr[bof[k]];
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++)
      if (pos[op->rj[e]] < p0) blk->R = PetscMax(blk->R, p0 - pos[op->rj[e]]);
  }
  PetscCall(PetscFree2(pos, bof));
  blk->xsize        = (PetscInt64)blk->nblocks * SpTrsvBlocksPacked(B, B);
  blk->msize        = (PetscInt64)blk->nblocks * B * blk->R;
  blk->predicted_us = SpTrsvLocalityBlocksEstimate(n, blk);
  blk->storage      = (PetscReal)(blk->xsize + blk->msize) / (PetscReal)PetscMax(op->nnz + n, 1);
  blk->accepted     = (PetscBool)((blk->storage <= SPTRSV_CHAIN_MAX_STORAGE || blk->xsize + blk->msize <= (PetscInt64)SPTRSV_BLOCKS_ROW_SCALARS * n) && (PetscInt64)B * (B + blk->R) * (PetscInt64)sizeof(PetscScalar) <= SPTRSV_BLOCKS_SMEM_BYTES);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvLocalityBlocksCreate - the blocks kernel's schedule over the chain schedule ch (order: the chain order): every B
  from the window W up to SPTRSV_CHAIN_MAX_WIDTH is tried and the one the cost model predicts fastest among the accepted
  ones kept (Breq > 0: that B, which must be a power of two of at least W); cond is the conditioning bound the numeric
  phase applies. blk->B = 0 when the chain has no window.
*/
PetscErrorCode SpTrsvLocalityBlocksCreate(const SpTrsvOp *op, const PetscInt *order, const SpTrsvLocalityChain *ch, PetscInt Breq, PetscReal cond, SpTrsvLocalityBlocks *blk)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(blk, sizeof(*blk)));
  blk->cond = cond;
  if (!ch->W) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(Breq <= 0 || SpTrsvLocalityBlockRowsValid(Breq, ch->W), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Blocks of %" PetscInt_FMT " rows: need a power of two from the window (%" PetscInt_FMT ") to %d", Breq, ch->W, (int)SPTRSV_CHAIN_MAX_WIDTH);
  for (PetscInt B = Breq > 0 ? Breq : ch->W; B <= (Breq > 0 ? Breq : SPTRSV_CHAIN_MAX_WIDTH); B *= 2) {
    SpTrsvLocalityBlocks t;

    PetscCall(PetscMemzero(&t, sizeof(t)));
    t.cond = cond;
    PetscCall(SpTrsvLocalityBlocksBuild(op, order, ch, B, &t));
    if (!blk->B || (t.accepted && !blk->accepted) || (t.accepted == blk->accepted && t.predicted_us < blk->predicted_us)) { /* keep the better */
      PetscCall(SpTrsvLocalityBlocksDestroy(blk));
      *blk = t;
    } else PetscCall(SpTrsvLocalityBlocksDestroy(&t));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvLocalityBlocksCheck - what the blocks kernel relies on (over SpTrsvLocalityChainCheck's): the blocks tile every
  group from its start, B positions each but the group's last, and every dependency of a row lies in its own block or
  in the last R positions of the block before it in the same group
*/
PetscErrorCode SpTrsvLocalityBlocksCheck(const SpTrsvOp *op, const PetscInt *order, const SpTrsvLocalityChain *ch, const SpTrsvLocalityBlocks *blk)
{
  const PetscInt n = op->n;
  PetscInt      *pos, *bof;

  PetscFunctionBegin;
  PetscCall(SpTrsvLocalityChainCheck(op, order, ch));
  PetscCheck(blk->B >= ch->W && blk->B <= SPTRSV_CHAIN_MAX_WIDTH && (blk->B & (blk->B - 1)) == 0 && blk->G == PetscMin(blk->B, 32) && blk->G * blk->A == blk->B && blk->R >= 0 && blk->R < blk->B, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Blocks schedule: blocks of %" PetscInt_FMT " rows (%" PetscInt_FMT " lanes x %" PetscInt_FMT "), coupling %" PetscInt_FMT ", window %" PetscInt_FMT, blk->B, blk->G, blk->A, blk->R, ch->W);
  PetscCheck(blk->gblk[0] == 0 && blk->gblk[ch->ngroups] == blk->nblocks && blk->bptr[blk->nblocks] == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Blocks schedule: %" PetscInt_FMT " blocks do not cover the groups", blk->nblocks);
  for (PetscInt g = 0; g < ch->ngroups; g++) {
    PetscCheck(blk->gblk[g + 1] > blk->gblk[g] && blk->gblk[g + 1] - blk->gblk[g] <= blk->max_group_blocks && blk->bptr[blk->gblk[g]] == ch->gptr[g] && blk->bptr[blk->gblk[g + 1]] == ch->gptr[g + 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Blocks schedule: the blocks of group %" PetscInt_FMT " do not tile it", g);
    for (PetscInt b = blk->gblk[g]; b < blk->gblk[g + 1]; b++) PetscCheck(blk->bptr[b + 1] - blk->bptr[b] == (b + 1 < blk->gblk[g + 1] ? blk->B : blk->bptr[b + 1] - blk->bptr[b]) && blk->bptr[b + 1] > blk->bptr[b] && blk->bptr[b + 1] - blk->bptr[b] <= blk->B, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Blocks schedule: block %" PetscInt_FMT " holds %" PetscInt_FMT " rows", b, blk->bptr[b + 1] - blk->bptr[b]);
  }
  PetscCall(PetscMalloc2(n + 1, &pos, n + 1, &bof));
  for (PetscInt k = 0; k < n; k++) pos[order[k]] = k;
  for (PetscInt b = 0; b < blk->nblocks; b++)
    for (PetscInt k = blk->bptr[b]; k < blk->bptr[b + 1]; k++) bof[k] = b;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = order[k], b = bof[k], p0 = blk->bptr[b];
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
      const PetscInt kj = pos[op->rj[e]];
      PetscCheck(kj < k && (bof[kj] == b || (bof[kj] == b - 1 && kj >= p0 - blk->R)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Blocks schedule: row %" PetscInt_FMT " (position %" PetscInt_FMT ", block %" PetscInt_FMT ") depends on row %" PetscInt_FMT " (position %" PetscInt_FMT ", block %" PetscInt_FMT "): outside its block and the last %" PetscInt_FMT " positions of the one before", i, k, b, op->rj[e], kj, bof[kj], blk->R);
    }
  }
  PetscCall(PetscFree2(pos, bof));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvLocalityBlocksDestroy(SpTrsvLocalityBlocks *blk)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(blk->gblk, blk->bptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the -ksp_view lines: the blocks, the model, and (run) the last numeric phase's check */
PetscErrorCode SpTrsvLocalityBlocksView(const SpTrsvLocalityBlocks *blk, PetscBool run, const char *prefix, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (!blk->B) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  blocks: %" PetscInt_FMT " of %" PetscInt_FMT " rows (%" PetscInt_FMT " lanes x %" PetscInt_FMT " accumulators), coupling %" PetscInt_FMT " columns, longest group %" PetscInt_FMT " blocks, storage %.2f times the triangle's, predicted %.4g us%s\n", blk->nblocks, blk->B, blk->G, blk->A, blk->R, blk->max_group_blocks, (double)blk->storage, (double)blk->predicted_us, blk->accepted ? "" : " (storage over the limit: not chosen automatically)"));
  if (run && blk->have_numeric) PetscCall(PetscViewerASCIIPrintf(viewer, "  inverted diagonal blocks: %" PetscInt_FMT " of %" PetscInt_FMT " (condition number at most %g, -%smat_sptrsv_locality_block_cond; largest inverted %g, largest %g); %" PetscInt_FMT " solved by substitution\n", blk->ninv, blk->nblocks, (double)blk->cond, prefix, (double)blk->kappa_inv, (double)blk->kappa_max, blk->nblocks - blk->ninv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvLocalityBlockNumeric - block b's numeric phase on the host. D (w x w, column-major, the inverted diagonal on its
  diagonal) and L (w x R) from the rows of op(T) at positions bptr[b] .. + w - 1; X = D^{-1} by columns
  (SpTrsvSupernodeInvertColumn), kappa = ||D||_inf ||X||_inf (SpTrsvSupernodeCondRow, SpTrsvSupernodeCondKappa: the
  supernodal path's check). ok: kappa <= cond: xs = X's packed lower triangle (stride B), ms = X L (B x R, column-major);
  else xs = D's, ms = L. work: 2 B B + B R scalars.
*/
PetscErrorCode SpTrsvLocalityBlockNumeric(const SpTrsvOp *op, const PetscInt *order, const PetscInt *pos, const SpTrsvLocalityBlocks *blk, PetscInt b, PetscScalar *xs, PetscScalar *ms, PetscScalar *work, PetscBool *ok, PetscReal *kappa)
{
  const PetscInt B = blk->B, R = blk->R, p0 = blk->bptr[b], w = blk->bptr[b + 1] - p0;
  PetscScalar   *D = work, *X = work + B * B, *L = work + 2 * B * B;
  PetscReal      nd = 0, nx = 0, dummy = 0;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(D, w * w));
  PetscCall(PetscArrayzero(L, w * R));
  for (PetscInt r = 0; r < w; r++) {
    const PetscInt i = order[p0 + r];
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
      const PetscInt c = pos[op->rj[e]] - p0;
      if (c >= 0) D[r + c * w] = op->ra[e];
      else L[r + (c + R) * w] = op->ra[e];
    }
    D[r + r * w] = op->unit ? (PetscScalar)1 : op->idiag[i];
  }
  for (PetscInt j = 0; j < w; j++) SpTrsvSupernodeInvertColumn(w, D, X, j, PETSC_TRUE);
  for (PetscInt r = 0; r < w; r++) {
    SpTrsvSupernodeCondRow(w, D, D, PETSC_FALSE, r, &nd, &dummy);
    SpTrsvSupernodeCondRow(w, X, X, PETSC_FALSE, r, &dummy, &nx);
  }
  *kappa = SpTrsvSupernodeCondKappa(nd, nx);
  *ok    = (PetscBool)(*kappa <= blk->cond);
  PetscCall(PetscArrayzero(xs, SpTrsvBlocksPacked(B, B)));
  PetscCall(PetscArrayzero(ms, B * R));
  for (PetscInt j = 0; j < w; j++)
    for (PetscInt r = j; r < w; r++) xs[SpTrsvBlocksPacked(B, j) + r - j] = *ok ? X[r + j * w] : D[r + j * w];
  for (PetscInt j = 0; j < R; j++)
    for (PetscInt r = 0; r < w; r++) {
      PetscScalar s = 0;
      if (!*ok) s = L[r + j * w];
      else
        for (PetscInt m = 0; m <= r; m++) s += X[r + m * w] * L[m + j * w];
      ms[r + j * B] = s;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- host executor: the kernel's arithmetic, block by block ---- */
typedef struct {
  PetscScalar *xs, *ms; /* nblocks packed X (or D), nblocks B x R M (or L) */
  PetscBool   *ok;      /* nblocks */
  PetscScalar *acc, *bv; /* B: a block's accumulators, its b */
} SpTrsvHostLocalityBlocks;

/* the numeric phase of every block, and the check's figures in the plan */
PetscErrorCode SpTrsvHostLocalityBlocksUpdate(SpTrsvSolver s, SpTrsvLocalityBlocks *blk)
{
  SpTrsvHostLocalityBlocks *h = (SpTrsvHostLocalityBlocks *)s->bdata;
  PetscInt                 *pos;
  PetscScalar              *work;

  PetscFunctionBegin;
  if (s->tri->values_unset) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(s->op.n + 1, &pos, 2 * blk->B * blk->B + blk->B * blk->R + 1, &work));
  for (PetscInt k = 0; k < s->op.n; k++) pos[s->plan->order[k]] = k;
  blk->ninv = 0;
  blk->kappa_inv = blk->kappa_max = 0;
  for (PetscInt b = 0; b < blk->nblocks; b++) {
    PetscReal kappa;
    PetscCall(SpTrsvLocalityBlockNumeric(&s->op, s->plan->order, pos, blk, b, h->xs + b * SpTrsvBlocksPacked(blk->B, blk->B), h->ms + b * blk->B * blk->R, work, &h->ok[b], &kappa));
    blk->kappa_max = SpTrsvSupernodeCondMax(blk->kappa_max, kappa);
    if (h->ok[b]) {
      blk->ninv++;
      blk->kappa_inv = PetscMax(blk->kappa_inv, kappa);
    }
  }
  blk->have_numeric = PETSC_TRUE;
  PetscCall(PetscFree2(pos, work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvHostLocalityBlocksSetup(SpTrsvSolver s, const SpTrsvLocalityChain *ch, SpTrsvLocalityBlocks *blk)
{
  SpTrsvHostLocalityBlocks *h;

  PetscFunctionBegin;
  PetscCall(SpTrsvLocalityBlocksCheck(&s->op, s->plan->order, ch, blk));
  PetscCall(PetscNew(&h));
  s->bdata = h;
  PetscCall(PetscMalloc5(blk->xsize + 1, &h->xs, blk->msize + 1, &h->ms, blk->nblocks + 1, &h->ok, blk->B, &h->acc, blk->B, &h->bv));
  PetscCall(SpTrsvHostLocalityBlocksUpdate(s, blk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* every group's blocks in turn: acc = X b (or b), minus M x_prev (or L x_prev), then (a block whose check failed) the
   substitution with D; the same sums, in the same order, as the CUDA kernels */
PetscErrorCode SpTrsvHostLocalityBlocksSolve(SpTrsvSolver s, const SpTrsvLocalityChain *ch, const SpTrsvLocalityBlocks *blk, const PetscScalar *b, PetscScalar *x)
{
  const SpTrsvHostLocalityBlocks *h     = (const SpTrsvHostLocalityBlocks *)s->bdata;
  const PetscInt                 *order = s->plan->order, B = blk->B, R = blk->R;
  PetscScalar                    *acc = h->acc, *bv = h->bv;

  PetscFunctionBegin;
  for (PetscInt g = 0; g < ch->ngroups; g++)
    for (PetscInt bk = blk->gblk[g]; bk < blk->gblk[g + 1]; bk++) {
      const PetscInt     p0 = blk->bptr[bk], w = blk->bptr[bk + 1] - p0;
      const PetscScalar *xs = h->xs + bk * SpTrsvBlocksPacked(B, B), *ms = h->ms + bk * B * R;
      for (PetscInt r = 0; r < w; r++) bv[r] = b[order[p0 + r]];
      for (PetscInt r = 0; r < w; r++) acc[r] = h->ok[bk] ? 0 : bv[r];
      if (h->ok[bk])
        for (PetscInt j = 0; j < w; j++)
          for (PetscInt r = j; r < w; r++) acc[r] += xs[SpTrsvBlocksPacked(B, j) + r - j] * bv[j];
      if (bk > blk->gblk[g])
        for (PetscInt j = 0; j < R; j++) {
          const PetscScalar xj = x[order[p0 - R + j]];
          for (PetscInt r = 0; r < w; r++) acc[r] -= ms[r + j * B] * xj;
        }
      if (!h->ok[bk])
        for (PetscInt j = 0; j < w; j++) {
          const PetscScalar xj = acc[j] * xs[SpTrsvBlocksPacked(B, j)];
          acc[j] = xj;
          for (PetscInt r = j + 1; r < w; r++) acc[r] -= xs[SpTrsvBlocksPacked(B, j) + r - j] * xj;
        }
      for (PetscInt r = 0; r < w; r++) x[order[p0 + r]] = acc[r];
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvHostLocalityBlocksDestroy(SpTrsvSolver s)
{
  SpTrsvHostLocalityBlocks *h = (SpTrsvHostLocalityBlocks *)s->bdata;

  PetscFunctionBegin;
  if (h) PetscCall(PetscFree5(h->xs, h->ms, h->ok, h->acc, h->bv));
  PetscCall(PetscFree(s->bdata));
  PetscFunctionReturn(PETSC_SUCCESS);
}
