/* SpTrsvPlan: life cycle and viewing, common to every path */
#include <sptrsv/plan.h>
#include <sptrsv/threads.h>

/* SpTrsvPlanCreateRows - an empty plan of n rows: order and level allocated (as SpTrsvPlanDestroy frees them), unset */
PetscErrorCode SpTrsvPlanCreateRows(PetscInt n, SpTrsvPlan *plan)
{
  SpTrsvPlan p;

  PetscFunctionBegin;
  PetscCall(PetscNew(&p));
  p->n = n;
  PetscCall(PetscMalloc2(n + 1, &p->order, n + 1, &p->level));
  PetscCall(SpTrsvThreadsFault(p->order, (size_t)(n + 1) * sizeof(PetscInt))); /* their pages faulted by the setup's threads */
  PetscCall(SpTrsvThreadsFault(p->level, (size_t)(n + 1) * sizeof(PetscInt)));
  *plan = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPlanDestroy(SpTrsvPlan *plan)
{
  SpTrsvPlan p = *plan;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(PETSC_SUCCESS);
  if (p->destroydata) PetscCall((*p->destroydata)(p));
  PetscCall(PetscFree2(p->order, p->level));
  PetscCall(PetscFree(p->levptr));
  PetscCall(PetscFree(p));
  *plan = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPlanView - the analysis figures, one line each, for -ksp_view / MatView; then the path's own
*/
PetscErrorCode SpTrsvPlanView(SpTrsvPlan p, PetscViewer viewer)
{
  const SpTrsvStats *s = &p->stats;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "schedule %s: %" PetscInt_FMT " levels, rows per level mean %.1f max %" PetscInt_FMT "\n", p->pathname ? p->pathname : "?", s->nlevels, (double)s->mean_level_rows, s->max_level_rows));
  PetscCall(PetscViewerASCIIPrintf(viewer, "rows %" PetscInt_FMT ", off-diagonal nonzeros %" PetscInt_FMT ", per row mean %.2f max %" PetscInt_FMT "\n", s->n, s->nnz, (double)s->mean_row_nnz, s->max_row_nnz));
  PetscCall(PetscViewerASCIIPrintf(viewer, "bytes per solve %.4g, analysis time %.3g s\n", s->bytes_per_solve, s->analysis_time));
  if (p->view) PetscCall((*p->view)(p, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
