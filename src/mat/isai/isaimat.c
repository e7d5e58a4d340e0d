/* PETSc matrices that apply a block CSR operator (ISAI factors, triangles): MATSEQAIJ or MATSEQBAIJ */
#include <sptrsv/isai.h>
#include <petsc/private/petscimpl.h> /* PetscObjectStateIncrease() */

/*
  SpTrsvBlockMatCreate - an assembled sequential matrix of n block rows of size bs with the block CSR
  pattern i, j (columns ascending) and zero values; MATSEQAIJ for bs = 1, MATSEQBAIJ otherwise. Its value
  array then holds the blocks in CSR order, column-major inside a block (SpTrsvBlockMatSetValues()).
*/
PetscErrorCode SpTrsvBlockMatCreate(PetscInt n, PetscInt bs, const PetscInt *i, const PetscInt *j, Mat *M)
{
  const PetscInt *mi, *mj;
  PetscInt        mn;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_SELF, M));
  PetscCall(MatSetSizes(*M, n * bs, n * bs, n * bs, n * bs));
  PetscCall(MatSetBlockSize(*M, bs));
  if (bs == 1) {
    PetscCall(MatSetType(*M, MATSEQAIJ));
    PetscCall(MatSeqAIJSetPreallocationCSR(*M, i, j, NULL));
  } else {
    PetscCall(MatSetType(*M, MATSEQBAIJ));
    PetscCall(MatSeqBAIJSetPreallocationCSR(*M, bs, i, j, NULL));
  }
  /* the value array must follow our pattern exactly (explicit zeros kept, nothing merged; for AIJ the
     uncompressed rows, not the inodes) */
  PetscCall(MatGetRowIJ(*M, 0, PETSC_FALSE, (PetscBool)(bs > 1), &mn, &mi, &mj, &done));
  PetscCheck(done && mn == n && mi[n] == i[n], PETSC_COMM_SELF, PETSC_ERR_PLIB, "The apply matrix has %" PetscInt_FMT " blocks, expected %" PetscInt_FMT, done ? mi[mn] : -1, i[n]);
  PetscCall(MatRestoreRowIJ(*M, 0, PETSC_FALSE, (PetscBool)(bs > 1), &mn, &mi, &mj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvBlockMatSetValues - copy the values (bs*bs per block, CSR order, column-major blocks) into a
  matrix made by SpTrsvBlockMatCreate(); the matrix's state is increased
*/
PetscErrorCode SpTrsvBlockMatSetValues(Mat M, const PetscScalar *a)
{
  const PetscInt *mi, *mj;
  PetscInt        mn, bs;
  PetscBool       done, isaij;
  PetscScalar    *v;

  PetscFunctionBegin;
  PetscCall(MatGetBlockSize(M, &bs));
  PetscCall(MatGetRowIJ(M, 0, PETSC_FALSE, (PetscBool)(bs > 1), &mn, &mi, &mj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot access the pattern of the apply matrix");
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)M, MATSEQAIJ, &isaij));
  if (isaij) {
    PetscCall(MatSeqAIJGetArrayWrite(M, &v));
    PetscCall(PetscArraycpy(v, a, mi[mn]));
    PetscCall(MatSeqAIJRestoreArrayWrite(M, &v));
  } else {
    PetscCall(MatSeqBAIJGetArray(M, &v));
    PetscCall(PetscArraycpy(v, a, (size_t)mi[mn] * bs * bs));
    PetscCall(MatSeqBAIJRestoreArray(M, &v));
  }
  PetscCall(MatRestoreRowIJ(M, 0, PETSC_FALSE, (PetscBool)(bs > 1), &mn, &mi, &mj, &done));
  PetscCall(PetscObjectStateIncrease((PetscObject)M));
  PetscFunctionReturn(PETSC_SUCCESS);
}
