static const char help[] = "GMRES(30) on a block system with the preconditioner given by the options (PC isai benchmark, paper 003).\n\
The matrix is the multi-field 3-D convection-diffusion operator of examples/common/stencil.c (-m nodes per\n\
direction, -bs fields per node, -beta convection) or a Matrix Market file (-mtx file.mtx.gz, read with block size 1),\n\
of type -mat_type (aij, baij, aijcusparse), with vectors of the matrix's type. One KSPSolve from x = 0 with\n\
b = A * ones; everything else (-ksp_*, -pc_*, -log_view) from the options database. Prints the iteration count\n\
and the relative true residual ||b - A x|| / ||b||.\n\
  -m <32>         nodes per direction of the generated operator\n\
  -bs <4>         fields per node (block size)\n\
  -beta <20>      convection strength\n\
  -mtx <file>     read this Matrix Market file instead\n\n";

#include <petscksp.h>
#include <petscsptrsv.h>
#include "../common/stencil.h"
#if !defined(SPTRSV_NO_MMLOAD)
  #include "../common/mmload.h"
#endif

int main(int argc, char **argv)
{
  Mat       A;
  Vec       x, b, r, ones;
  KSP       ksp;
  PetscInt  m = 32, bs = 4, its, n;
  PetscReal beta = 20.0, nb, nr;
  char      file[PETSC_MAX_PATH_LEN] = "";
  PetscBool hasfile = PETSC_FALSE;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &m, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bs", &bs, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-beta", &beta, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mtx", file, sizeof(file), &hasfile));
  if (hasfile) {
#if !defined(SPTRSV_NO_MMLOAD)
    Mat  B;
    char mtype[64] = MATSEQAIJ;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_type", mtype, sizeof(mtype), NULL));
    PetscCall(SpTrsvLoadMatrixMarket(file, &B)); /* block size 1: PC isai cuts it into blocks with -pc_isai_block_size */
    PetscCall(MatConvert(B, mtype, MAT_INITIAL_MATRIX, &A));
    PetscCall(MatDestroy(&B));
#else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "built without the Matrix Market reader");
#endif
  } else PetscCall(SpTrsvBuildBlockCD(m, bs, beta, NULL, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(VecDuplicate(b, &ones));
  PetscCall(VecSet(ones, 1.0));
  PetscCall(MatMult(A, ones, b));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGMRESSetRestart(ksp, 30));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &nr));
  PetscCall(VecNorm(b, NORM_2, &nb));
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench_isai: n %" PetscInt_FMT " bs %" PetscInt_FMT " iterations %" PetscInt_FMT " reason %s true relative residual %.3e\n", n, bs, its, KSPConvergedReasons[reason], (double)(nr / nb)));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&ones));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
