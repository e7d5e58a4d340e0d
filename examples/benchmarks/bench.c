static const char help[] = "Triangular-solve benchmark of petsc-sptrsv (docs/PERFORMANCE.md).\n"
                           "Builds the ILU(0) factors (natural ordering) of one matrix and times, in this process, on the same L and U\n"
                           "values: our level-scheduled CUDA kernels (csr/csc, CUDA graph on/off) for L alone and for L then U,\n"
                           "cuSPARSE's generic SpSV (analysis once, then solves), MatSolve through sptrsv_level and MatSolve through\n"
                           "PETSc's own cusparse ILU(0). Per solve: median time (CUDA events, back-to-back solves after warm-up),\n"
                           "GFLOP/s, GB/s, fraction of the bandwidth bound, ratio to cuSPARSE, setup time, break-even solves and the\n"
                           "max relative error against the host backend. Without a usable GPU only the host reference runs (exit 0).\n"
                           "  -mtx <file.mtx[.gz]>               Matrix Market matrix\n"
                           "  -fbin <file>                       PETSc binary matrix (e.g. a tutorial's -ksp_view_mat binary:<file>)\n"
                           "  -lap2d <NXxNY> -stencil <5|9>      generated 2-D Laplacian\n"
                           "  -lap3d <NXxNYxNZ> -stencil <7|27>  generated 3-D Laplacian\n"
                           "  -banded <NxW>      banded matrix, half-bandwidth W (strong locality, paper 004)\n"
                           "  -blockdiag <NxBS>  block-diagonal matrix, dense blocks of BS rows\n"
                           "  -reps <200>        timed solves per variant, at most\n"
                           "  -min_reps <5>      timed solves per variant, at least (the host reference: 1)\n"
                           "  -warmup <20>       warm-up solves per variant, at most\n"
                           "  -max_time <0.25>   seconds of timed solves per variant: caps -reps for slow solves\n"
                           "  -host_time <0.1>   seconds of timed solves for the host-reference rows (after one warm-up solve)\n"
                           "  -csv <file>        append one row per variant (with a header when the file is new or empty)\n"
                           "  -label <name>      case name (default: from the matrix)\n"
                           "  -bw_gbs <GB/s>     device bandwidth of the bound (default: measured here, cudaMemcpy device to device)\n"
                           "  -bw_mib <1024>     size of that copy in MiB (read + write bytes are counted)\n"
                           "  -petsc_cusparse <true>  also time MatSolve of PETSc's own cusparse ILU(0) (needs a CUDA PETSc)\n"
                           "  -bench_levels <0>  ILU(k) (or ICC(k)) instead of ILU(0) (large k: the exact LU)\n"
                           "  -bench_factor <ilu>  ilu, icc (the plugin's ICC(k) of a symmetric matrix: L and U = D L^T, as its MatSolve\n"
                           "                     solves them; PETSc's cusparse rows left out, its device ICC being another factor), or the\n"
                           "                     direct factors: lu (SuperLU, partial pivoting) or cholesky (CHOLMOD,\n"
                           "                     supernodal, in the matrix's order as given: use -bench_ordering nd), converted into the\n"
                           "                     plugin's triangles; every row times the same L and U (PETSc's cusparse rows left out)\n"
                           "  -bench_supernodal <auto,pull,inv,inv-nosplit,merge-relax>  the supernodal variants to time (also inv-always:\n"
                           "                     every level split, inv-relax: inverted + merged + relaxed 0.3, inv-relaxR: relaxed R)\n"
                           "  -bench_ordering <ord>  permute the matrix first (e.g. nd: wide supernodes for sptrsv_supernodal)\n"
                           "  -bench_matsolve_type <sptrsv_level>  MatSolverType of the factor timed through MatSolve (rows matsolve-sptrsv*;\n"
                           "                     another type names them matsolve-TYPE*; sptrsv (the automatic choice, printed): matsolve-sptrsv_auto*)\n"
                           "  -bench_locality <auto,paper,regions>  the locality path once per partitioner (-mat_sptrsv_locality_partition),\n"
                           "                     CUDA graph only; auto keeps the default name locality-csr-graph, the others locality-csr-graph-NAME;\n"
                           "                     an entry may add -s0/-s1/-s2 (-mat_sptrsv_locality_stage) and -np (-mat_sptrsv_locality_pack 0),\n"
                           "                     e.g. auto-s0-np: the kernel and partition of locality run 2; -kc, -kb, -ks: the chain,\n"
                           "                     blocks or slot kernel forced (-mat_sptrsv_locality_kernel), -bNNN: blocks of NNN rows\n"
                           "  -bench_ptr_update <true>  two b/x buffer pairs alternate between timed solves (L: b; L then U: b and x; the\n"
                           "                     work vector between L and U stays, as in MatSolve), so that a CUDA-graph path rewrites\n"
                           "                     its vector pointers before each solve as inside a KSP solve (CSV column ptr_update 1);\n"
                           "                     both outputs are checked (max_rel_err); 0: one pair (the update skipped after the first)\n"
                           "  -bench_setup_warmup <true>  before any timed setup, untimed: cuSPARSE SpSV analysis + solve of throwaway\n"
                           "                     64-row triangles (on each cuSPARSE handle timed), a cuBLAS handle with one TRSV and GEMV,\n"
                           "                     and each path variant set up and applied once on them: the process's one-time start-up\n"
                           "                     stays out of the setup_ms and breakeven_solves columns (CSV column warmed_up 1)\n"
                           "  Error rule (CSV column tol): a row whose max_rel_err exceeds tol = max(1e-10, f x cuSPARSE SpSV's error on\n"
                           "                     the same triangles), f = 10 for a substitution, 100 where the arithmetic differs\n"
                           "                     (products of inverted blocks: pinv, supernodal's inverted diagonal blocks, locality's\n"
                           "                     blocks kernel, a MatSolve through one of them), at most 1e-2, is a failure (FAILED in\n"
                           "                     the output); without a cuSPARSE row tol = 1e-10\n"
                           "  -bench_host_tol <tol>  without a GPU: the largest relative difference of the host-backend MatSolve from the\n"
                           "                     host reference (default 1e-10; 0: only printed; the exact LU of an ill-conditioned\n"
                           "                     matrix without pivoting differs between methods of equal backward error)\n"
                           "  -bench_host_paths  without a GPU: also run every path's host executor on each of its variants (rows\n"
                           "                     PATH-VARIANT-host), each checked against the host reference (max_rel_err)\n"
                           "  -bench_locality_estimate  only print the locality cost model's figures of L and U for both partitioners and\n"
                           "                     the one auto chooses (host analysis, no solves; lines locality-estimate ...; the\n"
                           "                     options -mat_sptrsv_locality_stage/_pack, -mat_sptrsv_subgraph_rows apply) and exit\n"
                           "  -bench_supernodal_estimate  only print the supernodal cost model of L and U (host analysis, no solves; lines\n"
                           "                     supernodal-estimate ...: TRSV, inverted without and with split levels) and exit;\n"
                           "                     -bench_supernodal_detail adds the per-level table of the split schedule; a triangle\n"
                           "                     without a supernode -mat_sptrsv_supernode_min_width (default 16) rows wide is\n"
                           "                     delegated to the sync-free schedule and has no model (0 models the dense blocks)\n\n";

#include "bench.h"
#include <sptrsv/paths/locality.h> /* -bench_locality_estimate: the partitioners and their cost model */
#include <sptrsv/paths/level.h>    /* SpTrsvLanesPerRow */
#include <sptrsv/paths/supernodal.h> /* -bench_supernodal_estimate: the supernodal schedule and its cost model */
#define OPTS_LOCALITY(o) ((SpTrsvLocalityOptions *)SpTrsvPathOptionsOwn(o, &SpTrsvPath_locality)) /* its own options inside o */
#define OPTS_SUPERNODAL(o) ((SpTrsvSupernodalOptions *)SpTrsvPathOptionsOwn(o, &SpTrsvPath_supernodal)) /* its own options inside o */

/* ---- MatSolve -------------------------------------------------------------------------------------- */

/* MatSolve(F, b[k], x[k]), k alternating when alt (as TriCtx in bench_paths.c) */
typedef struct {
  Mat       F;
  Vec       b[2], x[2];
  int       k;
  PetscBool alt;
} MatSolveCtx;

static PetscErrorCode SolveMat(void *ctx)
{
  MatSolveCtx *c = (MatSolveCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatSolve(c->F, c->b[c->k], c->x[c->k]));
  if (c->alt) c->k ^= 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MakeSolveVecs(Bench *B, PetscBool device, Vec *b, Vec *x)
{
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecCreate(PETSC_COMM_SELF, b));
  PetscCall(VecSetSizes(*b, B->n, B->n));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(VecSetType(*b, device ? VECCUDA : VECSEQ));
#else
  PetscCall(VecSetType(*b, VECSEQ));
#endif
  PetscCall(VecDuplicate(*b, x));
  PetscCall(VecGetArrayWrite(*b, &a));
  if (B->rperm)
    for (PetscInt k = 0; k < B->n; k++) a[B->rperm[k]] = B->b[k]; /* (P b')_k = b'[rperm[k]] = b_k */
  else PetscCall(PetscArraycpy(a, B->b, B->n));
  PetscCall(VecRestoreArrayWrite(*b, &a));
  PetscCall(VecSet(*x, -12345.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecErr(Bench *B, Vec x, double *err)
{
  const PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &a));
  if (B->cperm) { /* x[cperm[k]] = z_k: the triangles' solution in the factor's order */
    for (PetscInt k = 0; k < B->n; k++) B->hbuf[k] = a[B->cperm[k]];
    *err = RelErrInf(B->n, B->hbuf, B->xref);
  } else *err = RelErrInf(B->n, a, B->xref);
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSolve through the sptrsv_level factor F (its own backend, csr, graph on) */
static PetscErrorCode RunMatSolve(Bench *B, Mat F, PetscBool device, double factor_ms)
{
  MatSolveCtx   c = {F, {NULL, NULL}, {NULL, NULL}, 0, B->ptr_update};
  Result       *r;
  MatSolverType type;
  char          name[64];
  Mat_SpTrsv   *sp = (Mat_SpTrsv *)F->data; /* bench times the plugin's factors only (MatSpTrsvGetFactorHost) */
#if defined(PETSC_HAVE_CUDA)
  const char *suffix = device ? "" : "-host";
#else
  const char *suffix = device ? "-hostvec" : "-host";
#endif

  PetscFunctionBeginUser;
  PetscCall(MatFactorGetSolverType(F, &type));
  /* sptrsv_level keeps the historical name matsolve-sptrsv; the automatic type is matsolve-sptrsv_auto */
  PetscCall(PetscSNPrintf(name, sizeof(name), "matsolve-%s%s", !strcmp(type, MATSOLVERSPTRSVLEVEL) ? "sptrsv" : (!strcmp(type, MATSOLVERSPTRSV) ? "sptrsv_auto" : type), suffix));
  PetscCall(MakeSolveVecs(B, device, &c.b[0], &c.x[0]));
  if (c.alt) PetscCall(MakeSolveVecs(B, device, &c.b[1], &c.x[1]));
  if ((r = NewResult(B, name, "LU"))) {
    double e2;
    PetscCall(TimeSolves(B, device ? ON_DEVICE : ON_HOST, device ? B->min_reps : 1, SolveMat, &c, r));
    PetscCall(VecErr(B, c.x[0], &r->err));
    if (c.alt) {
      PetscCall(VecErr(B, c.x[1], &e2));
      r->err = BenchWorse(r->err, e2);
    }
    r->setup_ms      = factor_ms;
    r->breakeven_ref = "matsolve-petsc-cusparse";
    r->ptr_update    = c.alt;
    /* the paths in place after the solves (the learning choice may have switched them) */
    r->inverse = (PetscBool)(BenchSolverInverse(sp->tri[0][0]) || BenchSolverInverse(sp->tri[0][1]));
  }
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(VecDestroy(&c.b[k]));
    PetscCall(VecDestroy(&c.x[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_CUDA) && defined(BENCH_HAVE_CUDA)
/* MatSolve of PETSc's own GPU ILU(0): -pc_factor_mat_solver_type cusparse on a MATSEQAIJCUSPARSE copy of A */
static PetscErrorCode RunPetscCusparseInner(Bench *B, Mat A, const MatFactorInfo *info, Mat *Acu, Mat *Fc, MatSolveCtx *c)
{
  IS             row, col;
  PetscLogDouble t0, t1;
  Result        *r;

  PetscFunctionBeginUser;
  PetscCall(MatConvert(A, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, Acu));
  PetscCall(MatGetOrdering(*Acu, MATORDERINGNATURAL, &row, &col));
  BenchCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(MatGetFactor(*Acu, MATSOLVERCUSPARSE, MAT_FACTOR_ILU, Fc));
  PetscCall(MatILUFactorSymbolic(*Fc, *Acu, row, col, info));
  PetscCall(MatLUFactorNumeric(*Fc, *Acu, info));
  BenchCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t1));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  c->F   = *Fc;
  c->alt = B->ptr_update;
  PetscCall(MakeSolveVecs(B, PETSC_TRUE, &c->b[0], &c->x[0]));
  if (c->alt) PetscCall(MakeSolveVecs(B, PETSC_TRUE, &c->b[1], &c->x[1]));
  if ((r = NewResult(B, "matsolve-petsc-cusparse", "LU"))) {
    double e2;
    PetscCall(TimeSolves(B, ON_DEVICE, B->min_reps, SolveMat, c, r));
    PetscCall(VecErr(B, c->x[0], &r->err));
    if (c->alt) {
      PetscCall(VecErr(B, c->x[1], &e2));
      r->err = BenchWorse(r->err, e2);
    }
    r->setup_ms   = 1e3 * (t1 - t0);
    r->ptr_update = c->alt;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunPetscCusparse(Bench *B, Mat A, const MatFactorInfo *info)
{
  Mat            Acu = NULL, Fc = NULL;
  MatSolveCtx    c   = {NULL, {NULL, NULL}, {NULL, NULL}, 0, PETSC_FALSE};
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = RunPetscCusparseInner(B, A, info, &Acu, &Fc, &c);
  PetscCall(PetscPopErrorHandler());
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(VecDestroy(&c.b[k]));
    PetscCall(VecDestroy(&c.x[k]));
  }
  PetscCall(MatDestroy(&Fc));
  PetscCall(MatDestroy(&Acu));
  if (ierr) {
    const char *text = NULL, *specific = NULL;
    (void)PetscErrorMessage(ierr, &text, (void *)&specific);
    (void)cudaGetLastError();
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "NOTE: PETSc's cusparse ILU(0) MatSolve failed and is skipped (error %d: %s)\n", (int)ierr, specific ? specific : (text ? text : "?")));
    while (B->nres && !strcmp(B->res[B->nres - 1].variant, "matsolve-petsc-cusparse")) B->nres--;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* an independent check of the reference (it and every row's error use the same host triangles): ||A x - b||_inf /
   (||A||_inf ||x||_inf + ||b||_inf) for the solution x = U^{-1} L^{-1} b, A being the matrix factored (after
   -bench_ordering). Near rounding for an exact factor (-bench_levels above every fill level: the LU), larger for ILU */
static PetscErrorCode ReferenceResidual(Bench *B, Mat A, const char *what)
{
  Vec          x, r;
  PetscReal    nr, na, nx, nb = 0;
  PetscScalar *xa, *ra;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &r));
  PetscCall(VecGetArrayWrite(x, &xa)); /* a direct factor's order: x[cperm[k]] = z_k, b'[rperm[k]] = b_k */
  for (PetscInt k = 0; k < B->n; k++) xa[B->cperm ? B->cperm[k] : k] = B->xref[k];
  PetscCall(VecRestoreArrayWrite(x, &xa));
  PetscCall(MatMult(A, x, r));
  for (PetscInt i = 0; i < B->n; i++) nb = PetscMax(nb, PetscAbsScalar(B->b[i]));
  PetscCall(VecGetArray(r, &ra));
  for (PetscInt k = 0; k < B->n; k++) ra[B->rperm ? B->rperm[k] : k] -= B->b[k];
  PetscCall(VecRestoreArray(r, &ra));
  PetscCall(VecNorm(r, NORM_INFINITY, &nr));
  PetscCall(VecNorm(x, NORM_INFINITY, &nx));
  PetscCall(MatNorm(A, NORM_INFINITY, &na));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "reference check: ||A x - b|| / (||A|| ||x|| + ||b||) = %.2e for x = U^-1 L^-1 b (%s: rounding-level only for an exact factor)\n", (double)(nr / (na * nx + nb)), what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- report -------------------------------------------------------------------------------------- */

/* the CSV columns of bench (-csv) */
static const char BenchCSVColumns[] = "label,kind,variant,n,nnz,levels_L,levels_U,reps,median_ms,min_ms,gflops,gbs,bound_pct,bw_gbs,bytes,flops,vs_cusparse,vs_petsc_cusparse,setup_ms,breakeven_solves,max_rel_err,timing,device,nnz_L,nnz_U,maxlev_L,maxlev_U,maxrow_L,maxrow_U,tol,ptr_update,warmed_up\n";

static PetscErrorCode Report(Bench *B)
{
  const char        *hdr = BenchCSVColumns;
  PetscInt           nfail = 0;

  PetscFunctionBeginUser;
  BenchErrorRule(B);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n%-22s %9s %10s %11s %-3s %-26s %5s %10s %9s %9s %7s %8s %8s %9s %9s %9s %8s %s\n", "case", "n", "nnz", "levels", "tri", "variant", "reps", "median_ms", "GFLOP/s", "GB/s", "%bound", "vs_cusp", "vs_petsc", "setup_ms", "breakeven", "max_err", "tol", "timing"));
  PetscCall(BenchCSVHeader(B, hdr));
  for (PetscInt k = 0; k < B->nres; k++) {
    const Result  *r  = &B->res[k];
    PetscBool      lu = (PetscBool)!strcmp(r->kind, "LU");
    double         bytes = lu ? B->Ls.bytes_per_solve + B->Us.bytes_per_solve : B->Ls.bytes_per_solve;
    double         flops = lu ? 2.0 * B->nnzL + 2.0 * B->nnzU + B->n : 2.0 * B->nnzL;
    PetscInt64     nnz   = lu ? (PetscInt64)B->nnzL + B->nnzU + B->n : (PetscInt64)B->nnzL;
    double         t     = r->med_ms * 1e-3;
    double         gflops = t > 0 ? flops / t / 1e9 : 0, gbs = t > 0 ? bytes / t / 1e9 : 0;
    double         bound  = B->bw_gbs > 0 ? 100.0 * gbs / B->bw_gbs : -1;
    const Result  *cus = FindResult(B, "cusparse-spsv", r->kind), *pc = lu ? FindResult(B, "matsolve-petsc-cusparse", "LU") : NULL, *ref = r->breakeven_ref ? FindResult(B, r->breakeven_ref, r->kind) : NULL;
    double         vs_cus = cus && r->med_ms > 0 ? cus->med_ms / r->med_ms : -1, vs_pc = pc && r->med_ms > 0 ? pc->med_ms / r->med_ms : -1;
    double         be = -1; /* -1: not applicable */
    char           s_cus[32] = "-", s_pc[32] = "-", s_bound[32] = "-", s_be[32] = "-", s_setup[32] = "-", s_err[32] = "-", s_tol[32] = "-", s_lev[48];
    const PetscBool failed = (PetscBool)(r->tol >= 0 && !(r->err <= r->tol)); /* the error rule (NaN fails) */

    if (ref && r->setup_ms >= 0 && ref->setup_ms >= 0) {
      double dsetup = r->setup_ms - ref->setup_ms, dsolve = ref->med_ms - r->med_ms;
      if (dsetup <= 0 && dsolve >= 0) be = 0; /* cheaper setup and no slower: pays off at once */
      else if (dsetup > 0 && dsolve > 0) be = dsetup / dsolve;
      else be = -2; /* never: slower per solve */
    }
    if (vs_cus > 0) PetscCall(PetscSNPrintf(s_cus, sizeof(s_cus), "%.2f", vs_cus));
    if (vs_pc > 0) PetscCall(PetscSNPrintf(s_pc, sizeof(s_pc), "%.2f", vs_pc));
    if (bound >= 0 && strncmp(r->variant, "host", 4) && strcmp(r->variant, "matsolve-sptrsv-host")) PetscCall(PetscSNPrintf(s_bound, sizeof(s_bound), "%.1f", bound));
    if (be >= 0) PetscCall(PetscSNPrintf(s_be, sizeof(s_be), "%.0f", PetscCeilReal(be)));
    else if (be == -2) PetscCall(PetscStrncpy(s_be, "never", sizeof(s_be)));
    if (r->setup_ms >= 0) PetscCall(PetscSNPrintf(s_setup, sizeof(s_setup), "%.2f", r->setup_ms));
    if (r->err >= 0 || r->err != r->err) PetscCall(PetscSNPrintf(s_err, sizeof(s_err), "%.2e", r->err));
    if (r->tol >= 0) PetscCall(PetscSNPrintf(s_tol, sizeof(s_tol), "%.1e", r->tol));
    nfail += failed;
    if (lu) PetscCall(PetscSNPrintf(s_lev, sizeof(s_lev), "%" PetscInt_FMT "/%" PetscInt_FMT, B->Ls.nlevels, B->Us.nlevels));
    else PetscCall(PetscSNPrintf(s_lev, sizeof(s_lev), "%" PetscInt_FMT, B->Ls.nlevels));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-22s %9" PetscInt_FMT " %10lld %11s %-3s %-26s %5" PetscInt_FMT " %10.4f %9.2f %9.1f %7s %8s %8s %9s %9s %9s %8s %s%s\n", B->label, B->n, (long long)nnz, s_lev, r->kind, r->variant, r->reps, r->med_ms, gflops, gbs, s_bound, s_cus, s_pc, s_setup, s_be, s_err, s_tol, r->timing, failed ? "  FAILED (error above tol)" : ""));
    if (B->csv) {
      fprintf(B->csv, "%s,%s,%s,%lld,%lld,%lld,%lld,%lld,%.6g,%.6g,%.6g,%.6g,%s,%.6g,%.6g,%.6g,%s,%s,%s,%s,%s,%s,\"%s\",%lld,%lld,%lld,%lld,%lld,%lld,%s,%d,%d\n", B->label, r->kind, r->variant, (long long)B->n, (long long)nnz, (long long)B->Ls.nlevels, lu ? (long long)B->Us.nlevels : 0LL, (long long)r->reps, r->med_ms, r->min_ms, gflops, gbs, strcmp(s_bound, "-") ? s_bound : "", B->bw_gbs, bytes, flops, strcmp(s_cus, "-") ? s_cus : "",
              strcmp(s_pc, "-") ? s_pc : "", strcmp(s_setup, "-") ? s_setup : "", strcmp(s_be, "-") ? s_be : "", strcmp(s_err, "-") ? s_err : "", r->timing, B->device,
              /* the features of each triangle the automatic choice reads (strict nonzeros, widest level, longest row): its cost
                 model is fitted on them (examples/benchmarks/fit-auto-model.py) */
              (long long)B->nnzL, (long long)B->nnzU, (long long)B->Ls.max_level_rows, (long long)B->Us.max_level_rows, (long long)B->Ls.max_row_nnz, (long long)B->Us.max_row_nnz,
              /* the error rule's tolerance (bench.h), the pointer update paid (-bench_ptr_update), the warm-up before the setups */
              strcmp(s_tol, "-") ? s_tol : "", (int)r->ptr_update, (int)B->warmed);
    }
  }
  if (B->csv) fflush(B->csv);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\nerror rule: max_rel_err against the host reference <= tol = max(%.0e, %.0f x cuSPARSE SpSV's error on the same triangles) for a substitution, %.0f x where the arithmetic differs (products of inverted blocks: pinv, supernodal's inverted diagonal blocks, locality's blocks kernel), at most %.0e, 1e-10 without a cuSPARSE row; a row above it is a failure, never a win: %" PetscInt_FMT " of %" PetscInt_FMT " rows FAILED\n", BENCH_TOL_FLOOR, BENCH_TOL_EXACT, BENCH_TOL_INVERSE, BENCH_TOL_CAP, nfail, B->nres));
  for (PetscInt k = 0; k < B->nres; k++) {
    const Result *r = &B->res[k];
    if (r->tol >= 0 && !(r->err <= r->tol)) PetscCall(PetscPrintf(PETSC_COMM_SELF, "FAILED: %s %s %s: max_rel_err %.2e > tol %.1e\n", B->label, r->kind, r->variant, r->err, r->tol));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- main ---------------------------------------------------------------------------------------- */

/* -bench_locality_estimate: the locality cost model's figures (src/mat/paths/locality/partition_model.c) of L and U, the
   paper's partition and the regions with their best R, from the host analysis alone */
static PetscErrorCode LocalityEstimates(Bench *B, SpTrsvFactor fac)
{
  SpTrsvPathOptions opts;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
  /* the options the timed variants set (-bench_locality ...-sS-np, -mat_sptrsv_subgraph_rows), so the figures describe them */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_locality_stage", &OPTS_LOCALITY(&opts)->locality_stage, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_sptrsv_locality_pack", &OPTS_LOCALITY(&opts)->locality_pack, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_sptrsv_subgraph_rows", &OPTS_LOCALITY(&opts)->subgraph_rows, NULL));
  for (PetscInt k = 0; k < 2; k++) {
    SpTrsvOp             op;
    SpTrsvLocalityDevice dev;
    PetscCall(SpTrsvTriGetOp(k ? fac->U : fac->L, PETSC_FALSE, &op));
    dev.sms   = OPTS_LOCALITY(&opts)->locality_sms;
    dev.lanes = SpTrsvLanesPerRow(op.n ? (PetscReal)op.nnz / op.n : 0);
    dev.pack  = OPTS_LOCALITY(&opts)->locality_pack;
    dev.max_stage = OPTS_LOCALITY(&opts)->locality_stage;
    for (PetscInt p = SPTRSV_LOCALITY_PARTITION_AUTO; p <= SPTRSV_LOCALITY_PARTITION_REGIONS; p++) { /* auto: the one it chose */
      SpTrsvPartition        part;
      SpTrsvLocalityChoice   ch;
      const PetscInt         nmax = OPTS_LOCALITY(&opts)->subgraph_rows > 0 ? OPTS_LOCALITY(&opts)->subgraph_rows : (PetscInt)(SPTRSV_LOCALITY_SMEM_BYTES / sizeof(PetscScalar));
      PetscLogDouble         t0, t1;
      const SpTrsvLocalityEstimate *e;
      PetscCall(PetscTime(&t0));
      PetscCall(SpTrsvPartitionChoose(op.n, op.ri, op.rj, nmax, (SpTrsvLocalityPartitioner)p, &dev, &part, &ch));
      PetscCall(PetscTime(&t1));
      e = (p == SPTRSV_LOCALITY_PARTITION_AUTO ? part.kind : p) == SPTRSV_LOCALITY_PARTITION_PAPER ? &ch.paper : &ch.regions;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "locality-estimate %s %s %s: R %" PetscInt_FMT ", launches %" PetscInt_FMT ", sub-graphs %" PetscInt_FMT " (per launch mean %.1f max %" PetscInt_FMT "), slots per sub-graph mean %.1f, critical slots %" PetscInt_FMT ", largest %" PetscInt_FMT " rows, external %.1f%%, predicted %.1f us, slot-waves %.1f (stage 0/1/2: %.1f/%.1f/%.1f), work %.1f, analysis %.0f ms\n", B->label, k ? "U" : "L", SpTrsvLocalityPartitioners[p], part.region_rows, e->launches, e->nsub, (double)e->mean_subs, e->max_subs, (double)e->mean_slots, e->crit_slots, e->max_rows, 100.0 * (double)e->ext_frac, (double)e->predicted_us, (double)e->slot_waves, (double)e->slot_waves_stage[0], (double)e->slot_waves_stage[1], (double)e->slot_waves_stage[2], (double)e->work, 1e3 * (t1 - t0)));
      PetscCall(SpTrsvPartitionDestroy(&part));
    }
    { /* the chain and blocks kernels (src/mat/paths/locality/chain.c, src/mat/paths/locality/locality_blocks.c): every block size */
      SpTrsvLocalityChain ch;
      PetscInt           *order;
      PetscCall(PetscMalloc1(op.n + 1, &order));
      PetscCall(SpTrsvLocalityChainCreate(&op, OPTS_LOCALITY(&opts)->locality_sms, order, &ch));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "locality-chain-estimate %s %s: reach %" PetscInt_FMT ", window %" PetscInt_FMT ", groups %" PetscInt_FMT ", longest %" PetscInt_FMT " rows, accepted %d, predicted %.1f us\n", B->label, k ? "U" : "L", ch.reach, ch.W, ch.ngroups, ch.max_group_rows, (int)ch.accepted, (double)ch.predicted_us));
      for (PetscInt Bk = ch.W; ch.W && Bk <= SPTRSV_CHAIN_MAX_WIDTH; Bk *= 2) {
        SpTrsvLocalityBlocks blk;
        PetscCall(SpTrsvLocalityBlocksCreate(&op, order, &ch, Bk, OPTS_LOCALITY(&opts)->locality_block_cond, &blk));
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "locality-blocks-estimate %s %s B %" PetscInt_FMT ": R %" PetscInt_FMT ", A %" PetscInt_FMT ", blocks %" PetscInt_FMT ", longest group %" PetscInt_FMT " blocks, X %" PetscInt64_FMT ", M %" PetscInt64_FMT ", n %" PetscInt_FMT ", accepted %d, predicted %.1f us\n", B->label, k ? "U" : "L", Bk, blk.R, blk.A, blk.nblocks, blk.max_group_blocks, blk.xsize, blk.msize, op.n, (int)blk.accepted, (double)blk.predicted_us));
        PetscCall(SpTrsvLocalityBlocksDestroy(&blk));
      }
      PetscCall(SpTrsvLocalityChainDestroy(&ch));
      PetscCall(PetscFree(order));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -bench_supernodal_estimate: the supernodal schedules of L and U (auto mode: push L, pull U) in three configurations,
   their cost model (include/sptrsv/paths/supernodal.h), with the per-level table of the last one with -bench_supernodal_detail */
static PetscErrorCode SupernodalEstimates(Bench *B, SpTrsvFactor fac)
{
  const char *name[]  = {"trsv", "inv-nosplit", "inv-split"};
  const int   inv[]   = {0, 1, 1};
  const int   split[] = {SPTRSV_SUPERNODE_SPLIT_NEVER, SPTRSV_SUPERNODE_SPLIT_NEVER, SPTRSV_SUPERNODE_SPLIT_AUTO};
  PetscBool   detail  = PETSC_FALSE;
  SpTrsvPath  sn;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-bench_supernodal_detail", &detail));
  PetscCall(SpTrsvPathFind("supernodal", &sn));
  for (PetscInt k = 0; k < 2; k++) {
    SpTrsvOp op;
    PetscCall(SpTrsvTriGetOp(k ? fac->U : fac->L, PETSC_FALSE, &op));
    for (PetscInt c = 0; c < 3; c++) {
      SpTrsvPathOptions             opts;
      SpTrsvPlan                      p;
      const SpTrsvSupernodalSchedule *ss;
      PetscLogDouble                  t0, t1;
      PetscCall(SpTrsvPathOptionsDefault(NULL, &opts));
      OPTS_SUPERNODAL(&opts)->invert_diag     = inv[c];
      OPTS_SUPERNODAL(&opts)->supernode_split = split[c];
      PetscCall(PetscTime(&t0));
      PetscCall(SpTrsvPlanCreate(&op, sn, SPTRSV_FORMAT_CSR, &opts, &p));
      PetscCall(PetscTime(&t1));
      ss = (const SpTrsvSupernodalSchedule *)p->data;
      if (ss->delegated) { /* supernodes too narrow: no blocks, nothing to model (the solves would run sync-free) */
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "supernodal-estimate %s %s %s: %" PetscInt_FMT " supernodes (widest %" PetscInt_FMT " < -mat_sptrsv_supernode_min_width %" PetscInt_FMT "), width mean %.2f: delegated to the sync-free schedule, no model (-mat_sptrsv_supernode_min_width 0 models the dense blocks), analysis %.0f ms\n", B->label, k ? "U" : "L", name[c], ss->ns, ss->max_w, ss->min_width, ss->ns ? (double)p->n / (double)ss->ns : 0.0, 1e3 * (t1 - t0)));
        PetscCall(SpTrsvPlanDestroy(&p));
        continue;
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "supernodal-estimate %s %s %s: %" PetscInt_FMT " supernodes (widest %" PetscInt_FMT "), %" PetscInt_FMT " levels, analysis %.0f ms\n", B->label, k ? "U" : "L", name[c], ss->ns, ss->max_w, ss->nlevels, 1e3 * (t1 - t0)));
      PetscCall(SpTrsvSupernodalModelView(ss, "", (PetscBool)(detail && c == 2), PETSC_VIEWER_STDOUT_SELF));
      PetscCall(SpTrsvPlanDestroy(&p));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Bench                   B;
  Mat                     A, F;
  IS                      row, col;
  MatFactorInfo           info;
  PetscBool               petsc_cusparse = PETSC_TRUE, gpu = PETSC_FALSE, file = PETSC_FALSE, estimate = PETSC_FALSE, hostpaths = PETSC_FALSE, sn_estimate = PETSC_FALSE;
  char                    mstype[64] = "", ord[64] = "", what[64];
  const char *const       factors[] = {"ilu", "lu", "cholesky", "icc", "BenchFactor", "", NULL};
  PetscEnum               ftype     = (PetscEnum)0; /* -bench_factor: 0 ilu, 1 lu (SuperLU), 2 cholesky (CHOLMOD), 3 icc */
  PetscBool               direct; /* lu or cholesky: another library's factor, maybe permuted */
  PetscInt                levels = 0;
  const SpTrsvBackendOps *cuda = NULL;
  const char             *why = "";
  SpTrsvFactor            fac;
  PetscLogDouble          t0, t1;
  double                  factor_ms;
  unsigned long long      seed = 88172645463325252ULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  memset(&B, 0, sizeof(B));
  PetscCall(BenchGetOptions(&B));
  PetscCall(BenchCSVHeader(&B, BenchCSVColumns)); /* a -csv file of another header is refused now, not after the run */
  B.ptr_update = PETSC_TRUE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_ptr_update", &B.ptr_update, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-petsc_cusparse", &petsc_cusparse, NULL));
  PetscCall(PetscStrncpy(mstype, MATSOLVERSPTRSVLEVEL, sizeof(mstype)));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bench_matsolve_type", mstype, sizeof(mstype), NULL));
  PetscCall(BenchLoadMatrix(&B, "bench", &A, &file));
  /* -bench_ordering ORD: A is permuted once (the factor is then made in its natural ordering, as the kernels and cuSPARSE
     compare on the same L and U); -bench_levels K: ILU(K) (large K: the exact LU, wide supernodes under nd) */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_levels", &levels, NULL));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-bench_factor", factors, &ftype, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bench_ordering", ord, sizeof(ord), NULL));
  direct = (PetscBool)(ftype == 1 || ftype == 2);
  if (ord[0]) {
    IS  rp, cp;
    Mat Ap;
    PetscCall(MatGetOrdering(A, ord, &rp, &cp));
    PetscCall(MatPermute(A, rp, cp, &Ap));
    PetscCall(ISDestroy(&rp));
    PetscCall(ISDestroy(&cp));
    PetscCall(MatDestroy(&A));
    A = Ap;
  }
  if ((levels > 0 || ftype) && petsc_cusparse) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "-bench_levels %" PetscInt_FMT " -bench_factor %s: PETSc's cusparse ILU(0) rows are left out (another factor)\n", levels, factors[ftype]));
    petsc_cusparse = PETSC_FALSE;
  }

  /* ---- the GPU ---- */
  PetscCall(SpTrsvBackendCUDAGet(&cuda, &gpu, &why));
#if !defined(BENCH_HAVE_CUDA)
  if (gpu) {
    gpu = PETSC_FALSE;
    why = "bench was compiled without the CUDA and cuSPARSE headers (or the plugin without CUDA)";
  }
#endif

  /* ---- ILU(0), natural ordering: the factor MatSolve uses; its triangles feed every other variant ---- */
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels        = levels;
  info.fill          = 1.0;
  info.diagonal_fill = 0;
  info.zeropivot     = 100.0 * PETSC_MACHINE_EPSILON;
  if (file) { /* real matrices may have zero or tiny pivots */
    info.shifttype   = (PetscReal)MAT_SHIFT_NONZERO;
    info.shiftamount = 100.0 * PETSC_MACHINE_EPSILON;
  } else info.shifttype = (PetscReal)MAT_SHIFT_NONE;
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &row, &col));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_backend", gpu ? "cuda" : "host"));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_format", "csr"));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_sptrsv_graph", "1"));
  PetscCall(PetscTime(&t0));
  PetscCall(MatGetFactor(A, mstype, ftype == 0 ? MAT_FACTOR_ILU : (ftype == 1 ? MAT_FACTOR_LU : (ftype == 2 ? MAT_FACTOR_CHOLESKY : MAT_FACTOR_ICC)), &F));
  PetscCheck(F, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "-bench_matsolve_type %s: no such MatSolverType for %s", mstype, factors[ftype]);
  if (ftype == 2) { /* CHOLMOD in the given order (postordered by it: the factor keeps the permutation) */
    PetscCall(MatCholeskyFactorSymbolic(F, A, row, &info));
    PetscCall(MatCholeskyFactorNumeric(F, A, &info));
  } else if (ftype == 3) { /* ICC(k) in the natural ordering */
    PetscCall(MatICCFactorSymbolic(F, A, row, &info));
    PetscCall(MatCholeskyFactorNumeric(F, A, &info));
  } else {
    if (ftype == 0) PetscCall(MatILUFactorSymbolic(F, A, row, col, &info));
    else PetscCall(MatLUFactorSymbolic(F, A, row, col, &info));
    PetscCall(MatLUFactorNumeric(F, A, &info));
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_backend"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_format"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_sptrsv_graph"));
  factor_ms = 1e3 * (t1 - t0);
  if (strcmp(mstype, MATSOLVERSPTRSVLEVEL)) { /* e.g. sptrsv's choice */
    PetscCall(PetscViewerPushFormat(PETSC_VIEWER_STDOUT_SELF, PETSC_VIEWER_ASCII_INFO));
    PetscCall(MatView(F, PETSC_VIEWER_STDOUT_SELF));
    PetscCall(PetscViewerPopFormat(PETSC_VIEWER_STDOUT_SELF));
  }
  /* the factor's values where the host reference and every variant's setup read them: after a numeric phase on the GPU
     (-mat_sptrsv_factor_device, the default for ILU on the CUDA backend) the host's L->a, U->a, U->idiag are stale until
     downloaded; reading them directly gave every row solves with stale values and a meaningless max_rel_err column */
  PetscCall(MatSpTrsvGetFactorHost(F, &fac));
  PetscCheck(direct || (!fac->rperm && !fac->cperm), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Expected the natural ordering (no permutations)");
  B.rperm = fac->rperm; /* the direct factors' pivoting or postordering; every row solves the triangles themselves */
  B.cperm = fac->cperm;
  B.nnzL = fac->L->i[B.n];
  B.nnzU = fac->U->i[B.n];
  PetscCall(PetscOptionsHasName(NULL, NULL, "-bench_locality_estimate", &estimate));
  if (!estimate) {
    PetscCall(PetscOptionsHasName(NULL, NULL, "-bench_supernodal_estimate", &sn_estimate));
    estimate = sn_estimate;
  }
  if (estimate) {
    if (sn_estimate) PetscCall(SupernodalEstimates(&B, fac));
    else PetscCall(LocalityEstimates(&B, fac));
    PetscCall(ISDestroy(&row));
    PetscCall(ISDestroy(&col));
    PetscCall(MatDestroy(&F));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscFinalize());
    return 0;
  }

  /* right-hand side in [-1, 1] (xorshift, the same on every machine), the host reference solutions */
  PetscCall(PetscMalloc4(B.n, &B.b, B.n, &B.yref, B.n, &B.xref, B.n, &B.hbuf));
  BenchFillRandom(B.n, &seed, B.b);
  PetscCall(BenchRunHostReference(&B, fac));
  if (direct) PetscCall(PetscSNPrintf(what, sizeof(what), "%s", ftype == 1 ? "LU" : "Cholesky"));
  else PetscCall(PetscSNPrintf(what, sizeof(what), "%s(%" PetscInt_FMT ")", ftype == 3 ? "ICC" : "ILU", levels));
  PetscCall(ReferenceResidual(&B, A, what));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: nnz(L) = %" PetscInt_FMT " + nnz(U) = %" PetscInt_FMT " strict + %" PetscInt_FMT " diagonal; levels L = %" PetscInt_FMT ", U = %" PetscInt_FMT "; bytes per solve (model) L = %.4g, U = %.4g; factorization %.1f ms (backend %s)\n", what, B.nnzL, B.nnzU, B.n, B.Ls.nlevels, B.Us.nlevels, B.Ls.bytes_per_solve, B.Us.bytes_per_solve, factor_ms, gpu ? "cuda" : "host"));

  if (!gpu) {
    double    err;
    PetscReal tol = 1e-10;
    Vec       vb, vx;
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-bench_host_tol", &tol, NULL));
    PetscCall(PetscStrncpy(B.device, "none", sizeof(B.device)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "NO GPU RUN: %s. Ran the host reference only; the GPU variants are skipped.\n", why));
    /* smoke test of MatSolve through the factor (host backend) against the reference */
    PetscCall(MakeSolveVecs(&B, PETSC_FALSE, &vb, &vx));
    PetscCall(MatSolve(F, vb, vx));
    PetscCall(VecErr(&B, vx, &err));
    PetscCall(VecDestroy(&vb));
    PetscCall(VecDestroy(&vx));
    PetscCheck(tol <= 0 || err < tol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatSolve (host backend) differs from the host reference: %g (-bench_host_tol %g)", err, (double)tol);
    PetscCall(RunMatSolve(&B, F, PETSC_FALSE, factor_ms));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "MatSolve (host backend) vs host reference: max relative error %.2e\n", err));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-bench_host_paths", &hostpaths));
    B.warmed = B.setup_warmup; /* the host executors' warm-ups (RunPaths); there is no cuSPARSE here */
    if (hostpaths && B.setup_warmup) PetscCall(PetscPrintf(PETSC_COMM_SELF, "warm-up (untimed; -bench_setup_warmup 0: none): each path variant set up and applied once on throwaway %d-row L and U triangles before its timed setup (host executors: no cuSPARSE without a GPU)\n", BENCH_TINY_N));
    if (hostpaths) PetscCall(BenchRunPaths(&B, fac, &SpTrsvBackendHost, ON_HOST));
  }
#if defined(BENCH_HAVE_CUDA)
  else {
    PetscCall(BenchDeviceInit(&B, "solve"));
    if (B.ptr_update) { /* the second b/x pair: the same right-hand side in another buffer, another output */
      BenchCUDA(cudaMalloc((void **)&B.d_b2, (size_t)(B.n + 1) * sizeof(PetscScalar)));
      BenchCUDA(cudaMalloc((void **)&B.d_x2, (size_t)(B.n + 1) * sizeof(PetscScalar)));
      BenchCUDA(cudaMemcpy(B.d_b2, B.b, (size_t)B.n * sizeof(PetscScalar), cudaMemcpyHostToDevice));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "pointer update: %s\n", B.ptr_update ? "two b/x buffer pairs alternate between timed solves: a CUDA-graph path rewrites its vector pointers before each solve, as inside a KSP solve (-bench_ptr_update 0: one pair)" : "one b/x pair (-bench_ptr_update 0): a CUDA-graph path skips its pointer update after the first solve, which a KSP solve does not"));
    PetscCall(BenchDeviceWarmUp(&B));
    PetscCall(BenchRunPaths(&B, fac, cuda, ON_DEVICE));
    PetscCall(RunCuSparse(&B, fac));
    PetscCall(RunMatSolve(&B, F, PETSC_TRUE, factor_ms));
  #if defined(PETSC_HAVE_CUDA)
    if (petsc_cusparse) PetscCall(RunPetscCusparse(&B, A, &info));
  #endif
    PetscCall(BenchDeviceFinalize(&B));
  }
#endif
  PetscCall(Report(&B));
  if (B.csv) fclose(B.csv);
  PetscCall(PetscFree4(B.b, B.yref, B.xref, B.hbuf));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
