/* Shared pieces of the unit tests: the pass/fail counters with EXPECT (every test), a triangle made from a CSR pattern
   (test_levels.c, test_syncfree.c) and the -ksp_view text of a plan (test_pinv.c, test_supernodal.c). Each test
   program includes it once. */
#pragma once
#include <sptrsv/backend.h>

static PetscInt nfail = 0, npass = 0;

/* count a check; print "not ok: <message>" when it fails */
#define EXPECT(cond, ...) \
  do { \
    if (cond) npass++; \
    else { \
      nfail++; \
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "not ok: " __VA_ARGS__)); \
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n")); \
    } \
  } while (0)

/* one uniform random number of rnd (test_locality.c, test_supernodal.c, test_pinv.c) */
static inline PetscReal Rand(PetscRandom rnd)
{
  PetscReal r;
  (void)PetscRandomGetValueReal(rnd, &r);
  return r;
}

/* a triangle from a CSR of its strict part (copied); values and diagonal left for the caller */
static inline PetscErrorCode TriFromCSR(PetscInt n, SpTrsvUplo uplo, PetscBool unit, const PetscInt *ai, const PetscInt *aj, SpTrsvTri *t)
{
  PetscInt *i, *j;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &i));
  PetscCall(PetscMalloc1(ai[n] + 1, &j));
  PetscCall(PetscArraycpy(i, ai, n + 1));
  PetscCall(PetscArraycpy(j, aj, ai[n]));
  PetscCall(SpTrsvTriCreate(n, uplo, unit, t));
  PetscCall(SpTrsvTriSetPattern(*t, i, j));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the strict lower triangle of the 7-point stencil (5-point for nz = 1) on an nx x ny x nz grid in natural order (row
   x + nx (y + ny z) depends on the rows at x - 1, y - 1, z - 1 where they exist), unit diagonal, values left for the
   caller (test_levels.c, test_syncfree.c) */
static inline PetscErrorCode GridLower7(PetscInt nx, PetscInt ny, PetscInt nz, SpTrsvTri *t)
{
  const PetscInt n = nx * ny * nz;
  PetscInt      *ai, *aj, nnz = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &ai, 3 * n + 1, &aj));
  ai[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt x = i % nx, y = (i / nx) % ny, z = i / (nx * ny);
    if (z) aj[nnz++] = i - nx * ny;
    if (y) aj[nnz++] = i - nx;
    if (x) aj[nnz++] = i - 1;
    ai[i + 1] = nnz;
  }
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_TRUE, ai, aj, t));
  PetscCall(PetscFree2(ai, aj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the -ksp_view text of a plan (at most len - 1 characters), through a scratch file of that name (removed) */
static inline PetscErrorCode PlanViewText(SpTrsvPlan plan, const char *file, char *buf, size_t len)
{
  PetscViewer v;
  FILE       *f;
  size_t      got;

  PetscFunctionBeginUser;
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, file, &v));
  PetscCall(SpTrsvPlanView(plan, v));
  PetscCall(PetscViewerDestroy(&v));
  f = fopen(file, "r");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot read %s", file);
  got      = fread(buf, 1, len - 1, f);
  buf[got] = 0;
  fclose(f);
  (void)remove(file);
  PetscFunctionReturn(PETSC_SUCCESS);
}
