static char help[] = "Registering petsc-sptrsv in your own program: PCRegister() and MatSolverTypeRegister() with the\n\
plugin's constructors, no -dll_append and no SpTrsvInitializePackage(). Solves a 2-D Laplacian (5-point, -n x -n)\n\
with GMRES(30) three times: PETSc's own ILU(0), ILU(0) with the registered sptrsv_level solver type, and the\n\
registered PC isai. Exits nonzero unless sptrsv_level takes exactly PETSc's iterations and every run converges.\n\
  -n <64>   grid points per direction\n\n";

#include <petscksp.h>
#include <petscsptrsv.h>

/* -Laplacian on an n x n grid, Dirichlet boundary, 5-point stencil */
static PetscErrorCode Laplacian2D(PetscInt n, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n * n, n * n, 5, NULL, A));
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt row = j * n + i;
      PetscCall(MatSetValue(*A, row, row, 4.0, INSERT_VALUES));
      if (i > 0) PetscCall(MatSetValue(*A, row, row - 1, -1.0, INSERT_VALUES));
      if (i < n - 1) PetscCall(MatSetValue(*A, row, row + 1, -1.0, INSERT_VALUES));
      if (j > 0) PetscCall(MatSetValue(*A, row, row - n, -1.0, INSERT_VALUES));
      if (j < n - 1) PetscCall(MatSetValue(*A, row, row + n, -1.0, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* one GMRES(30) solve with the given preconditioner (and solver type for ILU) */
static PetscErrorCode Solve(Mat A, Vec b, PCType pctype, MatSolverType stype, PetscInt *its, KSPConvergedReason *reason)
{
  KSP ksp;
  PC  pc;
  Vec x;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  if (stype) PetscCall(PCFactorSetMatSolverType(pc, stype));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-6s %-14s %5" PetscInt_FMT " iterations, %s\n", pctype, stype ? stype : "", *its, KSPConvergedReasons[*reason]));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat                A;
  Vec                b;
  PetscInt           n = 64, its_petsc, its_level, its_isai;
  KSPConvergedReason r_petsc, r_level, r_isai;
  PetscBool          ok;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  /* what a program does to use the plugin without loading it as a PETSc dynamic library; PETSc's own solver
     types must be registered first (MatInitializePackage), or a later MatGetFactor does not find them */
  PetscCall(MatInitializePackage());
  PetscCall(PCRegister(PCISAI, PCCreate_ISAI));
  PetscCall(MatSolverTypeRegister(MATSOLVERSPTRSVLEVEL, MATSEQAIJ, MAT_FACTOR_ILU, MatGetFactor_SpTrsv_level));

  PetscCall(Laplacian2D(n, &A));
  PetscCall(MatCreateVecs(A, NULL, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(Solve(A, b, PCILU, MATSOLVERPETSC, &its_petsc, &r_petsc));
  PetscCall(Solve(A, b, PCILU, MATSOLVERSPTRSVLEVEL, &its_level, &r_level));
  PetscCall(Solve(A, b, PCISAI, NULL, &its_isai, &r_isai));
  ok = (PetscBool)(r_petsc > 0 && r_level > 0 && r_isai > 0 && its_level == its_petsc);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", ok ? "OK: registered by hand, sptrsv_level matches PETSc's ILU" : "MISMATCH"));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
