/* The cases of the device check check_kernels.c: generated Laplacians (examples/common/stencil.c), chains, the element
   path's dependency shapes, and Matrix Market files; see check_cases.h */
#include "check_cases.h"
#include "../../examples/common/stencil.h"
#if !defined(SPTRSV_NO_MMLOAD)
  #include "../../examples/common/mmload.h"
  #include <dirent.h>
#endif
#include <stdlib.h>
#include <string.h>

/* ---- matrices (Laplacians: examples/common/stencil.c) --------------------------------------------- */

/* a chain: L has one level per row (n levels). bidiagonal: 2 on the diagonal, -1 below (U is diagonal);
   tridiagonal: -1 above as well (L and U are both chains) */
static PetscErrorCode BuildChain(PetscInt n, PetscInt npts, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, npts, NULL, A));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt    cols[3], m = 0;
    PetscScalar vals[3];
    if (i > 0) { cols[m] = i - 1; vals[m++] = -1.0; }
    cols[m] = i; vals[m++] = 2.0;
    if (npts == 3 && i < n - 1) { cols[m] = i + 1; vals[m++] = -1.0; }
    PetscCall(MatSetValues(*A, 1, &i, m, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* banded (|i - j| <= w) or block-diagonal (blocks of w rows) with entries of several sizes (a wrong window place or
   order shows), strictly diagonally dominant; perm: row and column i of the block-diagonal matrix become p(i) = (i a)
   mod n with a prime to n, so each block's rows are spread over the matrix */
static PetscErrorCode BuildBanded(PetscInt n, PetscInt w, PetscBool blocks, PetscBool perm, Mat *A)
{
  PetscInt a = 7919;

  PetscFunctionBeginUser;
  while (perm && n > 1) { /* the smallest a >= 7919 prime to n */
    PetscInt x = a, y = n;
    while (y) {
      const PetscInt t = x % y;
      x = y;
      y = t;
    }
    if (x == 1) break;
    a++;
  }
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, blocks ? w : 2 * w + 1, NULL, A));
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt lo = blocks ? (i / w) * w : PetscMax(0, i - w), hi = blocks ? PetscMin(n, lo + w) - 1 : PetscMin(n - 1, i + w);
    const PetscInt pi = perm ? (PetscInt)(((PetscInt64)i * a) % n) : i;
    PetscScalar    dsum = 1;
    for (PetscInt j = lo; j <= hi; j++) {
      const PetscScalar v = -(PetscScalar)(1 + (3 * i + 5 * j) % 7) / 4;
      if (j == i) continue;
      PetscCall(MatSetValue(*A, pi, perm ? (PetscInt)(((PetscInt64)j * a) % n) : j, v, INSERT_VALUES));
      dsum -= v;
    }
    PetscCall(MatSetValue(*A, pi, pi, dsum, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the element path's dependency shapes (see GenType) */
static PetscErrorCode BuildShape(PetscInt n, GenType type, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 3, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(MatSetValue(*A, i, i, 4.0, INSERT_VALUES));
    if (type == GEN_DENSEROW && i > 0 && i < n - 1) PetscCall(MatSetValue(*A, i, i - 1, -1.0, INSERT_VALUES));
    if (type == GEN_DENSEROW && i == n - 1)
      for (PetscInt j = 0; j < i; j++) PetscCall(MatSetValue(*A, i, j, -1.0 / n, INSERT_VALUES));
    if (type == GEN_EMPTYROWS && i % 3 == 2) PetscCall(MatSetValue(*A, i, i - 2, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BuildCase(const Case *c, Mat *A)
{
  PetscFunctionBeginUser;
  switch (c->type) {
  case GEN_DENSEROW:
  case GEN_EMPTYROWS:
    PetscCall(BuildShape(c->nx, c->type, A));
    break;
  case GEN_STENCIL:
    PetscCall(SpTrsvBuildStencil(c->nx, c->ny, c->nz, c->npts, A));
    break;
  case GEN_CHAIN:
    PetscCall(BuildChain(c->nx, c->npts, A));
    break;
  case GEN_BANDED:
  case GEN_BLOCKDIAG:
    PetscCall(BuildBanded(c->nx, c->npts, (PetscBool)(c->type == GEN_BLOCKDIAG), (PetscBool)(c->nz > 0), A));
    break;
  case GEN_FILE: {
    PetscInt m;
#if defined(SPTRSV_NO_MMLOAD)
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Built without the Matrix Market reader (no zlib): cannot read %s", c->path);
#else
    PetscCall(SpTrsvLoadMatrixMarket(c->path, A));
#endif
    /* ILU(0) needs every diagonal entry in the pattern: add zero to each (inserts the missing ones as
       explicit zeros, which the nonzero shift then handles; present ones are unchanged) */
    PetscCall(MatGetSize(*A, &m, NULL));
    PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    for (PetscInt i = 0; i < m; i++) PetscCall(MatSetValue(*A, i, i, 0.0, ADD_VALUES));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  } break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the case list ------------------------------------------------------------------------------- */

/* the next entry of cases[] (*nc of them so far), zeroed; an error when MAXCASES are taken */
static PetscErrorCode NewCase(Case *cases, PetscInt *nc, Case **c)
{
  PetscFunctionBeginUser;
  PetscCheck(*nc < MAXCASES, PETSC_COMM_SELF, PETSC_ERR_PLIB, "more than MAXCASES = %d cases: raise MAXCASES", MAXCASES);
  *c = &cases[(*nc)++];
  PetscCall(PetscMemzero(*c, sizeof(**c)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AddStencil(Case *cases, PetscInt *nc, PetscInt npts, PetscInt nx, PetscInt ny, PetscInt nz, PetscBool rcm)
{
  Case *c = NULL;

  PetscFunctionBeginUser;
  PetscCall(NewCase(cases, nc, &c));
  c->type = GEN_STENCIL;
  c->nx   = nx;
  c->ny   = ny;
  c->nz   = nz;
  c->npts = npts;
  c->rcm  = rcm;
  if (nz == 1) PetscCall(PetscSNPrintf(c->name, sizeof(c->name), "lap2d%" PetscInt_FMT "_%" PetscInt_FMT "x%" PetscInt_FMT "%s", npts, nx, ny, rcm ? "_rcm" : ""));
  else PetscCall(PetscSNPrintf(c->name, sizeof(c->name), "lap3d%" PetscInt_FMT "_%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT "%s", npts, nx, ny, nz, rcm ? "_rcm" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a stencil with an ILU(levels) factor in nested-dissection order: wide supernodes (near-exact LU for large levels) */
PetscErrorCode AddFilled(Case *cases, PetscInt *nc, PetscInt npts, PetscInt nx, PetscInt ny, PetscInt nz, PetscInt levels)
{
  Case *c = NULL;

  PetscFunctionBeginUser;
  PetscCall(AddStencil(cases, nc, npts, nx, ny, nz, PETSC_FALSE));
  c         = &cases[*nc - 1];
  c->levels = levels;
  c->nd     = PETSC_TRUE;
  PetscCall(PetscStrlcat(c->name, "_nd_ilu", sizeof(c->name)));
  {
    char lv[16];
    PetscCall(PetscSNPrintf(lv, sizeof(lv), "%" PetscInt_FMT, levels));
    PetscCall(PetscStrlcat(c->name, lv, sizeof(c->name)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AddShape(Case *cases, PetscInt *nc, GenType type, PetscInt n, const char *name)
{
  Case *c = NULL;

  PetscFunctionBeginUser;
  PetscCall(NewCase(cases, nc, &c));
  c->type         = type;
  c->nx           = n;
  c->element_only = PETSC_TRUE;
  PetscCall(PetscSNPrintf(c->name, sizeof(c->name), "%s_%" PetscInt_FMT, name, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AddChain(Case *cases, PetscInt *nc, PetscInt n, PetscInt npts)
{
  Case *c = NULL;

  PetscFunctionBeginUser;
  PetscCall(NewCase(cases, nc, &c));
  c->type = GEN_CHAIN;
  c->nx   = n;
  c->npts = npts;
  PetscCall(PetscSNPrintf(c->name, sizeof(c->name), "chain%s_%" PetscInt_FMT, npts == 2 ? "_bidiag" : "_tridiag", n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AddBanded(Case *cases, PetscInt *nc, GenType type, PetscInt n, PetscInt w, PetscBool perm)
{
  Case *c = NULL;

  PetscFunctionBeginUser;
  PetscCall(NewCase(cases, nc, &c));
  c->type = type;
  c->nx   = n;
  c->npts = w;
  c->nz   = perm ? 1 : 0;
  PetscCall(PetscSNPrintf(c->name, sizeof(c->name), "%s%" PetscInt_FMT "%s_%" PetscInt_FMT, type == GEN_BANDED ? "banded" : "blockdiag", w, perm ? "_perm" : "", n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if !defined(SPTRSV_NO_MMLOAD)
static int CompareNames(const void *a, const void *b)
{
  return strcmp(((const Case *)a)->name, ((const Case *)b)->name);
}

PetscErrorCode AddFiles(Case *cases, PetscInt *nc, const char *dir)
{
  DIR           *d;
  struct dirent *e;
  PetscInt       first = *nc;

  PetscFunctionBeginUser;
  d = opendir(dir);
  PetscCheck(d, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open -matdir %s", dir);
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    Case  *c;
    if (len < 8 || strcmp(e->d_name + len - 7, ".mtx.gz")) continue;
    PetscCheck(*nc < MAXCASES, PETSC_COMM_SELF, PETSC_ERR_PLIB, "more than MAXCASES = %d cases (generated and -matdir %s): raise MAXCASES", MAXCASES, dir);
    c = &cases[(*nc)++];
    PetscCall(PetscMemzero(c, sizeof(*c)));
    c->type = GEN_FILE;
    PetscCall(PetscSNPrintf(c->path, sizeof(c->path), "%s/%s", dir, e->d_name));
    PetscCall(PetscStrncpy(c->name, e->d_name, sizeof(c->name)));
    c->name[len - 7] = 0;
  }
  closedir(d);
  qsort(cases + first, (size_t)(*nc - first), sizeof(Case), CompareNames);
  PetscFunctionReturn(PETSC_SUCCESS);
}

#endif

/* is name in the comma-separated list? */
PetscBool InList(const char *list, const char *name)
{
  size_t      len = strlen(name);
  const char *p   = list;

  while ((p = strstr(p, name))) {
    if ((p == list || p[-1] == ',') && (p[len] == 0 || p[len] == ',')) return PETSC_TRUE;
    p += len;
  }
  return PETSC_FALSE;
}