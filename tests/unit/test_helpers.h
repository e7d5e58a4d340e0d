/* Helpers that several test programs share (the unit tests in tests/unit and the device checks in tests/device):
   relative differences of vectors and matrices, the text of the last PETSc error, the root of a union-find forest,
   and a portable random sequence (xorshift64*). Header only (static inline), so each test program stays one .c file
   for the makefile's rules. */
#pragma once
#include <petscmat.h>

/* VecRelDiffInf - ||y - x||_inf / max(||ref||_inf, PETSC_SMALL) (ref is x or y) */
static inline PetscErrorCode VecRelDiffInf(Vec x, Vec y, Vec ref, PetscReal *d)
{
  Vec       w;
  PetscReal nw, nref;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(x, &w));
  PetscCall(VecWAXPY(w, -1.0, x, y));
  PetscCall(VecNorm(w, NORM_INFINITY, &nw));
  PetscCall(VecNorm(ref, NORM_INFINITY, &nref));
  *d = nw / PetscMax(nref, PETSC_SMALL);
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatRelDiff - max |X - Y| / max(max |Y|, PETSC_SMALL), entrywise, for X and Y of the same pattern */
static inline PetscErrorCode MatRelDiff(Mat X, Mat Y, PetscReal *d)
{
  Mat       W;
  PetscReal ny;

  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(X, MAT_COPY_VALUES, &W));
  PetscCall(MatAXPY(W, -1.0, Y, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(W, NORM_MAX, d));
  PetscCall(MatNorm(Y, NORM_MAX, &ny));
  *d /= PetscMax(ny, PETSC_SMALL);
  PetscCall(MatDestroy(&W));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* LastMessage - the specific message of error e (the text a PetscCheck() gave), empty when e is 0 */
static inline void LastMessage(PetscErrorCode e, char *buf, size_t len)
{
  const char *text = NULL, *specific = NULL;

  buf[0] = 0;
  if (!e) return;
  (void)PetscErrorMessage(e, &text, (void *)&specific); /* char ** before PETSc 3.19, const char ** since */
  if (specific) (void)PetscStrncpy(buf, specific, len);
}

/* UnionFindRoot - the root of x in the forest par[] (par[r] = r at a root), halving the path on the way */
static inline PetscInt UnionFindRoot(PetscInt *par, PetscInt x)
{
  while (par[x] != x) x = par[x] = par[par[x]];
  return x;
}

/* xorshift64*: the same sequence on every machine. Next: the next 64 bits of state s; Uniform: in [0, 1);
   Below: in [0, m) (0 when m <= 0) */
static inline unsigned long long Next(unsigned long long *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}
static inline PetscReal Uniform(unsigned long long *s) { return (PetscReal)(Next(s) >> 11) * (1.0 / 9007199254740992.0); }
static inline PetscInt  Below(unsigned long long *s, PetscInt m) { return m > 0 ? (PetscInt)(Next(s) % (unsigned long long)m) : 0; }
