/* The solves of bench (examples/benchmarks/bench.c) through the plugin's private API: the host reference on the factor's
   triangles and every path's variants on a backend (the host executors, or the GPU's), timed and checked */
#include "bench.h"
#include <sptrsv/paths/locality.h>   /* BenchSolverInverse: the locality kernel in use */
#include <sptrsv/paths/supernodal.h> /* BenchSolverInverse: the supernodal schedule's inversion */

/* ---- solves through the private API --------------------------------------------------------------- */

/* L: b[k] -> w, U: w -> x[k]; k alternates between solves when alt (-bench_ptr_update): the vectors of a KSP solve change
   from one preconditioner application to the next while MatSolve's work vector between L and U stays, so a CUDA-graph
   path rewrites its vector pointers (one small kernel, cuda_graph.cu) before each solve, as it does there */
typedef struct {
  SpTrsvSolver       L, U;
  const PetscScalar *b[2];
  PetscScalar       *w, *x[2];
  int                k;
  PetscBool          alt;
} TriCtx;

static PetscErrorCode SolveL(void *ctx)
{
  TriCtx *c = (TriCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvSolverApply(c->L, c->b[c->k], c->w));
  if (c->alt) c->k ^= 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolveLU(void *ctx)
{
  TriCtx *c = (TriCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvSolverApply(c->L, c->b[c->k], c->w));
  PetscCall(SpTrsvSolverApply(c->U, c->w, c->x[c->k]));
  if (c->alt) c->k ^= 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the arithmetic of s differs from a substitution (the error rule's factor 100, bench.h): products of inverted blocks */
PetscBool BenchSolverInverse(SpTrsvSolver s)
{
  const char *name = s && s->plan && s->plan->path ? s->plan->path->name : "";

  if (!strcmp(name, "pinv")) return PETSC_TRUE; /* the partitioned inverse (its fallback, if taken, is a substitution) */
  if (!strcmp(name, "supernodal") && s->plan->data) {
    const SpTrsvSupernodalSchedule *ss = (const SpTrsvSupernodalSchedule *)s->plan->data;
    return (PetscBool)(ss->invert && !ss->delegated); /* inverted diagonal blocks (invert_diag 1, or auto: some of them) */
  }
  if (!strcmp(name, "locality") && s->plan->data) return (PetscBool)(((const SpTrsvLocalitySchedule *)s->plan->data)->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS);
  return PETSC_FALSE;
}

/* the host backend on the factor's triangles: the reference solutions, and the host rows of the table */
PetscErrorCode BenchRunHostReference(Bench *B, SpTrsvFactor fac)
{
  TriCtx         c = {NULL, NULL, {NULL, NULL}, NULL, {NULL, NULL}, 0, PETSC_FALSE};
  PetscLogDouble t0, t1, tL, tU;
  Result        *r;
  PetscInt       save_warmup;
  PetscReal      save_time;

  SpTrsvPath     level;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathFind("level", &level));
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvSolverCreate(fac->L, PETSC_FALSE, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &c.L));
  PetscCall(PetscTime(&t1));
  tL = t1 - t0;
  PetscCall(SpTrsvSolverCreate(fac->U, PETSC_FALSE, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &c.U));
  PetscCall(PetscTime(&t0));
  tU   = t0 - t1;
  B->Ls = c.L->plan->stats;
  B->Us = c.U->plan->stats;
  c.b[0] = c.b[1] = B->b;
  c.w             = B->yref;
  c.x[0] = c.x[1] = B->xref;
  PetscCall(SolveLU(&c));
  /* the host rows are context, not the subject: one warm-up solve, about -host_time seconds of timed solves */
  save_warmup = B->warmup;
  save_time   = B->max_time;
  B->warmup   = 1;
  B->max_time = B->host_time;
  if ((r = NewResult(B, "host-reference", "L"))) {
    PetscCall(TimeSolves(B, ON_HOST, 1, SolveL, &c, r));
    r->setup_ms = 1e3 * tL;
    r->err      = 0;
  }
  if ((r = NewResult(B, "host-reference", "LU"))) {
    PetscCall(TimeSolves(B, ON_HOST, 1, SolveLU, &c, r));
    r->setup_ms = 1e3 * (tL + tU);
    r->err      = 0;
  }
  B->warmup   = save_warmup;
  B->max_time = save_time;
  PetscCall(SpTrsvSolverDestroy(&c.L));
  PetscCall(SpTrsvSolverDestroy(&c.U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- GPU variants -------------------------------------------------------------------------------- */

/* the variants of one path: the options set while its triangles are set up, and the name's suffix. Paths
   with one launch per solve (syncfree) gain nothing from a CUDA graph: their variants are their own options,
   by default asap/alap x csr/warpell; -bench_syncfree LIST replaces them, each entry
   LEVELS-STORAGE[-sNS][-bK][-lL][-rB][-d][-wR][-pa|-pl][-kW][-eB] (LEVELS asap, alap, natural, runs or auto (-mat_sptrsv_dispatch natural, runs, auto: the path's default); -mat_sptrsv_spin_ns NS,
   -mat_sptrsv_blocks_per_sm K, -mat_sptrsv_max_lanes L, -mat_sptrsv_relabel B (0: false, 1: true, a: auto), -d: -mat_sptrsv_analysis
   device, -wR: -mat_sptrsv_run_rows R, -pa / -pl: -mat_sptrsv_run_poll all / lane, -kW: -mat_sptrsv_block_warps W, -eB: -mat_sptrsv_run_batch B; at most two of
   them) */
typedef struct {
  SpTrsvFormat format;
  char         suffix[40];
  char         opt[4][2][40]; /* global options set for the setup (empty name: end) */
} KernelVariant;

static PetscErrorCode PathVariants(SpTrsvPath path, KernelVariant *v, PetscInt *nv)
{
  PetscBool sf, pv;
  PetscInt  n = 0, nlist = 16;
  char     *list[16];
  PetscBool flg;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(v, 16 * sizeof(*v)));
  PetscCall(PetscStrcmp(path->name, "pinv", &pv));
  if (pv) { /* the partitioned inverse: fill limits (-bench_pinv_fill LIST, default 1,4,16), graphs on */
    char    *fills[8];
    PetscInt nf = 8;
    PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bench_pinv_fill", fills, &nf, &flg));
    if (!flg) {
      const char *def[] = {"1", "4", "16"};
      for (nf = 0; nf < 3; nf++) PetscCall(PetscStrallocpy(def[nf], &fills[nf]));
    }
    for (PetscInt k = 0; k < nf; k++, n++) {
      v[n].format = SPTRSV_FORMAT_CSR;
      PetscCall(PetscSNPrintf(v[n].suffix, sizeof(v[n].suffix), "fill%s", fills[k]));
      PetscCall(PetscStrncpy(v[n].opt[0][0], "-mat_sptrsv_pinv_fill", sizeof(v[n].opt[0][0])));
      PetscCall(PetscStrncpy(v[n].opt[0][1], fills[k], sizeof(v[n].opt[0][1])));
      PetscCall(PetscFree(fills[k]));
    }
    *nv = n;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrcmp(path->name, "syncfree", &sf));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bench_locality", list, &nlist, &flg));
  if (flg && !strcmp(path->name, "locality")) { /* one CUDA-graph variant per entry PARTITIONER[-sS][-np] */
    for (PetscInt k = 0; k < nlist && n < 16; k++, n++) {
      char  part[40], *dash;
      PetscInt o = 2;
      v[n].format = SPTRSV_FORMAT_CSR;
      PetscCall(PetscSNPrintf(v[n].suffix, sizeof(v[n].suffix), strcmp(list[k], "auto") ? "csr-graph-%s" : "csr-graph", list[k]));
      PetscCall(PetscStrncpy(part, list[k], sizeof(part)));
      dash = strchr(part, '-');
      if (dash) *dash = 0;
      PetscCall(PetscStrncpy(v[n].opt[0][0], "-mat_sptrsv_graph", sizeof(v[n].opt[0][0])));
      PetscCall(PetscStrncpy(v[n].opt[0][1], "1", sizeof(v[n].opt[0][1])));
      PetscCall(PetscStrncpy(v[n].opt[1][0], "-mat_sptrsv_locality_partition", sizeof(v[n].opt[1][0])));
      PetscCall(PetscStrncpy(v[n].opt[1][1], part, sizeof(v[n].opt[1][1])));
      for (const char *m = strchr(list[k], '-'); m && o < 4; m = strchr(m + 1, '-')) {
        if (m[1] == 's' && m[2] >= '0' && m[2] <= '2') {
          PetscCall(PetscStrncpy(v[n].opt[o][0], "-mat_sptrsv_locality_stage", sizeof(v[n].opt[o][0])));
          PetscCall(PetscSNPrintf(v[n].opt[o++][1], sizeof(v[n].opt[0][1]), "%c", m[2]));
        } else if (m[1] == 'n' && m[2] == 'p') {
          PetscCall(PetscStrncpy(v[n].opt[o][0], "-mat_sptrsv_locality_pack", sizeof(v[n].opt[o][0])));
          PetscCall(PetscStrncpy(v[n].opt[o++][1], "0", sizeof(v[n].opt[0][1])));
        } else if (m[1] == 'b' && m[2] >= '1' && m[2] <= '9') { /* -bNNN: blocks of NNN rows */
          PetscCall(PetscStrncpy(v[n].opt[o][0], "-mat_sptrsv_locality_block_rows", sizeof(v[n].opt[o][0])));
          PetscCall(PetscSNPrintf(v[n].opt[o++][1], sizeof(v[n].opt[0][1]), "%d", atoi(m + 2)));
        } else if (m[1] == 'k' && (m[2] == 'c' || m[2] == 's' || m[2] == 'b')) {
          PetscCall(PetscStrncpy(v[n].opt[o][0], "-mat_sptrsv_locality_kernel", sizeof(v[n].opt[o][0])));
          PetscCall(PetscStrncpy(v[n].opt[o++][1], m[2] == 'c' ? "chain" : m[2] == 'b' ? "blocks" : "slots", sizeof(v[n].opt[0][1])));
        } else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-bench_locality %s: modifiers are -s0, -s1, -s2 (-mat_sptrsv_locality_stage), -np (-mat_sptrsv_locality_pack 0), -kc, -kb and -ks (-mat_sptrsv_locality_kernel chain, blocks, slots), -bNNN (-mat_sptrsv_locality_block_rows NNN)", list[k]);
      }
    }
    for (PetscInt k = 0; k < nlist; k++) PetscCall(PetscFree(list[k]));
    *nv = n;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  nlist = 16;
  { /* supernodal: graph on, each variant's options from the table (-bench_supernodal LIST picks variants by name; default
       the first five: auto (push L, pull U), pull, the inverted diagonal (split levels where the cost model says), the
       inverted diagonal without split levels (team blocks and cuBLAS only), merged + relaxed (0.3)); the others:
       inverted with every level split, inverted + merged + relaxed (0.3) */
    static const struct {
      const char *suffix, *opt[3][2];
    } sv[] = {
      {"auto", {{"", ""}}},
      {"pull", {{"-mat_sptrsv_supernode_mode", "pull"}}},
      {"inv", {{"-mat_sptrsv_invert_diag", "1"}}},
      {"inv-nosplit", {{"-mat_sptrsv_invert_diag", "1"}, {"-mat_sptrsv_supernode_split", "never"}}},
      {"merge-relax", {{"-mat_sptrsv_merge", "1"}, {"-mat_sptrsv_supernode_relax", "0.3"}}},
      {"inv-always", {{"-mat_sptrsv_invert_diag", "1"}, {"-mat_sptrsv_supernode_split", "always"}}},
      {"inv-relax", {{"-mat_sptrsv_invert_diag", "1"}, {"-mat_sptrsv_merge", "1"}, {"-mat_sptrsv_supernode_relax", "0.3"}}},
    };
    const PetscInt nsv = (PetscInt)(sizeof(sv) / sizeof(sv[0]));
    PetscBool      sn;
    PetscCall(PetscStrcmp(path->name, "supernodal", &sn));
    if (sn) {
      PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bench_supernodal", list, &nlist, &flg));
      if (!flg)
        for (nlist = 0; nlist < 5; nlist++) PetscCall(PetscStrallocpy(sv[nlist].suffix, &list[nlist]));
      for (PetscInt k = 0; k < nlist; k++) {
        PetscInt    j     = 0;
        const char *relax = NULL; /* inv-relaxR: inv-relax's options with relaxation R */
        double      r;
        char        c;
        if (!strncmp(list[k], "inv-relax", 9) && sscanf(list[k] + 9, "%lf%c", &r, &c) == 1) {
          PetscCheck(r >= 0 && r < 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-bench_supernodal %s: the relaxation must be in [0, 1)", list[k]);
          relax = list[k] + 9;
          while (strcmp(sv[j].suffix, "inv-relax")) j++;
        } else
          while (j < nsv && strcmp(sv[j].suffix, list[k])) j++;
        PetscCheck(j < nsv, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-bench_supernodal %s: variants are auto, pull, inv, inv-nosplit, merge-relax, inv-always, inv-relax, inv-relaxR (R: the relaxation)", list[k]);
        v[n].format = SPTRSV_FORMAT_CSR;
        PetscCall(PetscStrncpy(v[n].suffix, list[k], sizeof(v[n].suffix)));
        PetscCall(PetscStrncpy(v[n].opt[0][0], "-mat_sptrsv_graph", sizeof(v[n].opt[0][0])));
        PetscCall(PetscStrncpy(v[n].opt[0][1], "1", sizeof(v[n].opt[0][1])));
        for (PetscInt o = 0; o < 3 && sv[j].opt[o][0]; o++) {
          const PetscBool rx = (PetscBool)(relax && !strcmp(sv[j].opt[o][0], "-mat_sptrsv_supernode_relax"));
          PetscCall(PetscStrncpy(v[n].opt[o + 1][0], sv[j].opt[o][0], sizeof(v[n].opt[0][0])));
          PetscCall(PetscStrncpy(v[n].opt[o + 1][1], rx ? relax : sv[j].opt[o][1], sizeof(v[n].opt[0][1])));
        }
        n++;
        PetscCall(PetscFree(list[k]));
      }
      *nv = n;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (!sf) {
    for (PetscInt f = 0; f < (path->csc ? 2 : 1); f++)
      for (PetscInt g = 0; g < 2; g++) {
        v[n].format = f ? SPTRSV_FORMAT_CSC : SPTRSV_FORMAT_CSR;
        PetscCall(PetscSNPrintf(v[n].suffix, sizeof(v[n].suffix), "%s-%s", f ? "csc" : "csr", g ? "nograph" : "graph"));
        PetscCall(PetscStrncpy(v[n].opt[0][0], "-mat_sptrsv_graph", sizeof(v[n].opt[0][0])));
        PetscCall(PetscStrncpy(v[n].opt[0][1], g ? "0" : "1", sizeof(v[n].opt[0][1])));
        n++;
      }
    *nv = n;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bench_syncfree", list, &nlist, &flg));
  if (!flg) {
    const char *def[] = {"asap-csr", "asap-warpell", "alap-csr", "alap-warpell", "natural-csr", "natural-warpell"};
    for (nlist = 0; nlist < 6; nlist++) PetscCall(PetscStrallocpy(def[nlist], &list[nlist]));
  }
  for (PetscInt k = 0; k < nlist && n < 16; k++, n++) {
    char *tok = list[k], *dash;
    v[n].format = SPTRSV_FORMAT_CSR;
    PetscCall(PetscStrncpy(v[n].suffix, list[k], sizeof(v[n].suffix)));
    /* LEVELS-STORAGE[-sNS][-bK] */
    for (PetscInt o = 0; tok && *tok && o < 4; o++) {
      dash = strchr(tok, '-');
      if (dash) *dash = 0;
      if (o == 0) PetscCall(PetscStrncpy(v[n].opt[o][0], strcmp(tok, "natural") && strcmp(tok, "runs") && strcmp(tok, "auto") ? "-mat_sptrsv_levels" : "-mat_sptrsv_dispatch", sizeof(v[n].opt[o][0])));
      else if (o == 1) PetscCall(PetscStrncpy(v[n].opt[o][0], "-mat_sptrsv_storage", sizeof(v[n].opt[o][0])));
      else {
        const char *name = tok[0] == 's' ? "-mat_sptrsv_spin_ns" : tok[0] == 'w' ? "-mat_sptrsv_run_rows" : tok[0] == 'l' ? "-mat_sptrsv_max_lanes" : tok[0] == 'r' ? "-mat_sptrsv_relabel" : tok[0] == 'd' ? "-mat_sptrsv_analysis" : tok[0] == 'p' ? "-mat_sptrsv_run_poll" : tok[0] == 'k' ? "-mat_sptrsv_block_warps" : tok[0] == 'e' ? "-mat_sptrsv_run_batch" : "-mat_sptrsv_blocks_per_sm";
        PetscCall(PetscStrncpy(v[n].opt[o][0], name, sizeof(v[n].opt[o][0])));
      }
      if (o >= 2 && tok[0] == 'r') PetscCall(PetscStrncpy(v[n].opt[o][1], tok[1] == 'a' ? "auto" : (tok[1] == '1' ? "true" : "false"), sizeof(v[n].opt[o][1])));
      else if (o >= 2 && tok[0] == 'd') PetscCall(PetscStrncpy(v[n].opt[o][1], "device", sizeof(v[n].opt[o][1])));
      else if (o >= 2 && tok[0] == 'p') PetscCall(PetscStrncpy(v[n].opt[o][1], tok[1] == 'a' ? "all" : "lane", sizeof(v[n].opt[o][1])));
      else PetscCall(PetscStrncpy(v[n].opt[o][1], o < 2 ? tok : tok + 1, sizeof(v[n].opt[o][1])));
      tok = dash ? dash + 1 : NULL;
    }
    PetscCall(PetscFree(list[k]));
  }
  *nv = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the untimed warm-up of one variant (-bench_setup_warmup): L and U solvers of the throwaway triangles tl, tu set up and
   applied once (t: 3 BENCH_TINY_N entries where the solves run, b = 1 first), so that the process's first-use work (the
   capture stream, cuSPARSE's or cuBLAS's handle, a kernel's first launch) is not counted in the variant's timed setup */
static PetscErrorCode WarmUpVariantInner(SpTrsvTri tl, SpTrsvTri tu, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *be, Where where, PetscScalar *t, SpTrsvSolver *sl, SpTrsvSolver *su)
{
  PetscFunctionBeginUser;
  PetscCall(SpTrsvSolverCreate(tl, PETSC_FALSE, format, path, be, sl));
  PetscCall(SpTrsvSolverCreate(tu, PETSC_FALSE, format, path, be, su));
  PetscCall(SpTrsvSolverApply(*sl, t, t + BENCH_TINY_N));
  PetscCall(SpTrsvSolverApply(*su, t + BENCH_TINY_N, t + 2 * BENCH_TINY_N));
  PetscCall(BenchSync(where));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a warm-up that fails (a variant whose forced options do not fit the throwaway triangle) is noted and skipped */
static PetscErrorCode WarmUpVariant(SpTrsvTri tl, SpTrsvTri tu, SpTrsvFormat format, SpTrsvPath path, const SpTrsvBackendOps *be, Where where, PetscScalar *t, const char *name)
{
  SpTrsvSolver   sl = NULL, su = NULL;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = WarmUpVariantInner(tl, tu, format, path, be, where, t, &sl, &su);
  if (sl) (void)SpTrsvSolverDestroy(&sl);
  if (su) (void)SpTrsvSolverDestroy(&su);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
#if defined(BENCH_HAVE_CUDA)
    if (where == ON_DEVICE) (void)cudaGetLastError();
#endif
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "NOTE: the warm-up of %s on the throwaway triangle failed (error %d): its timed setup may include first-use work\n", name, (int)ierr));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* every registered path's executors on the factor's triangles through the private API, in each of its variants
   (level, element: csr/csc where the path reads columns x graph on/off; syncfree: asap/alap x csr/warpell; ...):
   on the device (the CUDA executors, rows named PATH-VARIANT), or with -bench_host_paths on a machine without a GPU
   the host executors of the same variants (rows PATH-VARIANT-host: their max_rel_err checks every path's host
   executor against the reference on the same triangles); -bench_paths level,element,... restricts the paths */
PetscErrorCode BenchRunPaths(Bench *B, SpTrsvFactor fac, const SpTrsvBackendOps *be, Where where)
{
  PetscInt     npaths, nsel = 16;
  char        *sel[16];
  PetscBool    flg;
  PetscScalar *w = NULL, *x = NULL, *b = (PetscScalar *)B->b, *b2 = NULL, *x2 = NULL, *t = NULL;
  SpTrsvTri    tl = NULL, tu = NULL;

  PetscFunctionBeginUser;
#if defined(BENCH_HAVE_CUDA)
  if (where == ON_DEVICE) {
    b  = B->d_b;
    w  = B->d_w;
    x  = B->d_x;
    b2 = B->d_b2;
    x2 = B->d_x2;
  }
#endif
  if (where == ON_HOST && B->ptr_update) {
    PetscCall(PetscMalloc4(B->n, &w, B->n, &x, B->n, &b2, B->n, &x2));
    PetscCall(PetscArraycpy(b2, B->b, B->n));
  } else if (where == ON_HOST) PetscCall(PetscMalloc2(B->n, &w, B->n, &x));
  if (!b2) b2 = b; /* one pair (-bench_ptr_update 0) */
  if (!x2) x2 = x;
  if (B->setup_warmup) { /* the throwaway triangles and vectors of the warm-ups */
    PetscScalar one[3 * BENCH_TINY_N];
    for (PetscInt i = 0; i < 3 * BENCH_TINY_N; i++) one[i] = 1.0;
    PetscCall(BenchTinyTri(SPTRSV_LOWER, PETSC_TRUE, &tl));
    PetscCall(BenchTinyTri(SPTRSV_UPPER, PETSC_FALSE, &tu));
#if defined(BENCH_HAVE_CUDA)
    if (where == ON_DEVICE) {
      BenchCUDA(cudaMalloc((void **)&t, sizeof(one)));
      BenchCUDA(cudaMemcpy(t, one, sizeof(one), cudaMemcpyHostToDevice));
    }
#endif
    if (where == ON_HOST) {
      PetscCall(PetscMalloc1(3 * BENCH_TINY_N, &t));
      PetscCall(PetscArraycpy(t, one, 3 * BENCH_TINY_N));
    }
  }
  PetscCall(SpTrsvPathGetCount(&npaths));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bench_paths", sel, &nsel, &flg));
  for (PetscInt pi = 0; pi < npaths; pi++) {
    SpTrsvPath    path;
    KernelVariant var[16];
    PetscInt      nvar = 0;
    PetscBool     chosen = (PetscBool)!flg;

    PetscCall(SpTrsvPathGetByIndex(pi, &path));
    for (PetscInt k = 0; k < nsel && !chosen; k++) PetscCall(PetscStrcmp(sel[k], path->name, &chosen));
    if (!chosen || !path->exec[be->slot]) continue;
    PetscCall(PathVariants(path, var, &nvar));
    for (PetscInt vi = 0; vi < nvar; vi++) {
      TriCtx         c = {NULL, NULL, {b, b2}, w, {x, x2}, 0, (PetscBool)(b2 != b)};
      PetscLogDouble t0, t1, t2;
      char           name[64];
      Result        *r;
      PetscBool      inverse;

      PetscCall(PetscSNPrintf(name, sizeof(name), "%s-%s%s", path->name, var[vi].suffix, where == ON_HOST ? "-host" : ""));
      /* the path's options are read from the global options when a triangle is set up */
      for (PetscInt o = 0; o < 4 && var[vi].opt[o][0][0]; o++) PetscCall(PetscOptionsSetValue(NULL, var[vi].opt[o][0], var[vi].opt[o][1]));
      if (B->setup_warmup) PetscCall(WarmUpVariant(tl, tu, var[vi].format, path, be, where, t, name));
      PetscCall(BenchSync(where));
      PetscCall(PetscTime(&t0));
      PetscCall(SpTrsvSolverCreate(fac->L, PETSC_FALSE, var[vi].format, path, be, &c.L));
      PetscCall(BenchSync(where));
      PetscCall(PetscTime(&t1));
      PetscCall(SpTrsvSolverCreate(fac->U, PETSC_FALSE, var[vi].format, path, be, &c.U));
      PetscCall(BenchSync(where));
      PetscCall(PetscTime(&t2));
      for (PetscInt o = 0; o < 4 && var[vi].opt[o][0][0]; o++) PetscCall(PetscOptionsClearValue(NULL, var[vi].opt[o][0]));
      inverse = (PetscBool)(BenchSolverInverse(c.L) || BenchSolverInverse(c.U));

      PetscCall(BenchFillNaN(B, where, w)); /* a row left unsolved shows */
      PetscCall(BenchFillNaN(B, where, x));
      if (x2 != x) PetscCall(BenchFillNaN(B, where, x2));
      if ((r = NewResult(B, name, "L"))) {
        PetscCall(TimeSolves(B, where, B->min_reps, SolveL, &c, r));
        PetscCall(BenchErr(B, where, w, B->yref, &r->err));
        r->setup_ms      = 1e3 * (t1 - t0);
        r->breakeven_ref = "cusparse-spsv";
        r->inverse       = BenchSolverInverse(c.L);
        r->ptr_update    = c.alt;
      }
      if ((r = NewResult(B, name, "LU"))) {
        double e2;
        PetscCall(TimeSolves(B, where, B->min_reps, SolveLU, &c, r));
        PetscCall(BenchErr(B, where, x, B->xref, &r->err));
        PetscCall(BenchErr(B, where, x2, B->xref, &e2)); /* both outputs were written (at least 2 solves): the worse counts */
        r->err           = BenchWorse(r->err, e2);
        r->setup_ms      = 1e3 * (t2 - t0);
        r->breakeven_ref = "cusparse-spsv";
        r->inverse       = inverse;
        r->ptr_update    = c.alt;
      }
      PetscCall(SpTrsvSolverDestroy(&c.L));
      PetscCall(SpTrsvSolverDestroy(&c.U));
    }
  }
  if (flg)
    for (PetscInt k = 0; k < nsel; k++) PetscCall(PetscFree(sel[k]));
  if (where == ON_HOST) {
    if (x2 != x) PetscCall(PetscFree4(w, x, b2, x2));
    else PetscCall(PetscFree2(w, x));
  }
  if (B->setup_warmup) {
    PetscCall(SpTrsvTriDestroy(&tl));
    PetscCall(SpTrsvTriDestroy(&tu));
#if defined(BENCH_HAVE_CUDA)
    if (where == ON_DEVICE) BenchCUDA(cudaFree(t));
#endif
    if (where == ON_HOST) PetscCall(PetscFree(t));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* vectors for MatSolve: on the device, VECCUDA (used in place) with a CUDA PETSc, else host vectors (copied
   in and out); host vectors when there is no GPU */
