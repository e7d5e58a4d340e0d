/* Matrix Market reader shared by the examples and the unit tests */
#pragma once
#include <petscmat.h>

/*
   SpTrsvLoadMatrixMarket - read a Matrix Market file (coordinate; real, integer or pattern; general,
   symmetric or skew-symmetric; plain or gzip-compressed) into a MATSEQAIJ on PETSC_COMM_SELF with exact
   preallocation. Duplicate entries are summed, explicit zeros are kept as nonzeros of the pattern.
*/
PETSC_EXTERN PetscErrorCode SpTrsvLoadMatrixMarket(const char *, Mat *);
