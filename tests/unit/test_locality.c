static char help[] = "Unit tests of the locality path's analysis (paper 004): the sub-graph partition is feasible (edges only from a lower or\n"
                     "equal sub-graph to a higher one, at most n_max rows each), its sub-graph levels and time slots are exact and\n"
                     "conflict-free, on hand-checked, random and structured triangles (banded, block-diagonal, chains, empty rows,\n"
                     "stars, grids), both orientations, many caps; a corrupted partition or schedule is rejected; the host executor\n"
                     "matches the level path, and MatSolve, MatSolveTranspose, MatMatSolve(Transpose) match PETSc's ILU/ICC. The region\n"
                     "partition (compact regions, coarse time) on the same triangles, grid Laplacians and the shipped matrices: feasible,\n"
                     "levels = coarse time, parallel launches on grids within the tiles' bound, and the automatic choice.\n"
                     "  -matdir <dir>  directory of the Matrix Market test matrices (default tests/data/matrices: run from the repository root)\n";

#include <sptrsv/paths/locality.h>
#include <petscksp.h>
#include "../../examples/common/stencil.h"
#include "unit_common.h"
#include "../../examples/common/mmload.h"
#include "test_helpers.h"
#define OPTS_LOCALITY(o) ((SpTrsvLocalityOptions *)SpTrsvPathOptionsOwn(o, &SpTrsvPath_locality)) /* its own options inside o */

static char matdir[PETSC_MAX_PATH_LEN] = "tests/data/matrices";

typedef enum {
  SHAPE_RANDOM,
  SHAPE_BANDED,
  SHAPE_BLOCKDIAG,
  SHAPE_CHAINS,
  SHAPE_EMPTY,
  SHAPE_SPARSEROWS,
  SHAPE_STAR,
  SHAPE_GRID,
  SHAPE_N
} Shape;
static const char *ShapeNames[] = {"random", "banded", "block-diagonal", "chains", "empty", "mostly-empty-rows", "star", "grid"};

/* partitions whose large components needed more than one greedy attempt (a fallback), and partitions where a large
   component's split put several sub-graphs on level 0 (n_init > 1 succeeded) */
static PetscInt nfallback = 0, nwide = 0;
/* host solves whose plan had long rows (a warp each on the GPU), and regions partitions where packing joined pieces */
static PetscInt nlongplans = 0, npackedparts = 0;

/* a strict lower pattern of n rows (columns ascending) of one of the shapes; param: density, bandwidth, block size,
   number of chains */
static PetscErrorCode MakePattern(PetscRandom rnd, Shape shape, PetscInt n, PetscReal param, PetscInt **ai, PetscInt **aj)
{
  PetscInt nnz = 0, cap = 8 * n + 16, nx = 1, bstart = 0, bsize = 1;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, ai));
  PetscCall(PetscMalloc1(cap, aj));
  while (nx * nx < n) nx++;
  (*ai)[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt lo = 0, hi = 0; /* random candidates j in [lo, hi) kept with probability pr */
    PetscReal pr = 0;
    switch (shape) {
    case SHAPE_RANDOM:
      lo = 0, hi = i, pr = param;
      break;
    case SHAPE_BANDED:
      lo = PetscMax(0, i - (PetscInt)param), hi = i, pr = 0.7;
      break;
    case SHAPE_BLOCKDIAG:
      if (i >= bstart + bsize) {
        bstart = i;
        bsize  = 1 + (PetscInt)(Rand(rnd) * param);
      }
      lo = bstart, hi = i, pr = 0.3;
      break;
    case SHAPE_CHAINS:
      if (i >= (PetscInt)param) lo = i - (PetscInt)param, hi = lo + 1, pr = 1.0;
      break;
    case SHAPE_EMPTY:
      break;
    case SHAPE_SPARSEROWS:
      if (Rand(rnd) < 0.2) lo = 0, hi = i, pr = 2.5 / (i + 1);
      break;
    case SHAPE_STAR: /* row 0 the root, every other row depends on it, the last on every row */
      if (i == n - 1) lo = 0, hi = i, pr = 1.0;
      else if (i > 0) lo = 0, hi = 1, pr = 1.0;
      break;
    case SHAPE_GRID: /* 5-point: south and west neighbours on an nx-wide grid (columns ascending) */
      if (i >= nx) (*aj)[nnz++] = i - nx;
      if (i % nx) (*aj)[nnz++] = i - 1;
      break;
    default:
      break;
    }
    for (PetscInt j = lo; j < hi; j++)
      if (Rand(rnd) < pr) {
        if (nnz == cap) {
          cap *= 2;
          PetscCall(PetscRealloc(sizeof(PetscInt) * (size_t)cap, aj));
        }
        (*aj)[nnz++] = j;
      }
    (*ai)[i + 1] = nnz;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Verify - the partition checked from its definition, independently of SpTrsvPartitionCheck: feasible, at most nmax
  rows, levels and slots exact (1 + the max over the relevant dependencies), levels non-decreasing, the slot count, the
  components (each small one whole in one sub-graph, each large one in exactly ceil(size / nmax) sub-graphs)
*/
static PetscErrorCode Verify(const char *what, PetscInt n, const PetscInt *ri, const PetscInt *rj, PetscInt nmax, const SpTrsvPartition *p)
{
  /* the region partition keeps whole only the components of at most R rows, and makes as many sub-graphs as pairs */
  const PetscBool regions = (PetscBool)(p->kind == SPTRSV_LOCALITY_PARTITION_REGIONS);
  const PetscInt  whole_max = regions ? p->region_rows : nmax;
  PetscInt *size, *maxslot, *lev, *par, *csize, *csub, ncomp = 0, nlarge = 0, want_sub = 0, nslots = 0;
  PetscBool feasible = PETSC_TRUE, slots = PETSC_TRUE, levels = PETSC_TRUE, whole = PETSC_TRUE, ranges = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc3(p->nsub + 1, &size, p->nsub + 1, &maxslot, p->nsub + 1, &lev));
  PetscCall(PetscMalloc3(n + 1, &par, n + 1, &csize, n + 1, &csub));
  for (PetscInt i = 0; i < n; i++) {
    if (p->sub[i] < 0 || p->sub[i] >= p->nsub) {
      ranges = PETSC_FALSE;
      continue;
    }
    size[p->sub[i]]++;
  }
  EXPECT(ranges, "%s: a row outside the sub-graphs", what);
  if (!ranges) goto done;
  for (PetscInt g = 0; g < p->nsub; g++) {
    if (size[g] < 1 || size[g] > nmax) ranges = PETSC_FALSE;
    if (g && p->sublevel[g] < p->sublevel[g - 1]) levels = PETSC_FALSE;
    maxslot[g] = -1;
  }
  EXPECT(ranges, "%s: a sub-graph empty or over %" PetscInt_FMT " rows", what, nmax);
  for (PetscInt i = 0; i < n; i++) {
    PetscInt s = 0;
    for (PetscInt q = ri[i]; q < ri[i + 1]; q++) {
      const PetscInt j = rj[q], gi = p->sub[i], gj = p->sub[j];
      if (gj > gi) feasible = PETSC_FALSE;
      else if (gj == gi) s = PetscMax(s, p->slot[j] + 1);
      else lev[gi] = PetscMax(lev[gi], p->sublevel[gj] + 1);
      if (gj == gi && p->slot[j] >= p->slot[i]) slots = PETSC_FALSE;
      if (gj != gi && p->sublevel[gj] >= p->sublevel[gi]) levels = PETSC_FALSE;
    }
    if (p->slot[i] != s) slots = PETSC_FALSE;
    maxslot[p->sub[i]] = PetscMax(maxslot[p->sub[i]], p->slot[i]);
  }
  for (PetscInt g = 0; g < p->nsub; g++) {
    if (lev[g] != p->sublevel[g]) levels = PETSC_FALSE;
    nslots += maxslot[g] + 1;
  }
  EXPECT(feasible, "%s: an edge goes from a higher sub-graph to a lower one", what);
  EXPECT(slots, "%s: slots not 1 + the max over the in-sub-graph dependencies", what);
  EXPECT(levels, "%s: sub-graph levels wrong or decreasing", what);
  EXPECT(nslots == p->nslots, "%s: %" PetscInt_FMT " slots, counted %" PetscInt_FMT, what, p->nslots, nslots);
  EXPECT(!p->nsub || p->nsublevels == p->sublevel[p->nsub - 1] + 1, "%s: %" PetscInt_FMT " sub-graph levels", what, p->nsublevels);
  /* components */
  for (PetscInt i = 0; i < n; i++) par[i] = i;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = ri[i]; q < ri[i + 1]; q++) par[UnionFindRoot(par, i)] = UnionFindRoot(par, rj[q]);
  for (PetscInt i = 0; i < n; i++) {
    csize[i] = 0;
    csub[i]  = -1;
  }
  for (PetscInt i = 0; i < n; i++) csize[UnionFindRoot(par, i)]++;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt r = UnionFindRoot(par, i);
    if (csize[r] <= whole_max) {
      if (csub[r] < 0) csub[r] = p->sub[i];
      else if (csub[r] != p->sub[i]) whole = PETSC_FALSE;
    }
  }
  for (PetscInt i = 0; i < n; i++)
    if (UnionFindRoot(par, i) == i) {
      ncomp++;
      if (csize[i] > nmax) {
        nlarge++;
        want_sub += (csize[i] + nmax - 1) / nmax;
      }
    }
  EXPECT(whole, "%s: a component of at most %" PetscInt_FMT " rows is cut", what, nmax);
  EXPECT(ncomp == p->ncomp, "%s: %" PetscInt_FMT " components, counted %" PetscInt_FMT, what, p->ncomp, ncomp);
  if (!regions) {
    EXPECT(nlarge == p->nlarge, "%s: %" PetscInt_FMT " large components, counted %" PetscInt_FMT, what, p->nlarge, nlarge);
    EXPECT(p->nsub == p->nmerged + want_sub, "%s: %" PetscInt_FMT " sub-graphs, expected %" PetscInt_FMT " merged + %" PetscInt_FMT " split", what, p->nsub, p->nmerged, want_sub);
    EXPECT(p->nattempts >= p->nlarge, "%s: %" PetscInt_FMT " greedy attempts for %" PetscInt_FMT " large components", what, p->nattempts, p->nlarge);
  } else {
    PetscInt *seen, nlev0 = 0;
    /* a region is at most R rows and the sub-graphs of one level are regions: at least ceil(n / R) regions; every
       sub-graph within R rows; the regions cut at most the components larger than R... or split by room */
    EXPECT(p->region_rows >= 1 && p->region_rows <= nmax && p->nregions >= (n + p->region_rows - 1) / p->region_rows && p->nsub + p->npacked >= p->nregions, "%s: %" PetscInt_FMT " regions of at most %" PetscInt_FMT " rows, %" PetscInt_FMT " sub-graphs (+%" PetscInt_FMT " pieces packed)", what, p->nregions, p->region_rows, p->nsub, p->npacked);
    PetscCall(PetscCalloc1(p->nsub + 1, &seen));
    for (PetscInt i = 0; i < n; i++) seen[p->sub[i]]++;
    for (PetscInt g = 0; g < p->nsub; g++) {
      if (seen[g] > p->region_rows) ranges = PETSC_FALSE;
      nlev0 += p->sublevel[g] == 0;
    }
    EXPECT(ranges, "%s: a sub-graph larger than a region (%" PetscInt_FMT " rows)", what, p->region_rows);
    EXPECT(!n || nlev0 >= 1, "%s: no sub-graph on level 0", what);
    PetscCall(PetscFree(seen));
  }
done:
  PetscCall(PetscFree3(size, maxslot, lev));
  PetscCall(PetscFree3(par, csize, csub));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SpTrsvPartitionCheck must pass on p and fail (PETSC_ERR_PLIB) on a copy with a slot or a level made to conflict,
   and with a cap below the largest sub-graph */
static PetscErrorCode CheckAndCorrupt(const char *what, PetscInt n, const PetscInt *ri, const PetscInt *rj, SpTrsvPartition *p)
{
  PetscErrorCode ierr;
  PetscInt       maxsize = 0, *size;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = SpTrsvPartitionCheck(n, ri, rj, p);
  PetscCall(PetscPopErrorHandler());
  EXPECT(!ierr, "%s: SpTrsvPartitionCheck rejects the partition (error %d)", what, (int)ierr);
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = ri[i]; q < ri[i + 1]; q++) {
      const PetscInt j = rj[q];
      PetscInt       save, *field;
      if (p->sub[i] == p->sub[j]) field = &p->slot[i], save = *field, *field = p->slot[j];
      else field = &p->sublevel[p->sub[i]], save = *field, *field = p->sublevel[p->sub[j]];
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SpTrsvPartitionCheck(n, ri, rj, p);
      PetscCall(PetscPopErrorHandler());
      *field = save;
      EXPECT(ierr == PETSC_ERR_PLIB, "%s: a conflicting %s passed the check (error %d)", what, p->sub[i] == p->sub[j] ? "slot" : "sub-graph level", (int)ierr);
      i = n; /* one corruption per partition */
      break;
    }
  PetscCall(PetscCalloc1(p->nsub + 1, &size));
  for (PetscInt i = 0; i < n; i++) size[p->sub[i]]++;
  for (PetscInt g = 0; g < p->nsub; g++) maxsize = PetscMax(maxsize, size[g]);
  PetscCall(PetscFree(size));
  if (maxsize > 1) {
    const PetscInt nmax = p->nmax;
    p->nmax             = maxsize - 1;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SpTrsvPartitionCheck(n, ri, rj, p);
    PetscCall(PetscPopErrorHandler());
    p->nmax = nmax;
    EXPECT(ierr == PETSC_ERR_PLIB, "%s: a sub-graph over the cap passed the check (error %d)", what, (int)ierr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  KernelEmulation - what the CUDA kernel computes, from the arrays it reads: per sub-graph, b minus the external entries
  (ptr[k] .. split[k]-1, col = global row) into a buffer, then the slots with the internal entries (split[k] ..
  ptr[k+1]-1, col = offset in the buffer), then the write-back; values through emap
*/
static void KernelEmulation(const SpTrsvOp *op, SpTrsvPlan plan, const PetscScalar *b, PetscScalar *xl, PetscScalar *x)
{
  const SpTrsvLocalitySchedule *ls = (const SpTrsvLocalitySchedule *)plan->data;

  for (PetscInt l = 0; l < ls->nsublevels; l++)
    for (PetscInt g = ls->levptr[l]; g < ls->levptr[l + 1]; g++) {
      const PetscInt k0 = ls->subptr[g], k1 = ls->subptr[g + 1];
      for (PetscInt k = k0; k < k1; k++) {
        PetscScalar v = b[plan->order[k]];
        for (PetscInt q = ls->ptr[k]; q < ls->split[k]; q++) v -= op->ra[ls->emap[q]] * x[ls->col[q]];
        xl[k - k0] = v;
      }
      for (PetscInt sl = ls->sslot[g]; sl < ls->sslot[g + 1]; sl++)
        for (PetscInt k = ls->slotptr[sl]; k < ls->slotptr[sl + 1]; k++) {
          PetscScalar v = xl[k - k0];
          for (PetscInt q = ls->split[k]; q < ls->ptr[k + 1]; q++) v -= op->ra[ls->emap[q]] * xl[ls->col[q]];
          xl[k - k0] = op->unit ? v : v * op->idiag[plan->order[k]];
        }
      for (PetscInt k = k0; k < k1; k++) x[plan->order[k]] = xl[k - k0];
    }
}

/*
  Solves - the path end to end on the host: the plan of op(T) with this cap passes SpTrsvLocalityScheduleCheck (run by
  the host executor's setup), its solve matches the level path's to rounding, and a plan with one internal column moved
  to a wrong offset, or an external entry claimed by a sub-graph of the same level, is rejected
*/
static PetscErrorCode Solves(const char *what, SpTrsvTri t, PetscBool tr, PetscInt nmax, SpTrsvLocalityPartitioner kind, const PetscScalar *b, PetscScalar *x, PetscScalar *xref)
{
  SpTrsvPathOptions opts;
  SpTrsvPath          locality, level;
  SpTrsvSolver        s, ref;
  PetscReal           err = 0, nrm = 0;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathFind("locality", &locality));
  PetscCall(SpTrsvPathFind("level", &level));
  PetscCall(SpTrsvPathOptionsInitialize(&opts));
  OPTS_LOCALITY(&opts)->subgraph_rows      = nmax;
  OPTS_LOCALITY(&opts)->locality_partition = kind;
  OPTS_LOCALITY(&opts)->locality_stage     = nmax % (SPTRSV_LOCALITY_MAX_STAGE + 1); /* every stage bound across the caps */
  OPTS_LOCALITY(&opts)->locality_pack      = (PetscBool)(nmax % 2 == 0);
  OPTS_LOCALITY(&opts)->locality_kernel    = SPTRSV_LOCALITY_KERNEL_SLOTS; /* the sub-graph schedule (the chain kernel: test_locality_chain.c) */
  PetscCall(SpTrsvSolverCreateWithOptions(t, tr, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &opts, &ref));
  PetscCall(SpTrsvSolverCreateWithOptions(t, tr, SPTRSV_FORMAT_CSR, locality, &SpTrsvBackendHost, &opts, &s)); /* the host setup runs SpTrsvLocalityScheduleCheck: long rows, stages */
  {
    const SpTrsvLocalitySchedule *ls = (const SpTrsvLocalitySchedule *)s->plan->data;
    if (ls->nlong) nlongplans++;
    for (PetscInt l = 0; l < ls->nsublevels; l++) EXPECT(ls->levstage[l] <= OPTS_LOCALITY(&opts)->locality_stage, "%s: launch %" PetscInt_FMT " at stage %" PetscInt_FMT " above -mat_sptrsv_locality_stage %" PetscInt_FMT, what, l, ls->levstage[l], OPTS_LOCALITY(&opts)->locality_stage);
  }
  PetscCall(SpTrsvSolverApply(ref, b, xref));
  for (PetscInt i = 0; i < t->n; i++) x[i] = -12345.0;
  PetscCall(SpTrsvSolverApply(s, b, x));
  for (PetscInt i = 0; i < t->n; i++) {
    err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
    nrm = PetscMax(nrm, PetscAbsScalar(xref[i]));
  }
  EXPECT(err <= 1e-12 * PetscMax(nrm, 1.0), "%s: host solve differs from the level path by %g", what, (double)err);
  { /* the kernel's order of operations (external sum, then internal sums slot by slot) on the plan's arrays */
    PetscScalar *xl;
    PetscCall(PetscMalloc1(((SpTrsvLocalitySchedule *)s->plan->data)->max_sub_rows + 1, &xl));
    for (PetscInt i = 0; i < t->n; i++) x[i] = -12345.0;
    KernelEmulation(&s->op, s->plan, b, xl, x);
    PetscCall(PetscFree(xl));
    err = 0;
    for (PetscInt i = 0; i < t->n; i++) err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
    EXPECT(err <= 1e-12 * PetscMax(nrm, 1.0), "%s: the kernel's schedule, emulated, differs from the level path by %g", what, (double)err);
  }
  { /* corruptions the schedule check must catch */
    SpTrsvLocalitySchedule *ls = (SpTrsvLocalitySchedule *)s->plan->data;
    PetscErrorCode          ierr;
    for (PetscInt k = 0; k < t->n; k++) {
      if (ls->split[k] < ls->ptr[k + 1]) { /* an internal entry: point it at its own row */
        const PetscInt q = ls->split[k], save = ls->col[q];
        PetscInt       g = 0;
        while (ls->subptr[g + 1] <= k) g++;
        ls->col[q] = k - ls->subptr[g];
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        ierr = SpTrsvLocalityScheduleCheck(&s->op, s->plan);
        PetscCall(PetscPopErrorHandler());
        ls->col[q] = save;
        EXPECT(ierr == PETSC_ERR_PLIB, "%s: an internal entry read from its own row's word passed the check (error %d)", what, (int)ierr);
        break;
      }
    }
    if (ls->nsublevels > 1) { /* two levels merged into one: an external entry then comes from the same launch */
      const PetscInt save = ls->levptr[1];
      ls->levptr[1]       = ls->levptr[2];
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SpTrsvLocalityScheduleCheck(&s->op, s->plan);
      PetscCall(PetscPopErrorHandler());
      ls->levptr[1] = save;
      EXPECT(ierr == PETSC_ERR_PLIB, "%s: external entries from the same launch passed the check (error %d)", what, (int)ierr);
    }
  }
  PetscCall(SpTrsvSolverDestroy(&s));
  PetscCall(SpTrsvSolverDestroy(&ref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one pattern, both orientations (op(T) = T and T^T), every cap */
static PetscErrorCode TestPattern(const char *name, PetscInt n, PetscInt *ai, PetscInt *aj, PetscInt ncaps, const PetscInt *caps)
{
  SpTrsvTri    t;
  PetscScalar *b, *x, *xref;
  PetscBool    unit = (PetscBool)(n % 2); /* both kinds of diagonal */

  PetscFunctionBeginUser;
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, unit, ai, aj, &t));
  /* values: |entries| of a row sum below 1, diagonal in [1, 2): solutions of order one */
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt p = t->i[i]; p < t->i[i + 1]; p++) t->a[p] = (PetscScalar)(((i * 7 + p * 13) % 19) - 9) / (10.0 * (t->i[i + 1] - t->i[i]));
    if (!unit) t->idiag[i] = 1.0 / (1.0 + (PetscReal)((i * 5) % 11) / 11.0);
  }
  PetscCall(SpTrsvTriValuesChanged(t));
  PetscCall(PetscMalloc3(n + 1, &b, n + 1, &x, n + 1, &xref));
  for (PetscInt i = 0; i < n; i++) b[i] = (PetscScalar)((i * 3) % 17) / 17.0 - 0.5;
  for (PetscInt tr = 0; tr < 2; tr++)
    for (PetscInt c = 0; c < ncaps; c++) {
      SpTrsvOp        op;
      SpTrsvPartition p;
      char            what[256];
      const PetscInt  nmax = caps[c] > 0 ? caps[c] : n + 1 - caps[c]; /* caps <= 0: n + 1 - cap (all of it fits) */
      PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s n=%" PetscInt_FMT " nnz=%" PetscInt_FMT "%s nmax=%" PetscInt_FMT, name, n, op.nnz, tr ? " (transpose)" : "", nmax));
      PetscCall(SpTrsvPartitionCreate(n, op.ri, op.rj, nmax, &p));
      PetscCall(Verify(what, n, op.ri, op.rj, nmax, &p));
      if (p.nattempts > p.nlarge) nfallback++;
      {
        PetscInt on0 = 0;
        for (PetscInt g = 0; g < p.nsub; g++) on0 += p.sublevel[g] == 0;
        if (on0 > p.nmerged + p.nlarge) nwide++;
      }
      PetscCall(CheckAndCorrupt(what, n, op.ri, op.rj, &p));
      PetscCall(SpTrsvPartitionDestroy(&p));
      PetscCall(Solves(what, t, (PetscBool)tr, nmax, SPTRSV_LOCALITY_PARTITION_PAPER, b, x, xref));
      /* the region partition with R = nmax and R = nmax / 3 (at least 1), then the automatic choice */
      for (PetscInt k = 0; k < 4; k++) { /* packed and not */
        const PetscInt  R    = k % 2 ? PetscMax(1, nmax / 3) : nmax;
        const PetscBool pack = (PetscBool)(k < 2);
        PetscCall(PetscSNPrintf(what, sizeof(what), "%s n=%" PetscInt_FMT " nnz=%" PetscInt_FMT "%s nmax=%" PetscInt_FMT " regions R=%" PetscInt_FMT "%s", name, n, op.nnz, tr ? " (transpose)" : "", nmax, R, pack ? " packed" : ""));
        PetscCall(SpTrsvPartitionCreateRegions(n, op.ri, op.rj, R, nmax, pack, &p));
        PetscCall(Verify(what, n, op.ri, op.rj, nmax, &p));
        PetscCall(CheckAndCorrupt(what, n, op.ri, op.rj, &p));
        EXPECT(pack || !p.npacked, "%s: %" PetscInt_FMT " pieces packed without packing", what, p.npacked);
        if (p.npacked) npackedparts++;
        PetscCall(SpTrsvPartitionDestroy(&p));
      }
      PetscCall(Solves(what, t, (PetscBool)tr, nmax, SPTRSV_LOCALITY_PARTITION_REGIONS, b, x, xref));
      PetscCall(Solves(what, t, (PetscBool)tr, nmax, SPTRSV_LOCALITY_PARTITION_AUTO, b, x, xref));
    }
  PetscCall(PetscFree3(b, x, xref));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* hand-checked: a chain 0-1-2, an isolated row 3, a pair 4 -> 5; nmax = 3 merges {3} and {4,5} (smallest first: 1 + 2
   rows) and keeps the chain whole: 2 sub-graphs on one level, slots 2 + 3. A 10-row chain with nmax = 4: one root,
   n_split = 3 sub-graphs {0..3} {4..7} {8,9} on levels 0, 1, 2, 10 slots. */
static PetscErrorCode TestHand(void)
{
  const PetscInt  ai[] = {0, 0, 1, 2, 2, 2, 3}, aj[] = {0, 1, 4};
  const PetscInt  sub[] = {1, 1, 1, 0, 0, 0}, slot[] = {0, 1, 2, 0, 0, 1};
  PetscInt        ci[11], cj[9];
  SpTrsvPartition p;
  PetscBool       same1, same2;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPartitionCreate(6, ai, aj, 3, &p));
  PetscCall(PetscArraycmp(p.sub, sub, 6, &same1));
  PetscCall(PetscArraycmp(p.slot, slot, 6, &same2));
  EXPECT(p.nsub == 2 && p.nsublevels == 1 && p.nslots == 5 && p.ncomp == 3 && p.nmerged == 2 && p.nlarge == 0 && same1 && same2, "hand: %" PetscInt_FMT " sub-graphs, %" PetscInt_FMT " levels, %" PetscInt_FMT " slots, %" PetscInt_FMT " components, %s sub-graphs, %s slots", p.nsub, p.nsublevels, p.nslots, p.ncomp, same1 ? "right" : "wrong", same2 ? "right" : "wrong");
  PetscCall(SpTrsvPartitionDestroy(&p));
  ci[0] = 0;
  for (PetscInt i = 0; i < 10; i++) {
    if (i) cj[i - 1] = i - 1;
    ci[i + 1] = i;
  }
  PetscCall(SpTrsvPartitionCreate(10, ci, cj, 4, &p));
  {
    const PetscInt csub[] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2}, cslot[] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1}, clev[] = {0, 1, 2};
    PetscBool      s3;
    PetscCall(PetscArraycmp(p.sub, csub, 10, &same1));
    PetscCall(PetscArraycmp(p.slot, cslot, 10, &same2));
    PetscCall(PetscArraycmp(p.sublevel, clev, 3, &s3));
    EXPECT(p.nsub == 3 && p.nsublevels == 3 && p.nslots == 10 && p.nlarge == 1 && p.nattempts == 1 && same1 && same2 && s3, "hand chain: %" PetscInt_FMT " sub-graphs, %" PetscInt_FMT " levels, %" PetscInt_FMT " slots, %" PetscInt_FMT " attempts", p.nsub, p.nsublevels, p.nslots, p.nattempts);
  }
  PetscCall(SpTrsvPartitionDestroy(&p));
  /* no rows */
  PetscCall(SpTrsvPartitionCreate(0, ci, cj, 4, &p));
  EXPECT(p.nsub == 0 && p.nsublevels == 0 && p.nslots == 0, "empty: %" PetscInt_FMT " sub-graphs", p.nsub);
  PetscCall(SpTrsvPartitionDestroy(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a large component with many roots: the first attempts (n_init > 1) may fail and fall back; the result is still
   exactly ceil(n / nmax) sub-graphs (Verify), and several sub-graphs share level 0 when n_init > 1 succeeded */
static PetscErrorCode TestManyRoots(PetscRandom rnd)
{
  const PetscInt n = 400;
  PetscInt      *ai, *aj, nnz = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &ai, 4 * n, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) { /* rows 0..99 roots, each later row depends on 1-3 random earlier rows */
    if (i >= 100) {
      PetscInt c[3], m = 1 + (PetscInt)(Rand(rnd) * 3);
      for (PetscInt t = 0; t < m; t++) c[t] = (PetscInt)(Rand(rnd) * i);
      PetscCall(PetscSortRemoveDupsInt(&m, c));
      for (PetscInt t = 0; t < m; t++) aj[nnz++] = c[t];
    }
    ai[i + 1] = nnz;
  }
  {
    const PetscInt caps[] = {7, 30, 50, 101, 399};
    const PetscInt f0 = nfallback, w0 = nwide;
    PetscCall(TestPattern("many-roots", n, ai, aj, 5, caps));
    EXPECT(nfallback > f0, "many roots: no partition needed a fallback (the retries are untested)");
    EXPECT(nwide > w0, "many roots: no split put two sub-graphs on level 0 (n_init > 1 never succeeded)");
  }
  PetscCall(PetscFree2(ai, aj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the strict lower (upper = PETSC_FALSE) or strict upper triangle of A's pattern as a DAG (row i depends on its
   columns): the pattern of op(L) or op(U) of A's ILU(0) factor */
static PetscErrorCode TrianglePattern(Mat A, PetscBool upper, PetscInt *n, PetscInt **ai, PetscInt **aj)
{
  const PetscInt *ia, *ja;
  PetscInt        m, nnz = 0;
  PetscBool       done;

  PetscFunctionBeginUser;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "no row access");
  PetscCall(PetscMalloc1(m + 1, ai));
  PetscCall(PetscMalloc1(ia[m] + 1, aj));
  (*ai)[0] = 0;
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt q = ia[i]; q < ia[i + 1]; q++)
      if (upper ? ja[q] > i : ja[q] < i) (*aj)[nnz++] = ja[q];
    (*ai)[i + 1] = nnz;
  }
  *n = m; /* before the restore, which clears m */
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  TestRegionsGrid - the region partition of the triangles of grid Laplacians (2-D 5/9 points, 3-D 7/27 points, L and
  U): feasible and exact (Verify, SpTrsvPartitionCheck and its corruptions), more than one sub-graph per launch (mean
  and max), and at most twice the launches of tiles: a grid of m_1 x ... x m_d points in tiles of side s = R^(1/d)
  has about sum_k c_k (ceil(m_k / s) + 1) wavefronts of tiles, where c_k is the step of the triangle's level along
  dimension k (5 and 7 points: 1 each; 9 points 1, 2; 27 points 1, 2, 4: the diagonal dependencies make a level x +
  2y (+ 4z)). The best R's prediction is never above the paper's (R up to the whole triangle is a candidate), and when
  expect_regions the automatic choice takes the regions (on small grids the two are predicted alike: the paper's stays).
*/
static PetscErrorCode TestRegionsGrid(PetscInt mx, PetscInt my, PetscInt mz, PetscInt npts, PetscInt R, PetscBool expect_regions)
{
  Mat            A;
  const PetscInt d = mz > 1 ? 3 : 2, diag = npts == 9 || npts == 27;
  PetscInt       s = 1, bound;

  PetscFunctionBeginUser;
  while ((d == 2 ? (s + 1) * (s + 1) : (s + 1) * (s + 1) * (s + 1)) <= R) s++;
  bound = 2 * ((mx + s - 1) / s + 1 + (diag ? 2 : 1) * ((my + s - 1) / s + 1) + (d == 3 ? (diag ? 4 : 1) * ((mz + s - 1) / s + 1) : 0));
  PetscCall(SpTrsvBuildStencil(mx, my, mz, npts, &A));
  for (PetscInt up = 0; up < 2; up++) {
    PetscInt              n, *ai, *aj;
    SpTrsvPartition       p;
    SpTrsvLocalityEstimate e;
    SpTrsvLocalityDevice  dev = {SPTRSV_LOCALITY_DEFAULT_SMS, 2, PETSC_TRUE, SPTRSV_LOCALITY_MAX_STAGE};
    SpTrsvLocalityChoice  ch;
    char                  what[128];

    PetscCall(TrianglePattern(A, (PetscBool)up, &n, &ai, &aj));
    PetscCall(PetscSNPrintf(what, sizeof(what), "grid %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " %" PetscInt_FMT "-point %s regions R=%" PetscInt_FMT, mx, my, mz, npts, up ? "U" : "L", R));
    PetscCall(SpTrsvPartitionCreateRegions(n, ai, aj, R, 29056, PETSC_TRUE, &p));
    PetscCall(Verify(what, n, ai, aj, 29056, &p));
    PetscCall(CheckAndCorrupt(what, n, ai, aj, &p));
    PetscCall(SpTrsvLocalityEstimateCreate(n, ai, aj, &p, &dev, &e));
    EXPECT(e.launches == p.nsublevels && e.nsub == p.nsub, "%s: the estimate counts %" PetscInt_FMT " launches, %" PetscInt_FMT " sub-graphs", what, e.launches, e.nsub);
    EXPECT(e.mean_subs > 1.0 && e.max_subs > 1, "%s: %.2f sub-graphs per launch (max %" PetscInt_FMT "): no parallelism", what, (double)e.mean_subs, e.max_subs);
    EXPECT(p.nsublevels <= bound, "%s: %" PetscInt_FMT " launches, more than twice the tiles' %" PetscInt_FMT, what, p.nsublevels, bound / 2);
    PetscCall(PetscInfo(NULL, "%s: %" PetscInt_FMT " launches (tiles of side %" PetscInt_FMT ": %" PetscInt_FMT "), %.1f sub-graphs per launch, max %" PetscInt_FMT ", predicted %.1f us\n", what, p.nsublevels, s, bound / 2, (double)e.mean_subs, e.max_subs, (double)e.predicted_us));
    PetscCall(SpTrsvPartitionDestroy(&p));
    /* the automatic choice */
    PetscCall(SpTrsvPartitionChoose(n, ai, aj, 29056, SPTRSV_LOCALITY_PARTITION_AUTO, &dev, &p, &ch));
    PetscCall(PetscInfo(NULL, "%s: auto chose %s (predicted paper %.1f us, regions %.1f us)\n", what, SpTrsvLocalityPartitioners[p.kind], (double)ch.paper.predicted_us, (double)ch.regions.predicted_us));
    /* a grid of a few nmax rows: the paper's chain of 2-3 full sub-graphs may win (refitted model: 200x200, 2 launches);
       from 4 nmax rows on, the chain's serial sub-graphs must lose to the regions' wavefronts of tiles */
    EXPECT(ch.have_paper && ch.have_regions && ch.ncand >= 1 && (n <= 4 * 29056 || ch.regions.predicted_us <= ch.paper.predicted_us * 1.0001), "%s: the regions (best R) predicted slower (%.1f us) than the paper's partition (%.1f us)", what, (double)ch.regions.predicted_us, (double)ch.paper.predicted_us);
    if (expect_regions) EXPECT(p.kind == SPTRSV_LOCALITY_PARTITION_REGIONS && ch.regions.launches == p.nsublevels, "%s: auto chose %s (predicted paper %.1f us, regions %.1f us)", what, SpTrsvLocalityPartitioners[p.kind], (double)ch.paper.predicted_us, (double)ch.regions.predicted_us);
    PetscCall(PetscSNPrintf(what, sizeof(what), "grid %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " %" PetscInt_FMT "-point %s auto", mx, my, mz, npts, up ? "U" : "L"));
    PetscCall(Verify(what, n, ai, aj, 29056, &p));
    PetscCall(SpTrsvPartitionDestroy(&p));
    PetscCall(PetscFree(ai));
    PetscCall(PetscFree(aj));
  }
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  TestRegionsChoice - the automatic choice on banded chains (every partition has at least as many slots on its critical
  path as levels): one that fits one sub-graph keeps the paper's partition (one launch); one larger than a sub-graph
  takes regions small enough to stage their entries (the paper's full sub-graphs stage nothing); the paper's and the
  regions' predictions are both recorded, the candidates R are tried in increasing order
*/
static PetscErrorCode TestRegionsChoice(void)
{
  const PetscInt       sizes[] = {1000, 100000};
  SpTrsvLocalityDevice dev     = {SPTRSV_LOCALITY_DEFAULT_SMS, 2, PETSC_TRUE, SPTRSV_LOCALITY_MAX_STAGE};

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 2; k++) {
    const PetscInt       n = sizes[k];
    PetscInt            *ai, *aj, nnz = 0;
    SpTrsvPartition      p;
    SpTrsvLocalityChoice ch;
    PetscCall(PetscMalloc2(n + 1, &ai, 3 * n + 1, &aj));
    ai[0] = 0;
    for (PetscInt i = 0; i < n; i++) { /* banded, half-bandwidth 3 */
      for (PetscInt j = PetscMax(0, i - 3); j < i; j++) aj[nnz++] = j;
      ai[i + 1] = nnz;
    }
    PetscCall(SpTrsvPartitionChoose(n, ai, aj, 29056, SPTRSV_LOCALITY_PARTITION_AUTO, &dev, &p, &ch));
    /* n = 1000: one sub-graph either way, staged entirely: the paper's (one launch); n = 100000: the paper's sub-graphs
       of 29056 rows can stage nothing (x fills the shared memory), regions of at most a few thousand rows stage their
       entries, and a chain's slots cost less from shared memory than the extra launches */
    if (k == 0) EXPECT(p.kind == SPTRSV_LOCALITY_PARTITION_PAPER && ch.have_paper && ch.have_regions && ch.paper.launches == p.nsublevels, "banded chain n=%" PetscInt_FMT ": auto chose %s (predicted paper %.1f us, regions %.1f us)", n, SpTrsvLocalityPartitioners[p.kind], (double)ch.paper.predicted_us, (double)ch.regions.predicted_us);
    else EXPECT(p.kind == SPTRSV_LOCALITY_PARTITION_REGIONS && ch.have_paper && ch.have_regions && ch.regions.launches == p.nsublevels && ch.regions.slot_waves_stage[2] == ch.regions.slot_waves && ch.paper.slot_waves_stage[0] == ch.paper.slot_waves, "banded chain n=%" PetscInt_FMT ": auto chose %s (predicted paper %.1f us at stage 0 for %.0f of %.0f slot-waves, regions %.1f us at stage 2 for %.0f)", n, SpTrsvLocalityPartitioners[p.kind], (double)ch.paper.predicted_us, (double)ch.paper.slot_waves_stage[0], (double)ch.paper.slot_waves, (double)ch.regions.predicted_us, (double)ch.regions.slot_waves_stage[2]);
    EXPECT(ch.paper.crit_slots >= n && ch.regions.crit_slots >= n, "banded chain n=%" PetscInt_FMT ": %" PetscInt_FMT " and %" PetscInt_FMT " slots on the critical path, fewer than the %" PetscInt_FMT " levels", n, ch.paper.crit_slots, ch.regions.crit_slots, n);
    for (PetscInt c = 1; c < ch.ncand; c++) EXPECT(ch.cand_rows[c] > ch.cand_rows[c - 1], "banded chain: candidates R not increasing");
    PetscCall(Verify("banded chain auto", n, ai, aj, 29056, &p));
    PetscCall(SpTrsvPartitionDestroy(&p));
    /* requested explicitly: no estimate of the other */
    PetscCall(SpTrsvPartitionChoose(n, ai, aj, 29056, SPTRSV_LOCALITY_PARTITION_REGIONS, &dev, &p, &ch));
    EXPECT(p.kind == SPTRSV_LOCALITY_PARTITION_REGIONS && !ch.have_paper && ch.have_regions, "banded chain n=%" PetscInt_FMT ": regions requested, %s made", n, SpTrsvLocalityPartitioners[p.kind]);
    PetscCall(Verify("banded chain regions", n, ai, aj, 29056, &p));
    PetscCall(SpTrsvPartitionDestroy(&p));
    PetscCall(PetscFree2(ai, aj));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* TestRegionsMatrices - the region partition (several R) and the automatic choice on the triangles of the shipped
   matrices (tests/data/matrices, -matdir): feasible and exact, the checks catch corruptions */
static PetscErrorCode TestRegionsMatrices(const char *matdir)
{
  const char    *names[] = {"494_bus", "adder_dcop_05", "bayer10", "bcsstk13", "bp_1200", "cryg2500", "nnc1374", "olm1000", "rajat19", "watt_2", "west0479"};
  const PetscInt Rs[]    = {1, 16, 64, 1024};

  PetscFunctionBeginUser;
  for (size_t f = 0; f < sizeof(names) / sizeof(names[0]); f++) {
    char      file[PETSC_MAX_PATH_LEN];
    PetscBool exists;
    Mat       A;
    PetscCall(PetscSNPrintf(file, sizeof(file), "%s/%s.mtx.gz", matdir, names[f]));
    PetscCall(PetscTestFile(file, 'r', &exists));
    EXPECT(exists, "missing %s (set -matdir)", file);
    if (!exists) continue;
    PetscCall(SpTrsvLoadMatrixMarket(file, &A));
    for (PetscInt up = 0; up < 2; up++) {
      PetscInt             n, *ai, *aj;
      SpTrsvPartition      p;
      SpTrsvLocalityChoice ch;
      SpTrsvLocalityDevice dev = {SPTRSV_LOCALITY_DEFAULT_SMS, 2, PETSC_TRUE, SPTRSV_LOCALITY_MAX_STAGE};
      char                 what[128];
      PetscCall(TrianglePattern(A, (PetscBool)up, &n, &ai, &aj));
      for (size_t k = 0; k < sizeof(Rs) / sizeof(Rs[0]); k++) {
        PetscCall(PetscSNPrintf(what, sizeof(what), "%s %s regions R=%" PetscInt_FMT, names[f], up ? "U" : "L", Rs[k]));
        SpTrsvPartition q;
        PetscCall(SpTrsvPartitionCreateRegions(n, ai, aj, Rs[k], 29056, PETSC_FALSE, &p));
        PetscCall(Verify(what, n, ai, aj, 29056, &p));
        PetscCall(CheckAndCorrupt(what, n, ai, aj, &p));
        /* packed: the same launches, no more sub-graphs, none over R rows (Verify: feasible, slots exact) */
        PetscCall(PetscSNPrintf(what, sizeof(what), "%s %s regions R=%" PetscInt_FMT " packed", names[f], up ? "U" : "L", Rs[k]));
        PetscCall(SpTrsvPartitionCreateRegions(n, ai, aj, Rs[k], 29056, PETSC_TRUE, &q));
        PetscCall(Verify(what, n, ai, aj, Rs[k], &q));
        PetscCall(CheckAndCorrupt(what, n, ai, aj, &q));
        EXPECT(q.nsublevels == p.nsublevels && q.nsub + q.npacked == p.nsub, "%s: %" PetscInt_FMT " launches and %" PetscInt_FMT " sub-graphs (+%" PetscInt_FMT " packed), unpacked %" PetscInt_FMT " and %" PetscInt_FMT, what, q.nsublevels, q.nsub, q.npacked, p.nsublevels, p.nsub);
        if (q.npacked) npackedparts++;
        PetscCall(SpTrsvPartitionDestroy(&q));
        PetscCall(SpTrsvPartitionDestroy(&p));
      }
      PetscCall(SpTrsvPartitionChoose(n, ai, aj, 29056, SPTRSV_LOCALITY_PARTITION_AUTO, &dev, &p, &ch));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s %s auto (%s)", names[f], up ? "U" : "L", SpTrsvLocalityPartitioners[p.kind]));
      PetscCall(Verify(what, n, ai, aj, 29056, &p));
      PetscCall(PetscInfo(NULL, "%s: paper %" PetscInt_FMT " launches %.1f us, regions R=%" PetscInt_FMT " %" PetscInt_FMT " launches %.1f us\n", what, ch.paper.launches, (double)ch.paper.predicted_us, p.kind == SPTRSV_LOCALITY_PARTITION_REGIONS ? p.region_rows : 0, ch.regions.launches, (double)ch.regions.predicted_us));
      PetscCall(SpTrsvPartitionDestroy(&p));
      PetscCall(PetscFree(ai));
      PetscCall(PetscFree(aj));
    }
    PetscCall(MatDestroy(&A));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ILU(levels)/ICC(levels) factors of A with type, the numeric phase with the same info (ICC: PETSc's positive-definite
   shift); the options (-mat_sptrsv_subgraph_rows) are read at the symbolic phase */
static PetscErrorCode Factor(Mat A, MatSolverType type, MatFactorType ft, PetscInt levels, MatOrderingType ord, Mat *F)
{
  MatFactorInfo info;
  IS            row, col;

  PetscFunctionBeginUser;
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels      = levels;
  info.fill        = 1.0;
  info.shifttype   = (PetscReal)(ft == MAT_FACTOR_ICC ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE);
  info.shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
  info.zeropivot   = 100.0 * PETSC_MACHINE_EPSILON;
  PetscCall(MatGetOrdering(A, ord, &row, &col));
  if (!*F) {
    PetscCall(MatGetFactor(A, type, ft, F));
    if (ft == MAT_FACTOR_ICC) PetscCall(MatICCFactorSymbolic(*F, A, row, &info));
    else PetscCall(MatILUFactorSymbolic(*F, A, row, col, &info));
  }
  if (ft == MAT_FACTOR_ICC) PetscCall(MatCholeskyFactorNumeric(*F, A, &info));
  else PetscCall(MatLUFactorNumeric(*F, A, &info));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  TestFactorSolves - the path behind PETSc's factor interface against PETSc's native factor: MatSolve,
  MatSolveTranspose (one column of the dense blocks each), MatMatSolve and MatMatSolveTranspose with 3 right-hand
  sides, before and after a numeric refactorization on the same pattern (new values, same analysis)
*/
static PetscErrorCode TestFactorSolves(PetscRandom rnd, PetscInt m, PetscReal beta, MatFactorType ft, PetscInt levels, MatOrderingType ord, const char *rows)
{
  Mat       A, Fn = NULL, Fs = NULL, B, X, Xn;
  PetscInt  n;
  PetscReal d;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvBuildConvDiff2D(m, beta, &A));
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_subgraph_rows", rows));
  PetscCall(Factor(A, MATSOLVERPETSC, ft, levels, ord, &Fn));
  PetscCall(Factor(A, MATSOLVERSPTRSVLOCALITY, ft, levels, ord, &Fs));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_subgraph_rows"));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, 3, NULL, &B));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &Xn));
  for (PetscInt phase = 0; phase < 2; phase++) {
    if (phase) { /* new values, same pattern */
      PetscCall(MatScale(A, 2.0));
      PetscCall(MatShift(A, 1.0));
      PetscCall(Factor(A, MATSOLVERPETSC, ft, levels, ord, &Fn));
      PetscCall(Factor(A, MATSOLVERSPTRSVLOCALITY, ft, levels, ord, &Fs));
    }
    PetscCall(MatSetRandom(B, rnd));
    for (PetscInt tr = 0; tr < 2; tr++) {
      Vec b, x, xn;
      PetscCall(MatDenseGetColumnVecRead(B, 0, &b));
      PetscCall(MatDenseGetColumnVecWrite(X, 0, &x));
      PetscCall(MatDenseGetColumnVecWrite(Xn, 0, &xn));
      if (tr) {
        PetscCall(MatSolveTranspose(Fs, b, x));
        PetscCall(MatSolveTranspose(Fn, b, xn));
      } else {
        PetscCall(MatSolve(Fs, b, x));
        PetscCall(MatSolve(Fn, b, xn));
      }
      PetscCall(MatDenseRestoreColumnVecWrite(Xn, 0, &xn));
      PetscCall(MatDenseRestoreColumnVecWrite(X, 0, &x));
      PetscCall(MatDenseRestoreColumnVecRead(B, 0, &b));
      if (tr) {
        PetscCall(MatMatSolveTranspose(Fs, B, X));
        PetscCall(MatMatSolveTranspose(Fn, B, Xn));
      } else {
        PetscCall(MatMatSolve(Fs, B, X));
        PetscCall(MatMatSolve(Fn, B, Xn));
      }
      PetscCall(MatRelDiff(X, Xn, &d));
      EXPECT(d < 1e-12, "%s(%" PetscInt_FMT ") %s m=%" PetscInt_FMT " rows %s%s: MatMatSolve%s differs from PETSc's by %g", ft == MAT_FACTOR_ICC ? "ICC" : "ILU", levels, ord, m, rows, phase ? " (refactored)" : "", tr ? "Transpose" : "", (double)d);
    }
  }
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&Xn));
  PetscCall(MatDestroy(&Fn));
  PetscCall(MatDestroy(&Fs));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom    rnd;
  const PetscInt caps[] = {1, 2, 3, 5, 16, 64, 0};
  const PetscInt sizes[] = {1, 2, 17, 150, 600};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-matdir", matdir, sizeof(matdir), NULL));
  PetscCall(TestHand());
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261124));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(TestManyRoots(rnd));
  for (PetscInt s = 0; s < SHAPE_N; s++)
    for (PetscInt z = 0; z < (PetscInt)(sizeof(sizes) / sizeof(sizes[0])); z++)
      for (PetscInt rep = 0; rep < 3; rep++) {
        const PetscReal param[] = {rep == 0 ? 0.02 : (rep == 1 ? 0.1 : 0.5), 1.0 + 4 * rep, 3.0 + 20 * rep, 1.0 + 3 * rep, 0, 0, 0, 0};
        PetscInt       *ai, *aj;
        char            name[64];
        PetscCall(MakePattern(rnd, (Shape)s, sizes[z], param[s], &ai, &aj));
        PetscCall(PetscSNPrintf(name, sizeof(name), "%s(%g)", ShapeNames[s], (double)param[s]));
        PetscCall(TestPattern(name, sizes[z], ai, aj, (PetscInt)(sizeof(caps) / sizeof(caps[0])), caps));
        PetscCall(PetscFree(ai));
        PetscCall(PetscFree(aj));
      }
  { /* a long chain and a wide grid: the analysis stays linear */
    PetscInt      *ai, *aj;
    const PetscInt big[] = {1000, 0};
    PetscCall(MakePattern(rnd, SHAPE_CHAINS, 200000, 3.0, &ai, &aj));
    PetscCall(TestPattern("chains-big", 200000, ai, aj, 2, big));
    PetscCall(PetscFree(ai));
    PetscCall(PetscFree(aj));
    PetscCall(MakePattern(rnd, SHAPE_GRID, 90000, 0, &ai, &aj));
    PetscCall(TestPattern("grid-big", 90000, ai, aj, 2, big));
    PetscCall(PetscFree(ai));
    PetscCall(PetscFree(aj));
  }
  PetscCall(TestRegionsGrid(60, 60, 1, 5, 16, PETSC_FALSE));
  PetscCall(TestRegionsGrid(200, 200, 1, 5, 64, PETSC_FALSE));
  PetscCall(TestRegionsGrid(400, 400, 1, 5, 64, PETSC_TRUE));
  PetscCall(TestRegionsGrid(120, 120, 1, 9, 64, PETSC_FALSE));
  PetscCall(TestRegionsGrid(40, 40, 40, 7, 64, PETSC_TRUE));
  PetscCall(TestRegionsGrid(20, 24, 28, 27, 64, PETSC_FALSE));
  PetscCall(TestRegionsChoice());
  PetscCall(TestRegionsMatrices(matdir));
  PetscCall(TestFactorSolves(rnd, 20, 0.3, MAT_FACTOR_ILU, 0, MATORDERINGNATURAL, "0"));
  PetscCall(TestFactorSolves(rnd, 20, 0.3, MAT_FACTOR_ILU, 0, MATORDERINGNATURAL, "17"));
  PetscCall(TestFactorSolves(rnd, 20, 0.3, MAT_FACTOR_ILU, 2, MATORDERINGNATURAL, "64"));
  PetscCall(TestFactorSolves(rnd, 20, 0.3, MAT_FACTOR_ILU, 1, MATORDERINGRCM, "5"));
  PetscCall(TestFactorSolves(rnd, 20, 0.3, MAT_FACTOR_ILU, 0, MATORDERINGND, "100"));
  PetscCall(TestFactorSolves(rnd, 20, 0.0, MAT_FACTOR_ICC, 0, MATORDERINGNATURAL, "33"));
  PetscCall(TestFactorSolves(rnd, 20, 0.0, MAT_FACTOR_ICC, 2, MATORDERINGRCM, "0"));
  EXPECT(nlongplans > 0, "no plan had a long row (the warp-per-row order and lists are untested)");
  EXPECT(npackedparts > 0, "no regions partition packed two pieces into one sub-graph");
  PetscCall(PetscInfo(NULL, "%" PetscInt_FMT " plans with long rows, %" PetscInt_FMT " packed partitions\n", nlongplans, npackedparts));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_locality: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
