/* The sync-free path's schedule as -ksp_view shows it (the plan's view; the schedule: include/sptrsv/paths/syncfree.h,
   built by syncfree.c) */
#include <sptrsv/paths/syncfree.h>

/* the CUDA launch's blocks, as requested (-mat_sptrsv_blocks_per_sm) and, once the CUDA setup resolved the automatic
   choice, as launched */
static PetscErrorCode SpTrsvSyncFreeBlocksDescribe(const SpTrsvSyncFreeSchedule *sf, char *desc, size_t len)
{
  const PetscInt k = sf->blocks_per_sm >= 0 ? sf->blocks_per_sm : sf->blocks_per_sm_launch;
  const char    *how = sf->blocks_per_sm >= 0 ? "" : (sf->runs ? " (automatic: by the windows' wavefront)" : " (automatic)");

  PetscFunctionBegin;
  if (k > 0) PetscCall(PetscSNPrintf(desc, len, "persistent blocks, %" PetscInt_FMT " per multiprocessor%s", k, how));
  else if (k == 0 || !sf->runs) PetscCall(PetscSNPrintf(desc, len, "one block per ticket%s", how));
  else PetscCall(PetscSNPrintf(desc, len, "blocks per multiprocessor chosen by the CUDA setup (automatic: persistent blocks holding %d depths of the windows' DAG, %.1f windows each, if half the blocks that fit suffice)", SPTRSV_SYNCFREE_RUN_RESIDENT_DEPTHS, sf->run_depth ? (double)sf->nwarps / (double)sf->run_depth : 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the schedule's -ksp_view (the plan's view): the dispatch and, where the automatic dispatch chose the level dispatch on
   the GPU, why; the windows or the bins; the analysis's place; the CUDA launch */
PetscErrorCode SpTrsvSyncFreeScheduleView(SpTrsvPlan plan, PetscViewer viewer)
{
  SpTrsvSyncFreeSchedule *sf = (SpTrsvSyncFreeSchedule *)plan->data;
  char                    desc[256];

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "sync-free: %s dispatch, %s levels, %s storage, %" PetscInt_FMT " warps of %d threads in blocks of %" PetscInt_FMT " warp%s%s\n", sf->runs ? "runs" : (sf->natural ? "natural-order" : "level-order"), sf->natural ? "no" : (sf->alap ? "ALAP" : "ASAP"), sf->warpell ? "warp-packed ELL" : "CSR", sf->nwarps, 32, sf->block_warps, sf->block_warps > 1 ? "s" : "",
                                   sf->runs && !sf->block_warps_req ? " (automatic: 2 where a depth of the windows' DAG holds " PetscStringize(SPTRSV_SYNCFREE_RUN_PAIR_WIDTH) " or more windows per multiprocessor, at the CUDA setup)" : ""));
  if (sf->dispatch_auto && sf->auto_windows && sf->auto_nwin) PetscCall(PetscViewerASCIIPrintf(viewer, "dispatch chosen by -%smat_sptrsv_dispatch auto: level (%" PetscInt_FMT " windows of %.1f rows on average: about %.0f us of work against the level dispatch's %.0f)\n", plan->prefix, sf->auto_nwin, (double)plan->n / (double)sf->auto_nwin, sf->auto_us[0], sf->auto_us[1]));
  else if (sf->dispatch_auto && sf->auto_windows && sf->auto_batches) PetscCall(PetscViewerASCIIPrintf(viewer, "dispatch chosen by -%smat_sptrsv_dispatch auto: level (the windows' critical path, %" PetscInt_FMT " windows and %" PetscInt_FMT " more batches of the longest lane's loads, is no shorter than the %" PetscInt_FMT " levels)\n", plan->prefix, sf->auto_windows, sf->auto_batches, plan->nlevels));
  else if (sf->dispatch_auto && sf->auto_windows) PetscCall(PetscViewerASCIIPrintf(viewer, "dispatch chosen by -%smat_sptrsv_dispatch auto: level (the windows' critical path, %" PetscInt_FMT " windows, is no shorter than the %" PetscInt_FMT " levels)\n", plan->prefix, sf->auto_windows, plan->nlevels));
  else if (sf->dispatch_auto) PetscCall(PetscViewerASCIIPrintf(viewer, "dispatch chosen by -%smat_sptrsv_dispatch auto: %s\n", plan->prefix, sf->runs ? "runs (the solves run on the GPU)" : "level (the solves run on the host, or ALAP levels or the warp-packed ELL were asked for)"));
  if (sf->runs) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "runs: %" PetscInt_FMT " windows of %.1f rows on average (up to %" PetscInt_FMT " rows per lane), %" PetscInt_FMT " rows chained to the row before them in the warp; critical path %" PetscInt_FMT " windows (%" PetscInt_FMT " levels)\n", sf->nwarps, sf->nwarps ? (double)plan->n / (double)sf->nwarps : 0.0, sf->run_rows, sf->run_chained, sf->run_depth, plan->nlevels));
    if (sf->pattern_device) PetscCall(PetscViewerASCIIPrintf(viewer, "analysis: windows on the host, the pattern in their order and the schedule check on the GPU (-%smat_sptrsv_analysis device)\n", plan->prefix));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "analysis: on the host\n"));
    PetscCall(SpTrsvSyncFreeBlocksDescribe(sf, desc, sizeof(desc)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA launch: %s, waiting lanes %s, %s (-%smat_sptrsv_run_poll %s); solution words indexed by dispatch position\n", desc, sf->spin_ns ? "sleep between polls" : "poll without pause", sf->run_poll_all ? "every lane polls its own words" : "one lane polls the latest word", plan->prefix, sf->run_poll_all ? "all" : "lane"));
    if (sf->spin_ns_req == PETSC_DECIDE) PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " ns between polls (-%smat_sptrsv_spin_ns -1: automatic, %s)\n", sf->spin_ns, plan->prefix, !sf->run_poll_all ? "one lane polls" : (sf->spin_ns ? "more than " PetscStringize(SPTRSV_SYNCFREE_RUN_SLEEP_ENTRIES) " entries in the longest lane" : "no more than " PetscStringize(SPTRSV_SYNCFREE_RUN_SLEEP_ENTRIES) " entries in the longest lane")));
    else if (sf->spin_ns) PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " ns between polls\n", sf->spin_ns));
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA loads: %" PetscInt_FMT " entries of a lane at once (-%smat_sptrsv_run_batch %" PetscInt_FMT "%s), %" PetscInt_FMT " in the longest lane\n", sf->run_batch, plan->prefix, sf->run_batch_req, sf->run_batch_req ? "" : ": automatic", sf->run_lane_max));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "rows (warps) by lanes per row: 1: %" PetscInt_FMT " (%" PetscInt_FMT "), 2: %" PetscInt_FMT " (%" PetscInt_FMT "), 4: %" PetscInt_FMT " (%" PetscInt_FMT "), 8: %" PetscInt_FMT " (%" PetscInt_FMT "), 16: %" PetscInt_FMT " (%" PetscInt_FMT "), 32: %" PetscInt_FMT " (%" PetscInt_FMT "), longer than 32: %" PetscInt_FMT "\n", sf->binrows[0], sf->binwarps[0], sf->binrows[1], sf->binwarps[1], sf->binrows[2], sf->binwarps[2], sf->binrows[3], sf->binwarps[3], sf->binrows[4], sf->binwarps[4], sf->binrows[5], sf->binwarps[5], sf->binrows[6]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "analysis: %s%s%s\n", sf->device ? "on the GPU (-" : "", sf->device ? plan->prefix : "", sf->device ? "mat_sptrsv_analysis device)" : (sf->device_fallback ? "on the host (the device analysis builds ASAP level dispatch only)" : "on the host")));
  PetscCall(SpTrsvSyncFreeBlocksDescribe(sf, desc, sizeof(desc)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA launch: %s, waiting lanes %s\n", desc, sf->spin_ns ? "sleep between polls" : "poll without pause"));
  if (sf->relabel_auto) PetscCall(PetscViewerASCIIPrintf(viewer, "solution words indexed by %s (auto; first poll round of every warp: %" PetscInt64_FMT " sectors by row, %" PetscInt64_FMT " by position)\n", sf->relabel ? "dispatch position" : "row", sf->sectors_row, sf->sectors_pos));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "solution words indexed by %s%s%s\n", sf->relabel ? "dispatch position (-" : "row", sf->relabel ? plan->prefix : "", sf->relabel ? "mat_sptrsv_relabel true)" : ""));
  if (sf->spin_ns) PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " ns between polls\n", sf->spin_ns));
  if (sf->warpell)
    PetscCall(PetscViewerASCIIPrintf(viewer, "warp-packed ELL: %" PetscInt_FMT " slots (%.1f%% filled), %.4g MB beside the CSR arrays\n", 32 * sf->nwarps, sf->nwarps ? 100.0 * (double)sf->ell_filled / (32.0 * (double)sf->nwarps) : 0.0, 32.0 * (double)sf->nwarps * (sizeof(PetscScalar) + sizeof(int)) / 1e6));
  PetscFunctionReturn(PETSC_SUCCESS);
}
