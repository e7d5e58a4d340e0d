static char help[] = "Long runs and leaks in one process (issue 15, item 3): for the ILU factor of every registered path (and the\n"
                     "automatic choice), -refactor numeric refactorizations (new values, KSPSetOperators + KSPSetUp on the same\n"
                     "pattern) and -solves solves (PCApply); PC gs (exact and multicolor) and PC isai setups with new values and\n"
                     "their applies. Device memory (cudaMemGetInfo) and the plugin's live device bytes are measured after a warm-up\n"
                     "and at the end: the plugin's bytes must not change at all, the GPU's free memory by at most -tol_mb; with\n"
                     "PETSc's tracing malloc (-malloc_debug) the host memory must not grow either. Every result is checked against\n"
                     "PETSc's own ILU / SOR on the final values. Also: MatDestroy of a factor taken with PCFactorGetMatrix() while\n"
                     "its PC lives (referenced first: the documented-safe use), as for PETSc's own factor; and with -faults K, the\n"
                     "k-th device allocation (k = 1..K) of a factor's setup made to fail: a PETSc error naming the allocation, never\n"
                     "a crash, nothing left behind.\n"
                     "Options: -n <100> grid side (2-D 5-point), -backend host|cuda, -refactor <10000>, -solves <100000>,\n"
                     "-pc_setups <1000> (PC gs, PC isai), -paths a,b (default: every path and sptrsv; the name petsc-cusparse adds PETSc's\n"
                     "own -pc_factor_mat_solver_type cusparse beside them, timed and checked alike: with -aijcusparse only), -tol_mb <4>,\n"
                     "-faults <0>, -solves_per_setup <0> (applies after each refactorization, timed with it: a Newton or time-step\n"
                     "workload), -aijcusparse (the matrix as MATSEQAIJCUSPARSE: a CUDA PETSc), -profile_setups (CUDA builds: only the\n"
                     "ILU setups' loops between cudaProfilerStart and cudaProfilerStop, for ncu --profile-from-start off)\n";

#include <petscksp.h>
#include <petscsptrsv.h>
#include <petsctime.h>
#include <sptrsv/registry.h>
#include <sptrsv/devmem.h>
#include "../../examples/common/stencil.h"

#include "../unit/unit_common.h" /* the pass/fail counters and EXPECT */

#if defined(PETSC_SPTRSV_HAVE_CUDA)
/* CUDA's runtime (the plugin links it); declared here so that this file needs no CUDA header */
extern int cudaProfilerStart(void);
extern int cudaProfilerStop(void);
#endif
static PetscBool profile_setups = PETSC_FALSE; /* -profile_setups */

typedef struct {
  PetscInt64     dev_free, plugin, host;
  PetscLogDouble t;
} Snap;

static PetscErrorCode TakeSnap(Snap *s)
{
  PetscLogDouble host = 0;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvDeviceMemoryGetInfo(&s->dev_free, NULL));
  PetscCall(SpTrsvDeviceMemoryGetUsage(&s->plugin, NULL, NULL, NULL));
  PetscCall(PetscMallocGetCurrentUsage(&host)); /* 0 unless PETSc's tracing malloc is on (-malloc_debug) */
  s->host = (PetscInt64)host;
  PetscCall(PetscTime(&s->t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the leak verdict between two snapshots: the plugin's device bytes exactly, the GPU's free memory within tol, host bytes exactly */
/* switches: the factor may change paths in this phase (the learning choice of sptrsv, at its looks): its bytes may then
   differ, and only the GPU's free memory is held to the tolerance here (the exact return of every byte is checked after
   KSPDestroy) */
static PetscErrorCode CheckNoGrowth(const char *what, const Snap *a, const Snap *b, PetscReal tol_mb, PetscBool switches)
{
  const double dfree = (double)(a->dev_free - b->dev_free) / 1e6;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s: %.2f s; plugin device bytes %" PetscInt64_FMT " -> %" PetscInt64_FMT "; GPU free memory change %+.3f MB; host bytes %" PetscInt64_FMT " -> %" PetscInt64_FMT "%s\n", what, b->t - a->t, a->plugin, b->plugin, -dfree, a->host, b->host, switches && (a->plugin != b->plugin || a->host != b->host) ? " (the learning choice switched paths)" : ""));
  EXPECT(switches || a->plugin == b->plugin, "%s: the plugin's device memory grew by %" PetscInt64_FMT " bytes", what, b->plugin - a->plugin);
  EXPECT(dfree <= tol_mb, "%s: the GPU's free memory fell by %.3f MB (tolerance %.1f MB)", what, dfree, (double)tol_mb);
  EXPECT(switches || a->host == b->host, "%s: host memory grew by %" PetscInt64_FMT " bytes", what, b->host - a->host);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* reads y on the host: waits for the device's work on it (PETSc's cusparse solves return before they end) */
static PetscErrorCode Settle(Vec y)
{
  const PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(y, &a));
  PetscCall(VecRestoreArrayRead(y, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A's values moved a little (the pattern stays): a diagonal shift alternating in sign and size */
static PetscErrorCode NewValues(Mat A, PetscInt k)
{
  PetscFunctionBeginUser;
  PetscCall(MatShift(A, (k % 2 ? -1.0 : 1.0) * (0.01 + 0.001 * (k % 7))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||y - z|| / ||z|| */
static PetscErrorCode RelDiff(Vec y, Vec z, PetscReal *r)
{
  Vec       d;
  PetscReal nd, nz;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(z, &d));
  PetscCall(VecWAXPY(d, -1.0, z, y));
  PetscCall(VecNorm(d, NORM_2, &nd));
  PetscCall(VecNorm(z, NORM_2, &nz));
  *r = nz > 0 ? nd / nz : nd;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = PETSc's own preconditioner (ILU(0) or SOR with the same options) applied to b, on A as it is now */
static PetscErrorCode Reference(Mat A, const char *pctype, const char *prefix, Vec b, Vec y)
{
  KSP       ksp;
  PC        pc;
  Mat       B;
  PetscBool seqaij;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &seqaij));
  if (seqaij) {
    B = A;
    PetscCall(PetscObjectReference((PetscObject)A));
  } else PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &B)); /* PETSc's own ILU and SOR on a host copy */
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix));
  PetscCall(KSPSetOperators(ksp, B, B));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  if (!strcmp(pctype, PCILU)) PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERPETSC));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PCApply(pc, b, y));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one PC under load: warm-up, nsetups setups with new values, nsolves applies, checks; type is the PC type, solver the
   MatSolverType (PCILU), prefix the KSP's options prefix (its options were set in main), refpc/refprefix PETSc's own PC */
static PetscErrorCode LoadPC(Mat A, const char *label, const char *pctype, const char *solver, const char *prefix, const char *refpc, const char *refprefix, PetscInt nsetups, PetscInt per_setup, PetscInt nsolves, PetscReal tol_mb, PetscReal tol_ref)
{
  KSP       ksp;
  PC        pc;
  Vec       b, y, z;
  Snap      s0, s1, s2, s3;
  PetscReal r;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " setups with new values (%" PetscInt_FMT " applies after each), %" PetscInt_FMT " applies\n", label, nsetups, per_setup, nsolves));
  PetscCall(MatCreateVecs(A, &b, &y));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 17));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(TakeSnap(&s0));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, prefix));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  if (solver) PetscCall(PCFactorSetMatSolverType(pc, solver));
  PetscCall(KSPSetFromOptions(ksp));
  /* warm-up: the first setup, a refactorization, the transposed solvers are not used; lazily made pools count from here */
  PetscCall(KSPSetUp(ksp));
  PetscCall(PCApply(pc, b, y));
  PetscCall(NewValues(A, 0));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PCApply(pc, b, y));
  PetscCall(TakeSnap(&s1));
#if defined(PETSC_SPTRSV_HAVE_CUDA)
  if (profile_setups && !strcmp(pctype, PCILU)) (void)cudaProfilerStart();
#endif
  for (PetscInt k = 1; k <= nsetups; k++) {
    PetscCall(NewValues(A, k));
    PetscCall(KSPSetOperators(ksp, A, A)); /* same pattern: the PC sets up again with new values */
    PetscCall(KSPSetUp(ksp));
    for (PetscInt j = 0; j < per_setup; j++) PetscCall(PCApply(pc, b, y));
  }
  PetscCall(Settle(y)); /* the last apply done before the clock is read */
#if defined(PETSC_SPTRSV_HAVE_CUDA)
  if (profile_setups && !strcmp(pctype, PCILU)) (void)cudaProfilerStop();
#endif
  PetscCall(TakeSnap(&s2));
  for (PetscInt k = 0; k < nsolves; k++) PetscCall(PCApply(pc, b, y));
  PetscCall(Settle(y)); /* the last apply done before the clock is read */
  PetscCall(TakeSnap(&s3));
  PetscCall(Reference(A, refpc, refprefix, b, z));
  PetscCall(RelDiff(y, z, &r));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  setups%s %.2f s (%.1f us each), applies %.2f s (%.1f us each); result vs PETSc's %s %.2e\n", per_setup ? " with their applies" : "", s2.t - s1.t, nsetups ? 1e6 * (s2.t - s1.t) / nsetups : 0.0, s3.t - s2.t, nsolves ? 1e6 * (s3.t - s2.t) / nsolves : 0.0, refpc, (double)r));
  EXPECT(r <= tol_ref, "%s: the last apply differs from PETSc's %s by %.3e (tolerance %.1e)", label, refpc, (double)r, (double)tol_ref);
  /* with applies after each setup the learning choice can switch paths in the setups' phase too */
  PetscCall(CheckNoGrowth("setups", &s1, &s2, tol_mb, (PetscBool)(per_setup > 0 && solver && !strcmp(solver, MATSOLVERSPTRSV))));
  PetscCall(CheckNoGrowth("applies", &s2, &s3, tol_mb, (PetscBool)(solver && !strcmp(solver, MATSOLVERSPTRSV))));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(TakeSnap(&s3));
  EXPECT(s3.plugin == s0.plugin, "%s: %" PetscInt64_FMT " device bytes of the plugin left after KSPDestroy", label, s3.plugin - s0.plugin);
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatDestroy of a factor taken from a live PC, as PETSc documents it for its own factors: PCFactorGetMatrix() lends the
  factor (no reference); a caller that keeps it takes a reference (PetscObjectReference) and drops it with MatDestroy.
  (1) reference, MatDestroy while the PC lives, the PC still solves; (2) reference, KSPDestroy first, the factor still
  solves alone, then MatDestroy frees it. Ours and PETSc's must both do this with the same results and leave nothing.
*/
static PetscErrorCode FactorLifetime(Mat A, const char *solver, const char *prefix, PetscReal tol_mb)
{
  Vec       b, y1, y2;
  Snap      s0, s1;
  PetscReal r;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &b, &y1));
  PetscCall(VecDuplicate(y1, &y2));
  PetscCall(VecSet(b, 1.0));
  for (PetscInt variant = 0; variant < 4; variant++) { /* variants 0 and 1 twice: PETSc's first-use allocations happen in the first round */
    KSP ksp;
    PC  pc;
    Mat F;
    PetscInt refs;

    if (variant == 2) PetscCall(TakeSnap(&s0));
    PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
    PetscCall(KSPSetOptionsPrefix(ksp, prefix));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCILU));
    PetscCall(PCFactorSetMatSolverType(pc, solver));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPSetUp(ksp));
    PetscCall(PCApply(pc, b, y1));
    PetscCall(PCFactorGetMatrix(pc, &F));
    PetscCall(PetscObjectGetReference((PetscObject)F, &refs));
    EXPECT(refs == 1, "%s: PCFactorGetMatrix's factor has %" PetscInt_FMT " references (PETSc lends it: 1)", solver, refs);
    PetscCall(PetscObjectReference((PetscObject)F));
    if (variant % 2 == 0) {
      PetscCall(MatDestroy(&F)); /* our reference only: the PC's factor lives on */
      PetscCall(PCApply(pc, b, y2));
      PetscCall(KSPDestroy(&ksp));
    } else {
      PetscCall(KSPDestroy(&ksp)); /* the PC goes; our reference keeps the factor */
      PetscCall(MatSolve(F, b, y2));
      PetscCall(MatDestroy(&F));
    }
    PetscCall(RelDiff(y2, y1, &r));
    EXPECT(r <= 1e-14, "%s, variant %" PetscInt_FMT ": the factor's solve changed by %.2e", solver, variant, (double)r);
  }
  PetscCall(TakeSnap(&s1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "factor lifetime (%s): referenced + MatDestroy under a live PC, and a factor outliving its PC\n", solver));
  PetscCall(CheckNoGrowth("factor lifetime", &s0, &s1, tol_mb, PETSC_FALSE));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -faults K: the k-th device allocation of a factor's setup (symbolic: analysis and uploads; numeric) fails, k = 1..K */
static PetscErrorCode Faults(Mat A, const char *solver, const char *prefix, PetscInt K, PetscInt *survived)
{
  Snap s0, s1;

  PetscFunctionBeginUser;
  *survived = 0;
  PetscCall(TakeSnap(&s0));
  for (PetscInt k = 1; k <= K; k++) {
    KSP            ksp;
    PC             pc;
    PetscErrorCode ierr;
    const char    *msg = NULL;

    PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
    PetscCall(KSPSetOptionsPrefix(ksp, prefix));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCILU));
    PetscCall(PCFactorSetMatSolverType(pc, solver));
    PetscCall(KSPSetFromOptions(ksp));
    SpTrsvDevMemInjectFailure(k);
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = KSPSetUp(ksp);
    PetscCall(PetscPopErrorHandler());
    SpTrsvDevMemInjectFailure(0);
    if (ierr) {
      (void)PetscErrorMessage(ierr, &msg, NULL);
      EXPECT(ierr == PETSC_ERR_MEM, "%s, fault %" PetscInt_FMT ": error %d (%s), expected PETSC_ERR_MEM", solver, k, (int)ierr, msg ? msg : "");
      (*survived)++;
    }
    PetscCall(KSPDestroy(&ksp));
    if (!ierr) break; /* the setup makes fewer than k allocations: every one of them has failed once */
  }
  PetscCall(TakeSnap(&s1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "faults (%s): %" PetscInt_FMT " failed allocations, each a PETSc error\n", solver, *survived));
  EXPECT(s1.plugin == s0.plugin, "%s: %" PetscInt64_FMT " device bytes left behind by the failed setups", solver, s1.plugin - s0.plugin);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    n = 100, nref = 10000, nsolve = 100000, nsetup = 1000, nfaults = 0, npaths, np = 16, faults_total = 0, per_setup = 0;
  PetscReal   tol_mb = 4.0;
  char        backend[16] = "cuda", *list[16];
  const char *const *names;
  Mat         A;
  PetscBool   flg;
  Snap        start, end;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-refactor", &nref, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-solves", &nsolve, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-pc_setups", &nsetup, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-faults", &nfaults, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-solves_per_setup", &per_setup, NULL));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-profile_setups", &profile_setups));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol_mb", &tol_mb, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-backend", backend, sizeof(backend), NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-paths", list, &np, &flg));
  if (!flg) np = 0;
  PetscCall(SpTrsvInitializePackage());
  PetscCall(SpTrsvPathGetNames(PETSC_FALSE, &npaths, &names));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_longrun: 2-D 5-point Laplacian %" PetscInt_FMT "^2, backend %s, %" PetscInt_FMT " refactorizations and %" PetscInt_FMT " solves per path, %" PetscInt_FMT " PC gs / PC isai setups\n", n, backend, nref, nsolve, nsetup));
  PetscCall(SpTrsvBuildStencil(n, n, 1, 5, &A));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-aijcusparse", &flg));
  if (flg) PetscCall(MatConvert(A, MATSEQAIJCUSPARSE, MAT_INPLACE_MATRIX, &A)); /* values read on the GPU in place (a CUDA PETSc) */
  PetscCall(TakeSnap(&start));
  /* the options of each KSP, by prefix: ours on the backend asked for, PETSc's references */
  PetscCall(PetscOptionsSetValue(NULL, "-lr_mat_sptrsv_backend", backend));
  PetscCall(PetscOptionsSetValue(NULL, "-lrgs_pc_gs_backend", backend));
  PetscCall(PetscOptionsSetValue(NULL, "-lrgs_pc_gs_type", "symmetric"));
  PetscCall(PetscOptionsSetValue(NULL, "-lrmc_pc_gs_backend", backend));
  PetscCall(PetscOptionsSetValue(NULL, "-lrmc_pc_gs_ordering", "multicolor"));
  PetscCall(PetscOptionsSetValue(NULL, "-lrmc_pc_gs_type", "symmetric"));
  PetscCall(PetscOptionsSetValue(NULL, "-lris_pc_isai_backend", backend));
  PetscCall(PetscOptionsSetValue(NULL, "-lris_pc_isai_relaxation_steps", "30"));
  PetscCall(PetscOptionsSetValue(NULL, "-refsor_pc_sor_symmetric", NULL));
  for (PetscInt k = 0; k <= npaths; k++) {
    char        solver[64], label[96];
    const char *name = k < npaths ? names[k] : "sptrsv";
    PetscBool   take = (PetscBool)(np == 0);

    PetscCall(PetscSNPrintf(solver, sizeof(solver), k < npaths ? "sptrsv_%s" : "%s", name));
    for (PetscInt q = 0; q < np; q++)
      if (!strcmp(list[q], name) || !strcmp(list[q], solver)) take = PETSC_TRUE;
    if (!take) continue;
    PetscCall(PetscSNPrintf(label, sizeof(label), "ILU(0) %s", solver));
    PetscCall(LoadPC(A, label, PCILU, solver, "lr_", PCILU, "refilu_", nref, per_setup, nsolve, tol_mb, 1e-10));
    PetscCall(FactorLifetime(A, solver, "lr_", tol_mb));
    if (nfaults > 0 && !strcmp(backend, "cuda")) {
      PetscInt survived;
      PetscCall(Faults(A, solver, "lr_", nfaults, &survived));
      faults_total += survived;
    }
  }
  for (PetscInt q = 0; q < np; q++) { /* PETSc's own GPU factor, timed on the same workload (refactorizations: issue 32) */
    PetscBool aijcusparse;

    if (strcmp(list[q], "petsc-cusparse")) continue;
    PetscCall(PetscObjectTypeCompare((PetscObject)A, "seqaijcusparse", &aijcusparse));
    PetscCheck(aijcusparse, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-paths petsc-cusparse (PETSc's -pc_factor_mat_solver_type cusparse) needs -aijcusparse and a CUDA PETSc");
    PetscCall(LoadPC(A, "ILU(0) PETSc cusparse", PCILU, "cusparse", "lrcs_", PCILU, "refilu_", nref, per_setup, nsolve, tol_mb, 1e-10));
  }
  PetscCall(FactorLifetime(A, MATSOLVERPETSC, "lrpetsc_", tol_mb)); /* PETSc's own factor, the same way */
  /* PC gs: the exact (PCSOR's iterates) and multicolor orderings; PC isai with enough relaxation steps to be the exact factor */
  PetscCall(LoadPC(A, "PC gs exact, symmetric", PCGS, NULL, "lrgs_", PCSOR, "refsor_", nsetup, 0, nsolve / 10, tol_mb, 1e-10));
  PetscCall(LoadPC(A, "PC gs multicolor, symmetric", PCGS, NULL, "lrmc_", PCGS, "lrmc_", nsetup, 0, nsolve / 10, tol_mb, 1e-10));
  PetscCall(LoadPC(A, "PC isai", PCISAI, NULL, "lris_", PCILU, "refilu_", nsetup, 0, nsolve / 100, tol_mb, 1e-6)); /* an apply is 122 SpMVs */
  PetscCall(MatDestroy(&A));
  PetscCall(TakeSnap(&end));
  EXPECT(end.plugin == 0, "the plugin still holds %" PetscInt64_FMT " device bytes at the end", end.plugin);
  for (PetscInt q = 0; q < np; q++) PetscCall(PetscFree(list[q]));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "check_longrun: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed; %.1f s; %" PetscInt_FMT " injected allocation faults survived\n", npass, nfail, end.t - start.t, faults_total));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
