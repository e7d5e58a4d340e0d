/*
   sptrsv_supernodal (paper 002, Yamazaki et al.): supernode-based level-set solves. The analysis groups the lines
   (rows: pull; columns: push) of op(T) into supernodes (src/mat/analysis/supernode.c: detection or the factorization's
   partition, merging), stores each as a dense diagonal block and a dense off-diagonal block over the union of its
   lines' outside indices (explicit zeros where the pattern has none), and schedules the supernodes by levels of the
   supernodal DAG (include/sptrsv/paths/supernodal.h). The numeric phase is a gather through the value maps (and, with
   -mat_sptrsv_invert_diag, the inversion of the diagonal blocks of the team supernodes). The host executor runs that
   schedule, summing each row in column order as PETSc does in pull mode; the CUDA executor
   (src/cuda/paths/supernodal/supernodal.cu) runs one launch per level, one block per supernode, and cuBLAS for the few wide
   supernodes near the root. A triangle whose widest supernode is narrower than -mat_sptrsv_supernode_min_width
   (ILU(0)/ILU(1) factors of ordinary sparse matrices: width about 1) is not built into blocks: both executors forward it
   to a nested solver of sptrsv_syncfree (SpTrsvSupernodalDelegateSetup).
*/
#include <sptrsv/paths/supernodal.h>
#include <sptrsv/host_rows.h>
#include <sptrsv/registry.h>
#include <petsctime.h>

static const char *const SpTrsvSupernodeModes[]  = {"auto", "push", "pull", "SpTrsvSupernodeMode", "SPTRSV_SUPERNODE_MODE_", NULL};
static const char *const SpTrsvSupernodeSplits[] = {"auto", "never", "always", "SpTrsvSupernodeSplit", "SPTRSV_SUPERNODE_SPLIT_", NULL};

static PetscErrorCode SpTrsvSupernodalScheduleDestroy(SpTrsvPlan plan)
{
  SpTrsvSupernodalSchedule *ss = (SpTrsvSupernodalSchedule *)plan->data;

  PetscFunctionBegin;
  if (ss && ss->delegated) PetscCall(PetscFree(ss->super)); /* the partition only */
  else if (ss) {
    PetscCall(PetscFree4(ss->super, ss->sorder, ss->slevptr, ss->nteam));
    PetscCall(PetscFree(ss->uptr));
    PetscCall(PetscFree(ss->uidx));
    PetscCall(PetscFree2(ss->dptr, ss->optr));
    PetscCall(PetscFree2(ss->dmap, ss->omap));
    PetscCall(PetscFree2(ss->block, ss->wmax));
    PetscCall(PetscFree(ss->nsplit));
    PetscCall(PetscFree(ss->fuse));
    PetscCall(PetscFree2(ss->tlev, ss->task));
  }
  PetscCall(PetscFree(plan->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* stored scalars (diagonal blocks, their inverses where used, off-diagonal blocks) and 32-bit indices of the schedule */
static PetscLogDouble SpTrsvSupernodalBytes(const SpTrsvSupernodalSchedule *ss)
{
  PetscLogDouble b = (PetscLogDouble)(ss->dptr[ss->ns] * (ss->invert ? 2 : 1) + ss->optr[ss->ns]) * sizeof(PetscScalar);
  return b + (PetscLogDouble)(4 * ss->ns + ss->uptr[ss->ns]) * sizeof(int) + 2.0 * ss->ns * sizeof(PetscInt64);
}

/* the partition's line of -ksp_view */
static PetscErrorCode SpTrsvSupernodalPartitionView(const SpTrsvSupernodalSchedule *ss, PetscViewer viewer)
{
  PetscFunctionBegin;
  char relax[64];

  PetscCall(PetscSNPrintf(relax, sizeof(relax), "relaxation %g%s", (double)ss->relax, ss->relax_auto ? " (auto)" : ""));
  if (ss->from_hint) PetscCall(PetscViewerASCIIPrintf(viewer, "partition: the factorization's %" PetscInt_FMT " supernodes, %" PetscInt_FMT " split where the diagonal block is not dense; merged %" PetscInt_FMT " (same structure), %" PetscInt_FMT " (relaxed); %s\n", ss->fig.ns_hint, ss->fig.hint_split, ss->fig.nmerged, ss->fig.nrelaxed, relax));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "partition: %" PetscInt_FMT " exact supernodes detected; merged %" PetscInt_FMT " (same structure), %" PetscInt_FMT " (relaxed); %s\n", ss->fig.ns_exact, ss->fig.nmerged, ss->fig.nrelaxed, relax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a delegated plan: the partition, the decision, and the nested solver's own view once an executor made it */
static PetscErrorCode SpTrsvSupernodalDelegatedView(SpTrsvPlan plan, PetscViewer viewer)
{
  const SpTrsvSupernodalSchedule *ss   = (const SpTrsvSupernodalSchedule *)plan->data;
  const double                    mean = ss->ns ? (double)plan->n / (double)ss->ns : 0.0;
  const char                     *name = ss->delegate ? ss->delegate->plan->path->name : SpTrsvPath_supernodal.delegate;
  PetscBool                       sf;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(name, SpTrsvPath_supernodal.delegate, &sf)); /* the sync-free schedule */
  PetscCall(PetscViewerASCIIPrintf(viewer, "supernodal: %s, %" PetscInt_FMT " supernodes, width mean %.2f max %" PetscInt_FMT "\n", ss->push ? "push (columns)" : "pull (rows)", ss->ns, mean, ss->max_w));
  PetscCall(SpTrsvSupernodalPartitionView(ss, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "supernodes too narrow (widest %" PetscInt_FMT " < -%smat_sptrsv_supernode_min_width %" PetscInt_FMT "): solved by the %s schedule (sptrsv_%s)\n", ss->max_w, plan->prefix, ss->min_width, sf ? "sync-free" : name, name));
  if (ss->delegate) {
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(SpTrsvPlanView(ss->delegate->plan, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvSupernodalScheduleView(SpTrsvPlan plan, PetscViewer viewer)
{
  SpTrsvSupernodalSchedule *ss = (SpTrsvSupernodalSchedule *)plan->data;
  PetscInt64                stored;

  PetscFunctionBegin;
  if (ss->delegated) {
    PetscCall(SpTrsvSupernodalDelegatedView(plan, viewer));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  stored = ss->dptr[ss->ns] + ss->optr[ss->ns];
  PetscCall(PetscViewerASCIIPrintf(viewer, "supernodal: %s, %" PetscInt_FMT " supernodes, width mean %.2f max %" PetscInt_FMT ", %" PetscInt_FMT " levels of the supernodal DAG (at most %" PetscInt_FMT " supernodes in one)\n", ss->push ? "push (columns)" : "pull (rows)", ss->ns, ss->ns ? (double)plan->n / (double)ss->ns : 0.0, ss->max_w, ss->nlevels, ss->max_level_sn));
  PetscCall(SpTrsvSupernodalPartitionView(ss, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "stored entries %" PetscInt64_FMT ", explicit zeros added %" PetscInt64_FMT " (%.1f%%), bytes %.4g; diagonal blocks %s\n", stored, ss->nzeros, stored ? 100.0 * (double)ss->nzeros / (double)stored : 0.0, SpTrsvSupernodalBytes(ss), ss->invert ? (ss->invert_auto ? "inverted (GEMV) where well conditioned" : "inverted (GEMV)") : "solved (TRSV)"));
  PetscCall(SpTrsvSupernodeInvertCheckView(&ss->icheck, (PetscBool)(ss->invert && ss->invert_auto), ss->invert_cond, plan->prefix, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA: %" PetscInt_FMT " supernodes through cuBLAS (widest %" PetscInt_FMT "), %" PetscInt_FMT " split over many blocks (%" PetscInt_FMT " levels, %" PetscInt_FMT " tasks), the rest one block each\n", ss->ncublas, ss->max_cublas_w, ss->nsplit_sn, ss->nsplit_levels, ss->tlev[2 * ss->nlevels]));
  if (ss->nfused_runs) PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA: %" PetscInt_FMT " small levels fused into %" PetscInt_FMT " single-block launches\n", ss->nfused_levels, ss->nfused_runs));
  {
    PetscViewerFormat fmt;
    PetscCall(PetscViewerGetFormat(viewer, &fmt));
    PetscCall(SpTrsvSupernodalModelView(ss, plan->prefix, (PetscBool)(fmt == PETSC_VIEWER_ASCII_INFO_DETAIL), viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the value maps of supernode K (see SpTrsvSupernodalSchedule); pos: a work array of n entries */
static void SpTrsvSupernodalMaps(const SpTrsvSupernodeLines *l, SpTrsvSupernodalSchedule *ss, PetscInt K, PetscInt *pos)
{
  const PetscInt s = ss->super[K], e = ss->super[K + 1], w = e - s, u0 = ss->uptr[K], m = ss->uptr[K + 1] - u0;
  PetscInt      *dm = ss->dmap + ss->dptr[K], *om = ss->omap + ss->optr[K];

  for (PetscInt q = 0; q < w * w; q++) dm[q] = SPTRSV_SUPERNODE_ZERO;
  for (PetscInt q = 0; q < w * m; q++) om[q] = SPTRSV_SUPERNODE_ZERO;
  for (PetscInt i = 0; i < w; i++) dm[i + i * w] = SPTRSV_SUPERNODE_DIAG;
  for (PetscInt c = 0; c < m; c++) pos[ss->uidx[u0 + c]] = c;
  for (PetscInt t = s; t < e; t++)
    for (PetscInt p = l->ptr[t]; p < l->ptr[t + 1]; p++) {
      const PetscInt j = l->idx[p], v = l->map ? l->map[p] : p;
      if (j >= s && j < e) {
        if (ss->push) dm[(j - s) + (t - s) * w] = v; /* line t is column t of op(T), j its row */
        else dm[(t - s) + (j - s) * w] = v;
      } else om[(t - s) * m + pos[j]] = v;
    }
}

/*
  SpTrsvSupernodalChoose - the kind of every supernode (key[K] = 3 slev[K] + kind: 0 team block, 1 split, 2 cuBLAS).
  Without the inverted diagonal, or with -mat_sptrsv_supernode_split never: cuBLAS for supernodes wider than a team
  block may be, or at least cublas_width wide in a level with few such supernodes; team blocks otherwise. With the
  inverted diagonal: cuBLAS only for supernodes too wide to invert; the others of a level are split when the level has
  a supernode too wide for a team block, with split always, or (auto) when the cost model predicts the split level
  faster than the team launch
*/
static PetscErrorCode SpTrsvSupernodalChoose(SpTrsvSupernodalSchedule *ss, const PetscInt *slev, PetscInt *key)
{
  const PetscInt ns = ss->ns, nl = ss->nlevels;
  PetscInt      *lptr, *list, *wide;

  PetscFunctionBegin;
  PetscCall(PetscCalloc3(nl + 2, &lptr, ns + 1, &list, nl + 1, &wide));
  for (PetscInt K = 0; K < ns; K++) lptr[slev[K] + 2]++;
  for (PetscInt k = 0; k < nl; k++) lptr[k + 2] += lptr[k + 1];
  for (PetscInt K = 0; K < ns; K++) list[lptr[slev[K] + 1]++] = K; /* level l: list[lptr[l] .. lptr[l + 1]) */
  for (PetscInt K = 0; K < ns; K++)
    if (ss->super[K + 1] - ss->super[K] >= ss->cublas_width) wide[slev[K]]++;
  for (PetscInt lv = 0; lv < nl; lv++) {
    PetscInt  k1 = lptr[lv];
    PetscBool split = PETSC_FALSE, toowide = PETSC_FALSE;
    for (PetscInt k = lptr[lv]; k < lptr[lv + 1]; k++) { /* cuBLAS ones to the end of the level's list */
      const PetscInt K = list[k], w = ss->super[K + 1] - ss->super[K];
      PetscBool      cub;
      if (ss->invert && ss->split_mode != SPTRSV_SUPERNODE_SPLIT_NEVER) cub = (PetscBool)(w > SPTRSV_SUPERNODE_INVERT_MAX_WIDTH);
      else cub = (PetscBool)(w > SPTRSV_SUPERNODE_TEAM_MAX_WIDTH || (w >= ss->cublas_width && wide[lv] <= SPTRSV_SUPERNODE_CUBLAS_PER_LEVEL));
      key[K] = 3 * lv + (cub ? 2 : 0);
      if (!cub) {
        list[k]    = list[k1];
        list[k1++] = K;
        toowide    = (PetscBool)(toowide || w > SPTRSV_SUPERNODE_TEAM_MAX_WIDTH);
      }
    }
    if (ss->invert && ss->split_mode != SPTRSV_SUPERNODE_SPLIT_NEVER && k1 > lptr[lv]) {
      if (ss->split_mode == SPTRSV_SUPERNODE_SPLIT_ALWAYS || toowide) split = PETSC_TRUE;
      else {
        SpTrsvSupernodeLevelModel e;
        SpTrsvSupernodeLevelEstimate(ss, list, lptr[lv], k1, PETSC_TRUE, &e);
        split = (PetscBool)(e.us_split < e.us_team);
      }
    }
    if (split) {
      for (PetscInt k = lptr[lv]; k < k1; k++) key[list[k]] += 1;
      ss->nsplit_levels++;
    }
  }
  PetscCall(PetscFree3(lptr, list, wide));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSupernodalTasks - the split tasks of every level (see SpTrsvSupernodalSchedule): rows per task from the level's
  total width (SpTrsvSupernodeSplitRows); push's second launch in tiles of SPTRSV_SUPERNODE_SPLIT_PUSH_ROWS rows by
  SPTRSV_SUPERNODE_SPLIT_COLS outside columns (one tile per row range when m = 0: it writes x_K)
*/
static PetscErrorCode SpTrsvSupernodalTasks(SpTrsvSupernodalSchedule *ss)
{
  const PetscInt nl = ss->nlevels, C = SPTRSV_SUPERNODE_SPLIT_COLS, RB = SPTRSV_SUPERNODE_SPLIT_PUSH_ROWS;
  PetscInt64     nt = 0;
  PetscInt       q  = 0;

  PetscFunctionBegin;
  for (PetscInt lv = 0; lv < nl; lv++) {
    const PetscInt k0 = ss->slevptr[lv] + ss->nteam[lv], k1 = k0 + ss->nsplit[lv], R = SpTrsvSupernodeSplitRows(ss, ss->sorder, k0, k1);
    for (PetscInt k = k0; k < k1; k++) {
      const PetscInt K = ss->sorder[k], w = ss->super[K + 1] - ss->super[K], m = ss->uptr[K + 1] - ss->uptr[K];
      nt += 2 * ((w + R - 1) / R);
      if (ss->push) nt += ((w + RB - 1) / RB) * PetscMax(1, (m + C - 1) / C) - (w + R - 1) / R;
    }
  }
  PetscCheck(nt < PETSC_INT_MAX / SPTRSV_SUPERNODE_TASK, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_supernodal: %" PetscInt64_FMT " split tasks do not fit PetscInt indices", nt);
  PetscCall(PetscMalloc2(2 * nl + 1, &ss->tlev, SPTRSV_SUPERNODE_TASK * nt + 1, &ss->task));
  for (PetscInt lv = 0; lv < nl; lv++) {
    const PetscInt k0 = ss->slevptr[lv] + ss->nteam[lv], k1 = k0 + ss->nsplit[lv], R = SpTrsvSupernodeSplitRows(ss, ss->sorder, k0, k1);
    for (PetscInt phase = 0; phase < 2; phase++) {
      ss->tlev[2 * lv + phase] = q;
      for (PetscInt k = k0; k < k1; k++) {
        const PetscInt K = ss->sorder[k], w = ss->super[K + 1] - ss->super[K], m = ss->uptr[K + 1] - ss->uptr[K];
        if (phase == 1 && ss->push) {
          for (PetscInt r0 = 0; r0 < w; r0 += RB)
            for (PetscInt c0 = 0; c0 < PetscMax(m, 1); c0 += C, q++) {
              PetscInt *t = ss->task + SPTRSV_SUPERNODE_TASK * q;
              t[0] = K, t[1] = r0, t[2] = PetscMin(w, r0 + RB), t[3] = c0;
            }
        } else
          for (PetscInt r0 = 0; r0 < w; r0 += R, q++) {
            PetscInt *t = ss->task + SPTRSV_SUPERNODE_TASK * q;
            t[0] = K, t[1] = r0, t[2] = PetscMin(w, r0 + R), t[3] = 0;
          }
      }
    }
  }
  ss->tlev[2 * nl] = q;
  PetscCheck(q == nt, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sptrsv_supernodal: %" PetscInt_FMT " split tasks made, %" PetscInt64_FMT " counted", q, nt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSupernodalBuild - levels of the supernodal DAG, the cuBLAS choice, the run order, plan->order, the storage
  offsets and value maps, the launch geometry and the figures
*/
static PetscErrorCode SpTrsvSupernodalBuild(const SpTrsvOp *op, const SpTrsvSupernodeLines *l, SpTrsvPlan p, SpTrsvSupernodalSchedule *ss)
{
  const PetscInt ns = ss->ns;
  PetscInt      *dptr, *didx, *slev, *key, *cnt, *pos, nkey;
  PetscBool     *cub;

  PetscFunctionBegin;
  PetscCall(SpTrsvSupernodeUnion(l, ns, ss->super, &ss->uptr, &ss->uidx));
  PetscCall(SpTrsvSupernodeDAG(l, ss->push, ns, ss->super, ss->uptr, ss->uidx, &dptr, &didx));
  PetscCall(PetscMalloc3(ns + 1, &slev, ns + 1, &key, ns + 1, &cub));
  PetscCall(SpTrsvLevelsCompute(ns, dptr, didx, op->lower, slev, &ss->nlevels));
  if (!ns) ss->nlevels = 0;
  PetscCall(PetscFree(dptr));
  PetscCall(PetscFree(didx));
  /* the kind of each supernode: key = 3 level + 0 (team), 1 (split), 2 (cuBLAS) */
  PetscCall(SpTrsvSupernodalChoose(ss, slev, key));
  /* run order: a stable counting sort by (level, kind) */
  nkey = 3 * ss->nlevels;
  PetscCall(PetscCalloc1(nkey + 1, &cnt));
  for (PetscInt K = 0; K < ns; K++) cnt[key[K] + 1]++;
  for (PetscInt k = 0; k < nkey; k++) cnt[k + 1] += cnt[k];
  for (PetscInt l2 = 0; l2 <= ss->nlevels; l2++) ss->slevptr[l2] = cnt[3 * l2];
  for (PetscInt l2 = 0; l2 < ss->nlevels; l2++) {
    ss->nteam[l2]  = cnt[3 * l2 + 1] - cnt[3 * l2];
    ss->nsplit[l2] = cnt[3 * l2 + 2] - cnt[3 * l2 + 1];
  }
  for (PetscInt K = 0; K < ns; K++) {
    cub[K] = (PetscBool)(key[K] % 3 == 2);
    ss->ncublas += cub[K] ? 1 : 0;
    ss->nsplit_sn += key[K] % 3 == 1 ? 1 : 0;
  }
  for (PetscInt K = 0; K < ns; K++) ss->sorder[cnt[key[K]]++] = K;
  PetscCall(PetscFree(cnt));
  /* plan->order: the rows of the supernodes in run order */
  for (PetscInt k = 0, q = 0; k < ns; k++)
    for (PetscInt t = ss->super[ss->sorder[k]]; t < ss->super[ss->sorder[k] + 1]; t++) p->order[q++] = t;
  /* storage and value maps */
  PetscCall(PetscMalloc2(ns + 1, &ss->dptr, ns + 1, &ss->optr));
  ss->dptr[0] = ss->optr[0] = 0;
  ss->max_w = ss->max_m = ss->max_cublas_w = ss->max_cublas_m = 0;
  for (PetscInt K = 0; K < ns; K++) {
    const PetscInt64 w = ss->super[K + 1] - ss->super[K], m = ss->uptr[K + 1] - ss->uptr[K];
    ss->dptr[K + 1]    = ss->dptr[K] + w * w;
    ss->optr[K + 1]    = ss->optr[K] + w * m;
    ss->max_w          = PetscMax(ss->max_w, (PetscInt)w);
    ss->max_m          = PetscMax(ss->max_m, (PetscInt)m);
    if (cub[K]) {
      ss->max_cublas_w = PetscMax(ss->max_cublas_w, (PetscInt)w);
      ss->max_cublas_m = PetscMax(ss->max_cublas_m, (PetscInt)m);
    }
  }
  PetscCheck(ss->dptr[ns] < PETSC_INT_MAX && ss->optr[ns] < PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_supernodal: %" PetscInt64_FMT " + %" PetscInt64_FMT " stored block entries do not fit PetscInt indices (reduce -mat_sptrsv_supernode_relax or turn off -mat_sptrsv_merge)", ss->dptr[ns], ss->optr[ns]);
  PetscCall(PetscMalloc2(ss->dptr[ns] + 1, &ss->dmap, ss->optr[ns] + 1, &ss->omap));
  PetscCall(PetscMalloc1(op->n + 1, &pos));
  for (PetscInt K = 0; K < ns; K++) SpTrsvSupernodalMaps(l, ss, K, pos);
  PetscCall(PetscFree(pos));
  /* explicit zeros: stored off-diagonal entries (strict triangle of D, O) minus the entries of op(T) */
  ss->nzeros = -(PetscInt64)op->nnz;
  for (PetscInt K = 0; K < ns; K++) {
    const PetscInt64 w = ss->super[K + 1] - ss->super[K];
    ss->nzeros += w * (w - 1) / 2 + (ss->optr[K + 1] - ss->optr[K]);
  }
  /* launch geometry per level, over its team supernodes: pull, a warp per row of the widest (at most 8); push, a thread
     per index of the widest diagonal block or off-diagonal list (at most SPTRSV_SUPERNODE_BLOCK_MAX) */
  PetscCall(PetscMalloc2(ss->nlevels + 1, &ss->block, ss->nlevels + 1, &ss->wmax));
  ss->max_level_sn = 0;
  for (PetscInt lv = 0; lv < ss->nlevels; lv++) {
    PetscInt wm = 0, mm = 0;
    ss->max_level_sn = PetscMax(ss->max_level_sn, ss->slevptr[lv + 1] - ss->slevptr[lv]);
    for (PetscInt k = ss->slevptr[lv]; k < ss->slevptr[lv] + ss->nteam[lv]; k++) {
      const PetscInt K = ss->sorder[k];
      wm               = PetscMax(wm, ss->super[K + 1] - ss->super[K]);
      mm               = PetscMax(mm, ss->uptr[K + 1] - ss->uptr[K]);
    }
    ss->wmax[lv] = wm;
    if (ss->push) ss->block[lv] = (int)PetscMin((PetscInt)SPTRSV_SUPERNODE_BLOCK_MAX, PetscMax((PetscInt)32, (PetscMax(wm, mm) + 31) / 32 * 32));
    else ss->block[lv] = (int)(32 * PetscMin((PetscInt)(SPTRSV_SUPERNODE_BLOCK_MAX / 32), PetscMax((PetscInt)1, wm)));
  }
  PetscCall(PetscFree3(slev, key, cub));
  /* fused runs of small levels (the run's geometry: its largest) */
  PetscCall(PetscMalloc1(ss->nlevels + 1, &ss->fuse));
  for (PetscInt lv = 0; lv < ss->nlevels;) {
    PetscInt l1 = lv;
    while (l1 < ss->nlevels && SpTrsvSupernodeLevelFusable(ss, l1)) l1++;
    if (l1 - lv >= 2) {
      ss->fuse[lv] = l1 - lv;
      for (PetscInt k = lv + 1; k < l1; k++) {
        ss->fuse[k]   = 0;
        ss->block[lv] = PetscMax(ss->block[lv], ss->block[k]);
        ss->wmax[lv]  = PetscMax(ss->wmax[lv], ss->wmax[k]);
      }
      ss->nfused_runs++;
      ss->nfused_levels += l1 - lv;
      lv = l1;
    } else ss->fuse[lv++] = 1;
  }
  PetscCall(SpTrsvSupernodalTasks(ss));
  PetscCall(SpTrsvSupernodalModel(ss, NULL, &ss->model_us));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvAnalyze_supernodal(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvPathOptions *popts, const void *own, SpTrsvPlan *plan)
{
  const SpTrsvSupernodalOptions *opts = (const SpTrsvSupernodalOptions *)own;
  const char *prefix = popts->prefix;
  SpTrsvPlan                p;
  SpTrsvSupernodalSchedule *ss;
  SpTrsvSupernodeLines      l;
  PetscInt                 *super, ns;
  PetscLogDouble            t0, t1;

  PetscFunctionBegin;
  PetscCheck(format == SPTRSV_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_supernodal reads rows: the CSR format only (push or pull is -%smat_sptrsv_supernode_mode)", prefix);
  PetscCheck(opts->supernode_relax == SPTRSV_SUPERNODE_RELAX_AUTO || (opts->supernode_relax >= 0 && opts->supernode_relax < 1), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_supernode_relax must be in [0, 1) (or -1: auto), got %g", prefix, (double)opts->supernode_relax);
  PetscCheck(opts->invert_cond >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_invert_diag_cond must be >= 1, got %g", prefix, (double)opts->invert_cond);
  PetscCheck(opts->supernode_cublas_width >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_supernode_cublas_width must be >= 1, got %" PetscInt_FMT, prefix, opts->supernode_cublas_width);
  PetscCheck(opts->supernode_mode >= SPTRSV_SUPERNODE_MODE_AUTO && opts->supernode_mode <= SPTRSV_SUPERNODE_MODE_PULL, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_supernode_mode: unknown mode %" PetscInt_FMT, prefix, opts->supernode_mode);
  PetscCheck(opts->supernode_split >= SPTRSV_SUPERNODE_SPLIT_AUTO && opts->supernode_split <= SPTRSV_SUPERNODE_SPLIT_ALWAYS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_supernode_split: unknown value %" PetscInt_FMT, prefix, opts->supernode_split);
  PetscCheck(opts->supernode_min_width >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_supernode_min_width must be >= 0, got %" PetscInt_FMT, prefix, opts->supernode_min_width);
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPlanCreateLevelSets(op, &p)); /* the row-level figures of -ksp_view; the order is replaced (unless delegated) */
  PetscCall(PetscNew(&ss));
  p->data          = ss;
  p->destroydata   = SpTrsvSupernodalScheduleDestroy;
  p->view          = SpTrsvSupernodalScheduleView;
  ss->lower        = op->lower;
  ss->push         = opts->supernode_mode == SPTRSV_SUPERNODE_MODE_PUSH || (opts->supernode_mode == SPTRSV_SUPERNODE_MODE_AUTO && op->lower);
  ss->invert_cond  = opts->invert_cond;
  ss->split_mode   = opts->supernode_split;
  ss->cublas_width = opts->supernode_cublas_width;
  ss->from_hint    = (PetscBool)(op->nsuper > 0);
  PetscCall(SpTrsvSupernodeLinesCreate(op, ss->push, &l));
  PetscCall(SpTrsvSupernodeDetect(&l, op->nsuper, op->super, &ns, &super, &ss->fig));
  { /* the defaults chosen from the triangle (supernodal.h): a filled one (a wide exact supernode) is merged, relaxed and
       its well-conditioned blocks inverted; any other keeps exact supernodes and the substitution's arithmetic */
    PetscBool merge = opts->supernode_merge, filled;
    PetscInt  wexact = 0;
    for (PetscInt K = 0; K < ns; K++) wexact = PetscMax(wexact, super[K + 1] - super[K]);
    filled          = (PetscBool)(wexact >= SPTRSV_SUPERNODE_AUTO_WIDTH);
    ss->invert      = (PetscBool)(opts->invert_diag > 0 || (opts->invert_diag < 0 && filled));
    ss->invert_auto = (PetscBool)(opts->invert_diag < 0 && filled);
    ss->relax       = opts->supernode_relax;
    ss->relax_auto  = (PetscBool)(opts->supernode_relax == SPTRSV_SUPERNODE_RELAX_AUTO);
    if (ss->relax_auto) {
      ss->relax = filled ? SPTRSV_SUPERNODE_AUTO_RELAX : 0;
      merge     = (PetscBool)(merge || filled);
    }
    PetscCall(SpTrsvSupernodeMerge(&l, merge, ss->relax, &ns, super, &ss->fig));
  }
  ss->ns        = ns;
  ss->min_width = opts->supernode_min_width;
  for (PetscInt K = 0; K < ns; K++) ss->max_w = PetscMax(ss->max_w, super[K + 1] - super[K]);
  ss->delegated = (PetscBool)(ns > 0 && ss->max_w < opts->supernode_min_width); /* no supernode that wide */
  if (ss->delegated) { /* no blocks: the partition's figures, the row-level plan; the executors delegate to sync-free */
    ss->super = super;
    PetscCall(PetscInfo(NULL, "sptrsv_supernodal: %" PetscInt_FMT "-row %s triangle, %" PetscInt_FMT " supernodes, the widest %" PetscInt_FMT " < -%smat_sptrsv_supernode_min_width %" PetscInt_FMT ": no dense blocks, the executors solve it with the sync-free schedule\n", op->n, op->lower ? "lower" : "upper", ns, ss->max_w, prefix, ss->min_width));
    PetscCall(SpTrsvSupernodeLinesDestroy(&l));
    PetscCall(PetscTime(&t1));
    p->stats.analysis_time = t1 - t0;
    *plan                  = p;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscFree(p->levptr)); /* the order is by supernode level, not by row level */
  PetscCall(PetscMalloc4(ns + 1, &ss->super, ns + 1, &ss->sorder, op->n + 2, &ss->slevptr, op->n + 1, &ss->nteam));
  PetscCall(PetscMalloc1(op->n + 1, &ss->nsplit));
  PetscCall(PetscArraycpy(ss->super, super, ns + 1));
  PetscCall(PetscFree(super));
  PetscCall(SpTrsvSupernodalBuild(op, &l, p, ss));
  PetscCall(SpTrsvSupernodeLinesDestroy(&l));
  PetscCall(PetscTime(&t1));
  p->stats.analysis_time   = t1 - t0;
  p->stats.bytes_per_solve = SpTrsvSupernodalBytes(ss) + (PetscLogDouble)op->n * 2 * sizeof(PetscScalar);
  *plan                    = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- host executor: the plan's supernodes in run order, dense blocks gathered on the host ----

   Pull: each row of a supernode is summed in column order (lower: the outside indices, all left of the block, then the
   block's; upper: the block's, then the outside ones, all right of it), as PETSc's own solve sums it, explicit zeros
   adding nothing, then multiplied by its inverted diagonal: PETSc's residual histories to rounding. Push: x = b, then per
   supernode a column sweep of its diagonal block and the update of the rows of U_K. With the inverted diagonal (team
   and split supernodes: cuBLAS supernodes always solve) r_K = b_K - O x[U_K] (pull) then x_K = X r_K; how the GPU cuts
   a split supernode into tasks changes only the order of its additions. */
typedef struct {
  PetscScalar *D, *X, *O; /* dptr[ns], dptr[ns] (inverted), optr[ns] */
  PetscScalar *r;         /* max_w */
  PetscBool   *inv;       /* ns: this supernode uses X (at this numeric phase) */
  PetscBool   *invertible; /* ns: a team or split supernode of an inverted schedule */
  PetscReal   *kappa;     /* ns: invert_diag auto: kappa of each invertible block, -1 for the others */
} SpTrsvHostSupernodal;

static PetscErrorCode SpTrsvHostSupernodalNumeric(SpTrsvSolver s)
{
  const SpTrsvSupernodalSchedule *ss = (const SpTrsvSupernodalSchedule *)s->plan->data;
  SpTrsvHostSupernodal           *h  = (SpTrsvHostSupernodal *)s->bdata;
  const SpTrsvOp                 *op = &s->op;

  PetscFunctionBegin;
  if (s->nested) { /* delegated: the nested solver refreshes its own copy */
    PetscCall(s->nested->ops->update_values(s->nested));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt K = 0; K < ss->ns; K++) {
    const PetscInt s0 = ss->super[K], w = ss->super[K + 1] - s0;
    for (PetscInt64 q = ss->dptr[K]; q < ss->dptr[K + 1]; q++) {
      const PetscInt v = ss->dmap[q], i = s0 + (PetscInt)((q - ss->dptr[K]) % w);
      h->D[q]          = v >= 0 ? op->ra[v] : (v == SPTRSV_SUPERNODE_DIAG ? (op->unit ? 1.0 : op->idiag[i]) : 0.0);
    }
    for (PetscInt64 q = ss->optr[K]; q < ss->optr[K + 1]; q++) h->O[q] = ss->omap[q] >= 0 ? op->ra[ss->omap[q]] : 0.0;
    h->inv[K] = h->invertible[K];
    if (h->inv[K]) {
      for (PetscInt j = 0; j < w; j++) SpTrsvSupernodeInvertColumn(w, h->D + ss->dptr[K], h->X + ss->dptr[K], j, ss->lower);
      if (ss->invert_auto) {
        h->kappa[K] = SpTrsvSupernodeBlockCond(w, h->D + ss->dptr[K], h->X + ss->dptr[K], PETSC_FALSE);
        h->inv[K]   = (PetscBool)(h->kappa[K] <= ss->invert_cond);
      }
    }
  }
  if (ss->invert_auto) SpTrsvSupernodeInvertCheckRecord(&((SpTrsvSupernodalSchedule *)ss)->icheck, ss->invert_cond, ss->ns, h->kappa);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostSupernodalSetup(SpTrsvSolver s)
{
  const SpTrsvSupernodalSchedule *ss = (const SpTrsvSupernodalSchedule *)s->plan->data;
  SpTrsvHostSupernodal           *h;

  PetscFunctionBegin;
  PetscCheck(!s->rest, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_supernodal has no Gauss-Seidel sweeps");
  PetscCall(SpTrsvSupernodalScheduleCheck(&s->op, s->plan));
  if (ss->delegated) {
    PetscCall(SpTrsvSupernodalDelegateSetup(s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscNew(&h));
  s->bdata = h;
  PetscCall(PetscMalloc5(ss->dptr[ss->ns] + 1, &h->D, ss->invert ? ss->dptr[ss->ns] + 1 : 1, &h->X, ss->optr[ss->ns] + 1, &h->O, ss->max_w + 1, &h->r, ss->ns + 1, &h->inv));
  PetscCall(PetscMalloc2(ss->ns + 1, &h->invertible, ss->ns + 1, &h->kappa));
  for (PetscInt l = 0; l < ss->nlevels; l++)
    for (PetscInt k = ss->slevptr[l]; k < ss->slevptr[l + 1]; k++) {
      const PetscInt K = ss->sorder[k];
      h->invertible[K] = (PetscBool)(ss->invert && k < ss->slevptr[l] + ss->nteam[l] + ss->nsplit[l]);
      h->inv[K]        = h->invertible[K];
      h->kappa[K]      = -1;
    }
  if (!s->tri->values_unset) PetscCall(SpTrsvHostSupernodalNumeric(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one supernode, pull */
static void SpTrsvHostSupernodePull(const SpTrsvSupernodalSchedule *ss, const SpTrsvHostSupernodal *h, PetscInt K, const PetscScalar *b, PetscScalar *x)
{
  const PetscInt     s = ss->super[K], w = ss->super[K + 1] - s, m = ss->uptr[K + 1] - ss->uptr[K];
  const PetscInt    *U = ss->uidx + ss->uptr[K];
  const PetscScalar *D = h->D + ss->dptr[K], *O = h->O + ss->optr[K];

  if (h->inv[K]) {
    const PetscScalar *X = h->X + ss->dptr[K];
    for (PetscInt i = 0; i < w; i++) {
      PetscScalar v = b[s + i];
      for (PetscInt c = 0; c < m; c++) v -= O[i * m + c] * x[U[c]];
      h->r[i] = v;
    }
    for (PetscInt i = 0; i < w; i++) {
      PetscScalar v = 0;
      for (PetscInt j = 0; j < w; j++) v += X[i + j * w] * h->r[j];
      x[s + i] = v;
    }
  } else if (ss->lower)
    for (PetscInt i = 0; i < w; i++) {
      PetscScalar v = b[s + i];
      for (PetscInt c = 0; c < m; c++) v -= O[i * m + c] * x[U[c]];
      for (PetscInt j = 0; j < i; j++) v -= D[i + j * w] * x[s + j];
      x[s + i] = v * D[i + i * w];
    }
  else
    for (PetscInt i = w - 1; i >= 0; i--) {
      PetscScalar v = b[s + i];
      for (PetscInt j = i + 1; j < w; j++) v -= D[i + j * w] * x[s + j];
      for (PetscInt c = 0; c < m; c++) v -= O[i * m + c] * x[U[c]];
      x[s + i] = v * D[i + i * w];
    }
}

/* one supernode, push (x holds b minus the pushes of earlier levels) */
static void SpTrsvHostSupernodePush(const SpTrsvSupernodalSchedule *ss, const SpTrsvHostSupernodal *h, PetscInt K, PetscScalar *x)
{
  const PetscInt     s = ss->super[K], w = ss->super[K + 1] - s, m = ss->uptr[K + 1] - ss->uptr[K];
  const PetscInt    *U = ss->uidx + ss->uptr[K];
  const PetscScalar *D = h->D + ss->dptr[K], *O = h->O + ss->optr[K];

  if (h->inv[K]) {
    const PetscScalar *X = h->X + ss->dptr[K];
    for (PetscInt i = 0; i < w; i++) {
      PetscScalar v = 0;
      for (PetscInt j = 0; j < w; j++) v += X[i + j * w] * x[s + j];
      h->r[i] = v;
    }
    for (PetscInt i = 0; i < w; i++) x[s + i] = h->r[i];
  } else if (ss->lower)
    for (PetscInt j = 0; j < w; j++) {
      const PetscScalar xj = x[s + j] * D[j + j * w];
      x[s + j]             = xj;
      for (PetscInt i = j + 1; i < w; i++) x[s + i] -= D[i + j * w] * xj;
    }
  else
    for (PetscInt j = w - 1; j >= 0; j--) {
      const PetscScalar xj = x[s + j] * D[j + j * w];
      x[s + j]             = xj;
      for (PetscInt i = 0; i < j; i++) x[s + i] -= D[i + j * w] * xj;
    }
  for (PetscInt c = 0; c < m; c++) {
    PetscScalar v = 0;
    for (PetscInt t = 0; t < w; t++) v += O[t * m + c] * x[s + t];
    x[U[c]] -= v;
  }
}

static PetscErrorCode SpTrsvHostSupernodalSolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  const SpTrsvSupernodalSchedule *ss = (const SpTrsvSupernodalSchedule *)s->plan->data;
  const SpTrsvHostSupernodal     *h  = (const SpTrsvHostSupernodal *)s->bdata;

  PetscFunctionBegin;
  if (s->nested) {
    PetscCall(s->nested->ops->apply(s->nested, b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ss->push) PetscCall(PetscArraycpy(x, b, s->op.n));
  for (PetscInt k = 0; k < ss->ns; k++) { /* run order: level by level */
    if (ss->push) SpTrsvHostSupernodePush(ss, h, ss->sorder[k], x);
    else SpTrsvHostSupernodePull(ss, h, ss->sorder[k], b, x);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostSupernodalDestroy(SpTrsvSolver s)
{
  SpTrsvHostSupernodal *h = (SpTrsvHostSupernodal *)s->bdata;

  PetscFunctionBegin;
  PetscCall(SpTrsvSupernodalDelegateDestroy(s));
  if (h) {
    PetscCall(PetscFree5(h->D, h->X, h->O, h->r, h->inv));
    PetscCall(PetscFree2(h->invertible, h->kappa));
  }
  PetscCall(PetscFree(s->bdata));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSupernodalDelegateSetup - the setup of either executor for a delegated plan (no supernode as wide as
  -mat_sptrsv_supernode_min_width): s->nested, a solver of sptrsv_syncfree (sptrsv_level when sync-free has no
  executor on this backend) on the same triangle, orientation, format, backend and options; it takes the values itself
  (now, when they exist, and at every refresh the executor forwards), and the executor forwards the solves to it
*/
PetscErrorCode SpTrsvSupernodalDelegateSetup(SpTrsvSolver s)
{
  SpTrsvSupernodalSchedule *ss = (SpTrsvSupernodalSchedule *)s->plan->data;
  SpTrsvPath                path;

  PetscFunctionBegin;
  PetscCheck(ss->delegated && !s->nested, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sptrsv_supernodal: a nested solver for a plan that is not delegated, or a second one");
  PetscCall(SpTrsvPathGetRelated(SpTrsvPath_supernodal.delegate, &SpTrsvPath_supernodal, s->backend->slot, &path));
  PetscCall(PetscInfo(NULL, "sptrsv_supernodal: the solves of the %" PetscInt_FMT "-row %s triangle (%s backend) are forwarded to a nested %s solver\n", s->op.n, s->op.lower ? "lower" : "upper", s->backend->name, path->solvertype));
  PetscCall(s->ops->create(s->tri, s->transpose, s->format, path, s->backend, &s->opts, &s->nested));
  ss->delegate = s->nested;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvSupernodalDelegateDestroy - the nested solver of a delegated plan (none: nothing) */
PetscErrorCode SpTrsvSupernodalDelegateDestroy(SpTrsvSolver s)
{
  PetscFunctionBegin;
  if (s->plan && s->plan->data) ((SpTrsvSupernodalSchedule *)s->plan->data)->delegate = NULL;
  PetscCall(s->ops->destroy(&s->nested));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecHost_supernodal = {SpTrsvHostSupernodalSetup, SpTrsvHostSupernodalNumeric, SpTrsvHostSupernodalSolve, NULL, SpTrsvHostSupernodalDestroy, NULL};

/* the supernodal path's options: the defaults (mode and inversion chosen per triangle, exact supernodes merged by the
   automatic relaxation, cuBLAS from 256 columns, splits where the cost model predicts them faster, triangles without a
   supernode 16 wide, ILU factors, to the delegate) and its parser (inside the caller's PetscOptionsBegin/End, so with its
   prefix) */
static PetscErrorCode SpTrsvOptionsDefault_supernodal(void *own)
{
  SpTrsvSupernodalOptions *o = (SpTrsvSupernodalOptions *)own;

  PetscFunctionBegin;
  o->supernode_mode         = SPTRSV_SUPERNODE_MODE_AUTO;
  o->invert_diag            = -1;
  o->invert_cond            = SPTRSV_SUPERNODE_INVERT_COND;
  o->supernode_merge        = PETSC_FALSE;
  o->supernode_relax        = SPTRSV_SUPERNODE_RELAX_AUTO;
  o->supernode_cublas_width = SPTRSV_SUPERNODE_CUBLAS_WIDTH;
  o->supernode_split        = SPTRSV_SUPERNODE_SPLIT_AUTO;
  o->supernode_min_width    = 16;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvOptionsSet_supernodal(SpTrsvOptionItems PetscOptionsObject, SpTrsvPathOptions *popts, void *own)
{
  SpTrsvSupernodalOptions *opts = (SpTrsvSupernodalOptions *)own;
  PetscEnum                mode = (PetscEnum)opts->supernode_mode, split;
  const char *pre  = PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "";

  PetscFunctionBegin;
  PetscCall(PetscOptionsBool("-mat_sptrsv_graph", "CUDA: replay each solve's launches (one per supernodal level, cuBLAS calls) as a CUDA graph", "MatSolverType sptrsv_supernodal", popts->use_graph, &popts->use_graph, NULL));
  PetscCall(PetscOptionsEnum("-mat_sptrsv_supernode_mode", "Push (columns: solve a supernode, then update the rows it reaches; atomics on the GPU) or pull (rows: gather the solved x first); auto: push for a lower op(T), pull for an upper one", "MatSolverType sptrsv_supernodal", SpTrsvSupernodeModes, mode, &mode, NULL));
  opts->supernode_mode = (PetscInt)mode;
  {
    PetscBool inv = (PetscBool)(opts->invert_diag != 0), set;
    PetscCall(PetscOptionsBool("-mat_sptrsv_invert_diag", "Invert the diagonal blocks at the numeric phase and apply them by GEMV instead of a TRSV: true every block, false none; not given (auto): in a triangle whose widest exact supernode has 16 rows or more (a filled factor), each block whose condition number is at most -mat_sptrsv_invert_diag_cond", "MatSolverType sptrsv_supernodal", inv, &inv, &set));
    if (set) opts->invert_diag = inv ? 1 : 0;
  }
  PetscCall(PetscOptionsReal("-mat_sptrsv_invert_diag_cond", "Without -mat_sptrsv_invert_diag: the largest condition number (infinity norm, checked at every numeric phase) of a diagonal block that is inverted; worse ones are solved by a TRSV", "MatSolverType sptrsv_supernodal", opts->invert_cond, &opts->invert_cond, NULL));
  PetscCheck(opts->invert_cond >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_invert_diag_cond must be >= 1, got %g", pre, (double)opts->invert_cond);
  split = (PetscEnum)opts->supernode_split;
  PetscCall(PetscOptionsEnum("-mat_sptrsv_supernode_split", "With inverted diagonal blocks: cut a level's supernodes into row tasks over many blocks (two launches per level); auto: where the cost model predicts it faster", "MatSolverType sptrsv_supernodal", SpTrsvSupernodeSplits, split, &split, NULL));
  opts->supernode_split = (PetscInt)split;
  PetscCall(PetscOptionsBool("-mat_sptrsv_merge", "Merge neighbouring supernodes with the same block structure (explicit zeros stored)", "MatSolverType sptrsv_supernodal", opts->supernode_merge, &opts->supernode_merge, NULL));
  PetscCall(PetscOptionsReal("-mat_sptrsv_supernode_relax", "Merge neighbouring supernodes while the explicit zeros stay within this fraction of the stored entries (0: exact supernodes only; -1, the default: 0.05 with -mat_sptrsv_merge where the widest exact supernode has 16 rows or more, else 0)", "MatSolverType sptrsv_supernodal", opts->supernode_relax, &opts->supernode_relax, NULL));
  PetscCheck(opts->supernode_relax == SPTRSV_SUPERNODE_RELAX_AUTO || (opts->supernode_relax >= 0 && opts->supernode_relax < 1), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_supernode_relax must be in [0, 1) (or -1: auto), got %g", pre, (double)opts->supernode_relax);
  PetscCall(PetscOptionsInt("-mat_sptrsv_supernode_cublas_width", "CUDA: supernodes at least this wide run through cuBLAS (when their level has few of them)", "MatSolverType sptrsv_supernodal", opts->supernode_cublas_width, &opts->supernode_cublas_width, NULL));
  PetscCheck(opts->supernode_cublas_width >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_supernode_cublas_width must be >= 1, got %" PetscInt_FMT, pre, opts->supernode_cublas_width);
  PetscCall(PetscOptionsInt("-mat_sptrsv_supernode_min_width", "A triangle whose widest supernode is narrower than this has none worth the dense blocks (an ILU factor): solved by a nested sptrsv_syncfree solver instead (0: never)", "MatSolverType sptrsv_supernodal", opts->supernode_min_width, &opts->supernode_min_width, NULL));
  PetscCheck(opts->supernode_min_width >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_supernode_min_width must be >= 0, got %" PetscInt_FMT, pre, opts->supernode_min_width);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* paper 002: supernode-based level-set solves */
static PetscBool  cited_yamazaki  = PETSC_FALSE;
static const char cite_yamazaki[] = "@inproceedings{yamazaki2020supernodal,\n"
                                    "  author    = {Ichitaro Yamazaki and Sivasankaran Rajamanickam and Nathan Ellingwood},\n"
                                    "  title     = {Performance Portable Supernode-based Sparse Triangular Solver for Manycore Architectures},\n"
                                    "  booktitle = {Proceedings of the 49th International Conference on Parallel Processing (ICPP)},\n"
                                    "  year      = {2020}\n}\n";

/* the path's registry entry: a triangle without wide supernodes goes to the sync-free path (its options read with these),
   or to the level path where sync-free has no executor */
const struct _n_SpTrsvPath SpTrsvPath_supernodal = {
  .name            = "supernodal",
  .solvertype      = MATSOLVERSPTRSVSUPERNODAL,
  .summary         = "supernodal: runs of rows/columns with one structure stored as dense blocks, one block per supernode (TRSV or inverse GEMV, then GEMV push or pull), one launch per level of the supernodal DAG, cuBLAS for wide supernodes near the root (paper 002)",
  .ilu             = PETSC_TRUE,
  .icc             = PETSC_TRUE,
  .analyze         = SpTrsvAnalyze_supernodal,
  .exec            = {&SpTrsvExecHost_supernodal, SPTRSV_CUDA_EXEC(supernodal)},
  .options_size    = sizeof(SpTrsvSupernodalOptions),
  .options_default = SpTrsvOptionsDefault_supernodal,
  .options_set     = SpTrsvOptionsSet_supernodal,
  .citation        = cite_yamazaki,
  .cited           = &cited_yamazaki,
  .delegate        = "syncfree",
  .fallback_last   = "level",
  .auto_start      = {0, 1},
};
