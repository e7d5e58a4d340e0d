/*
   Dispatch orders of the synchronization-free paths (element: paper 000, section 4; syncfree: paper 001).

   Their plans are read as a dispatch order: order[] hands every row to one worker (a warp, or some lanes
   of a warp, on the GPU) in that order, and a worker waits only for the rows its own row depends on, not
   for a whole level. When order[] sorts rows by level, every dependency of the row at dispatch position
   k sits at a position < k (its level is lower).

   Deadlock freedom (the argument the CUDA kernels rely on, src/cuda/paths/element/element.cu):
   1. Positions are handed out by a global ticket counter, taken by a block when it starts running, not
      by blockIdx: the block holding ticket t solves positions [t*W, t*W + W) (W warps per block). A
      block takes its ticket only once it is resident, and a resident block stays resident until all
      its warps exit. So every position below the largest ticket taken so far belongs to a block that
      is resident or finished, whatever order the hardware launches blocks in and however few blocks
      fit on the device at once.
   2. Let k be the smallest position whose row never completes. All its dependencies have positions
      < k and complete (minimality), publishing their ready flags (ELMR) or counter increments (ELMC).
      The warp of position k is resident (1), so its wait ends (resident warps are always eventually
      issued by the warp schedulers) and the row completes: a contradiction. Hence every row completes,
      whatever the input the analysis accepted (a triangular pattern: the levels exist), including
      chains of length n (one row per level), a row depending on every earlier row, and empty rows
      (no dependencies: no wait at all).
   3. A warp handles one row, so no warp ever waits for a row it owns; within a warp only lane 0 spins
      and the other lanes wait at a warp barrier, which independent thread scheduling (sm_70+) allows.
   The host backend executes the same dispatch order, one row at a time, and asserts that every
   dependency of a row is complete when the row's turn comes (SpTrsvPlanCheckDispatchOrder).
*/
#include <sptrsv/plan.h>

/*
  SpTrsvPlanCheckDispatchOrder - verify that order[] is a permutation in which every dependency of a
  row comes before it (what makes the element kernels deadlock-free); an error names the first row
  whose dependency would come later
*/
PetscErrorCode SpTrsvPlanCheckDispatchOrder(const SpTrsvOp *op, SpTrsvPlan plan)
{
  PetscInt *pos;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(op->n + 1, &pos));
  for (PetscInt i = 0; i < op->n; i++) pos[i] = -1;
  for (PetscInt k = 0; k < op->n; k++) {
    const PetscInt i = plan->order[k];
    PetscCheck(i >= 0 && i < op->n && pos[i] < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Dispatch order is not a permutation at position %" PetscInt_FMT " (row %" PetscInt_FMT ")", k, i);
    pos[i] = k;
  }
  for (PetscInt i = 0; i < op->n; i++)
    for (PetscInt p = op->ri[i]; p < op->ri[i + 1]; p++) PetscCheck(pos[op->rj[p]] < pos[i], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Dispatch order: row %" PetscInt_FMT " (position %" PetscInt_FMT ") depends on row %" PetscInt_FMT " dispatched later (position %" PetscInt_FMT ")", i, pos[i], op->rj[p], pos[op->rj[p]]);
  PetscCall(PetscFree(pos));
  PetscFunctionReturn(PETSC_SUCCESS);
}
