static char help[] = "Solve A x = b with b = A * ones, A read from a Matrix Market file (.mtx.gz), KSP and PC from the options.\n\
  -f <file.mtx.gz>          the matrix (loaded with SpTrsvLoadMatrixMarket)\n\
  -builtin <name>           instead of -f: a small matrix made here: empty (0 x 0), nonsquare (3 x 4), zerodiag (3 x 3, a stored zero diagonal),\n\
                            zeropivot (3 x 3, ILU(0) meets an exact zero pivot in row 1), zeropivotsym (3 x 3, symmetric:\n\
                            ILU(0) and ICC(0) meet an exact zero pivot in row 1), overflow (2 x 2, finite: ILU(0) overflows\n\
                            to Inf in L(1,0)), singularblock (6 x 6: for block size 2 the diagonal block of block row 1 is\n\
                            singular)\n\
  -mat_type <type>          copy the matrix into this type (e.g. baij; default: keep the MATSEQAIJ)\n\
  -mat_block_size <bs>      block size of the copy\n\
Prints the iterations, the converged reason and the final residual norms; exits nonzero on any PETSc error.\n\n";

#include <petscksp.h>
#include <petscsptrsv.h>
#include "../../examples/common/mmload.h"

static PetscErrorCode BuiltinMatrix(const char *name, Mat *A)
{
  PetscBool flg;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(name, "empty", &flg));
  if (flg) {
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 0, 0, 0, NULL, A));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrcmp(name, "nonsquare", &flg));
  if (flg) {
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3, 4, 3, NULL, A));
    for (PetscInt i = 0; i < 3; i++) {
      PetscInt    cols[2] = {i, i + 1};
      PetscScalar v[2]    = {4.0, -1.0};
      PetscCall(MatSetValues(*A, 1, &i, 2, cols, v, INSERT_VALUES));
    }
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrcmp(name, "zeropivot", &flg));
  if (flg) {
    /* [2 1 0; 4 2 1; 0 1 3]: l10 = 2, u11 = 2 - 2*1 = 0 exactly; every diagonal entry is stored and nonzero */
    const PetscScalar v[3][3] = {
      {2, 1, 0},
      {4, 2, 1},
      {0, 1, 3}
    };
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3, 3, 3, NULL, A));
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++)
        if (v[i][j] != 0.0) PetscCall(MatSetValue(*A, i, j, v[i][j], INSERT_VALUES));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrcmp(name, "zeropivotsym", &flg));
  if (flg) {
    /* [2 2 0; 2 2 1; 0 1 3]: l10 = 1, u11 = 2 - 1*2 = 0 exactly (ICC: d1 = 2 - 2*2/2 = 0) */
    const PetscScalar v[3][3] = {
      {2, 2, 0},
      {2, 2, 1},
      {0, 1, 3}
    };
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3, 3, 3, NULL, A));
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++)
        if (v[i][j] != 0.0) PetscCall(MatSetValue(*A, i, j, v[i][j], INSERT_VALUES));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrcmp(name, "overflow", &flg));
  if (flg) {
    /* [1e-10 1e300; 1e300 1]: finite, pivot 1e-10 is not zero, L(1,0) = 1e300 / 1e-10 overflows to Inf */
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, A));
    PetscCall(MatSetValue(*A, 0, 0, 1e-10, INSERT_VALUES));
    PetscCall(MatSetValue(*A, 0, 1, 1e300, INSERT_VALUES));
    PetscCall(MatSetValue(*A, 1, 0, 1e300, INSERT_VALUES));
    PetscCall(MatSetValue(*A, 1, 1, 1.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrcmp(name, "zerodiag", &flg));
  if (flg) {
    /* [2 1 0; 1 0 1; 0 1 3]: nonsingular, the stored diagonal entry of row 1 is zero (Gauss-Seidel cannot run) */
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3, 3, 3, NULL, A));
    PetscCall(MatSetValue(*A, 0, 0, 2.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, 0, 1, 1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, 1, 0, 1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, 1, 1, 0.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, 1, 2, 1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, 2, 1, 1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, 2, 2, 3.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrcmp(name, "singularblock", &flg));
  if (flg) {
    /* block tridiagonal with 2 x 2 blocks; block row 1 has the singular diagonal block [1 2; 2 4] and no
       lower coupling, so it is the pivot block of block row 1 of a block ILU */
    const PetscScalar d[2][2] = {
      {4, 1},
      {1, 4}
    };
    const PetscScalar s[2][2] = {
      {1, 2},
      {2, 4}
    };
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 6, 6, 4, NULL, A));
    for (PetscInt b = 0; b < 3; b++)
      for (PetscInt r = 0; r < 2; r++)
        for (PetscInt c = 0; c < 2; c++) {
          PetscCall(MatSetValue(*A, 2 * b + r, 2 * b + c, b == 1 ? s[r][c] : d[r][c], INSERT_VALUES));
          if (b < 2) PetscCall(MatSetValue(*A, 2 * b + r, 2 * b + 2 + c, -0.5, INSERT_VALUES));
        }
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(0);
  }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Unknown -builtin %s: use empty, nonsquare, zeropivot, zeropivotsym, overflow, zerodiag or singularblock", name);
}

/* -mat_type / -mat_block_size: copy the MATSEQAIJ into a matrix of that type and block size */
static PetscErrorCode ConvertMatrix(Mat *A)
{
  char      type[64] = MATSEQAIJ;
  PetscInt  bs = 1, m, n, nb, *bnnz, *mark;
  PetscBool hastype, hasbs;
  Mat       B;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_type", type, sizeof(type), &hastype));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_block_size", &bs, &hasbs));
  if (!hastype && !hasbs) PetscFunctionReturn(0);
  PetscCall(MatGetSize(*A, &m, &n));
  PetscCheck(bs >= 1 && m % bs == 0 && n % bs == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "-mat_block_size %" PetscInt_FMT " does not divide the sizes %" PetscInt_FMT " x %" PetscInt_FMT, bs, m, n);
  nb = m / bs;
  /* exact preallocation: the block columns of each block row */
  PetscCall(PetscCalloc2(nb, &bnnz, n / bs, &mark));
  for (PetscInt r = 0; r < m; r++) {
    const PetscInt *cols;
    PetscInt        nc;
    PetscCall(MatGetRow(*A, r, &nc, &cols, NULL));
    for (PetscInt k = 0; k < nc; k++)
      if (mark[cols[k] / bs] != r / bs + 1) {
        mark[cols[k] / bs] = r / bs + 1;
        bnnz[r / bs]++;
      }
    PetscCall(MatRestoreRow(*A, r, &nc, &cols, NULL));
  }
  PetscCall(MatCreate(PETSC_COMM_SELF, &B));
  PetscCall(MatSetSizes(B, m, n, m, n));
  PetscCall(MatSetBlockSize(B, bs));
  PetscCall(MatSetType(B, type));
  PetscCall(MatXAIJSetPreallocation(B, bs, bnnz, NULL, NULL, NULL));
  for (PetscInt r = 0; r < m; r++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nc;
    PetscCall(MatGetRow(*A, r, &nc, &cols, &vals));
    PetscCall(MatSetValues(B, 1, &r, nc, cols, vals, INSERT_VALUES));
    PetscCall(MatRestoreRow(*A, r, &nc, &cols, &vals));
  }
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(bnnz, mark));
  PetscCall(MatDestroy(A));
  *A = B;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat                A;
  Vec                x, b, r, ones;
  KSP                ksp;
  char               file[PETSC_MAX_PATH_LEN] = "", builtin[64] = "";
  PetscBool          hasfile, hasbuiltin;
  PetscInt           m, n, its;
  PetscReal          rnorm, bnorm, truenorm;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), &hasfile));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-builtin", builtin, sizeof(builtin), &hasbuiltin));
  PetscCheck(hasfile || hasbuiltin, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "Give a matrix with -f <file.mtx.gz> or -builtin <name>");
  if (hasfile) PetscCall(SpTrsvLoadMatrixMarket(file, &A));
  else PetscCall(BuiltinMatrix(builtin, &A));
  PetscCall(ConvertMatrix(&A));
  PetscCall(MatGetSize(A, &m, &n));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Matrix %s: %" PetscInt_FMT " x %" PetscInt_FMT "\n", hasfile ? file : builtin, m, n));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp)); /* factorization errors surface here, before any vector exists */

  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(VecDuplicate(x, &ones));
  PetscCall(VecSet(ones, 1.0));
  PetscCall(MatMult(A, ones, b));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetResidualNorm(ksp, &rnorm));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &truenorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Reason %s iterations %" PetscInt_FMT " residual norm %.12e true relative residual %.6e\n", KSPConvergedReasons[reason], its, (double)rnorm, (double)(bnorm > 0 ? truenorm / bnorm : truenorm)));

  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&ones));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
