/*
   sptrsv_locality (paper 004, Picciau et al.): locality-aware sub-graph scheduling. The analysis partitions the DAG of
   op(T) into sub-graphs whose x fits in a block's shared memory (src/mat/paths/locality/partition.c: feasible partition,
   sub-graph levels, time slots), orders the rows by sub-graph and slot, and stores every row's entries external first
   (a column in an earlier sub-graph, read from global x) then internal (a column of its own sub-graph, read from shared
   memory at the column's offset) (include/sptrsv/paths/locality.h). One launch per sub-graph level, one block per
   sub-graph: load b, subtract the external entries, then the slots one after the other with a barrier between them,
   then write x back. The host executor runs that schedule (a buffer in place of shared memory, each row summed in
   column order as PETSc does) and checks it once per pattern.
   The chain kernel (-mat_sptrsv_locality_kernel, include/sptrsv/paths/locality.h "The chain kernel"): every component
   a sub-graph, solved row by row with a register window (src/mat/paths/locality/chain.c, src/cuda/paths/locality/locality_chain.cu);
   auto compares its cost model with the partition's. Its host executor runs the rows in the chain order.
*/
#include <sptrsv/paths/locality.h>
#include <sptrsv/segments.h> /* SpTrsvLanesPerRow */
#include <sptrsv/host_rows.h>
#include <petsctime.h>

/* rows a block's shared memory holds by default: one PetscScalar per row */
static PetscInt SpTrsvLocalityDefaultRows(void)
{
  return (PetscInt)(SPTRSV_LOCALITY_SMEM_BYTES / sizeof(PetscScalar));
}

static PetscErrorCode SpTrsvLocalityScheduleDestroy(SpTrsvPlan plan)
{
  SpTrsvLocalitySchedule *ls = (SpTrsvLocalitySchedule *)plan->data;

  PetscFunctionBegin;
  if (ls) {
    PetscCall(PetscFree4(ls->subptr, ls->sslot, ls->slotptr, ls->levptr));
    PetscCall(PetscFree4(ls->ptr, ls->split, ls->emap, ls->col));
    PetscCall(PetscFree5(ls->slotlong, ls->lptr, ls->lpos, ls->levstage, ls->levsmem));
    PetscCall(SpTrsvLocalityChainDestroy(&ls->chain));
    PetscCall(SpTrsvLocalityBlocksDestroy(&ls->blocks));
  }
  PetscCall(PetscFree(plan->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the partitioner's choice and the cost model's figures (partition_model.c) */
static PetscErrorCode SpTrsvLocalityEstimateView(const char *name, const SpTrsvLocalityEstimate *e, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %s: %" PetscInt_FMT " launches, sub-graphs per launch mean %.1f max %" PetscInt_FMT ", slots per sub-graph mean %.1f, %" PetscInt_FMT " slots on the critical path, largest sub-graph %" PetscInt_FMT " rows, external entries %.1f%%, predicted %.4g us\n", name, e->launches, (double)e->mean_subs, e->max_subs, (double)e->mean_slots, e->crit_slots, e->max_rows, 100.0 * (double)e->ext_frac, (double)e->predicted_us));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvLocalityChoiceView(const SpTrsvLocalityChoice *c, PetscInt kind, const char *prefix, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "partitioner: %s (-%smat_sptrsv_locality_partition %s)\n", SpTrsvLocalityPartitioners[kind], prefix, SpTrsvLocalityPartitioners[c->requested]));
  if (c->have_paper) PetscCall(SpTrsvLocalityEstimateView("paper", &c->paper, viewer));
  if (c->have_regions) {
    char     buf[512] = "";
    size_t   len      = 0;
    PetscCall(SpTrsvLocalityEstimateView("regions", &c->regions, viewer));
    for (PetscInt k = 0; k < c->ncand; k++) {
      PetscCall(PetscSNPrintf(buf + len, sizeof(buf) - len, "%s%" PetscInt_FMT ": %.4g", k ? ", " : "", c->cand_rows[k], (double)c->cand_us[k]));
      PetscCall(PetscStrlen(buf, &len));
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "  region rows tried (predicted us): %s\n", buf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the kernel and the chain analysis (see "The chain kernel" in locality.h) */
static PetscErrorCode SpTrsvLocalityKernelView(const SpTrsvLocalitySchedule *ls, const char *prefix, PetscViewer viewer)
{
  const SpTrsvLocalityChain *ch = &ls->chain;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "kernel: %s (-%smat_sptrsv_locality_kernel %s)\n", SpTrsvLocalityKernels[ls->kernel], prefix, SpTrsvLocalityKernels[ls->kernel_requested]));
  if (ls->kernel_requested == SPTRSV_LOCALITY_KERNEL_SLOTS) PetscFunctionReturn(PETSC_SUCCESS);
  if (!ch->W) PetscCall(PetscViewerASCIIPrintf(viewer, "  chain: %" PetscInt_FMT " components, reach %" PetscInt_FMT " rows: no window of at most %d rows holds it\n", ch->ncomp, ch->reach, (int)SPTRSV_CHAIN_MAX_WIDTH));
  else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  chain: %" PetscInt_FMT " components, reach %" PetscInt_FMT " rows, window %" PetscInt_FMT " rows (%" PetscInt_FMT " lanes x %" PetscInt_FMT " accumulators), %" PetscInt_FMT " lane groups, longest %" PetscInt_FMT " rows, predicted %.4g us%s\n", ch->ncomp, ch->reach, ch->W, ch->G, ch->A, ch->ngroups, ch->max_group_rows, (double)ch->predicted_us, ch->accepted ? "" : " (window storage over the limit: not chosen automatically)"));
    PetscCall(SpTrsvLocalityBlocksView(&ls->blocks, (PetscBool)(ls->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS), prefix, viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvLocalityScheduleView(SpTrsvPlan plan, PetscViewer viewer)
{
  SpTrsvLocalitySchedule *ls  = (SpTrsvLocalitySchedule *)plan->data;
  const PetscInt          nnz = ls->nint + ls->next;

  PetscFunctionBegin;
  PetscCall(SpTrsvLocalityKernelView(ls, plan->prefix, viewer));
  if (!ls->have_slots) PetscFunctionReturn(PETSC_SUCCESS);
  if (ls->kernel != SPTRSV_LOCALITY_KERNEL_SLOTS) PetscCall(PetscViewerASCIIPrintf(viewer, "the sub-graph schedule the cost model compared (not run):\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "locality: %" PetscInt_FMT " sub-graphs of at most %" PetscInt_FMT " rows (largest %" PetscInt_FMT "), %" PetscInt_FMT " sub-graph levels (launches, at most %" PetscInt_FMT " sub-graphs each)\n", ls->nsub, ls->nmax, ls->max_sub_rows, ls->nsublevels, ls->max_level_subs));
  PetscCall(PetscViewerASCIIPrintf(viewer, "slots %" PetscInt_FMT " (at most %" PetscInt_FMT " in a sub-graph, at most %" PetscInt_FMT " rows in a slot); entries internal %.1f%%, external %.1f%%\n", ls->nslots, ls->max_slots, ls->max_slot_rows, nnz ? 100.0 * (double)ls->nint / (double)nnz : 0.0, nnz ? 100.0 * (double)ls->next / (double)nnz : 0.0));
  if (ls->part.kind == SPTRSV_LOCALITY_PARTITION_REGIONS) PetscCall(PetscViewerASCIIPrintf(viewer, "partition: %" PetscInt_FMT " components, regions of at most %" PetscInt_FMT " rows: %" PetscInt_FMT " regions, %" PetscInt_FMT " components cut between regions, %" PetscInt_FMT " pieces packed into another's sub-graph\n", ls->part.ncomp, ls->part.region_rows, ls->part.nregions, ls->part.nlarge, ls->part.npacked));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "partition: %" PetscInt_FMT " components, %" PetscInt_FMT " sub-graphs of merged components, %" PetscInt_FMT " components split (%" PetscInt_FMT " greedy attempts%s%s)\n", ls->part.ncomp, ls->part.nmerged, ls->part.nlarge, ls->part.nattempts, ls->part.nlarge ? ", last criterion " : "", ls->part.nlarge ? SpTrsvPartitionCriterionName(ls->part.worst_crit) : ""));
  PetscCall(SpTrsvLocalityChoiceView(&ls->choice, ls->part.kind, plan->prefix, viewer));
  {
    PetscInt   nst[SPTRSV_LOCALITY_MAX_STAGE + 1] = {0};
    PetscInt64 smax = 0;
    for (PetscInt l = 0; l < ls->nsublevels; l++) {
      nst[ls->levstage[l]]++;
      smax = PetscMax(smax, ls->levsmem[l]);
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "CUDA block: %d threads, %d lanes per row, at most %" PetscInt64_FMT " bytes of shared memory; launches staging nothing / pointers / entries: %" PetscInt_FMT " / %" PetscInt_FMT " / %" PetscInt_FMT " (-%smat_sptrsv_locality_stage %" PetscInt_FMT ")\n", ls->block, ls->K, smax, nst[0], nst[1], nst[2], plan->prefix, ls->max_stage));
    if (ls->long_len) PetscCall(PetscViewerASCIIPrintf(viewer, "long rows (at least %" PetscInt_FMT " entries, a warp each): %" PetscInt_FMT "\n", ls->long_len, ls->nlong));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the plan's order and storage from the partition (see SpTrsvLocalitySchedule) */
static PetscErrorCode SpTrsvLocalityBuild(const SpTrsvOp *op, SpTrsvPlan p, const SpTrsvPartition *part, PetscInt max_stage, SpTrsvLocalitySchedule *ls)
{
  const PetscInt n = op->n, nnz = op->nnz, ns = part->nsub;
  PetscInt      *gslot, *cnt, *pos;
  PetscBool      haslong = PETSC_FALSE;

  PetscFunctionBegin;
  ls->nsub       = ns;
  ls->nsublevels = part->nsublevels;
  ls->nslots     = part->nslots;
  PetscCall(PetscMalloc4(ns + 1, &ls->subptr, ns + 1, &ls->sslot, part->nslots + 1, &ls->slotptr, part->nsublevels + 1, &ls->levptr));
  PetscCall(PetscMalloc4(n + 1, &ls->ptr, n + 1, &ls->split, nnz + 1, &ls->emap, nnz + 1, &ls->col));
  PetscCall(PetscMalloc3(n + 1, &gslot, part->nslots + 1, &cnt, n + 1, &pos));
  /* slots per sub-graph, global slot numbers, then a counting sort of the rows by global slot (stable in the row) */
  for (PetscInt g = 0; g <= ns; g++) ls->sslot[g] = 0;
  for (PetscInt i = 0; i < n; i++) ls->sslot[part->sub[i] + 1] = PetscMax(ls->sslot[part->sub[i] + 1], part->slot[i] + 1);
  for (PetscInt g = 0; g < ns; g++) ls->sslot[g + 1] += ls->sslot[g];
  PetscCheck(ls->sslot[ns] == part->nslots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality: %" PetscInt_FMT " slots counted, the partition says %" PetscInt_FMT, ls->sslot[ns], part->nslots);
  for (PetscInt s = 0; s <= part->nslots; s++) ls->slotptr[s] = 0;
  for (PetscInt i = 0; i < n; i++) {
    gslot[i] = ls->sslot[part->sub[i]] + part->slot[i];
    ls->slotptr[gslot[i] + 1]++;
  }
  for (PetscInt s = 0; s < part->nslots; s++) ls->slotptr[s + 1] += ls->slotptr[s];
  /* K first (it decides which rows are long), then the rows of every slot: the long ones first */
  ls->K        = SpTrsvLanesPerRow(n ? (PetscReal)nnz / n : 0);
  ls->long_len = SpTrsvLocalityLongLen(ls->K);
  ls->max_stage = max_stage;
  PetscCall(PetscCalloc5(part->nslots + 1, &ls->slotlong, ns + 1, &ls->lptr, n + 1, &ls->lpos, part->nsublevels + 1, &ls->levstage, part->nsublevels + 1, &ls->levsmem));
  ls->nlong = 0;
  for (PetscInt i = 0; i < n && ls->long_len; i++)
    if (op->ri[i + 1] - op->ri[i] >= ls->long_len) {
      ls->slotlong[gslot[i]]++;
      ls->nlong++;
    }
  for (PetscInt s = 0; s < part->nslots; s++) cnt[s] = ls->slotptr[s];
  for (PetscInt i = 0; i < n && ls->nlong; i++)
    if (op->ri[i + 1] - op->ri[i] >= ls->long_len) p->order[cnt[gslot[i]]++] = i;
  for (PetscInt i = 0; i < n; i++)
    if (!ls->nlong || op->ri[i + 1] - op->ri[i] < ls->long_len) p->order[cnt[gslot[i]]++] = i;
  haslong = (PetscBool)(ls->nlong > 0);
  for (PetscInt k = 0; k < n; k++) pos[p->order[k]] = k;
  for (PetscInt g = 0; g <= ns; g++) ls->subptr[g] = ls->slotptr[ls->sslot[g]];
  for (PetscInt l = 0; l <= part->nsublevels; l++) ls->levptr[l] = 0;
  for (PetscInt g = 0; g < ns; g++) ls->levptr[part->sublevel[g] + 1]++;
  for (PetscInt l = 0; l < part->nsublevels; l++) ls->levptr[l + 1] += ls->levptr[l];
  /* figures */
  ls->max_sub_rows = ls->max_slot_rows = ls->max_slots = ls->max_level_subs = 0;
  for (PetscInt g = 0; g < ns; g++) {
    ls->max_sub_rows = PetscMax(ls->max_sub_rows, ls->subptr[g + 1] - ls->subptr[g]);
    ls->max_slots    = PetscMax(ls->max_slots, ls->sslot[g + 1] - ls->sslot[g]);
  }
  for (PetscInt s = 0; s < part->nslots; s++) ls->max_slot_rows = PetscMax(ls->max_slot_rows, ls->slotptr[s + 1] - ls->slotptr[s]);
  for (PetscInt l = 0; l < part->nsublevels; l++) ls->max_level_subs = PetscMax(ls->max_level_subs, ls->levptr[l + 1] - ls->levptr[l]);
  /* every row's entries: external first, then internal with the column's offset in the sub-graph */
  ls->nint = ls->next = 0;
  ls->ptr[0]          = 0;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = p->order[k], g = part->sub[i];
    PetscInt       q = ls->ptr[k];
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++)
      if (part->sub[op->rj[e]] != g) {
        ls->emap[q]  = e;
        ls->col[q++] = op->rj[e];
      }
    ls->split[k] = q;
    ls->next += q - ls->ptr[k];
    for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++)
      if (part->sub[op->rj[e]] == g) {
        ls->emap[q]  = e;
        ls->col[q++] = pos[op->rj[e]] - ls->subptr[g];
      }
    ls->nint += q - ls->split[k];
    ls->ptr[k + 1] = q;
  }
  /* the long rows' positions by sub-graph (ascending) */
  for (PetscInt g = 0; g < ns; g++) {
    ls->lptr[g + 1] = ls->lptr[g];
    for (PetscInt k = ls->subptr[g]; k < ls->subptr[g + 1] && haslong; k++)
      if (ls->ptr[k + 1] - ls->ptr[k] >= ls->long_len) ls->lpos[ls->lptr[g + 1]++] = k;
  }
  /* each launch's stage: the highest up to max_stage whose shared memory for the launch's largest sub-graph (rows,
     entries, slots: each the largest of the launch) fits a block */
  for (PetscInt l = 0; l < part->nsublevels; l++) {
    PetscInt64 rows = 0, ents = 0, slots = 0;
    PetscInt   st   = max_stage;
    for (PetscInt g = ls->levptr[l]; g < ls->levptr[l + 1]; g++) {
      rows  = PetscMax(rows, (PetscInt64)(ls->subptr[g + 1] - ls->subptr[g]));
      ents  = PetscMax(ents, (PetscInt64)(ls->ptr[ls->subptr[g + 1]] - ls->ptr[ls->subptr[g]]));
      slots = PetscMax(slots, (PetscInt64)(ls->sslot[g + 1] - ls->sslot[g]));
    }
    while (st > 0 && SpTrsvLocalityStageBytes(st, rows, ents, slots) > SPTRSV_LOCALITY_SMEM_BYTES) st--;
    ls->levstage[l] = st;
    ls->levsmem[l]  = SpTrsvLocalityStageBytes(st, rows, ents, slots);
  }
  /* launch geometry: K lanes per row from the mean row length; enough groups for the largest sub-graph's rows, at
     most SPTRSV_LOCALITY_MAX_BLOCK threads (the block loops over more) */
  ls->block = (int)PetscMin((PetscInt64)SPTRSV_LOCALITY_MAX_BLOCK, PetscMax((PetscInt64)32, ((PetscInt64)ls->K * ls->max_sub_rows + 31) / 32 * 32));
  PetscCall(PetscFree3(gslot, cnt, pos));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the locality path's option values, checked where they are read (SpTrsvOptionsSet_locality, with the caller's prefix) and
   again by the analysis (a program may fill SpTrsvLocalityOptions itself); every message names the option as typed */
static PetscErrorCode SpTrsvLocalityOptionsCheck(const SpTrsvLocalityOptions *opts, const char *prefix)
{
  PetscFunctionBegin;
  PetscCheck(opts->subgraph_rows >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_subgraph_rows must be >= 0 (0: what a block's shared memory holds), got %" PetscInt_FMT, prefix, opts->subgraph_rows);
  PetscCheck(opts->locality_kernel >= SPTRSV_LOCALITY_KERNEL_AUTO && opts->locality_kernel <= SPTRSV_LOCALITY_KERNEL_BLOCKS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_locality_kernel: %" PetscInt_FMT " is not a kernel (auto, slots, chain, blocks)", prefix, opts->locality_kernel);
  PetscCheck(opts->locality_block_cond >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_locality_block_cond must be >= 1, got %g", prefix, (double)opts->locality_block_cond);
  PetscCheck(opts->locality_block_rows >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_locality_block_rows must be >= 0 (0: the cost model's choice), got %" PetscInt_FMT, prefix, opts->locality_block_rows);
  PetscCheck(opts->locality_stage >= 0 && opts->locality_stage <= SPTRSV_LOCALITY_MAX_STAGE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_locality_stage must be 0, 1 or 2, got %" PetscInt_FMT, prefix, opts->locality_stage);
  PetscCheck(opts->locality_partition >= SPTRSV_LOCALITY_PARTITION_AUTO && opts->locality_partition <= SPTRSV_LOCALITY_PARTITION_REGIONS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_locality_partition: %" PetscInt_FMT " is not a partitioner (auto, paper, regions)", prefix, opts->locality_partition);
  PetscCheck(opts->locality_sms >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_locality_sms must be >= 1, got %" PetscInt_FMT, prefix, opts->locality_sms);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvAnalyze_locality(const SpTrsvOp *op, SpTrsvFormat format, const SpTrsvPathOptions *popts, const void *own, SpTrsvPlan *plan)
{
  const SpTrsvLocalityOptions *opts = (const SpTrsvLocalityOptions *)own;
  const char *prefix = popts->prefix;
  SpTrsvPlan              p;
  SpTrsvLocalitySchedule *ls;
  PetscLogDouble          t0, t1;
  PetscInt               *corder = NULL; /* the chain order (kernel auto or chain) */
  const PetscInt          sms    = opts->locality_sms > 0 ? opts->locality_sms : SPTRSV_LOCALITY_DEFAULT_SMS;

  PetscFunctionBegin;
  PetscCheck(format == SPTRSV_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_locality reads rows: the CSR format only");
  PetscCall(SpTrsvLocalityOptionsCheck(opts, prefix));
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvPlanCreateLevelSets(op, &p)); /* the level figures of -ksp_view; the order is replaced */
  PetscCall(PetscFree(p->levptr));              /* the order is not by level any more */
  PetscCall(PetscNew(&ls));
  p->data              = ls;
  p->destroydata       = SpTrsvLocalityScheduleDestroy;
  p->view              = SpTrsvLocalityScheduleView;
  ls->nmax             = opts->subgraph_rows > 0 ? opts->subgraph_rows : SpTrsvLocalityDefaultRows();
  ls->kernel_requested = opts->locality_kernel;
  ls->kernel           = SPTRSV_LOCALITY_KERNEL_SLOTS;
  if (opts->locality_kernel != SPTRSV_LOCALITY_KERNEL_SLOTS) {
    PetscCall(PetscMalloc1(op->n + 1, &corder));
    PetscCall(SpTrsvLocalityChainCreate(op, sms, corder, &ls->chain));
    if (ls->chain.W && opts->locality_block_rows) { /* a B that cannot hold the reach: free what was made, then the error */
      const PetscInt W = ls->chain.W, reach = ls->chain.reach, Breq = opts->locality_block_rows;
      if (!SpTrsvLocalityBlockRowsValid(Breq, W)) {
        PetscCall(PetscFree(corder));
        PetscCall(SpTrsvPlanDestroy(&p));
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-%smat_sptrsv_locality_block_rows %" PetscInt_FMT ": a block must be a power of two from the window, %" PetscInt_FMT " rows (reach %" PetscInt_FMT "), up to %d rows (0: the cost model's choice)", prefix, Breq, W, reach, (int)SPTRSV_CHAIN_MAX_WIDTH);
      }
    }
    PetscCall(SpTrsvLocalityBlocksCreate(op, corder, &ls->chain, opts->locality_block_rows, opts->locality_block_cond, &ls->blocks));
  }
  if (opts->locality_kernel == SPTRSV_LOCALITY_KERNEL_CHAIN || opts->locality_kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS) {
    if (!ls->chain.W) { /* no window holds the reach: free what was made, then the error */
      const PetscInt reach = ls->chain.reach, ncomp = ls->chain.ncomp;
      PetscCall(PetscFree(corder));
      PetscCall(SpTrsvPlanDestroy(&p));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "-%smat_sptrsv_locality_kernel %s: a row depends on a row %" PetscInt_FMT " places before it in the chain order (rows by index within each of the %" PetscInt_FMT " components); the window holds at most %d: use -%smat_sptrsv_locality_kernel slots or auto", prefix, SpTrsvLocalityKernels[opts->locality_kernel], reach, ncomp, (int)SPTRSV_CHAIN_MAX_WIDTH, prefix);
    }
    ls->kernel = opts->locality_kernel;
  } else { /* the sub-graph schedule; auto: the chain kernel instead when the models predict it faster */
    SpTrsvLocalityDevice dev;
    SpTrsvPartition      part;

    dev.sms       = sms;
    dev.lanes     = SpTrsvLanesPerRow(op->n ? (PetscReal)op->nnz / op->n : 0); /* as SpTrsvLocalityBuild */
    dev.pack      = opts->locality_pack;
    dev.max_stage = opts->locality_stage;
    PetscCall(SpTrsvPartitionChoose(op->n, op->ri, op->rj, ls->nmax, (SpTrsvLocalityPartitioner)opts->locality_partition, &dev, &part, &ls->choice));
    PetscCall(SpTrsvLocalityBuild(op, p, &part, opts->locality_stage, ls));
    ls->part          = part;
    ls->part.sub      = NULL; /* the figures stay, the arrays go */
    ls->part.slot     = NULL;
    ls->part.sublevel = NULL;
    PetscCall(SpTrsvPartitionDestroy(&part));
    ls->have_slots = PETSC_TRUE;
    if (corder && ls->chain.W) { /* the fastest predicted of the accepted kernels */
      PetscReal best = ls->part.kind == SPTRSV_LOCALITY_PARTITION_REGIONS ? ls->choice.regions.predicted_us : ls->choice.paper.predicted_us;
      if (ls->chain.accepted && ls->chain.predicted_us < best) {
        ls->kernel = SPTRSV_LOCALITY_KERNEL_CHAIN;
        best       = ls->chain.predicted_us;
      }
      if (SpTrsvLocalityBlocksRankUs(&ls->blocks) < best) ls->kernel = SPTRSV_LOCALITY_KERNEL_BLOCKS;
    }
  }
  if (ls->kernel != SPTRSV_LOCALITY_KERNEL_SLOTS) PetscCall(PetscArraycpy(p->order, corder, op->n));
  PetscCall(PetscFree(corder));
  PetscCall(PetscTime(&t1));
  p->stats.analysis_time = t1 - t0;
  *plan                  = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvLocalityScheduleCheck - what the kernel relies on: the order puts every dependency first; sub-graphs, slots
  and levels tile the positions (sub-graphs of 1 .. nmax rows, non-empty slots, every sub-graph in one level); each
  row's storage holds exactly its entries, the external ones first, each from a sub-graph of an earlier level (an
  earlier launch), the internal ones at the right shared-memory offset and from an earlier slot of the same
  sub-graph; K and the block fit the kernel
*/
PetscErrorCode SpTrsvLocalityScheduleCheck(const SpTrsvOp *op, SpTrsvPlan plan)
{
  SpTrsvLocalitySchedule *ls = (SpTrsvLocalitySchedule *)plan->data;
  const PetscInt          n  = op->n;
  PetscInt               *pos, *subof, *slotof, *levof, *seen;

  PetscFunctionBegin;
  PetscCall(SpTrsvPlanCheckDispatchOrder(op, plan));
  if (ls->kernel == SPTRSV_LOCALITY_KERNEL_CHAIN) {
    PetscCall(SpTrsvLocalityChainCheck(op, plan->order, &ls->chain));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ls->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS) {
    PetscCall(SpTrsvLocalityBlocksCheck(op, plan->order, &ls->chain, &ls->blocks));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(ls->K >= 2 && ls->K <= 32 && (ls->K & (ls->K - 1)) == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: %d lanes per row", ls->K);
  PetscCheck(ls->block >= 32 && ls->block <= SPTRSV_LOCALITY_MAX_BLOCK && ls->block % 32 == 0 && ls->block >= ls->K, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: blocks of %d threads", ls->block);
  PetscCheck(ls->subptr[0] == 0 && ls->subptr[ls->nsub] == n && ls->sslot[0] == 0 && ls->sslot[ls->nsub] == ls->nslots && ls->levptr[0] == 0 && ls->levptr[ls->nsublevels] == ls->nsub, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: sub-graphs, slots or levels do not cover the rows");
  PetscCall(PetscMalloc5(n + 1, &pos, n + 1, &subof, n + 1, &slotof, ls->nsub + 1, &levof, n + 1, &seen));
  for (PetscInt k = 0; k < n; k++) pos[plan->order[k]] = k;
  for (PetscInt l = 0; l < ls->nsublevels; l++) {
    PetscCheck(ls->levptr[l + 1] > ls->levptr[l], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: sub-graph level %" PetscInt_FMT " is empty", l);
    for (PetscInt g = ls->levptr[l]; g < ls->levptr[l + 1]; g++) levof[g] = l;
  }
  for (PetscInt g = 0; g < ls->nsub; g++) {
    const PetscInt rows = ls->subptr[g + 1] - ls->subptr[g];
    PetscCheck(rows >= 1 && rows <= ls->nmax && rows <= ls->max_sub_rows, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: sub-graph %" PetscInt_FMT " holds %" PetscInt_FMT " rows (at most %" PetscInt_FMT ")", g, rows, ls->nmax);
    PetscCheck(ls->sslot[g + 1] > ls->sslot[g] && ls->slotptr[ls->sslot[g]] == ls->subptr[g] && ls->slotptr[ls->sslot[g + 1]] == ls->subptr[g + 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: the slots of sub-graph %" PetscInt_FMT " do not tile it", g);
    for (PetscInt s = ls->sslot[g]; s < ls->sslot[g + 1]; s++) {
      PetscCheck(ls->slotptr[s + 1] > ls->slotptr[s], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: slot %" PetscInt_FMT " of sub-graph %" PetscInt_FMT " is empty", s - ls->sslot[g], g);
      for (PetscInt k = ls->slotptr[s]; k < ls->slotptr[s + 1]; k++) {
        subof[k]  = g;
        slotof[k] = s;
      }
    }
  }
  for (PetscInt i = 0; i < n; i++) seen[i] = -1;
  PetscCheck(ls->ptr[0] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: storage starts at %" PetscInt_FMT, ls->ptr[0]);
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = plan->order[k], g = subof[k];
    PetscCheck(ls->ptr[k + 1] - ls->ptr[k] == op->ri[i + 1] - op->ri[i] && ls->split[k] >= ls->ptr[k] && ls->split[k] <= ls->ptr[k + 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: row %" PetscInt_FMT " stores %" PetscInt_FMT " entries, it has %" PetscInt_FMT, i, ls->ptr[k + 1] - ls->ptr[k], op->ri[i + 1] - op->ri[i]);
    for (PetscInt q = ls->ptr[k]; q < ls->ptr[k + 1]; q++) {
      const PetscInt e = ls->emap[q];
      PetscInt       j, kj;
      PetscCheck(e >= op->ri[i] && e < op->ri[i + 1] && seen[e - op->ri[i]] != k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: row %" PetscInt_FMT ": slot %" PetscInt_FMT " maps to entry %" PetscInt_FMT " (not its own, or twice)", i, q, e);
      seen[e - op->ri[i]] = k; /* entries of this row seen at position k: a map onto the row's entries */
      j                   = op->rj[e];
      kj                  = pos[j];
      if (q < ls->split[k]) PetscCheck(ls->col[q] == j && levof[subof[kj]] < levof[g], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: row %" PetscInt_FMT " (sub-graph %" PetscInt_FMT ") reads row %" PetscInt_FMT " as external, column %" PetscInt_FMT ", from sub-graph %" PetscInt_FMT ": not an earlier launch", i, g, j, ls->col[q], subof[kj]);
      else PetscCheck(subof[kj] == g && ls->col[q] == kj - ls->subptr[g] && slotof[kj] < slotof[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: row %" PetscInt_FMT " (sub-graph %" PetscInt_FMT ") reads row %" PetscInt_FMT " as internal at offset %" PetscInt_FMT ": wrong sub-graph, offset, or not an earlier slot", i, g, j, ls->col[q]);
    }
  }
  /* long rows: first in their slot, each listed once under its sub-graph; every launch's stage fits its sub-graphs */
  PetscCheck(ls->long_len == SpTrsvLocalityLongLen(ls->K) && ls->lptr[0] == 0 && ls->lptr[ls->nsub] == ls->nlong, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: long rows of %" PetscInt_FMT " entries, %" PetscInt_FMT " listed of %" PetscInt_FMT, ls->long_len, ls->lptr[ls->nsub], ls->nlong);
  for (PetscInt s = 0, nl = 0; s < ls->nslots; s++) {
    PetscCheck(ls->slotlong[s] >= 0 && ls->slotlong[s] <= ls->slotptr[s + 1] - ls->slotptr[s], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: slot %" PetscInt_FMT " has %" PetscInt_FMT " long rows of %" PetscInt_FMT, s, ls->slotlong[s], ls->slotptr[s + 1] - ls->slotptr[s]);
    for (PetscInt k = ls->slotptr[s]; k < ls->slotptr[s + 1]; k++) {
      const PetscBool islong = (PetscBool)(ls->long_len > 0 && ls->ptr[k + 1] - ls->ptr[k] >= ls->long_len);
      PetscCheck(islong == (PetscBool)(k - ls->slotptr[s] < ls->slotlong[s]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: row %" PetscInt_FMT " of %" PetscInt_FMT " entries at place %" PetscInt_FMT " of its slot, which starts with %" PetscInt_FMT " long rows", plan->order[k], ls->ptr[k + 1] - ls->ptr[k], k - ls->slotptr[s], ls->slotlong[s]);
      if (islong) {
        const PetscInt g = subof[k];
        PetscInt       a;
        for (a = ls->lptr[g]; a < ls->lptr[g + 1] && ls->lpos[a] != k; a++) { }
        PetscCheck(a < ls->lptr[g + 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: long row %" PetscInt_FMT " not listed under its sub-graph %" PetscInt_FMT, plan->order[k], g);
        nl++;
      }
    }
    if (s == ls->nslots - 1) PetscCheck(nl == ls->nlong, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: %" PetscInt_FMT " long rows found, %" PetscInt_FMT " listed", nl, ls->nlong);
  }
  for (PetscInt g = 0; g < ls->nsub; g++)
    for (PetscInt a = ls->lptr[g]; a < ls->lptr[g + 1]; a++) PetscCheck(ls->lpos[a] >= ls->subptr[g] && ls->lpos[a] < ls->subptr[g + 1] && (a == ls->lptr[g] || ls->lpos[a] > ls->lpos[a - 1]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: long-row entry %" PetscInt_FMT " of sub-graph %" PetscInt_FMT " is position %" PetscInt_FMT, a, g, ls->lpos[a]);
  for (PetscInt l = 0; l < ls->nsublevels; l++) {
    PetscCheck(ls->levstage[l] >= 0 && ls->levstage[l] <= ls->max_stage && (!ls->levstage[l] || ls->levsmem[l] <= SPTRSV_LOCALITY_SMEM_BYTES), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: launch %" PetscInt_FMT " at stage %" PetscInt_FMT " with %" PetscInt64_FMT " bytes", l, ls->levstage[l], ls->levsmem[l]);
    for (PetscInt g = ls->levptr[l]; g < ls->levptr[l + 1]; g++) {
      const PetscInt64 need = SpTrsvLocalityStageBytes(ls->levstage[l], ls->subptr[g + 1] - ls->subptr[g], ls->ptr[ls->subptr[g + 1]] - ls->ptr[ls->subptr[g]], ls->sslot[g + 1] - ls->sslot[g]);
      PetscCheck(need <= ls->levsmem[l], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Locality schedule: sub-graph %" PetscInt_FMT " needs %" PetscInt64_FMT " bytes at stage %" PetscInt_FMT ", its launch has %" PetscInt64_FMT, g, need, ls->levstage[l], ls->levsmem[l]);
    }
  }
  PetscCall(PetscFree5(pos, subof, slotof, levof, seen));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- host executor: the kernel's schedule, one sub-graph after the other, a buffer for its shared memory ----

   The host runs the sub-graphs in index (= level) order and, inside each, the slots in order; internal values come from
   the buffer xl (the block's shared memory: offsets from the plan), external ones from x (earlier sub-graphs, written
   back already), and x is written when the sub-graph is done. Each row sums its entries in column order, as PETSc's own
   solve does, so iteration histories match PETSc's to rounding; the kernel's split of a row into an external and an
   internal sum changes only the rounding (the device check compares the two). */
typedef struct {
  PetscScalar *xl;   /* max_sub_rows: the sub-graph's x */
  PetscInt    *hcol; /* nnz, by entry of op(T): the global column of an external entry, -(offset + 1) of an internal one */
} SpTrsvHostLocality;

static PetscErrorCode SpTrsvHostLocalitySetup(SpTrsvSolver s)
{
  SpTrsvLocalitySchedule *ls = (SpTrsvLocalitySchedule *)s->plan->data;
  SpTrsvHostLocality     *h;

  PetscFunctionBegin;
  PetscCheck(!s->rest, PETSC_COMM_SELF, PETSC_ERR_SUP, "sptrsv_locality has no Gauss-Seidel sweeps");
  if (ls->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS) {
    PetscCall(SpTrsvHostLocalityBlocksSetup(s, &ls->chain, &ls->blocks));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(SpTrsvLocalityScheduleCheck(&s->op, s->plan));
  PetscCall(PetscNew(&h));
  s->bdata = h;
  if (ls->kernel == SPTRSV_LOCALITY_KERNEL_CHAIN) PetscFunctionReturn(PETSC_SUCCESS); /* rows in the chain order: nothing to keep */
  PetscCall(PetscMalloc2(ls->max_sub_rows + 1, &h->xl, s->op.nnz + 1, &h->hcol));
  for (PetscInt k = 0; k < s->op.n; k++)
    for (PetscInt q = ls->ptr[k]; q < ls->ptr[k + 1]; q++) h->hcol[ls->emap[q]] = q < ls->split[k] ? ls->col[q] : -(ls->col[q] + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostLocalitySolve(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x)
{
  const SpTrsvLocalitySchedule *ls    = (const SpTrsvLocalitySchedule *)s->plan->data;
  const SpTrsvHostLocality     *h     = (const SpTrsvHostLocality *)s->bdata;
  const SpTrsvOp               *op    = &s->op;
  const PetscInt               *order = s->plan->order;
  PetscScalar                  *xl    = h->xl;

  PetscFunctionBegin;
  if (ls->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS) {
    PetscCall(SpTrsvHostLocalityBlocksSolve(s, &ls->chain, &ls->blocks, b, x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ls->kernel == SPTRSV_LOCALITY_KERNEL_CHAIN) { /* the chain order, one row after the other (each summed in column order) */
    for (PetscInt k = 0; k < op->n; k++) {
      const PetscInt i = order[k];
      PetscScalar    v = b[i];
      for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) v -= op->ra[e] * x[op->rj[e]];
      x[i] = op->unit ? v : v * op->idiag[i];
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt g = 0; g < ls->nsub; g++) { /* level after level: sub-graphs are numbered by level */
    const PetscInt k0 = ls->subptr[g], k1 = ls->subptr[g + 1];
    for (PetscInt sl = ls->sslot[g]; sl < ls->sslot[g + 1]; sl++) /* the slots in turn (a barrier between them on the GPU) */
      for (PetscInt k = ls->slotptr[sl]; k < ls->slotptr[sl + 1]; k++) {
        const PetscInt i = order[k];
        PetscScalar    v = b[i];
        for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
          const PetscInt c = h->hcol[e];
          v -= op->ra[e] * (c >= 0 ? x[c] : xl[-c - 1]);
        }
        xl[k - k0] = op->unit ? v : v * op->idiag[i];
      }
    for (PetscInt k = k0; k < k1; k++) x[order[k]] = xl[k - k0]; /* write back */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvHostLocalityDestroy(SpTrsvSolver s)
{
  SpTrsvHostLocality *h = (SpTrsvHostLocality *)s->bdata;

  PetscFunctionBegin;
  if (((const SpTrsvLocalitySchedule *)s->plan->data)->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS) {
    PetscCall(SpTrsvHostLocalityBlocksDestroy(s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h) PetscCall(PetscFree2(h->xl, h->hcol));
  PetscCall(PetscFree(s->bdata));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* new values: read in place, but the blocks kernel's inverted blocks are recomputed */
static PetscErrorCode SpTrsvHostLocalityUpdateValues(SpTrsvSolver s)
{
  SpTrsvLocalitySchedule *ls = (SpTrsvLocalitySchedule *)s->plan->data;

  PetscFunctionBegin;
  if (ls->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS) PetscCall(SpTrsvHostLocalityBlocksUpdate(s, &ls->blocks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const SpTrsvExecutor SpTrsvExecHost_locality = {SpTrsvHostLocalitySetup, SpTrsvHostLocalityUpdateValues, SpTrsvHostLocalitySolve, NULL, SpTrsvHostLocalityDestroy, NULL};

/* the locality path's options: the defaults (the shared-memory capacity of a block, the partitioner and kernel its cost
   models choose, the H100's multiprocessors, pointers and entries in shared memory where they fit) and its parser
   (inside the caller's PetscOptionsBegin/End, so with its prefix) */
static PetscErrorCode SpTrsvOptionsDefault_locality(void *own)
{
  SpTrsvLocalityOptions *o = (SpTrsvLocalityOptions *)own;

  PetscFunctionBegin;
  o->subgraph_rows       = 0;
  o->locality_partition  = SPTRSV_LOCALITY_PARTITION_AUTO;
  o->locality_sms        = SPTRSV_LOCALITY_DEFAULT_SMS;
  o->locality_stage      = 2;
  o->locality_pack       = PETSC_TRUE;
  o->locality_kernel     = SPTRSV_LOCALITY_KERNEL_AUTO;
  o->locality_block_cond = SPTRSV_BLOCKS_COND;
  o->locality_block_rows = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SpTrsvOptionsSet_locality(SpTrsvOptionItems PetscOptionsObject, SpTrsvPathOptions *popts, void *own)
{
  SpTrsvLocalityOptions *opts = (SpTrsvLocalityOptions *)own;

  PetscFunctionBegin;
  PetscCall(PetscOptionsBool("-mat_sptrsv_graph", "CUDA: replay each solve's launches (one per sub-graph level) as a CUDA graph", "MatSolverType sptrsv_locality", popts->use_graph, &popts->use_graph, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_subgraph_rows", "Rows per sub-graph at most (0: what a block's shared memory holds, 227 KB on sm_90)", "MatSolverType sptrsv_locality", opts->subgraph_rows, &opts->subgraph_rows, NULL));
  {
    PetscEnum e = (PetscEnum)opts->locality_partition;
    PetscCall(PetscOptionsEnum("-mat_sptrsv_locality_partition", "Sub-graph partition: the paper's greedy, compact regions with a coarse time, or the one the cost model predicts faster", "MatSolverType sptrsv_locality", SpTrsvLocalityPartitioners, e, &e, NULL));
    opts->locality_partition = (PetscInt)e;
  }
  PetscCall(PetscOptionsInt("-mat_sptrsv_locality_sms", "Multiprocessors the partition's cost model fills (132: the H100)", "MatSolverType sptrsv_locality", opts->locality_sms, &opts->locality_sms, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_locality_stage", "CUDA: what a block copies to shared memory before its slots, at most (0 nothing, 1 row and slot pointers and inverse diagonals, 2 also the entries; each launch takes the highest that fits)", "MatSolverType sptrsv_locality", opts->locality_stage, &opts->locality_stage, NULL));
  {
    PetscEnum e = (PetscEnum)opts->locality_kernel;
    PetscCall(PetscOptionsEnum("-mat_sptrsv_locality_kernel", "Kernel: sub-graphs in shared memory with time slots, components as register-window chains or as chains of inverted diagonal blocks (banded, block-diagonal), or the one the cost models predict faster", "MatSolverType sptrsv_locality", SpTrsvLocalityKernels, e, &e, NULL));
    opts->locality_kernel = (PetscInt)e;
  }
  PetscCall(PetscOptionsReal("-mat_sptrsv_locality_block_cond", "Blocks kernel: the largest condition number (infinity norm, checked at every numeric phase) of a diagonal block that is inverted; worse ones are solved by substitution", "MatSolverType sptrsv_locality", opts->locality_block_cond, &opts->locality_block_cond, NULL));
  PetscCall(PetscOptionsInt("-mat_sptrsv_locality_block_rows", "Blocks kernel: rows per block, a power of two from the chain's window up to 128 (0: the cost model's choice)", "MatSolverType sptrsv_locality", opts->locality_block_rows, &opts->locality_block_rows, NULL));
  PetscCall(PetscOptionsBool("-mat_sptrsv_locality_pack", "Region partition: pack the small independent pieces of one launch into shared sub-graphs (blocks)", "MatSolverType sptrsv_locality", opts->locality_pack, &opts->locality_pack, NULL));
  PetscCall(SpTrsvLocalityOptionsCheck(opts, PetscOptionsObject->prefix ? PetscOptionsObject->prefix : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* paper 004: locality-aware sub-graph partition */
static PetscBool  cited_picciau  = PETSC_FALSE;
static const char cite_picciau[] = "@inproceedings{picciau2016locality,\n"
                                   "  author = {Andrea Picciau and Gordon E. Inggs and John Wickerson and Eric C. Kerrigan and George A. Constantinides},\n"
                                   "  title  = {Balancing locality and concurrency: solving sparse triangular systems on {GPUs}},\n"
                                   "  year   = {2016}\n}\n";

/* the path's registry entry */
const struct _n_SpTrsvPath SpTrsvPath_locality = {
  .name            = "locality",
  .solvertype      = MATSOLVERSPTRSVLOCALITY,
  .summary         = "locality-aware sub-graphs: the DAG cut into sub-graphs whose x fits in a block's shared memory, one block per sub-graph, one launch per sub-graph level, rows in conflict-free slots (paper 004)",
  .ilu             = PETSC_TRUE,
  .icc             = PETSC_TRUE,
  .analyze         = SpTrsvAnalyze_locality,
  .exec            = {&SpTrsvExecHost_locality, SPTRSV_CUDA_EXEC(locality)},
  .options_size    = sizeof(SpTrsvLocalityOptions),
  .options_default = SpTrsvOptionsDefault_locality,
  .options_set     = SpTrsvOptionsSet_locality,
  .citation        = cite_picciau,
  .cited           = &cited_picciau,
  .rule_rank       = {1, 4, 4},
  .auto_refine     = SpTrsvAutoRefine_locality,
};
