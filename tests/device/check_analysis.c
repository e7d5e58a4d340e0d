static const char help[] = "Device check of the sync-free analysis on the GPU (-mat_sptrsv_analysis device, src/cuda/paths/syncfree/syncfree_analysis.cu).\n"
                           "For every triangle (strict lower/upper parts of generated Laplacians, random triangles, the strict parts of\n"
                           "Matrix Market files), plain and transposed, CSR and warp-packed ELL, 32 and 4 lanes per row at most: two CUDA\n"
                           "solvers, one analysed on the host (the reference) and one on the device; their schedules are downloaded and\n"
                           "compared bit for bit (order, pattern in dispatch order, warps, lanes, ELL image, figures), their solutions must be\n"
                           "identical and agree with the host executor, before and after new values on the same pattern. The device\n"
                           "analysis is also compared entry by entry with the host analysis of its own plan (SpTrsvSyncFreeAnalyzeHostOf):\n"
                           "every array (the value map and the ELL slots too), every decision (relabel, sectors), every figure.\n"
                           "The runs dispatch likewise: its pattern and schedule check built by the host setup and on the device.\n"
                           "  -matdir <dir>    also every *.mtx.gz file of dir (default tests/data/matrices)\n"
                           "  -random <200>    random triangles\n"
                           "  -seed <1>        seed of the first random triangle\n\n";

#include <sptrsv/paths/syncfree.h>
#include <sptrsv/backend.h>
#include <stdio.h>
#include <string.h>
#include "../unit/test_helpers.h"
#define OPTS_SYNCFREE(o) ((SpTrsvSyncFreeOptions *)SpTrsvPathOptionsOwn(o, &SpTrsvPath_syncfree)) /* its own options inside o */
#if defined(PETSC_SPTRSV_HAVE_CUDA) && defined(__has_include)
  #if __has_include(<cuda_runtime.h>)
    #include <cuda_runtime.h>
    #define CHECK_HAVE_CUDA 1
  #endif
#endif
#if !defined(SPTRSV_NO_MMLOAD)
  #include "../../examples/common/mmload.h"
  #include <dirent.h>
#endif

static PetscInt npass = 0, nfail = 0;

#if defined(CHECK_HAVE_CUDA)
static void Report(PetscBool ok, const char *what, const char *detail)
{
  if (ok) npass++;
  else {
    nfail++;
    printf("FAIL: %s: %s\n", what, detail);
  }
}

/* compare two int arrays; the first difference in msg */
static PetscBool Same(const int *a, const int *b, PetscInt m, const char *name, char *msg, size_t len)
{
  for (PetscInt k = 0; k < m; k++)
    if (a[k] != b[k]) {
      snprintf(msg, len, "%s differs at %lld: %d (host analysis) vs %d (device analysis)", name, (long long)k, a[k], b[k]);
      return PETSC_FALSE;
    }
  return PETSC_TRUE;
}

/*
  CheckHostOf - the device analysis of sd against the host analysis of the same plan (SpTrsvSyncFreeAnalyzeHostOf),
  entry by entry: every array the CUDA executor runs (order, ptr, idx, the value map, wstart, wlanes, the ELL columns
  and slots; idx and the ELL columns as dispatch positions when relabelled), every decision (relabel and the sector
  counts it rests on) and every figure (levels, the plan's statistics, warps, rows and warps per bin, ELL fill). The
  host arrays are the plan's (order, warps, ellmap into the rows of op(T)) laid out as the executor lays them out.
*/
static PetscErrorCode CheckHostOf(SpTrsvSolver sd, const char *what)
{
  const SpTrsvOp               *op = &sd->op;
  const PetscInt                n = op->n, nnz = op->nnz;
  const SpTrsvSyncFreeSchedule *fd = (const SpTrsvSyncFreeSchedule *)sd->plan->data, *fh;
  const SpTrsvStats            *sh, *sdv = &sd->plan->stats;
  SpTrsvPlan                    hp;
  PetscInt                      nw, nwh;
  int                          *dv[8], *hv[8], *pos; /* order, ptr, idx, vmap, wstart, wlanes, ellidx, ellpos */
  const char                   *names[8] = {"order", "ptr", "idx", "value map", "wstart", "wlanes", "ELL columns", "ELL slots"};
  PetscInt                      len[8];
  char                          w2[320], msg[512] = "";
  PetscBool                     ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(w2, sizeof(w2), "%s: device analysis vs the host analysis of its plan", what));
  PetscCall(SpTrsvSyncFreeAnalyzeHostOf(op, sd->plan, &hp));
  fh  = (const SpTrsvSyncFreeSchedule *)hp->data;
  sh  = &hp->stats;
  nwh = fh->nwarps;
  /* decisions */
  if (fh->relabel != fd->relabel || fh->relabel_auto != fd->relabel_auto || fh->sectors_row != fd->sectors_row || fh->sectors_pos != fd->sectors_pos) {
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "relabel (host/device) %d/%d (auto %d/%d), sectors by row %" PetscInt64_FMT "/%" PetscInt64_FMT ", by position %" PetscInt64_FMT "/%" PetscInt64_FMT, (int)fh->relabel, (int)fd->relabel, (int)fh->relabel_auto, (int)fd->relabel_auto, fh->sectors_row, fd->sectors_row, fh->sectors_pos, fd->sectors_pos));
    ok = PETSC_FALSE;
  }
  /* figures: levels and statistics, warps, bins, ELL fill */
  if (ok && (hp->nlevels != sd->plan->nlevels || sh->n != sdv->n || sh->nnz != sdv->nnz || sh->nlevels != sdv->nlevels || sh->max_level_rows != sdv->max_level_rows || sh->max_row_nnz != sdv->max_row_nnz || sh->mean_level_rows != sdv->mean_level_rows || sh->mean_row_nnz != sdv->mean_row_nnz || sh->bytes_per_solve != sdv->bytes_per_solve)) {
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "statistics (host/device): levels %" PetscInt_FMT "/%" PetscInt_FMT ", widest level %" PetscInt_FMT "/%" PetscInt_FMT ", longest row %" PetscInt_FMT "/%" PetscInt_FMT ", mean level %g/%g, mean row %g/%g, bytes %g/%g", sh->nlevels, sdv->nlevels, sh->max_level_rows, sdv->max_level_rows, sh->max_row_nnz, sdv->max_row_nnz, (double)sh->mean_level_rows, (double)sdv->mean_level_rows, (double)sh->mean_row_nnz, (double)sdv->mean_row_nnz, (double)sh->bytes_per_solve, (double)sdv->bytes_per_solve));
    ok = PETSC_FALSE;
  }
  if (ok && (nwh != fd->nwarps || fh->ell_filled != fd->ell_filled)) {
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "warps (host/device) %" PetscInt_FMT "/%" PetscInt_FMT ", ELL filled %" PetscInt_FMT "/%" PetscInt_FMT, nwh, fd->nwarps, fh->ell_filled, fd->ell_filled));
    ok = PETSC_FALSE;
  }
  for (int bn = 0; ok && bn < SPTRSV_SYNCFREE_NBINS; bn++)
    if (fh->binrows[bn] != fd->binrows[bn] || fh->binwarps[bn] != fd->binwarps[bn]) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "bin %d (host/device): rows %" PetscInt_FMT "/%" PetscInt_FMT ", warps %" PetscInt_FMT "/%" PetscInt_FMT, bn, fh->binrows[bn], fd->binrows[bn], fh->binwarps[bn], fd->binwarps[bn]));
      ok = PETSC_FALSE;
    }
  /* arrays: the device's, and the host plan's as the executor lays them out */
  PetscCall(SpTrsvCUDASyncFreeGetSchedule(sd, &nw, &dv[0], &dv[1], &dv[2], &dv[4], &dv[5], &dv[6], &dv[7], &dv[3]));
  len[0] = n, len[1] = n + 1, len[2] = nnz, len[3] = nnz, len[4] = nwh + 1, len[5] = nwh, len[6] = len[7] = fh->warpell ? 32 * nwh : 0;
  for (int a = 0; a < 8; a++) PetscCall(PetscMalloc1(len[a] + 1, &hv[a]));
  PetscCall(PetscMalloc1(n + 1, &pos));
  hv[1][0] = 0;
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt i = hp->order[k];
    hv[0][k]         = (int)i;
    pos[i]           = k;
    hv[1][k + 1]     = hv[1][k] + (int)(op->ri[i + 1] - op->ri[i]);
  }
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt e = op->ri[hp->order[k]], q = hv[1][k]; e < op->ri[hp->order[k] + 1]; e++, q++) {
      hv[2][q] = (int)(fh->relabel ? pos[op->rj[e]] : op->rj[e]);
      hv[3][q] = (int)e;
    }
  for (PetscInt w = 0; w <= nwh; w++) hv[4][w] = (int)fh->wstart[w];
  for (PetscInt w = 0; w < nwh; w++) hv[5][w] = fh->wlanes[w];
  for (PetscInt sl = 0; sl < len[6]; sl++) { /* ellmap: the entry of op(T) in the slot; the executor's slot of the pattern */
    const PetscInt e = fh->ellmap[sl], K = fh->wlanes[sl / 32] & (SPTRSV_SYNCFREE_TAIL - 1), k = fh->wstart[sl / 32] + (sl % 32) / K;
    hv[6][sl] = e < 0 ? -1 : (int)(fh->relabel ? pos[op->rj[e]] : op->rj[e]);
    hv[7][sl] = e < 0 ? -1 : (int)(hv[1][k] + (sl % 32) % K);
  }
  if (ok && nw != nwh) {
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "the executor runs %" PetscInt_FMT " warps, the host analysis has %" PetscInt_FMT, nw, nwh));
    ok = PETSC_FALSE;
  }
  for (int a = 0; ok && a < 8; a++) {
    if (!len[a]) continue;
    if (!dv[a]) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "the device analysis has no %s", names[a]));
      ok = PETSC_FALSE;
    } else ok = Same(hv[a], dv[a], len[a], names[a], msg, sizeof(msg));
  }
  for (int a = 0; a < 8; a++) {
    PetscCall(PetscFree(hv[a]));
    PetscCall(PetscFree(dv[a]));
  }
  PetscCall(PetscFree(pos));
  PetscCall(SpTrsvPlanDestroy(&hp));
  Report(ok, w2, msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solve with a CUDA solver: x = op(T)^{-1} b through device copies */
static PetscErrorCode SolveCUDA(SpTrsvSolver s, const PetscScalar *b, PetscScalar *x, PetscScalar *d_b, PetscScalar *d_x)
{
  const PetscInt n = s->op.n;

  PetscFunctionBeginUser;
  PetscCheck(cudaMemcpy(d_b, b, (size_t)n * sizeof(PetscScalar), cudaMemcpyHostToDevice) == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "cudaMemcpy");
  PetscCall(SpTrsvSolverApply(s, d_b, d_x));
  PetscCheck(cudaDeviceSynchronize() == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "solve failed");
  PetscCheck(cudaMemcpy(x, d_x, (size_t)n * sizeof(PetscScalar), cudaMemcpyDeviceToHost) == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_GPU, "cudaMemcpy");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host-analysed and the device-analysed CUDA solvers of op(T) in one variant: schedules and solves (runs: the
   windows are the host's in both, the pattern in their order and the schedule check built by the host setup in one and
   on the device in the other) */
static PetscErrorCode CheckVariant(SpTrsvTri T, PetscBool tr, PetscBool warpell, PetscInt max_lanes, PetscBool runs, const SpTrsvBackendOps *cuda, const char *name, PetscScalar *d_b, PetscScalar *d_x)
{
  const PetscInt          n = T->n;
  SpTrsvPathOptions     opts;
  SpTrsvPath              path, level;
  SpTrsvSolver            sh, sd, ref;
  SpTrsvSyncFreeSchedule *fh, *fd;
  PetscInt                nwh, nwd;
  int                    *a[8], *b[8], *horder;
  char                    what[256], msg[256] = "";
  PetscBool               ok = PETSC_TRUE;
  PetscScalar            *rhs, *xh, *xd, *xr;
  unsigned long long      s = (unsigned long long)n * 7919u + (unsigned long long)tr + 1;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s%s %s max_lanes %" PetscInt_FMT, name, tr ? " transposed" : "", runs ? "runs" : (warpell ? "warpell" : "csr"), max_lanes));
  PetscCall(SpTrsvPathFind("syncfree", &path));
  PetscCall(SpTrsvPathFind("level", &level));
  PetscCall(SpTrsvPathOptionsInitialize(&opts));
  OPTS_SYNCFREE(&opts)->warpell   = warpell;
  OPTS_SYNCFREE(&opts)->max_lanes = max_lanes;
  OPTS_SYNCFREE(&opts)->runs      = runs;
  OPTS_SYNCFREE(&opts)->dispatch_auto = PETSC_FALSE; /* the dispatch asked for (the automatic one is runs on the GPU) */
  OPTS_SYNCFREE(&opts)->analysis_device = PETSC_FALSE; /* the reference: the host analysis (the CUDA default is the device one) */
  PetscCall(SpTrsvSolverCreateWithOptions(T, tr, SPTRSV_FORMAT_CSR, path, cuda, &opts, &sh));
  OPTS_SYNCFREE(&opts)->analysis_device = PETSC_TRUE;
  PetscCall(SpTrsvSolverCreateWithOptions(T, tr, SPTRSV_FORMAT_CSR, path, cuda, &opts, &sd));
  fh = (SpTrsvSyncFreeSchedule *)sh->plan->data;
  fd = (SpTrsvSyncFreeSchedule *)sd->plan->data;
  if (runs ? (!fd->pattern_device || fh->pattern_device) : (!fd->device || fh->device)) {
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "the analyses did not run where asked (host %d, device %d)", (int)(fh->device || fh->pattern_device), (int)(fd->device || fd->pattern_device)));
    ok = PETSC_FALSE;
  }
  /* the figures -ksp_view shows */
  if (ok && (sh->plan->nlevels != sd->plan->nlevels || sh->plan->stats.max_level_rows != sd->plan->stats.max_level_rows || sh->plan->stats.max_row_nnz != sd->plan->stats.max_row_nnz || fh->nwarps != fd->nwarps || fh->ell_filled != fd->ell_filled)) {
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "figures differ: levels %" PetscInt_FMT "/%" PetscInt_FMT ", widest %" PetscInt_FMT "/%" PetscInt_FMT ", longest %" PetscInt_FMT "/%" PetscInt_FMT ", warps %" PetscInt_FMT "/%" PetscInt_FMT ", ELL filled %" PetscInt_FMT "/%" PetscInt_FMT, sh->plan->nlevels, sd->plan->nlevels, sh->plan->stats.max_level_rows, sd->plan->stats.max_level_rows, sh->plan->stats.max_row_nnz, sd->plan->stats.max_row_nnz, fh->nwarps, fd->nwarps, fh->ell_filled, fd->ell_filled));
    ok = PETSC_FALSE;
  }
  if (ok && (fh->relabel != fd->relabel || fh->sectors_row != fd->sectors_row || fh->sectors_pos != fd->sectors_pos)) {
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "relabel %d/%d, sectors by row %" PetscInt64_FMT "/%" PetscInt64_FMT ", by position %" PetscInt64_FMT "/%" PetscInt64_FMT, (int)fh->relabel, (int)fd->relabel, fh->sectors_row, fd->sectors_row, fh->sectors_pos, fd->sectors_pos));
    ok = PETSC_FALSE;
  }
  for (int bn = 0; ok && bn < SPTRSV_SYNCFREE_NBINS; bn++)
    if (fh->binrows[bn] != fd->binrows[bn] || fh->binwarps[bn] != fd->binwarps[bn]) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "bin %d: rows %" PetscInt_FMT "/%" PetscInt_FMT ", warps %" PetscInt_FMT "/%" PetscInt_FMT, bn, fh->binrows[bn], fd->binrows[bn], fh->binwarps[bn], fd->binwarps[bn]));
      ok = PETSC_FALSE;
    }
  /* the device arrays, bit for bit: order, ptr, idx, wstart, wlanes, ELL columns */
  PetscCall(SpTrsvCUDASyncFreeGetSchedule(sh, &nwh, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7]));
  PetscCall(SpTrsvCUDASyncFreeGetSchedule(sd, &nwd, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7]));
  PetscCall(PetscMalloc1(n + 1, &horder));
  for (PetscInt k = 0; k < n; k++) horder[k] = (int)sh->plan->order[k];
  if (ok) ok = Same(horder, b[0], n, "order (vs the host plan)", msg, sizeof(msg));
  if (ok && nwh != nwd) {
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%" PetscInt_FMT " warps (host analysis) vs %" PetscInt_FMT " (device analysis)", nwh, nwd));
    ok = PETSC_FALSE;
  }
  if (ok) ok = Same(a[0], b[0], n, "order", msg, sizeof(msg));
  if (ok) ok = Same(a[1], b[1], n + 1, "ptr", msg, sizeof(msg));
  if (ok) ok = Same(a[2], b[2], sh->op.nnz, "idx", msg, sizeof(msg));
  if (ok) ok = Same(a[3], b[3], nwh + 1, "wstart", msg, sizeof(msg));
  if (ok) ok = Same(a[4], b[4], nwh, "wlanes", msg, sizeof(msg));
  if (ok && warpell) ok = (PetscBool)(a[5] && b[5] && Same(a[5], b[5], 32 * nwh, "ELL columns", msg, sizeof(msg)));
  for (int q = 0; q < 8; q++) {
    PetscCall(PetscFree(a[q]));
    PetscCall(PetscFree(b[q]));
  }
  PetscCall(PetscFree(horder));
  Report(ok, what, msg);
  if (fd->device) PetscCall(CheckHostOf(sd, what));
  /* solves: identical on the GPU (same schedule, same kernel), equal to the host reference; then new values */
  PetscCall(PetscMalloc4(n + 1, &rhs, n + 1, &xh, n + 1, &xd, n + 1, &xr));
  for (PetscInt round = 0; round < 2; round++) {
    PetscReal err = 0, nrm = 0;
    PetscBool same = PETSC_TRUE;
    if (round) { /* new values on the same pattern: the device value map, no analysis */
      for (PetscInt p = 0; p < T->i[n]; p++) T->a[p] *= -0.5;
      if (T->idiag)
        for (PetscInt i = 0; i < n; i++) T->idiag[i] *= 1.25;
      PetscCall(SpTrsvTriValuesChanged(T));
    }
    for (PetscInt i = 0; i < n; i++) rhs[i] = 2 * Uniform(&s) - 1;
    PetscCall(SpTrsvSolverCreate(T, tr, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &ref));
    PetscCall(SpTrsvSolverApply(ref, rhs, xr));
    PetscCall(SpTrsvSolverDestroy(&ref));
    PetscCall(SolveCUDA(sh, rhs, xh, d_b, d_x));
    PetscCall(SolveCUDA(sd, rhs, xd, d_b, d_x));
    for (PetscInt i = 0; i < n; i++) {
      if (memcmp(&xh[i], &xd[i], sizeof(PetscScalar))) same = PETSC_FALSE;
      err = PetscMax(err, PetscAbsScalar(xd[i] - xr[i]));
      nrm = PetscMax(nrm, PetscAbsScalar(xr[i]));
    }
    err /= PetscMax(nrm, 1.0);
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s solutions: %s, relative error vs the host %.3e", round ? "refreshed values" : "first values", same ? "identical" : "NOT identical", (double)err));
    Report((PetscBool)(same && err <= 1e-10 && !PetscIsNanReal(err)), what, msg);
  }
  PetscCall(PetscFree4(rhs, xh, xd, xr));
  PetscCall(SpTrsvSolverDestroy(&sh));
  PetscCall(SpTrsvSolverDestroy(&sd));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* a triangle from a strict pattern (ai, aj taken over), values of order one */
static PetscErrorCode MakeTri(PetscInt n, SpTrsvUplo uplo, PetscBool unit, PetscInt *ai, PetscInt *aj, unsigned long long seed, SpTrsvTri *T)
{
  unsigned long long s = seed;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvTriCreate(n, uplo, unit, T));
  PetscCall(SpTrsvTriSetPattern(*T, ai, aj));
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt p = (*T)->i[i]; p < (*T)->i[i + 1]; p++) (*T)->a[p] = (2 * Uniform(&s) - 1) / ((*T)->i[i + 1] - (*T)->i[i] + 1);
    if (!unit) (*T)->idiag[i] = 1.0 / (1.0 + Uniform(&s));
  }
  PetscCall(SpTrsvTriValuesChanged(*T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* strict lower (or upper) part of a stencil on an nx x ny x nz grid: 7 points (star) or 27 (box) */
static PetscErrorCode StencilPattern(PetscInt nx, PetscInt ny, PetscInt nz, PetscBool box, PetscBool lower, PetscInt **ai, PetscInt **aj)
{
  const PetscInt n = nx * ny * nz;
  PetscInt       nnz = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, ai));
  PetscCall(PetscMalloc1(13 * n + 1, aj));
  (*ai)[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt x = i % nx, y = (i / nx) % ny, z = i / (nx * ny);
    for (PetscInt dz = -1; dz <= 1; dz++)
      for (PetscInt dy = -1; dy <= 1; dy++)
        for (PetscInt dx = -1; dx <= 1; dx++) {
          const PetscInt j = i + dx + nx * (dy + ny * dz);
          if (x + dx < 0 || x + dx >= nx || y + dy < 0 || y + dy >= ny || z + dz < 0 || z + dz >= nz) continue;
          if (!box && PetscAbsInt(dx) + PetscAbsInt(dy) + PetscAbsInt(dz) != 1) continue;
          if (lower ? j < i : j > i) (*aj)[nnz++] = j; /* visited by ascending j */
        }
    (*ai)[i + 1] = nnz;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a random strict lower triangle: rows of 0..8 entries, some empty, some longer than 32, chains */
static PetscErrorCode RandomPattern(unsigned long long seed, PetscInt *n, PetscInt **ai, PetscInt **aj)
{
  unsigned long long s = seed * 0x9E3779B97F4A7C15ULL + 1;
  const PetscInt     N = 1 + Below(&s, 5000), shape = Below(&s, 3);
  PetscInt           cap = 8 * N + 2000, nnz = 0, cols[2048];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(N + 1, ai));
  PetscCall(PetscMalloc1(cap, aj));
  (*ai)[0] = 0;
  for (PetscInt i = 0; i < N; i++) {
    PetscInt len = 0, want = shape == 0 ? Below(&s, 9) : (shape == 1 ? (Uniform(&s) < 0.6 ? 0 : 1 + Below(&s, 3)) : (Uniform(&s) < 0.02 ? 33 + Below(&s, 200) : Below(&s, 3)));
    if (shape == 1 && i > 0 && Uniform(&s) < 0.3) cols[len++] = i - 1; /* chains */
    for (PetscInt t = 0; t < want && i > 0; t++) cols[len++] = Below(&s, i);
    PetscCall(PetscSortRemoveDupsInt(&len, cols));
    if (nnz + len > cap) {
      cap = 2 * (nnz + len);
      PetscCall(PetscRealloc(sizeof(PetscInt) * (size_t)cap, aj));
    }
    for (PetscInt t = 0; t < len; t++) (*aj)[nnz++] = cols[t];
    (*ai)[i + 1] = nnz;
  }
  *n = N;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* every variant of one triangle (plain and transposed) */
static PetscErrorCode CheckTri(SpTrsvTri T, const char *name, const SpTrsvBackendOps *cuda, PetscScalar *d_b, PetscScalar *d_x)
{
  PetscFunctionBeginUser;
#if defined(CHECK_HAVE_CUDA)
  for (PetscInt tr = 0; tr < 2; tr++)
    for (PetscInt e = 0; e < 2; e++)
      for (PetscInt l = 0; l < 2; l++) PetscCall(CheckVariant(T, (PetscBool)tr, (PetscBool)e, l ? 4 : 32, PETSC_FALSE, cuda, name, d_b, d_x));
  for (PetscInt tr = 0; tr < 2; tr++) PetscCall(CheckVariant(T, (PetscBool)tr, PETSC_FALSE, 32, PETSC_TRUE, cuda, name, d_b, d_x));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if !defined(SPTRSV_NO_MMLOAD)
/* the strict lower and upper parts of a Matrix Market file's pattern */
static PetscErrorCode CheckFile(const char *path, const char *name, const SpTrsvBackendOps *cuda, PetscScalar *d_b, PetscScalar *d_x)
{
  Mat             A;
  const PetscInt *ia, *ja;
  PetscInt        n;
  PetscBool       done;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvLoadMatrixMarket(path, &A));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ");
  for (PetscInt up = 0; up < 2; up++) {
    PetscInt *ai, *aj, nnz = 0;
    SpTrsvTri T;
    char      tname[PETSC_MAX_PATH_LEN];
    PetscCall(PetscMalloc1(n + 1, &ai));
    PetscCall(PetscMalloc1(ia[n] + 1, &aj));
    ai[0] = 0;
    for (PetscInt i = 0; i < n; i++) {
      for (PetscInt p = ia[i]; p < ia[i + 1]; p++)
        if (up ? ja[p] > i : ja[p] < i) aj[nnz++] = ja[p];
      ai[i + 1] = nnz;
    }
    PetscCall(MakeTri(n, up ? SPTRSV_UPPER : SPTRSV_LOWER, (PetscBool)!up, ai, aj, (unsigned long long)n + (unsigned long long)up, &T));
    PetscCall(PetscSNPrintf(tname, sizeof(tname), "%s %s", name, up ? "upper" : "lower"));
    PetscCall(CheckTri(T, tname, cuda, d_b, d_x));
    PetscCall(SpTrsvTriDestroy(&T));
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  const SpTrsvBackendOps *cuda  = NULL;
  PetscBool               avail = PETSC_FALSE;
  const char             *why   = "built without the CUDA runtime header";
  char                    matdir[PETSC_MAX_PATH_LEN] = "tests/data/matrices";
  PetscInt                nrandom = 200, seed = 1;
  PetscScalar            *d_b = NULL, *d_x = NULL;
  const PetscInt          grids[][4] = {{64, 64, 1, 0}, {1000, 3, 1, 0}, {24, 24, 24, 0}, {12, 12, 12, 1}, {1, 1, 1, 0}, {5000, 1, 1, 0}};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-matdir", matdir, sizeof(matdir), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-random", &nrandom, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed, NULL));
#if defined(CHECK_HAVE_CUDA)
  PetscCall(SpTrsvBackendCUDAGet(&cuda, &avail, &why));
#endif
  if (!avail) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "CUDA backend unavailable (%s): nothing to check\n0 passed, 0 failed\n", why));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "CUDA backend available\n"));
#if defined(CHECK_HAVE_CUDA)
  PetscCheck(cudaMalloc((void **)&d_b, 1000001 * sizeof(PetscScalar)) == cudaSuccess && cudaMalloc((void **)&d_x, 1000001 * sizeof(PetscScalar)) == cudaSuccess, PETSC_COMM_SELF, PETSC_ERR_MEM, "cudaMalloc");
#endif
  /* Laplacians: 2-D 5-point (nz = 1), 3-D 7-point and 27-point, a single row, a chain */
  for (size_t g = 0; g < sizeof(grids) / sizeof(grids[0]); g++)
    for (PetscInt lower = 0; lower < 2; lower++) {
      PetscInt *ai, *aj;
      SpTrsvTri T;
      char      name[128];
      PetscCall(StencilPattern(grids[g][0], grids[g][1], grids[g][2], (PetscBool)grids[g][3], (PetscBool)lower, &ai, &aj));
      PetscCall(MakeTri(grids[g][0] * grids[g][1] * grids[g][2], lower ? SPTRSV_LOWER : SPTRSV_UPPER, (PetscBool)lower, ai, aj, (unsigned long long)g + 11, &T));
      PetscCall(PetscSNPrintf(name, sizeof(name), "lap%s %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " %s", grids[g][3] ? "27" : "7", grids[g][0], grids[g][1], grids[g][2], lower ? "lower" : "upper"));
      PetscCall(CheckTri(T, name, cuda, d_b, d_x));
      PetscCall(SpTrsvTriDestroy(&T));
    }
  /* random triangles */
  for (PetscInt c = 0; c < nrandom; c++) {
    PetscInt *ai, *aj, n = 0;
    SpTrsvTri T;
    char      name[128];
    PetscCall(RandomPattern((unsigned long long)(seed + c), &n, &ai, &aj));
    PetscCall(MakeTri(n, SPTRSV_LOWER, (PetscBool)(c & 1), ai, aj, (unsigned long long)(seed + c), &T));
    PetscCall(PetscSNPrintf(name, sizeof(name), "random seed %" PetscInt_FMT " n=%" PetscInt_FMT, seed + c, n));
    PetscCall(CheckTri(T, name, cuda, d_b, d_x));
    PetscCall(SpTrsvTriDestroy(&T));
  }
#if !defined(SPTRSV_NO_MMLOAD)
  {
    DIR           *dir = opendir(matdir);
    struct dirent *ent;
    if (!dir) PetscCall(PetscPrintf(PETSC_COMM_SELF, "no directory %s: generated triangles only\n", matdir));
    while (dir && (ent = readdir(dir))) {
      const size_t len = strlen(ent->d_name);
      char         path[PETSC_MAX_PATH_LEN];
      if (len < 8 || strcmp(ent->d_name + len - 7, ".mtx.gz")) continue;
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", matdir, ent->d_name));
      PetscCall(CheckFile(path, ent->d_name, cuda, d_b, d_x));
    }
    if (dir) closedir(dir);
  }
#endif
#if defined(CHECK_HAVE_CUDA)
  (void)cudaFree(d_b);
  (void)cudaFree(d_x);
#endif
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
