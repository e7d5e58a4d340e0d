/* Shared pieces of the hostile-input fuzz driver (tests/fuzz/fuzz_input.c): the per-case random stream and the
   input generator (fuzz_gen.c), which writes one Matrix Market or PETSc binary file per case. */
#pragma once
#include <petscmat.h>
#include <sptrsv/compat.h>
#include <stdint.h>

/* a small reproducible random stream (splitmix64): the state of case K of seed S depends on S and K only */
typedef struct {
  uint64_t s;
} FuzzRng;

static inline uint64_t FuzzNext(FuzzRng *r)
{
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z          = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z          = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static inline void FuzzSeed(FuzzRng *r, uint64_t seed, uint64_t kase)
{
  r->s = seed * 0x2545F4914F6CDD1Dull + kase;
  (void)FuzzNext(r);
  r->s ^= kase * 0xD1B54A32D192ED03ull;
}
static inline PetscInt FuzzInt(FuzzRng *r, PetscInt lo, PetscInt hi) /* inclusive */
{
  return lo + (PetscInt)(FuzzNext(r) % (uint64_t)(hi - lo + 1));
}
static inline double FuzzUnit(FuzzRng *r) { return (double)(FuzzNext(r) >> 11) / 9007199254740992.0; }
static inline PetscBool FuzzChance(FuzzRng *r, double p) { return (PetscBool)(FuzzUnit(r) < p); }

#define FUZZ_MAXN  12
#define FUZZ_MAXNZ (FUZZ_MAXN * FUZZ_MAXN + 16)

/* the matrix a case starts from, before the file is spoiled */
typedef struct {
  PetscInt  m, n, nz;
  PetscInt  i[FUZZ_MAXNZ], j[FUZZ_MAXNZ];
  double    v[FUZZ_MAXNZ];
  PetscBool symmetric; /* values symmetric (ICC may be tried) */
} FuzzMatrix;

/* one generated input file */
typedef struct {
  char        path[PETSC_MAX_PATH_LEN];
  PetscBool   binary;     /* PETSc binary (MatLoad) or Matrix Market (SpTrsvLoadMatrixMarket) */
  char        what[256];  /* how the file was made: the base matrix and the spoilings */
  PetscBool   valid;      /* no spoiling: the file must load */
  PetscBool   symmetric;  /* the loaded matrix has symmetric values (when it loads) */
} FuzzInput;

PETSC_INTERN PetscErrorCode FuzzMatrixGenerate(FuzzRng *, PetscInt, FuzzMatrix *);
PETSC_INTERN PetscErrorCode FuzzWriteInput(FuzzRng *, const char *, PetscInt, FuzzInput *);
