/*
   sptrsv_pinv: the partitioned inverse (Alvarado & Schreiber; paper 002's "invertOff"). The analysis cuts the rows of
   op(T) into parts whose inverse-applied blocks M_k = T_kk^{-1} [-E_k | I] have no fill (or at most
   -mat_sptrsv_pinv_fill times the substitution's entries; supernodes' dense inverses always allowed): see
   include/sptrsv/paths/pinv.h and src/mat/paths/pinv/pinv_partition.c. The numeric phase (on the host, for both
   executors, on -mat_sptrsv_pinv_threads threads: src/mat/paths/pinv/pinv_numeric.c) computes M row by row; a solve is then
   one sparse matrix-vector product per part.

   Stability. Multiplying by inverses is not backward stable in general (an inverse can have entries far larger than
   the triangle's: a unit lower bidiagonal with -2 below the diagonal has 2^(i-j) in its inverse). So every numeric
   phase ends with a check: a right-hand side b = op(T) x_r for a random x_r in [-1, 1]^n (a fixed seed), solved by the
   partitioned inverse exactly as the host executor does and by a plain substitution; their normwise backward errors
   ||b - op(T) x||_inf / (||op(T)||_inf ||x||_inf + ||b||_inf) are shown by -ksp_view. (The right-hand side is made
   from a solution, not drawn at random: a random b excites the inverse's largest entries, whose growth then dominates
   x as well and hides the error in the norm.) When the partitioned inverse's exceeds -mat_sptrsv_pinv_tol (default
   1000 machine epsilons) the solves of this triangle fall back to sptrsv_supernodal when that path is registered and
   has an executor on the backend, else to sptrsv_level: the executor keeps a solver of that path on the same
   triangle, created then (its analysis and setup), which takes the next numeric phases' values by itself; a later
   numeric phase that passes the check frees it. The fallback is announced by PetscInfo and shown by -ksp_view. When
   the substitution's own backward error is not finite (a zero pivot, an Inf in the factor) there is nothing to fall
   back to: the factor's failure is reported as for every path.
*/
#include <sptrsv/paths/pinv.h>
#include <sptrsv/registry.h>
#include <petsctime.h>

static PetscErrorCode SpTrsvPinvScheduleDestroy(SpTrsvPlan plan)
{
  SpTrsvPinvSchedule *ps = (SpTrsvPinvSchedule *)plan->data;

  PetscFunctionBegin;
  if (ps) {
    PetscCall(PetscFree(ps->partptr));
    PetscCall(PetscFree2(ps->ptr, ps->split));
    PetscCall(PetscFree(ps->col));
    PetscCall(PetscFree(ps->pos));
    PetscCall(PetscFree2(ps->seg.seg, ps->seg.levK));
  }
  PetscCall(PetscFree(plan->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvPinvScheduleView(SpTrsvPlan plan, PetscViewer viewer)
{
  SpTrsvPinvSchedule     *ps = (SpTrsvPinvSchedule *)plan->data;
  const SpTrsvPinvStatus *st = &ps->status;
  PetscInt                nfused = 0, fused_parts = 0;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "partitioned inverse: %" PetscInt_FMT " parts (%s, fill limit %g), rows per part mean %.1f max %" PetscInt_FMT "; %" PetscInt_FMT " group levels, %" PetscInt_FMT " supernodes as groups\n", ps->nparts, SpTrsvPinvPartsNames[ps->parts], (double)ps->fill,
                                   ps->nparts ? (double)plan->n / ps->nparts : 0.0, ps->max_part_rows, plan->nlevels, ps->ngroups));
  PetscCall(PetscViewerASCIIPrintf(viewer, "inverse-applied blocks: %" PetscInt_FMT " entries, %.3f x the substitution's %" PetscInt_FMT ", longest row %" PetscInt_FMT "\n", ps->nnz, plan->n ? (double)ps->nnz / (double)(plan->stats.nnz + plan->n) : 1.0, plan->stats.nnz + plan->n, ps->max_row));
  for (PetscInt k = 0; k < ps->seg.nseg; k++)
    if (ps->seg.seg[k].kind == SPTRSV_LEVEL_SEG_FUSED) {
      nfused++;
      fused_parts += ps->seg.seg[k].l1 - ps->seg.seg[k].l0;
    }
  PetscCall(PetscViewerASCIIPrintf(viewer, "launches %" PetscInt_FMT ": %" PetscInt_FMT " single-block runs holding %" PetscInt_FMT " parts, %" PetscInt_FMT " parts with a grid each\n", ps->seg.nseg, nfused, fused_parts, ps->seg.nseg - nfused));
  if (!st->checked) PetscCall(PetscViewerASCIIPrintf(viewer, "stability: not checked yet (no values)\n"));
  else {
    char what[128];
    if (st->fallback) PetscCall(PetscSNPrintf(what, sizeof(what), "exceeds the tolerance, solves fall back to %s", st->fallback_path));
    else PetscCall(PetscStrncpy(what, "partitioned inverse in use", sizeof(what)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "stability: backward error %.3e (substitution %.3e), tolerance %.3e (-%smat_sptrsv_pinv_tol): %s\n", (double)st->berr, (double)st->berr_subst, (double)ps->tol, plan->prefix, what));
    if (st->nfallbacks) PetscCall(PetscViewerASCIIPrintf(viewer, "fell back in %" PetscInt_FMT " of %" PetscInt_FMT " numeric phases\n", st->nfallbacks, st->nchecks));
    if (st->nthreads > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "numeric phase: %.3g s on %" PetscInt_FMT " threads (-%smat_sptrsv_pinv_threads): %" PetscInt_FMT " segments, %" PetscInt_FMT " of them parallel, %" PetscInt_FMT " rows cut among the threads\n", (double)st->numeric_time, st->nthreads, plan->prefix, st->nseg, st->nparallel, st->nheavy));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "numeric phase: %.3g s on 1 thread (-%smat_sptrsv_pinv_threads)\n", (double)st->numeric_time, plan->prefix));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvAnalyze_pinv(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvPathOptions *popts, const void *own, SpTrsvPlan *plan)
{
  const SpTrsvPinvOptions *opts = (const SpTrsvPinvOptions *)own;
  const char *prefix = popts->prefix;
  SpTrsvPlan              p;
  SpTrsvPinvSchedule     *ps;
  SpTrsvPinvPartitionData d;
  PetscLogDouble          t0, t1;
  PetscReal               least_ms;

  PetscFunctionBegin;
  PetscCheck(format == SPTRSV_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_pinv reads rows only: use -%smat_sptrsv_format csr", prefix);
  PetscCheck(opts->pinv_fill >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_pinv_fill must be >= 1, got %g", prefix, (double)opts->pinv_fill);
  PetscCheck(opts->pinv_tol > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_pinv_tol must be > 0, got %g", prefix, (double)opts->pinv_tol);
  PetscCheck(opts->fuse_passes >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_fuse_passes must be >= 1, got %" PetscInt_FMT, prefix, opts->fuse_passes);
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPinvPartition(op, (SpTrsvPinvParts)opts->pinv_parts, opts->pinv_fill, &d));
  PetscCall(PetscNew(&p));
  p->n       = op->n;
  p->order   = d.order;
  p->level   = d.level;
  p->levptr  = d.levptr;
  p->nlevels = d.nlevels;
  PetscCall(SpTrsvPlanComputeStats(op, p));
  PetscCall(PetscNew(&ps));
  p->data        = ps;
  p->destroydata = SpTrsvPinvScheduleDestroy;
  p->view        = SpTrsvPinvScheduleView;
  ps->parts      = (SpTrsvPinvParts)opts->pinv_parts;
  ps->fill       = opts->pinv_fill;
  ps->tol        = opts->pinv_tol;
  ps->nparts     = d.nparts;
  ps->nnz        = d.nnz;
  ps->base       = d.base;
  ps->ngroups    = d.ngroups;
  ps->partptr    = d.partptr;
  ps->ptr        = d.ptr;
  ps->split      = d.split;
  ps->col        = d.col;
  PetscCall(PetscMalloc1(op->n + 1, &ps->pos));
  for (PetscInt k = 0; k < op->n; k++) {
    ps->pos[p->order[k]] = k;
    ps->max_row          = PetscMax(ps->max_row, ps->ptr[k + 1] - ps->ptr[k]);
  }
  for (PetscInt k = 0; k < ps->nparts; k++) ps->max_part_rows = PetscMax(ps->max_part_rows, ps->partptr[k + 1] - ps->partptr[k]);
  PetscCall(PetscMalloc2(ps->nparts + 1, &ps->seg.seg, ps->nparts + 1, &ps->seg.levK));
  PetscCall(SpTrsvLevelSegmentsBuild(ps->nparts, ps->partptr, NULL, ps->ptr, opts->fuse_passes, &ps->seg));
  least_ms = (PetscReal)ps->seg.nseg * opts->launch_us * 1e-3; /* the solve's launches alone */
  if (popts->ceiling_ms > 0 && opts->launch_us > 0 && least_ms >= popts->ceiling_ms) {
    /* a build against a path in place that its launches alone cannot beat: refused before the numeric phase (the
       inverse blocks, their stability check and their upload cost more than the partition) */
    const PetscInt nseg = ps->seg.nseg, nparts = ps->nparts; /* read before the plan holding them is freed */
    PetscCall(SpTrsvPlanDestroy(&p));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "its %" PetscInt_FMT " parts take %" PetscInt_FMT " launches per solve, at least %.4g ms (-%smat_sptrsv_pinv_launch_us %g), not below the %.4g ms it must beat", nparts, nseg, (double)least_ms, prefix, (double)opts->launch_us, (double)popts->ceiling_ms);
  }
  /* bytes of a solve: M's values and 32-bit columns, its row pointers, split and order, b read once, x written once
     and read through M's x entries */
  p->stats.bytes_per_solve = (double)ps->nnz * (sizeof(PetscScalar) + 4) + (double)op->n * (3 * 4 + 2 * sizeof(PetscScalar));
  PetscCall(PetscTime(&t1));
  p->stats.analysis_time = t1 - t0;
  *plan                  = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the partition's invariants and the launch geometry, once per pattern (the host executor's setup, the tests) */
PetscErrorCode SpTrsvPinvScheduleCheck(const SpTrsvOp *op, SpTrsvPlan plan, PetscInt fuse_passes)
{
  SpTrsvPinvSchedule     *ps = (SpTrsvPinvSchedule *)plan->data;
  SpTrsvPinvPartitionData d;

  PetscFunctionBegin;
  d.n       = plan->n;
  d.nlevels = plan->nlevels;
  d.nparts  = ps->nparts;
  d.nnz     = ps->nnz;
  d.order   = plan->order;
  d.level   = plan->level;
  d.levptr  = plan->levptr;
  d.partptr = ps->partptr;
  d.ptr     = ps->ptr;
  d.split   = ps->split;
  d.col     = ps->col;
  d.base    = ps->base;
  d.ngroups = ps->ngroups;
  PetscCall(SpTrsvPinvPartitionCheck(op, ps->fill, &d));
  for (PetscInt k = 0; k < plan->n; k++) PetscCheck(plan->order[ps->pos[plan->order[k]]] == plan->order[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: position map wrong at %" PetscInt_FMT, k);
  PetscCall(SpTrsvLevelSegmentsCheck(ps->nparts, ps->partptr, &ps->seg, fuse_passes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = the partitioned inverse applied to b, part after part, as the kernels do (each row: its x entries, then its b
   entries) */
PetscErrorCode SpTrsvPinvApplyHost(const SpTrsvPlan plan, const PetscScalar *val, const PetscScalar *b, PetscScalar *x)
{
  const SpTrsvPinvSchedule *ps = (const SpTrsvPinvSchedule *)plan->data;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < plan->n; k++) {
    PetscScalar s = 0;
    for (PetscInt q = ps->ptr[k]; q < ps->split[k]; q++) s += val[q] * x[ps->col[q]];
    for (PetscInt q = ps->split[k]; q < ps->ptr[k + 1]; q++) s += val[q] * b[ps->col[q]];
    x[plan->order[k]] = s;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||b - op(T) x||_inf / (||op(T)||_inf ||x||_inf + ||b||_inf) */
static PetscReal SpTrsvPinvBackwardError(const SpTrsvOp *op, const PetscScalar *b, const PetscScalar *x)
{
  PetscReal r = 0, nt = 0, nx = 0, nb = 0;

  for (PetscInt i = 0; i < op->n; i++) {
    const PetscScalar di = op->unit ? (PetscScalar)1 : (PetscScalar)1 / op->idiag[i];
    PetscScalar       s  = di * x[i];
    PetscReal         rs = PetscAbsScalar(di);
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
      s += op->ra[e] * x[op->rj[e]];
      rs += PetscAbsScalar(op->ra[e]);
    }
    r  = PetscMax(r, PetscAbsScalar(b[i] - s));
    nt = PetscMax(nt, rs);
    nx = PetscMax(nx, PetscAbsScalar(x[i]));
    nb = PetscMax(nb, PetscAbsScalar(b[i]));
  }
  if (PetscIsInfOrNanReal(r) || PetscIsInfOrNanReal(nt * nx + nb)) return PETSC_INFINITY;
  return nt * nx + nb > 0 ? r / (nt * nx + nb) : 0;
}

/* the path the solves fall back to: the entry's fallback when registered with an executor on this backend, else its fallback_last */
static PetscErrorCode SpTrsvPinvFallbackPath(SpTrsvSolver s, SpTrsvPath *path)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvPathGetRelated(SpTrsvPath_pinv.fallback, &SpTrsvPath_pinv, s->backend->slot, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPinvValuesCreate(SpTrsvSolver s, SpTrsvPinvValues **values)
{
  const SpTrsvPinvSchedule *ps = (const SpTrsvPinvSchedule *)s->plan->data;
  const PetscInt            n  = s->op.n;
  SpTrsvPinvValues         *v;

  PetscFunctionBegin;
  PetscCall(PetscNew(&v));
  PetscCall(PetscMalloc1(ps->nnz + 1, &v->val));
  PetscCall(PetscMalloc5(n + 1, &v->wx, n + 1, &v->wb, n + 1, &v->xr, n + 1, &v->br, n + 1, &v->xc));
  *values = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvPinvValuesDestroy(SpTrsvPinvValues **values)
{
  SpTrsvPinvValues *v = *values;

  PetscFunctionBegin;
  if (!v) PetscFunctionReturn(PETSC_SUCCESS);
  if (v->fallback) PetscCall(v->fallback->ops->destroy(&v->fallback));
  PetscCall(SpTrsvPinvNumericScheduleDestroy(&v->sched));
  PetscCall(PetscFree(v->val));
  PetscCall(PetscFree5(v->wx, v->wb, v->xr, v->br, v->xc));
  PetscCall(PetscFree(*values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPinvValuesCompute - the numeric phase of either executor: M's values from op(T)'s, then the stability check
  and the fallback decision (see the top of this file); the caller uploads v->val when the partitioned inverse is used
*/
PetscErrorCode SpTrsvPinvValuesCompute(SpTrsvSolver s, SpTrsvPinvValues *v)
{
  const SpTrsvOp     *op = &s->op;
  SpTrsvPlan          plan = s->plan;
  SpTrsvPinvSchedule *ps   = (SpTrsvPinvSchedule *)plan->data;
  SpTrsvPinvStatus   *st   = &ps->status;
  const PetscInt      n    = op->n;
  unsigned long long  seed = 0x9e3779b97f4a7c15ULL;
  PetscBool           fallback;
  SpTrsvPath          fbpath;
  PetscInt            nthreads = ((const SpTrsvPinvOptions *)s->own)->pinv_threads;

  PetscFunctionBegin;
  if (nthreads <= 0) PetscCall(SpTrsvPinvThreadsDefault(&nthreads));
  PetscCall(SpTrsvPinvNumeric(op, plan, nthreads, v));
  st->nthreads     = v->nthreads_used;
  st->numeric_time = (PetscReal)v->numeric_time;
  SpTrsvPinvNumericScheduleGetInfo(v->nthreads_used > 1 ? v->sched : NULL, &st->nseg, &st->nparallel, &st->nheavy);
  /* the check: b = op(T) x_r, x_r uniform in [-1, 1] (a 64-bit linear congruential generator, fixed seed) */
  for (PetscInt i = 0; i < n; i++) {
    seed     = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    v->xr[i] = (PetscScalar)(2.0 * (double)(seed >> 11) * (1.0 / 9007199254740992.0) - 1.0);
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar sum = op->unit ? v->xr[i] : v->xr[i] / op->idiag[i];
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) sum += op->ra[e] * v->xr[op->rj[e]];
    v->br[i] = sum;
  }
  PetscCall(SpTrsvPinvApplyHost(plan, v->val, v->br, v->xc));
  st->berr = SpTrsvPinvBackwardError(op, v->br, v->xc);
  for (PetscInt k = 0; k < n; k++) { /* substitution in plan order (a topological order) */
    const PetscInt i   = plan->order[k];
    PetscScalar    sum = v->br[i];
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) sum -= op->ra[e] * v->xc[op->rj[e]];
    v->xc[i] = op->unit ? sum : sum * op->idiag[i];
  }
  st->berr_subst = SpTrsvPinvBackwardError(op, v->br, v->xc);
  st->checked    = PETSC_TRUE;
  st->nchecks++;
  fallback = (PetscBool)(!(st->berr <= ps->tol) && !PetscIsInfOrNanReal(st->berr_subst));
  PetscCall(SpTrsvPinvFallbackPath(s, &fbpath));
  st->fallback_path = fbpath->solvertype;
  if (fallback) {
    st->nfallbacks++;
    PetscCall(PetscInfo(NULL, "sptrsv_pinv: backward error %g of the partitioned inverse of a %" PetscInt_FMT "-row %s triangle exceeds -%smat_sptrsv_pinv_tol %g (substitution: %g): its solves fall back to %s\n", (double)st->berr, n, op->lower ? "lower" : "upper", s->opts.prefix, (double)ps->tol, (double)st->berr_subst, fbpath->solvertype));
    if (!v->fallback) PetscCall(s->ops->create(s->tri, s->transpose, s->format, fbpath, s->backend, &s->opts, &v->fallback));
  } else {
    if (v->fallback) PetscCall(PetscInfo(NULL, "sptrsv_pinv: backward error %g within -%smat_sptrsv_pinv_tol %g again: the partitioned inverse is used\n", (double)st->berr, s->opts.prefix, (double)ps->tol));
    PetscCall(s->ops->destroy(&v->fallback));
  }
  st->fallback = fallback;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the host executor -------------------------------------------------------------------------- */
static PetscErrorCode SpTrsvHostPinvSetup(SpTrsvSolver s)
{
  SpTrsvPinvValues *v;

  PetscFunctionBegin;
  PetscCall(SpTrsvPinvScheduleCheck(&s->op, s->plan, ((const SpTrsvPinvOptions *)s->own)->fuse_passes));
  PetscCall(SpTrsvPinvValuesCreate(s, &v));
  s->bdata = v;
  if (!s->tri->values_unset) PetscCall(SpTrsvPinvValuesCompute(s, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostPinvUpdateValues(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvPinvValuesCompute(s, (SpTrsvPinvValues *)s->bdata));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostPinvSolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  SpTrsvPinvValues *v = (SpTrsvPinvValues *)s->bdata;

  PetscFunctionBegin;
  if (v->fallback) PetscCall(v->fallback->ops->apply(v->fallback, b, x));
  else PetscCall(SpTrsvPinvApplyHost(s->plan, v->val, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostPinvDestroy(SpTrsvSolver s)
{
  PetscFunctionBegin;
  PetscCall(SpTrsvPinvValuesDestroy((SpTrsvPinvValues **)&s->bdata));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecHost_pinv = {SpTrsvHostPinvSetup, SpTrsvHostPinvUpdateValues, SpTrsvHostPinvSolve, NULL, SpTrsvHostPinvDestroy, NULL};

/* the partitioned inverse's options, read with the factor's prefix */
static PetscErrorCode SpTrsvOptionsSet_pinv(SpTrsvOptionItems PetscOptionsObject, SpTrsvPathOptions *popts, void *own)
{
  SpTrsvPinvOptions *opts = (SpTrsvPinvOptions *)own;
  const char *pre = PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "";
  PetscEnum   parts = (PetscEnum)opts->pinv_parts;
  PetscBool   set   = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsEnum("-mat_sptrsv_pinv_parts", "Parts of the partitioned inverse: unions of whole (group) levels, or runs of rows (scalar greedy)", "MatSolverType sptrsv_pinv", SpTrsvPinvPartsNames, parts, &parts, NULL));
  opts->pinv_parts = (PetscInt)parts;
  PetscCall(PetscOptionsReal("-mat_sptrsv_pinv_fill", "A part's inverse-applied block holds at most this many times the substitution's entries (1: no fill)", "MatSolverType sptrsv_pinv", opts->pinv_fill, &opts->pinv_fill, NULL));
  PetscCheck(opts->pinv_fill >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_pinv_fill must be >= 1, got %g", pre, (double)opts->pinv_fill);
  PetscCall(PetscOptionsReal("-mat_sptrsv_pinv_tol", "Largest backward error of the partitioned inverse at the numeric phase; above it the solves fall back to sptrsv_supernodal (else sptrsv_level); the automatic choice sptrsv uses 100 eps unless this is given", "MatSolverType sptrsv_pinv", opts->pinv_tol, &opts->pinv_tol, &set));
  if (set) opts->pinv_tol_set = PETSC_TRUE;
  PetscCheck(opts->pinv_tol > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_pinv_tol must be > 0, got %g", pre, (double)opts->pinv_tol);
  PetscCall(PetscOptionsInt("-mat_sptrsv_pinv_threads", "Host threads of the numeric phase (M's values); 0: the processors of this node shared among the MPI processes", "MatSolverType sptrsv_pinv", opts->pinv_threads, &opts->pinv_threads, NULL));
  PetscCheck(opts->pinv_threads >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_pinv_threads must be >= 0, got %" PetscInt_FMT, pre, opts->pinv_threads);
  PetscCall(PetscOptionsBool("-mat_sptrsv_graph", "CUDA: replay each solve's launches as a CUDA graph", "MatSolverType sptrsv_pinv", popts->use_graph, &popts->use_graph, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_fuse_passes", "CUDA: run a part in one block (fused with its small neighbours) when it takes at most this many passes of the block", "MatSolverType sptrsv_pinv", opts->fuse_passes, &opts->fuse_passes, NULL));
  PetscCheck(opts->fuse_passes >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_fuse_passes must be >= 1, got %" PetscInt_FMT, pre, opts->fuse_passes);
  PetscCall(PetscOptionsReal("-mat_sptrsv_pinv_launch_us", "The least time of one launch of a solve, microseconds (negative: the backend's, 2.3 on the GPU, 0 on the host): a build of the learning choice whose launches alone take longer than the path in place is refused at its analysis", "MatSolverType sptrsv_pinv", opts->launch_us, &opts->launch_us, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the partitioned inverse's defaults: parts of whole levels, no fill, a backward error of 1000 eps at most, the node's
   processors for the numeric phase, one pass per fused part */
static PetscErrorCode SpTrsvOptionsDefault_pinv(void *own)
{
  SpTrsvPinvOptions *o = (SpTrsvPinvOptions *)own;

  PetscFunctionBegin;
  o->fuse_passes  = 1;
  o->pinv_parts   = SPTRSV_PINV_PARTS_LEVELS;
  o->pinv_fill    = 1.0;
  o->pinv_tol     = 1000 * PETSC_MACHINE_EPSILON;
  o->pinv_threads = 0;
  o->launch_us    = -1; /* the backend's (SpTrsvOptionsBackend_pinv) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the floor of a launch: the backend's unless given */
static PetscErrorCode SpTrsvOptionsBackend_pinv(SpTrsvExecSlot slot, void *own)
{
  SpTrsvPinvOptions *o = (SpTrsvPinvOptions *)own;

  PetscFunctionBegin;
  if (o->launch_us < 0) o->launch_us = slot == SPTRSV_EXEC_CUDA ? SPTRSV_PINV_LAUNCH_US_CUDA : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvAutoVariant_pinv - the cost-model variants of the partitioned inverse: "" (the defaults, fill 1) and "fillF" (fill
  limit F >= 1): whether variant is one of them that the user's options own allow (-mat_sptrsv_pinv_fill left at 1 or naming
  the same fill; own NULL: any), and its options (the fill limit) into set when set is given
*/
static PetscBool SpTrsvAutoVariant_pinv(const char *variant, const void *own, void *set)
{
  const SpTrsvPinvOptions *o = (const SpTrsvPinvOptions *)own;
  double                   f = 1.0;
  char                     c;

  if (variant && variant[0] && (sscanf(variant, "fill%lf%c", &f, &c) != 1 || !(f >= 1.0))) return PETSC_FALSE;
  if (set) ((SpTrsvPinvOptions *)set)->pinv_fill = (PetscReal)f;
  return (PetscBool)(!o || o->pinv_fill == 1.0 || o->pinv_fill == (PetscReal)f);
}

/*
  SpTrsvAutoOptions_pinv - as a candidate of the automatic choice the partitioned inverse is held to SPTRSV_AUTO_PINV_TOL
  unless the user gave -mat_sptrsv_pinv_tol: the automatic choice trades setup for speed, not accuracy (the bar: 100
  machine epsilons of the native solve's backward error). With pinv's own default (1000 eps) it kept, on olm1000's LU, a U
  whose partitioned inverse (fill 4) had a backward error of 1.3e-13 against the substitution's 8.1e-17; now that triangle
  falls back and the measured check times the fallback.
*/
static PetscErrorCode SpTrsvAutoOptions_pinv(void *own)
{
  SpTrsvPinvOptions *o = (SpTrsvPinvOptions *)own;

  PetscFunctionBegin;
  if (!o->pinv_tol_set) o->pinv_tol = PetscMin(o->pinv_tol, SPTRSV_AUTO_PINV_TOL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* paper 002 (invertOff) and the no-fill partitioned inverse of Alvarado & Schreiber */
static PetscBool  cited_alvarado  = PETSC_FALSE;
static const char cite_alvarado[] = "@article{alvarado1993pinv,\n"
                                    "  author  = {Fernando L. Alvarado and Robert Schreiber},\n"
                                    "  title   = {Optimal Parallel Solution of Sparse Triangular Systems},\n"
                                    "  journal = {SIAM Journal on Scientific Computing},\n"
                                    "  volume  = {14},\n"
                                    "  number  = {2},\n"
                                    "  pages   = {446--460},\n"
                                    "  year    = {1993}\n}\n"
                                    "@inproceedings{yamazaki2020supernodal,\n"
                                    "  author    = {Ichitaro Yamazaki and Sivasankaran Rajamanickam and Nathan Ellingwood},\n"
                                    "  title     = {Performance Portable Supernode-based Sparse Triangular Solver for Manycore Architectures},\n"
                                    "  booktitle = {Proceedings of the 49th International Conference on Parallel Processing (ICPP)},\n"
                                    "  year      = {2020}\n}\n";

/* the path's registry entry: a triangle whose partitioned inverse fails its backward-error check falls back to the
   supernodal path (the level path where supernodal has no executor), with the options it was given */
const struct _n_SpTrsvPath SpTrsvPath_pinv = {
  .name                 = "pinv",
  .solvertype           = MATSOLVERSPTRSVPINV,
  .summary              = "partitioned inverse: the DAG cut into parts whose inverse-applied blocks have no fill, one sparse matrix-vector product per part, a backward-error check with a fallback (Alvarado & Schreiber; paper 002)",
  .ilu                  = PETSC_TRUE,
  .icc                  = PETSC_TRUE,
  .analyze              = SpTrsvAnalyze_pinv,
  .exec                 = {&SpTrsvExecHost_pinv, SPTRSV_CUDA_EXEC(pinv)},
  .options_size         = sizeof(SpTrsvPinvOptions),
  .options_default      = SpTrsvOptionsDefault_pinv,
  .options_set          = SpTrsvOptionsSet_pinv,
  .options_backend      = SpTrsvOptionsBackend_pinv,
  .citation             = cite_alvarado,
  .cited                = &cited_alvarado,
  .fallback             = "supernodal",
  .fallback_last        = "level",
  .auto_variant         = SpTrsvAutoVariant_pinv,
  .auto_options         = SpTrsvAutoOptions_pinv,
};
