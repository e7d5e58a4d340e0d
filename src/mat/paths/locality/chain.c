/*
   The locality path's chain schedule (include/sptrsv/paths/partition.h, "The chain kernel"): every weakly connected
   component of the DAG of op(T) is one sub-graph, ordered by row index (a topological order of a triangle), and the
   components are dealt in runs to lane groups. Plain C, backend-neutral: the CUDA executor (src/cuda/paths/
   locality_chain.cu) and the host executor (src/mat/paths/locality/locality.c) run the order it makes.
*/
#include <sptrsv/paths/partition.h>

/* the chain kernel's cost model, in microseconds: two launches, then the longest group's steps or the window's bytes,
   whichever takes longer. A step costs what its loads wait for: the kernel loads D steps ahead (16 with one accumulator
   per lane on long chains, 8 with two, 4 with four; half that on short groups), so a step costs about a memory latency
   over D. Constants from the H200 run of docs/perf-data/history/locality-chain-kernel-h200.md: 74 ns per step with
   one accumulator, 119 ns with two, on the banded matrices; about 2 TB/s on the block-diagonal ones */
#define SPTRSV_CHAIN_ALPHA_US     6.0
#define SPTRSV_CHAIN_BYTES_PER_US 2.0e6
#define SPTRSV_CHAIN_WARPS_PER_SM 16 /* resident warps per multiprocessor the groups are dealt for */
static const PetscReal SpTrsvChainStepUs[3] = {0.074, 0.119, 0.2}; /* by log2(A), long chains */

static PetscReal SpTrsvLocalityChainEstimate(PetscInt n, const SpTrsvLocalityChain *ch)
{
  const PetscReal bytes = (PetscReal)n * ((PetscReal)ch->W * sizeof(PetscScalar) + 3 * sizeof(PetscScalar) + sizeof(int));
  const PetscReal step  = SpTrsvChainStepUs[ch->A >= 4 ? 2 : ch->A - 1] * (ch->max_group_rows >= SPTRSV_CHAIN_LONG_ROWS ? 1.0 : 2.0);
  return SPTRSV_CHAIN_ALPHA_US + PetscMax((PetscReal)ch->max_group_rows * step, bytes / SPTRSV_CHAIN_BYTES_PER_US);
}

/*
  SpTrsvLocalityChainCreate - the chain order of op(T) (rows of each component by index, ascending for a lower op(T),
  descending for an upper one; components by their smallest row, ascending for a lower op(T), descending for an upper
  one), its reach, the window and the groups

  Input: op, sms (multiprocessors the groups are dealt for)
  Output: order (n, allocated by the caller), ch (its gptr allocated here, NULL when no window fits)
*/
PetscErrorCode SpTrsvLocalityChainCreate(const SpTrsvOp *op, PetscInt sms, PetscInt *order, SpTrsvLocalityChain *ch)
{
  const PetscInt n = op->n;
  SpTrsvDAG      dag;
  PetscInt       ncomp, *compptr, *compmem, *pos, maxcomp = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(ch, sizeof(*ch)));
  PetscCall(PetscMemzero(&dag, sizeof(dag)));
  dag.n  = n;
  dag.ri = op->ri;
  dag.rj = op->rj;
  PetscCall(SpTrsvComponents(&dag, &ncomp, &compptr, &compmem)); /* members ascending, components by smallest row */
  ch->ncomp = ncomp;
  for (PetscInt c = 0, k = 0; c < ncomp; c++) {
    const PetscInt cc = op->lower ? c : ncomp - 1 - c; /* an upper triangle runs from the last row down */
    for (PetscInt m = 0; m < compptr[cc + 1] - compptr[cc]; m++) order[k++] = op->lower ? compmem[compptr[cc] + m] : compmem[compptr[cc + 1] - 1 - m];
    maxcomp = PetscMax(maxcomp, compptr[cc + 1] - compptr[cc]);
  }
  /* the reach: every dependency must come earlier in the order (a triangle's rows by index always do) */
  PetscCall(PetscMalloc1(n + 1, &pos));
  for (PetscInt k = 0; k < n; k++) pos[order[k]] = k;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
      const PetscInt d = pos[i] - pos[op->rj[e]];
      PetscCheck(d > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Chain order: row %" PetscInt_FMT " depends on row %" PetscInt_FMT ", which does not come before it: op(T) is not %s triangular", i, op->rj[e], op->lower ? "lower" : "upper");
      ch->reach = PetscMax(ch->reach, d);
    }
  PetscCall(PetscFree(pos));
  for (ch->W = 2; ch->W <= ch->reach && ch->W < SPTRSV_CHAIN_MAX_WIDTH; ch->W *= 2) { }
  if (ch->W <= ch->reach) ch->W = 0; /* no window fits */
  if (ch->W) {
    const PetscInt64 target = (PetscInt64)PetscMax(sms, 1) * SPTRSV_CHAIN_WARPS_PER_SM * (32 / PetscMin(ch->W, 32));
    const PetscInt   cap    = PetscMax(maxcomp, (PetscInt)((n + target - 1) / PetscMax(target, 1)));
    PetscInt         ng     = 0, fill = 0;

    ch->G = PetscMin(ch->W, 32);
    ch->A = ch->W / ch->G;
    /* whole components in runs of at most cap rows (a longer component alone), in the chain order */
    PetscCall(PetscMalloc1(ncomp + 1, &ch->gptr));
    ch->gptr[0] = 0;
    for (PetscInt c = 0, k = 0; c < ncomp; c++) {
      const PetscInt cc = op->lower ? c : ncomp - 1 - c, sz = compptr[cc + 1] - compptr[cc];
      if (ng && fill + sz <= cap) fill += sz;
      else {
        if (ng) ch->gptr[ng] = k;
        ng++;
        fill = sz;
      }
      k += sz;
    }
    ch->gptr[ng]   = n;
    ch->ngroups    = ng;
    ch->max_group_rows = 0;
    for (PetscInt g = 0; g < ng; g++) ch->max_group_rows = PetscMax(ch->max_group_rows, ch->gptr[g + 1] - ch->gptr[g]);
    ch->predicted_us = SpTrsvLocalityChainEstimate(n, ch);
    ch->accepted     = (PetscBool)((PetscReal)ch->W * n <= SPTRSV_CHAIN_MAX_STORAGE * (PetscReal)(op->nnz + n));
  }
  PetscCall(PetscFree(compptr));
  PetscCall(PetscFree(compmem));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvLocalityChainCheck - what the chain kernel relies on: the groups tile the positions, every dependency comes
  earlier in the order, within the window (distance 1 .. W - 1) and in the same group (groups never wait for each
  other), and the lanes fit a warp
*/
PetscErrorCode SpTrsvLocalityChainCheck(const SpTrsvOp *op, const PetscInt *order, const SpTrsvLocalityChain *ch)
{
  const PetscInt n = op->n;
  PetscInt      *pos, *grp;

  PetscFunctionBegin;
  PetscCheck(ch->W >= 2 && ch->W <= SPTRSV_CHAIN_MAX_WIDTH && (ch->W & (ch->W - 1)) == 0 && ch->reach < ch->W && ch->G == PetscMin(ch->W, 32) && ch->A * ch->G == ch->W, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Chain schedule: window %" PetscInt_FMT " (reach %" PetscInt_FMT ", %" PetscInt_FMT " lanes x %" PetscInt_FMT ")", ch->W, ch->reach, ch->G, ch->A);
  PetscCheck(ch->ngroups >= (n ? 1 : 0) && ch->gptr && ch->gptr[0] == 0 && ch->gptr[ch->ngroups] == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Chain schedule: %" PetscInt_FMT " groups do not cover %" PetscInt_FMT " rows", ch->ngroups, n);
  PetscCall(PetscMalloc2(n + 1, &pos, n + 1, &grp));
  for (PetscInt k = 0; k < n; k++) pos[k] = -1;
  for (PetscInt k = 0; k < n; k++) {
    PetscCheck(order[k] >= 0 && order[k] < n && pos[order[k]] < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Chain schedule: position %" PetscInt_FMT " holds row %" PetscInt_FMT " (out of range or twice)", k, order[k]);
    pos[order[k]] = k;
  }
  for (PetscInt g = 0; g < ch->ngroups; g++) {
    PetscCheck(ch->gptr[g + 1] > ch->gptr[g] && ch->gptr[g + 1] - ch->gptr[g] <= ch->max_group_rows, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Chain schedule: group %" PetscInt_FMT " holds %" PetscInt_FMT " rows", g, ch->gptr[g + 1] - ch->gptr[g]);
    for (PetscInt k = ch->gptr[g]; k < ch->gptr[g + 1]; k++) grp[k] = g;
  }
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
      const PetscInt j = op->rj[e], d = pos[i] - pos[j];
      PetscCheck(d >= 1 && d < ch->W && grp[pos[i]] == grp[pos[j]], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Chain schedule: row %" PetscInt_FMT " (position %" PetscInt_FMT ", group %" PetscInt_FMT ") depends on row %" PetscInt_FMT " (position %" PetscInt_FMT ", group %" PetscInt_FMT "): outside a window of %" PetscInt_FMT " rows or another group", i, pos[i], grp[pos[i]], j, pos[j], grp[pos[j]], ch->W);
    }
  PetscCall(PetscFree2(pos, grp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvLocalityChainDestroy(SpTrsvLocalityChain *ch)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(ch->gptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *const SpTrsvLocalityKernels[] = {"auto", "slots", "chain", "blocks", "SpTrsvLocalityKernelType", "SPTRSV_LOCALITY_KERNEL_", NULL};
