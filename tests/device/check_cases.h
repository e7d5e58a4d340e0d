/* Device checks: the cases of check_kernels.c (generated Laplacians, chains, element-only dependency shapes, Matrix Market
   files), their matrices and the -cases list (tests/device/check_cases.c) */
#pragma once
#include <petscmat.h>
#include <sptrsv/compat.h> /* PETSC_SUCCESS on PETSc 3.18 */

#define MAXCASES 64

typedef enum {
  GEN_STENCIL,
  GEN_CHAIN,
  GEN_DENSEROW, /* a 1-D chain whose last row couples to every row: in L that row depends on every earlier row */
  GEN_EMPTYROWS, /* L has an entry only in every third row (the other rows are empty) */
  GEN_BANDED,    /* half-bandwidth npts (the chain kernel of sptrsv_locality: reach npts) */
  GEN_BLOCKDIAG, /* dense blocks of npts rows; nz > 0: the rows permuted (components interleaved) */
  GEN_FILE
} GenType;

typedef struct {
  char     name[PETSC_MAX_PATH_LEN];
  GenType  type;
  PetscInt nx, ny, nz, npts; /* stencil: 5/9 (2-D, nz = 1), 7/27 (3-D); chain: nx = n, npts = 2 (bidiagonal) or 3 */
  char     path[PETSC_MAX_PATH_LEN];
  PetscBool rcm; /* reverse Cuthill-McKee ordering (exercises the permutation gather/scatter) */
  PetscBool element_only; /* large dependency shapes: only the element configurations, one right-hand side */
  PetscInt  levels;       /* ILU(levels) (0 for the other cases); with nd: wide supernodes for sptrsv_supernodal */
  PetscBool nd;           /* nested-dissection ordering */
} Case;

/* the matrix of a case (a Matrix Market file gets every diagonal entry in its pattern, zero where it had none) */
PetscErrorCode BuildCase(const Case *, Mat *);
/* append a case to cases[*nc] (a PETSc error past MAXCASES): a stencil (optionally RCM-ordered), a filled ND case (ILU(levels)
   in nested dissection), an element-only dependency shape of n rows named name_n, a chain of n rows (npts 2 or 3) */
PetscErrorCode AddStencil(Case *, PetscInt *, PetscInt, PetscInt, PetscInt, PetscInt, PetscBool);
PetscErrorCode AddFilled(Case *, PetscInt *, PetscInt, PetscInt, PetscInt, PetscInt, PetscInt);
PetscErrorCode AddShape(Case *, PetscInt *, GenType, PetscInt, const char *);
PetscErrorCode AddChain(Case *, PetscInt *, PetscInt, PetscInt);
/* a banded (half-bandwidth w) or block-diagonal (blocks of w rows, rows permuted when perm) matrix of n rows, varied values */
PetscErrorCode AddBanded(Case *, PetscInt *, GenType, PetscInt, PetscInt, PetscBool);
#if !defined(SPTRSV_NO_MMLOAD)
/* every *.mtx.gz file of dir, sorted by name */
PetscErrorCode AddFiles(Case *, PetscInt *, const char *);
#endif
/* is name one of the comma-separated list's entries? */
PetscBool InList(const char *, const char *);
