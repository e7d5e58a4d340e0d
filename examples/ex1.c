static char help[] = "petsc-sptrsv demo: GMRES(30) + ILU on a 3-D convection-diffusion problem, once per MatSolverType.\n\
Solves -Laplacian(u) + beta (u_x + u_y + u_z) = 1 on the unit cube, u = 0 on the boundary, 7-point stencil\n\
(first-order upwind convection) on a DMDA, assembled as MATAIJ, with GMRES(30) preconditioned by ILU, once with\n\
each solver type, and prints one table row per solver type. Options:\n\
  -n <40>                        grid points per direction (-da_grid_x/-da_grid_y/-da_grid_z override)\n\
  -beta <20>                     convection velocity along (1,1,1); 0 gives the 7-point Laplacian\n\
  -solver_types <petsc,sptrsv_level>  comma-separated MatSolverTypes for the ILU factor, solved in this order\n\
  -check <true>                  exit nonzero unless every solver type reproduces the first one: same\n\
                                 iteration count and final residual norms within -check_rtol\n\
  -check_rtol <1e-8>             relative tolerance of that comparison\n\
With more than one MPI process the preconditioner is block Jacobi with ILU on each block (the solver type is\n\
applied to the blocks). KSP/PC options (-ksp_rtol, -pc_factor_levels, -mat_sptrsv_format, ...) apply to every run.\n\n";

#include <petscdmda.h>
#include <petscksp.h>
#include <petscsptrsv.h>

#define MAX_TYPES 16

typedef struct {
  char           type[64];
  PetscInt       its;
  PetscReal      rnorm;   /* final residual norm as the KSP computed it */
  PetscReal      truenorm; /* ||b - A x|| / ||b|| */
  KSPConvergedReason reason;
  PetscLogDouble tsetup, tsolve, tmatsolve;
  PetscInt       nmatsolve;
  char           backend[64];
} RunResult;

/* -Laplacian(u) + beta (1,1,1).grad(u) = 1, scaled by h^2, upwind convection, Dirichlet u = 0 */
static PetscErrorCode AssembleSystem(DM da, PetscReal beta, Mat A, Vec b)
{
  PetscInt     mx, my, mz, xs, ys, zs, xm, ym, zm;
  PetscReal    hx, hy, hz;
  PetscScalar *barr;
  PetscInt     nloc = 0;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &mx, &my, &mz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  hx = 1.0 / (mx + 1);
  hy = 1.0 / (my + 1);
  hz = 1.0 / (mz + 1);
  PetscCall(VecGetArray(b, &barr));
  for (PetscInt k = zs; k < zs + zm; k++) {
    for (PetscInt j = ys; j < ys + ym; j++) {
      for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil  row = {0}, col[7];
        PetscScalar v[7];
        PetscInt    nc = 0;
        /* per direction d with spacing h: (2 u_i - u_{i-1} - u_{i+1}) / h^2 + beta (u_i - u_{i-1}) / h  (beta >= 0)
           or beta (u_{i+1} - u_i) / h (beta < 0); everything multiplied by hx*hy*hz-free scaling h^2 of x */
        const PetscReal h[3] = {hx, hy, hz};
        const PetscInt  idx[3] = {i, j, k}, lim[3] = {mx, my, mz};
        PetscScalar     diag = 0.0;

        row.i = i;
        row.j = j;
        row.k = k;
        for (PetscInt d = 0; d < 3; d++) {
          PetscReal s = (hx * hx) / (h[d] * h[d]); /* scale so the x-direction has unit coupling */
          PetscReal c = PetscAbsReal(beta) * (hx * hx) / h[d];
          PetscReal lo = -s - (beta > 0 ? c : 0.0), hi = -s - (beta < 0 ? c : 0.0);

          diag += 2.0 * s + c;
          if (idx[d] > 0) {
            col[nc]   = row;
            if (d == 0) col[nc].i--;
            if (d == 1) col[nc].j--;
            if (d == 2) col[nc].k--;
            v[nc++] = lo;
          }
          if (idx[d] < lim[d] - 1) {
            col[nc]   = row;
            if (d == 0) col[nc].i++;
            if (d == 1) col[nc].j++;
            if (d == 2) col[nc].k++;
            v[nc++] = hi;
          }
        }
        col[nc] = row;
        v[nc++] = diag;
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
        barr[nloc++] = hx * hx; /* f = 1, times the scaling */
      }
    }
  }
  PetscCall(VecRestoreArray(b, &barr));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* the factor that holds the triangular solves: the PC's own, or the first block's under block Jacobi */
static PetscErrorCode GetFactorPC(KSP ksp, PC *fpc)
{
  PC        pc;
  PetscBool isbjacobi;

  PetscFunctionBeginUser;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &isbjacobi));
  if (isbjacobi) {
    KSP     *subksp;
    PetscInt nlocal, first;

    PetscCall(PCBJacobiGetSubKSP(pc, &nlocal, &first, &subksp));
    PetscCheck(nlocal >= 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No local block");
    PetscCall(KSPGetPC(subksp[0], &pc));
  }
  *fpc = pc;
  PetscFunctionReturn(0);
}

static PetscErrorCode SolveWith(Mat A, Vec b, const char *type, PetscInt id, PetscLogEvent matsolve_event, RunResult *res)
{
  KSP            ksp;
  PC             pc, fpc = NULL;
  Vec            x, r;
  PetscMPIInt    size;
  PetscLogStage  stage;
  PetscLogDouble t0, t1, t2, tmax[3], tloc[3];
  PetscEventPerfInfo info;
  char           stagename[128];
  PetscReal      bnorm;
  PetscBool      isfactor;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(res->type, type, sizeof(res->type)));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(PetscSNPrintf(stagename, sizeof(stagename), "Solve %" PetscInt_FMT ": %s", id, type));
  PetscCall(PetscLogStageRegister(stagename, &stage));
  PetscCall(MatCreateVecs(A, &x, &r));

  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGMRESSetRestart(ksp, 30));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPGetPC(ksp, &pc));
  if (size == 1) {
    PetscCall(PCSetType(pc, PCILU));
    PetscCall(PCFactorSetMatSolverType(pc, type));
  } else PetscCall(PCSetType(pc, PCBJACOBI));
  PetscCall(KSPSetFromOptions(ksp));

  PetscCall(PetscLogStagePush(stage));
  PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)A)));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(ksp));
  if (size > 1) {
    /* block Jacobi: ILU with the requested solver type on every local block */
    PetscBool isbjacobi;
    PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &isbjacobi));
    if (isbjacobi) {
      KSP     *subksp;
      PetscInt nlocal, first;
      PetscCall(PCBJacobiGetSubKSP(pc, &nlocal, &first, &subksp));
      for (PetscInt i = 0; i < nlocal; i++) {
        PC subpc;
        PetscCall(KSPSetType(subksp[i], KSPPREONLY));
        PetscCall(KSPGetPC(subksp[i], &subpc));
        PetscCall(PCSetType(subpc, PCILU));
        PetscCall(PCFactorSetMatSolverType(subpc, type));
        PetscCall(KSPSetFromOptions(subksp[i]));
      }
    }
  }
  PetscCall(KSPSetUpOnBlocks(ksp));
  PetscCall(PetscTime(&t1));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PetscTime(&t2));
  PetscCall(PetscLogStagePop());

  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  PetscCall(KSPGetResidualNorm(ksp, &res->rnorm));
  PetscCall(KSPGetConvergedReason(ksp, &res->reason));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &res->truenorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  if (bnorm > 0) res->truenorm /= bnorm;

  PetscCall(PetscMemzero(&info, sizeof(info)));
  PetscCall(PetscLogEventGetPerfInfo(stage, matsolve_event, &info));
  tloc[0] = t1 - t0;
  tloc[1] = t2 - t1;
  tloc[2] = info.time;
  PetscCallMPI(MPI_Allreduce(tloc, tmax, 3, MPI_DOUBLE, MPI_MAX, PetscObjectComm((PetscObject)A)));
  res->tsetup    = tmax[0];
  res->tsolve    = tmax[1];
  res->tmatsolve = tmax[2];
  res->nmatsolve = info.count;

  /* which backend ran the triangular solves */
  PetscCall(GetFactorPC(ksp, &fpc));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)fpc, &isfactor, PCILU, PCICC, PCLU, PCCHOLESKY, ""));
  PetscCall(PetscStrncpy(res->backend, "-", sizeof(res->backend)));
  if (isfactor) {
    Mat           F;
    MatSolverType stype;
    PetscBool     ours;

    PetscCall(PCFactorGetMatrix(fpc, &F));
    PetscCall(MatFactorGetSolverType(F, &stype));
    PetscCall(PetscStrbeginswith(stype, "sptrsv", &ours));
    if (ours) {
      const char *name;
      PetscCall(MatSpTrsvGetBackend(F, &name));
      PetscCall(PetscStrncpy(res->backend, name, sizeof(res->backend)));
    } else PetscCall(PetscStrncpy(res->backend, stype, sizeof(res->backend)));
  }

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  DM            da;
  Mat           A;
  Vec           b;
  PetscInt      n = 40, M, N, P, ntypes = MAX_TYPES, nfail = 0;
  PetscReal     beta = 20.0, check_rtol = 1e-8;
  PetscBool     check = PETSC_TRUE, logon, flg;
  char         *types[MAX_TYPES];
  RunResult     res[MAX_TYPES];
  PetscLogEvent matsolve_event;
  PetscMPIInt   size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscLogIsActive(&logon));
  if (!logon) PetscCall(PetscLogDefaultBegin()); /* MatSolve times come from the log */

  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-beta", &beta, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check", &check, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-check_rtol", &check_rtol, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-solver_types", types, &ntypes, &flg));
  if (!flg) {
    ntypes = 2;
    PetscCall(PetscStrallocpy(MATSOLVERPETSC, &types[0]));
    PetscCall(PetscStrallocpy(MATSOLVERSPTRSVLEVEL, &types[1]));
  }
  PetscCheck(ntypes >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-solver_types needs at least one MatSolverType");
  PetscCheck(n >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n must be positive, got %" PetscInt_FMT, n);

  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetMatType(da, MATAIJ));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, &P, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(AssembleSystem(da, beta, A, b));
  PetscCall(PetscLogEventGetId("MatSolve", &matsolve_event));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "3-D convection-diffusion, %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " grid (%" PetscInt_FMT " unknowns), beta %g, %d MPI process%s; GMRES(30) + %s\n", M, N, P, M * N * P, (double)beta, size, size > 1 ? "es" : "", size > 1 ? "block Jacobi/ILU" : "ILU"));
  for (PetscInt t = 0; t < ntypes; t++) PetscCall(SolveWith(A, b, types[t], t + 1, matsolve_event, &res[t]));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%-16s %6s %14s %12s %10s %10s %10s %9s  %s\n", "solver type", "its", "residual norm", "true rel res", "setup s", "KSPSolve s", "MatSolve s", "MatSolves", "backend"));
  for (PetscInt t = 0; t < ntypes; t++) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-16s %6" PetscInt_FMT " %14.6e %12.4e %10.4f %10.4f %10.4f %9" PetscInt_FMT "  %s%s%s\n", res[t].type, res[t].its, (double)res[t].rnorm, (double)res[t].truenorm, res[t].tsetup, res[t].tsolve, res[t].tmatsolve, res[t].nmatsolve, res[t].backend, res[t].reason < 0 ? "  DIVERGED: " : "", res[t].reason < 0 ? KSPConvergedReasons[res[t].reason] : ""));
  }

  if (check) {
    for (PetscInt t = 0; t < ntypes; t++) {
      if (res[t].reason < 0) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAILED: %s did not converge (%s)\n", res[t].type, KSPConvergedReasons[res[t].reason]));
        nfail++;
      }
    }
    for (PetscInt t = 1; t < ntypes; t++) {
      PetscReal a = res[0].rnorm, c = res[t].rnorm, rel = PetscAbsReal(a - c) / PetscMax(PetscMax(PetscAbsReal(a), PetscAbsReal(c)), PETSC_SMALL);

      if (res[t].its != res[0].its) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAILED: %s took %" PetscInt_FMT " iterations, %s took %" PetscInt_FMT "\n", res[t].type, res[t].its, res[0].type, res[0].its));
        nfail++;
      }
      if (!(rel <= check_rtol)) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAILED: final residual norms of %s (%.12e) and %s (%.12e) differ by %.3e relative (> %g)\n", res[t].type, (double)c, res[0].type, (double)a, (double)rel, (double)check_rtol));
        nfail++;
      }
    }
    if (ntypes > 1 && !nfail) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nCheck passed: every solver type matches %s (same iterations, residual norms within %g relative)\n", res[0].type, (double)check_rtol));
  }

  for (PetscInt t = 0; t < ntypes; t++) PetscCall(PetscFree(types[t]));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
