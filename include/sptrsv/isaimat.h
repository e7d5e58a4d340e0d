/* PETSc matrices that apply a block CSR operator (ISAI factors, triangles): src/mat/isai/isaimat.c (private to the plugin) */
#pragma once
#include <petscmat.h>
#include <sptrsv/compat.h>

/* sequential PETSc matrices from block CSR arrays: MATSEQAIJ for bs = 1, MATSEQBAIJ for bs > 1 */
SPTRSV_INTERN PetscErrorCode SpTrsvBlockMatCreate(PetscInt, PetscInt, const PetscInt *, const PetscInt *, Mat *);
SPTRSV_INTERN PetscErrorCode SpTrsvBlockMatSetValues(Mat, const PetscScalar *);
/* the scalar expansion of a block CSR pattern as an AIJ matrix of the given type (zero values) */
SPTRSV_INTERN PetscErrorCode SpTrsvBlockMatCreateExpanded(PetscInt, PetscInt, const PetscInt *, const PetscInt *, MatType, PetscInt **, PetscInt **, PetscScalar **, Mat *);
