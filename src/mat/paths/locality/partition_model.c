/*
   The locality path's choice of partition (-mat_sptrsv_locality_partition auto|paper|regions), plain C: a cost model
   of the kernel of src/cuda/paths/locality/locality.cu from host figures, and the choice of the partitioner and of the region
   size R it drives.

   The kernel runs one launch per sub-graph level and one block per sub-graph; a block goes through its rows (b minus
   the external entries), then its slots one by one with a barrier after each. So a launch costs
       alpha                                   launch and drain (a kernel node of a CUDA graph)
     + beta_s * S * waves                      S: the most slots of a sub-graph of the launch (the barrier steps of the
                                               slowest block); waves: ceil(sub-graphs / resident blocks); s: the
                                               launch's stage (what its blocks copy to shared memory, as the analysis
                                               picks it: the highest that fits its largest sub-graph)
     + gamma * max(Wmax, W / SMs)              W: rows + entries of the launch, Wmax: those of its largest sub-graph
                                               (a block runs on one SM: a big sub-graph is bound by one SM's throughput)
   and a triangle the sum over its launches. Resident blocks = SMs * blocks per SM, the latter bounded by 2048 threads,
   32 blocks, and 228 KB of shared memory per SM on sm_90 (the launch's staged bytes plus 1 KB reserved).

   The constants come from the H100 runs in docs/perf-data/history/ (paths-run1, locality-run1, locality-csr-graph,
   paper partition), taking figures this model computes on the host:
   - beta = 0.4 us: olm1000 (one sub-graph, 1000 slots of one row each: 0.41 ms for L);
   - gamma = 2 ns: the grid Laplacians, whose sub-graphs form a chain of full sub-graphs (29056 rows) with few slots,
     one block at a time: lap3d7 128^3 L is 73 launches of ~116,000 rows + entries in 19.3 ms (265 us each, 2.3 ns per
     unit), lap2d5 1000^2 L 35 launches of ~87,000 in 6.0 ms (1.95 ns);
   - alpha = 2 us: the small matrices that fit one sub-graph, once beta and gamma are taken out (494_bus 11 slots and
     ~1100 units: 10.6 us measured for the whole solve; nnc1374: 13 us), less the solve's fixed cost, which both
     partitions pay the same.
   These first values were refitted (locality run 2, 29 matrices, L then U of both partitions: rms relative error 18.5%)
   by examples/benchmarks/fit-locality-model.py from the model's own factors (bench -bench_locality_estimate prints
   launches, slot-waves and work) and the CSV: alpha = 3.0 us, beta = 0.56 us, gamma = 1.8 ns. With them nnc1374's
   upper triangle keeps the paper's single sub-graph (1 launch) instead of 5 launches of regions (measured 25.0 us
   against 29.6 us for L then U), and every matrix of that run whose two triangles the model ranks the same way gets
   its faster partition. Those timings are of the kernel without staging or long rows (stage 0, no packing).

   Staged fit (locality run 5, the kernel that stages the inverse diagonals and loads each slot's first round one slot
   ahead): one beta per stage, fitted with the others by `fit-locality-model.py --stages` on 83 (matrix, variant)
   timings of L then U (the default, stage 1 only, and the paper's partition; docs/perf-data/locality-run5-*.csv):
   alpha = 2.37 us, beta_0/1/2 = 0.635/0.551/0.427 us, gamma = 1.9 ns, rms relative error 13.9%. A slot costs a third
   less from shared memory than with nothing staged, which is what makes the regions of a banded chain (a few hundred
   rows, entries staged) beat the paper's full sub-graphs (x alone fills the shared memory) despite their launches.

   The choice: paper builds the paper's partition; regions tries R = 64, 256, 1024, 4096, 16384 up to nmax (nmax when
   smaller), in that order, stopping once a prediction exceeds the best so far by 25% (the predictions of one triangle
   fall, then rise with R: fewer launches against fewer blocks per launch and longer slots), and keeps the R of the
   lowest prediction; auto does both and keeps the regions when they are predicted at least 10% faster (the model's
   own accuracy; the paper's partition is the measured default). -ksp_view shows every candidate's prediction.
*/
#include <sptrsv/paths/partition.h>

const char *const SpTrsvLocalityPartitioners[] = {"auto", "paper", "regions", "SpTrsvLocalityPartitioner", "SPTRSV_LOCALITY_PARTITION_", NULL};

#define SPTRSV_MODEL_ALPHA_US    2.37
static const PetscReal SpTrsvModelBetaUs[SPTRSV_LOCALITY_MAX_STAGE + 1] = {0.635, 0.551, 0.427}; /* by stage */
#define SPTRSV_MODEL_GAMMA_US    0.0019
#define SPTRSV_MODEL_SMEM_PER_SM (228 * 1024)
#define SPTRSV_MODEL_REGION_MIN  64
#define SPTRSV_MODEL_REGION_MAX  16384
#define SPTRSV_MODEL_STOP        1.25 /* the candidates R stop once a prediction exceeds the best so far by this factor */
#define SPTRSV_MODEL_MARGIN      0.9  /* auto takes the regions only when predicted below this fraction of the paper's */

/*
  SpTrsvLocalityEstimateCreate - the figures and the predicted time of a partition of the DAG of n rows (dependencies
  rj[ri[i] .. ri[i+1]-1]) whose sub, slot, sublevel are set (see the top of this file)
*/
PetscErrorCode SpTrsvLocalityEstimateCreate(PetscInt n, const PetscInt *ri, const PetscInt *rj, const SpTrsvPartition *part, const SpTrsvLocalityDevice *dev, SpTrsvLocalityEstimate *est)
{
  const PetscInt ns = part->nsub, nl = part->nsublevels, sms = PetscMax(dev->sms, 1);
  PetscInt      *rows, *ents, *slots, next = 0, block;
  PetscInt64     maxrows = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(est, sizeof(*est)));
  est->launches = nl;
  est->nsub     = ns;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc3(ns + 1, &rows, ns + 1, &ents, ns + 1, &slots));
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt g = part->sub[i];
    rows[g]++;
    ents[g] += ri[i + 1] - ri[i];
    slots[g] = PetscMax(slots[g], part->slot[i] + 1);
    for (PetscInt q = ri[i]; q < ri[i + 1]; q++) next += part->sub[rj[q]] != g;
  }
  for (PetscInt g = 0; g < ns; g++) maxrows = PetscMax(maxrows, rows[g]);
  block = (PetscInt)PetscMin((PetscInt64)SPTRSV_LOCALITY_MAX_BLOCK, PetscMax((PetscInt64)32, ((PetscInt64)dev->lanes * maxrows + 31) / 32 * 32)); /* as SpTrsvLocalityBuild */
  est->max_rows   = (PetscInt)maxrows;
  est->ext_frac   = ri[n] ? (PetscReal)next / (PetscReal)ri[n] : 0.0;
  est->mean_subs  = nl ? (PetscReal)ns / (PetscReal)nl : 0.0;
  est->mean_slots = ns ? (PetscReal)part->nslots / (PetscReal)ns : 0.0;
  /* the launches: sub-graphs of level l are a contiguous range (numbered by level) */
  for (PetscInt g0 = 0, g1; g0 < ns; g0 = g1) {
    PetscInt   S = 0, mrows = 0, bps, st = PetscMin(PetscMax(dev->max_stage, 0), SPTRSV_LOCALITY_MAX_STAGE);
    PetscInt64 W = 0, Wmax = 0, ments = 0;
    PetscReal  waves;
    for (g1 = g0; g1 < ns && part->sublevel[g1] == part->sublevel[g0]; g1++) {
      S     = PetscMax(S, slots[g1]);
      mrows = PetscMax(mrows, rows[g1]);
      ments = PetscMax(ments, (PetscInt64)ents[g1]);
      W += rows[g1] + ents[g1];
      Wmax = PetscMax(Wmax, (PetscInt64)rows[g1] + ents[g1]);
    }
    /* the launch's stage and shared memory, as SpTrsvLocalityBuild gives them (its largest rows, entries, slots) */
    while (st > 0 && SpTrsvLocalityStageBytes(st, mrows, ments, S) > SPTRSV_LOCALITY_SMEM_BYTES) st--;
    bps = PetscMin(32, 2048 / block);
    bps = PetscMin(bps, (PetscInt)(SPTRSV_MODEL_SMEM_PER_SM / ((size_t)SpTrsvLocalityStageBytes(st, mrows, ments, S) + 1024)));
    bps = PetscMax(bps, 1);
    waves = PetscCeilReal((PetscReal)(g1 - g0) / (PetscReal)(sms * bps));
    est->max_subs = PetscMax(est->max_subs, g1 - g0);
    est->crit_slots += S;
    est->slot_waves += (PetscReal)S * waves;
    est->slot_waves_stage[st] += (PetscReal)S * waves;
    est->work += PetscMax((PetscReal)Wmax, (PetscReal)W / (PetscReal)sms);
    est->predicted_us += SPTRSV_MODEL_ALPHA_US + SpTrsvModelBetaUs[st] * (PetscReal)S * waves + SPTRSV_MODEL_GAMMA_US * PetscMax((PetscReal)Wmax, (PetscReal)W / (PetscReal)sms);
  }
  PetscCall(PetscFree3(rows, ents, slots));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPartitionChoose - the partition of the locality path: the requested partitioner, or for auto the one with the
  lower prediction; regions with the best R of the candidates (see the top of this file). part is the chosen
  partition, with its levels and slots computed from their definitions (feasibility checked edge by edge).
*/
PetscErrorCode SpTrsvPartitionChoose(PetscInt n, const PetscInt *ri, const PetscInt *rj, PetscInt nmax, SpTrsvLocalityPartitioner req, const SpTrsvLocalityDevice *dev, SpTrsvPartition *part, SpTrsvLocalityChoice *choice)
{
  SpTrsvPartition paper, cand;
  PetscInt        bestR = 0;
  PetscReal       best  = PETSC_MAX_REAL;
  SpTrsvRegions   reg   = NULL;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(choice, sizeof(*choice)));
  choice->requested = req;
  if (req != SPTRSV_LOCALITY_PARTITION_REGIONS) {
    PetscCall(SpTrsvPartitionCreate(n, ri, rj, nmax, &paper));
    PetscCall(SpTrsvLocalityEstimateCreate(n, ri, rj, &paper, dev, &choice->paper));
    choice->have_paper = PETSC_TRUE;
    if (req == SPTRSV_LOCALITY_PARTITION_PAPER) {
      *part = paper;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  /* regions: the candidates R */
  {
    PetscInt R = SPTRSV_MODEL_REGION_MIN;
    if (nmax < R) choice->cand_rows[choice->ncand++] = nmax;
    for (; R <= PetscMin(nmax, SPTRSV_MODEL_REGION_MAX) && choice->ncand < 16; R *= 4) {
      choice->cand_rows[choice->ncand++] = R;
      if (R >= n) break; /* one region holds the whole triangle: larger R give the same partition */
    }
  }
  PetscCall(SpTrsvRegionsCreate(n, ri, rj, &reg));
  for (PetscInt c = 0; c < choice->ncand; c++) {
    SpTrsvLocalityEstimate e;
    SpTrsvPartition        p;
    PetscCall(SpTrsvRegionsPartition(reg, choice->cand_rows[c], nmax, dev->pack, PETSC_FALSE, &p));
    PetscCall(SpTrsvLocalityEstimateCreate(n, ri, rj, &p, dev, &e));
    choice->cand_us[c] = e.predicted_us;
    if (e.predicted_us < best) {
      if (bestR) PetscCall(SpTrsvPartitionDestroy(&cand));
      best  = e.predicted_us;
      bestR = choice->cand_rows[c];
      cand  = p;
    } else {
      PetscCall(SpTrsvPartitionDestroy(&p));
      if (e.predicted_us > SPTRSV_MODEL_STOP * best) { /* past the minimum: larger regions only get slower */
        choice->ncand = c + 1;
        break;
      }
    }
  }
  /* the chosen R again, with levels and slots recomputed from the partition alone (feasibility checked edge by edge)
     and checked against the coarse time */
  PetscCall(SpTrsvPartitionDestroy(&cand));
  PetscCall(SpTrsvRegionsPartition(reg, bestR, nmax, dev->pack, PETSC_TRUE, &cand));
  PetscCall(SpTrsvRegionsDestroy(&reg));
  PetscCall(SpTrsvLocalityEstimateCreate(n, ri, rj, &cand, dev, &choice->regions));
  choice->have_regions = PETSC_TRUE;
  if (choice->have_paper && choice->paper.predicted_us * SPTRSV_MODEL_MARGIN <= choice->regions.predicted_us) {
    *part = paper;
    PetscCall(SpTrsvPartitionDestroy(&cand));
  } else {
    if (choice->have_paper) PetscCall(SpTrsvPartitionDestroy(&paper));
    *part = cand;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
