/*
   The cost model of a supernodal solve (sptrsv_supernodal; include/sptrsv/paths/supernodal.h, "The cost model"): bytes
   and predicted time per level of the supernodal schedule, as team blocks (one block per supernode, one launch), split
   (row tasks over many blocks, two launches) or through cuBLAS. The analysis (supernodal.c) asks it per level whether
   to split a level's inverted supernodes (-mat_sptrsv_supernode_split auto); -ksp_view prints its summary, and the
   per-level table with -ksp_view ::ascii_info_detail (or bench -bench_supernodal_estimate). Plain C, no backend.
*/
#include <sptrsv/paths/supernodal.h>

/* GB/s -> bytes per microsecond */
#define SN_BPUS(gbs) ((gbs) * 1e3)

/*
  SpTrsvSupernodeBytes - bytes one solve moves for supernode K: its diagonal block (inverted: all w^2 entries; solved in
  place: the triangle), its off-diagonal block, the outside indices and the x entries they reach, b_K and x_K
*/
PetscLogDouble SpTrsvSupernodeBytes(const SpTrsvSupernodalSchedule *ss, PetscInt K, PetscBool inv)
{
  const PetscLogDouble w = (PetscLogDouble)(ss->super[K + 1] - ss->super[K]), m = (PetscLogDouble)(ss->uptr[K + 1] - ss->uptr[K]);
  const PetscLogDouble d = inv ? w * w : w * (w + 1) / 2;

  return (d + w * m + (ss->push ? 2 : 1) * m + 2 * w) * sizeof(PetscScalar) + m * sizeof(int);
}

/*
  SpTrsvSupernodeSplitRows - rows per task of a split level whose split supernodes are list[0 .. n): enough tasks for
  two blocks per multiprocessor, a multiple of the 8 warps of a block, between 8 and 64
*/
PetscInt SpTrsvSupernodeSplitRows(const SpTrsvSupernodalSchedule *ss, const PetscInt *list, PetscInt k0, PetscInt k1)
{
  PetscInt64 W = 0, R;

  for (PetscInt k = k0; k < k1; k++) W += ss->super[list[k] + 1] - ss->super[list[k]];
  R = (W + 2 * SPTRSV_SUPERNODE_MODEL_SMS - 1) / (2 * SPTRSV_SUPERNODE_MODEL_SMS);
  R = (R + 7) / 8 * 8;
  return (PetscInt)PetscMax(8, PetscMin(64, R));
}

/*
  SpTrsvSupernodeLevelEstimate - the model of supernodes list[k0 .. k1) of one level run all as team blocks (us_team) and
  all split (us_split); inv: with inverted diagonal blocks (team blocks then have no column steps); the x = b copy of push
  is one launch per solve, not per level. us is left 0 (SpTrsvSupernodalModel sets it as scheduled).
*/
void SpTrsvSupernodeLevelEstimate(const SpTrsvSupernodalSchedule *ss, const PetscInt *list, PetscInt k0, PetscInt k1, PetscBool inv, SpTrsvSupernodeLevelModel *e)
{
  const PetscInt R = k1 > k0 ? SpTrsvSupernodeSplitRows(ss, list, k0, k1) : 8;
  PetscLogDouble crit_team = 0, crit_split = 0;
  PetscInt64     tasksA = 0, tasksB = 0;

  *e = (SpTrsvSupernodeLevelModel){0};
  e->nsn = k1 - k0;
  for (PetscInt k = k0; k < k1; k++) {
    const PetscInt       K = list[k], w = ss->super[K + 1] - ss->super[K], m = ss->uptr[K + 1] - ss->uptr[K];
    const PetscLogDouble b = SpTrsvSupernodeBytes(ss, K, inv);
    const PetscInt64     ta = (w + R - 1) / R;
    e->wmax = PetscMax(e->wmax, w);
    e->wsum += w;
    e->bytes += b;
    crit_team  = PetscMax(crit_team, b / SN_BPUS(SPTRSV_SUPERNODE_MODEL_SM_GBS) + (inv ? 0 : w * SPTRSV_SUPERNODE_MODEL_COLUMN_US));
    crit_split = PetscMax(crit_split, b / ((PetscLogDouble)ta * SN_BPUS(SPTRSV_SUPERNODE_MODEL_SM_GBS)));
    tasksA += ta;
    tasksB += ss->push ? ((w + SPTRSV_SUPERNODE_SPLIT_PUSH_ROWS - 1) / SPTRSV_SUPERNODE_SPLIT_PUSH_ROWS) * PetscMax(1, (m + SPTRSV_SUPERNODE_SPLIT_COLS - 1) / SPTRSV_SUPERNODE_SPLIT_COLS) : ta;
  }
  e->ntasks = (PetscInt)PetscMax(tasksA, tasksB);
  if (k1 > k0) {
    const PetscLogDouble bw_team  = e->bytes / SN_BPUS(PetscMin(SPTRSV_SUPERNODE_MODEL_GPU_GBS, e->nsn * SPTRSV_SUPERNODE_MODEL_SM_GBS));
    const PetscLogDouble bw_split = e->bytes / SN_BPUS(PetscMin(SPTRSV_SUPERNODE_MODEL_GPU_GBS, (PetscLogDouble)PetscMin(tasksA, tasksB) * SPTRSV_SUPERNODE_MODEL_SM_GBS));
    e->us_team  = SPTRSV_SUPERNODE_MODEL_LAUNCH_US + SPTRSV_SUPERNODE_MODEL_BLOCK_US + PetscMax(crit_team, bw_team);
    e->us_split = 2 * (SPTRSV_SUPERNODE_MODEL_LAUNCH_US + SPTRSV_SUPERNODE_MODEL_BLOCK_US) + PetscMax(crit_split, bw_split);
  }
}

/* level l's supernodes run one after the other by one block (a fused run, without its launch) */
static PetscLogDouble SpTrsvSupernodeLevelSerialUs(const SpTrsvSupernodalSchedule *ss, PetscInt l)
{
  PetscLogDouble us = 0;

  for (PetscInt k = ss->slevptr[l]; k < ss->slevptr[l + 1]; k++) {
    const PetscInt K = ss->sorder[k], w = ss->super[K + 1] - ss->super[K];
    us += SPTRSV_SUPERNODE_MODEL_BLOCK_US + SpTrsvSupernodeBytes(ss, K, ss->invert) / SN_BPUS(SPTRSV_SUPERNODE_MODEL_SM_GBS) + (ss->invert ? 0 : w * SPTRSV_SUPERNODE_MODEL_COLUMN_US);
  }
  return us;
}

/*
  SpTrsvSupernodeLevelFusable - level l may join a fused run: all its supernodes are team blocks and running them one
  after the other in one block costs no more than the level's own launch (the model)
*/
PetscBool SpTrsvSupernodeLevelFusable(const SpTrsvSupernodalSchedule *ss, PetscInt l)
{
  SpTrsvSupernodeLevelModel e;

  if (ss->nteam[l] != ss->slevptr[l + 1] - ss->slevptr[l]) return PETSC_FALSE;
  SpTrsvSupernodeLevelEstimate(ss, ss->sorder, ss->slevptr[l], ss->slevptr[l + 1], ss->invert, &e);
  return (PetscBool)(SpTrsvSupernodeLevelSerialUs(ss, l) <= e.us_team);
}

/* one cuBLAS supernode: staging, gemv, trsv, write-back; its bytes at a quarter of the GPU's bandwidth; trsv columns */
static PetscLogDouble SpTrsvSupernodeCublasUs(const SpTrsvSupernodalSchedule *ss, PetscInt K)
{
  const PetscInt w = ss->super[K + 1] - ss->super[K];

  return 4 * SPTRSV_SUPERNODE_MODEL_LAUNCH_US + SpTrsvSupernodeBytes(ss, K, PETSC_FALSE) / SN_BPUS(SPTRSV_SUPERNODE_MODEL_GPU_GBS / 4) + w * SPTRSV_SUPERNODE_MODEL_CUBLAS_COLUMN_US;
}

/*
  SpTrsvSupernodalModel - the model of a built schedule, per level (*lm, nlevels entries, caller frees; NULL: not
  returned) and in total (*total_us, with push's x = b copy): a level costs its team launch, its two split launches and
  its cuBLAS supernodes, as scheduled (a fused run: one launch, its supernodes one after the other in one block); us_team and us_split of a level say what its team and split supernodes together
  would cost as team blocks or split. A delegated schedule (ss->delegated: no levels) predicts nothing (0 us, no levels).
*/
PetscErrorCode SpTrsvSupernodalModel(const SpTrsvSupernodalSchedule *ss, SpTrsvSupernodeLevelModel **lm, PetscLogDouble *total_us)
{
  SpTrsvSupernodeLevelModel *m;
  PetscLogDouble             tot = ss->push && !ss->delegated ? SPTRSV_SUPERNODE_MODEL_LAUNCH_US : 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(ss->nlevels + 1, &m));
  for (PetscInt l = 0; l < ss->nlevels; l++) {
    const PetscInt            p0 = ss->slevptr[l], pt = p0 + ss->nteam[l], ps = pt + ss->nsplit[l], p1 = ss->slevptr[l + 1];
    SpTrsvSupernodeLevelModel team, split, both;
    SpTrsvSupernodeLevelEstimate(ss, ss->sorder, p0, pt, ss->invert, &team);
    SpTrsvSupernodeLevelEstimate(ss, ss->sorder, pt, ps, ss->invert, &split);
    SpTrsvSupernodeLevelEstimate(ss, ss->sorder, p0, ps, ss->invert, &both);
    m[l]         = both;
    m[l].nsn     = p1 - p0;
    m[l].nteam   = pt - p0;
    m[l].nsplit  = ps - pt;
    m[l].ncublas = p1 - ps;
    m[l].ntasks  = split.ntasks;
    if (ss->fuse[l] == 1) m[l].us = (pt > p0 ? team.us_team : 0) + (ps > pt ? split.us_split : 0);
    else m[l].us = SpTrsvSupernodeLevelSerialUs(ss, l) + (ss->fuse[l] ? SPTRSV_SUPERNODE_MODEL_LAUNCH_US : 0); /* a fused run: one launch, one block */
    for (PetscInt k = ps; k < p1; k++) {
      const PetscInt K = ss->sorder[k], w = ss->super[K + 1] - ss->super[K];
      m[l].us += SpTrsvSupernodeCublasUs(ss, K);
      m[l].bytes += SpTrsvSupernodeBytes(ss, K, PETSC_FALSE);
      m[l].wmax = PetscMax(m[l].wmax, w);
      m[l].wsum += w;
    }
    tot += m[l].us;
  }
  if (lm) *lm = m;
  else PetscCall(PetscFree(m));
  if (total_us) *total_us = tot;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvSupernodalModelView - the model's summary (the predicted solve, its launches, where the time goes by level size:
  1 supernode, 2 to SMS-1, at least SMS) and, with detail, one line per level
*/
PetscErrorCode SpTrsvSupernodalModelView(const SpTrsvSupernodalSchedule *ss, const char *prefix, PetscBool detail, PetscViewer viewer)
{
  SpTrsvSupernodeLevelModel *m;
  PetscLogDouble             tot, us[3] = {0, 0, 0}, bytes[3] = {0, 0, 0}, bytes_all = 0;
  PetscInt                   nl[3] = {0, 0, 0}, launches = ss->push ? 1 : 0;

  PetscFunctionBegin;
  if (ss->delegated) { /* nothing was built to model */
    PetscCall(PetscViewerASCIIPrintf(viewer, "model (H100 constants): none, the supernodes are too narrow (none as wide as -%smat_sptrsv_supernode_min_width %" PetscInt_FMT "): solved by the sync-free schedule\n", prefix, ss->min_width));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvSupernodalModel(ss, &m, &tot));
  for (PetscInt l = 0; l < ss->nlevels; l++) {
    const PetscInt c = m[l].nsn == 1 ? 0 : (m[l].nsn < SPTRSV_SUPERNODE_MODEL_SMS ? 1 : 2);
    nl[c]++;
    us[c] += m[l].us;
    bytes[c] += m[l].bytes;
    bytes_all += m[l].bytes;
    launches += ss->fuse[l] ? (m[l].nteam ? 1 : 0) + (m[l].nsplit ? 2 : 0) + 4 * m[l].ncublas : 0;
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "model (H100 constants): one solve %.0f us, %" PetscInt_FMT " launches (%.0f us of launch latency), %.4g MB (%.0f us at %.0f GB/s); split: %" PetscInt_FMT " supernodes in %" PetscInt_FMT " levels (-%smat_sptrsv_supernode_split %s)\n", (double)tot, launches, launches * SPTRSV_SUPERNODE_MODEL_LAUNCH_US, bytes_all / 1e6, bytes_all / SN_BPUS(SPTRSV_SUPERNODE_MODEL_GPU_GBS), SPTRSV_SUPERNODE_MODEL_GPU_GBS, ss->nsplit_sn, ss->nsplit_levels, prefix, ss->split_mode == SPTRSV_SUPERNODE_SPLIT_AUTO ? "auto" : (ss->split_mode == SPTRSV_SUPERNODE_SPLIT_NEVER ? "never" : "always")));
  PetscCall(PetscViewerASCIIPrintf(viewer, "model by level size: 1 supernode %" PetscInt_FMT " levels %.0f us %.3g MB; 2-%d supernodes %" PetscInt_FMT " levels %.0f us %.3g MB; >= %d supernodes %" PetscInt_FMT " levels %.0f us %.3g MB\n", nl[0], (double)us[0], bytes[0] / 1e6, SPTRSV_SUPERNODE_MODEL_SMS - 1, nl[1], (double)us[1], bytes[1] / 1e6, SPTRSV_SUPERNODE_MODEL_SMS, nl[2], (double)us[2], bytes[2] / 1e6));
  if (detail) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "level supernodes team split cublas width_max width_mean tasks KB us_model us_as_team us_split\n"));
    for (PetscInt l = 0; l < ss->nlevels; l++) PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %.1f %" PetscInt_FMT " %.1f %.1f %.1f %.1f\n", l, m[l].nsn, m[l].nteam, m[l].nsplit, m[l].ncublas, m[l].wmax, m[l].nsn ? (double)m[l].wsum / m[l].nsn : 0.0, m[l].ntasks, m[l].bytes / 1e3, (double)m[l].us, (double)m[l].us_team, (double)m[l].us_split));
  }
  PetscCall(PetscFree(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
