static char help[] = "Large problems (issue 15, item 2): the 3-D 7-point Laplacian on an n^3 grid (-n, default 256: 1.68e7 rows,\n"
                     "1.17e8 nonzeros) through ILU(k) / GMRES(30) with the KSP and PC of the options database (-pc_factor_levels,\n"
                     "-pc_factor_mat_solver_type, -ksp_max_it, ...). The matrix is built directly as CSR (a DMDA assembly takes\n"
                     "minutes on one rank at 256^3), converted to -large_mat_type (aijcusparse on the GPU), b = A 1, x0 = 0.\n"
                     "It prints one line 'RESULT key=value ...' with the phases' times, the iterations, the true residual\n"
                     "||b - A x|| / ||b|| next to the KSP's own (right preconditioning: GMRES's residual is then the true one),\n"
                     "the GPU memory in use after the setup (cudaMemGetInfo, any path) and, for a petsc-sptrsv factor, its device\n"
                     "memory by part. A run that cannot be done must stop with a PETSc error (index limit, device memory).\n"
                     "Options: -n <256>, -large_mat_type <aij>, -large_check_rtol <1e-6>.\n";

#include <petscksp.h>
#include <petscsptrsv.h>
#include <petsctime.h>
#include "../common/stencil.h"

int main(int argc, char **argv)
{
  PetscInt       n = 256, its, nnzA;
  char           mtype[64] = MATAIJ;
  PetscReal      check_rtol = 1e-6, nb, nr, kspr, tr;
  Mat            A, F = NULL;
  Vec            x, b, r, one;
  KSP            ksp;
  PC             pc;
  PetscLogDouble t0, t1, t2, t3, t4;
  PetscInt64     free0 = 0, free1 = 0, total = 0, L = -1, U = -1, rest = -1, live = 0, peak = 0;
  MatInfo        info;
  MatSolverType  stype = "none";
  KSPConvergedReason reason;
  PetscBool      ours = PETSC_FALSE, ok;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-large_mat_type", mtype, sizeof(mtype), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-large_check_rtol", &check_rtol, NULL));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscTime(&t0));
  PetscCall(SpTrsvBuildStencil(n, n, n, 7, &A));
  if (strcmp(mtype, MATAIJ) && strcmp(mtype, MATSEQAIJ)) PetscCall(MatConvert(A, mtype, MAT_INPLACE_MATRIX, &A));
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  nnzA = (PetscInt)info.nz_used;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(VecDuplicate(x, &one));
  PetscCall(VecSet(one, 1.0));
  PetscCall(MatMult(A, one, b));
  PetscCall(VecSet(x, 0.0));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "large: %" PetscInt_FMT "^3 grid, %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros (%s), built in %.2f s\n", n, n * n * n, nnzA, mtype, t1 - t0));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGMRESSetRestart(ksp, 30));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCILU));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 30));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(SpTrsvDeviceMemoryGetInfo(&free0, &total));
  PetscCall(PetscTime(&t1));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscTime(&t2));
  PetscCall(SpTrsvDeviceMemoryGetInfo(&free1, NULL));
  PetscCall(PCFactorGetMatrix(pc, &F));
  PetscCall(MatFactorGetSolverType(F, &stype));
  ours = (PetscBool)(strncmp(stype, "sptrsv", 6) == 0);
  if (ours) PetscCall(MatSpTrsvGetDeviceMemory(F, &L, &U, &rest));
  PetscCall(SpTrsvDeviceMemoryGetUsage(&live, &peak, NULL, NULL));
  PetscCall(PetscTime(&t3));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PetscTime(&t4));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetResidualNorm(ksp, &kspr));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &nr));
  PetscCall(VecNorm(b, NORM_2, &nb));
  tr = nr / nb;
  /* the true residual agrees with GMRES's (right preconditioned) one, and the iteration made progress */
  ok = (PetscBool)(PetscAbsReal(nr - kspr) <= check_rtol * nb + 1e-3 * nr && tr < 1.0 && reason != KSP_DIVERGED_NANORINF && reason != KSP_DIVERGED_PC_FAILED);
  {
    char ml[32] = "na", mu[32] = "na", mr[32] = "na"; /* our factor's device memory by part; na for another factor */

    if (ours) {
      PetscCall(PetscSNPrintf(ml, sizeof(ml), "%.2f", (double)L / 1e6));
      PetscCall(PetscSNPrintf(mu, sizeof(mu), "%.2f", (double)U / 1e6));
      PetscCall(PetscSNPrintf(mr, sizeof(mr), "%.2f", (double)rest / 1e6));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "RESULT solver=%s n=%" PetscInt_FMT " rows=%" PetscInt_FMT " nnzA=%" PetscInt_FMT " build_s=%.2f setup_s=%.3f solve_s=%.3f its=%" PetscInt_FMT " reason=%s true_rel=%.3e ksp_rel=%.3e check=%s gpu_used_mb=%.1f gpu_total_mb=%.1f ours_L_mb=%s ours_U_mb=%s ours_rest_mb=%s plugin_live_mb=%.2f plugin_peak_mb=%.2f\n", stype, n, n * n * n, nnzA, t1 - t0, t2 - t1, t4 - t3, its, KSPConvergedReasons[reason], (double)tr, (double)(kspr / nb), ok ? "ok" : "FAILED", (double)(free0 - free1) / 1e6, (double)total / 1e6, ml, mu, mr, (double)live / 1e6, (double)peak / 1e6));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&one));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
