/* The hostile-input fuzz driver's case bookkeeping and its consumers (fuzz_consume.c): what a loaded matrix is
   handed to, and how each outcome is judged. */
#pragma once
#include <petscksp.h>
#include <petscsptrsv.h>
#include "fuzz.h"
#include "../../examples/common/mmload.h"

typedef enum {
  FUZZ_ERROR,    /* a PETSc error code with a non-empty message */
  FUZZ_CORRECT,  /* a result checked against the matrix (residual) or PETSc's own preconditioner */
  FUZZ_DIVERGED  /* KSP stopped with a negative converged reason */
} FuzzOutcome;

/* the consumers, in FuzzConsume's order */
typedef enum {
  FUZZ_NONE, /* the file did not load */
  FUZZ_FACTOR,
  FUZZ_ISAI,
  FUZZ_GS_EXACT,
  FUZZ_GS_MULTICOLOR,
  FUZZ_WRONG_VECTOR,
  FUZZ_REPATTERN,
  FUZZ_NKINDS
} FuzzKind;

typedef struct {
  FuzzOutcome outcome;
  FuzzKind    kind;
  PetscBool   failed;
  PetscBool   empty;         /* the matrix has no rows or no columns */
  PetscBool   unnamed;       /* an error that names none of the bogus options read */
  char        unnamed_opt[64];
  PetscBool   badclaim;      /* KSP claimed convergence, the residual says otherwise */
  char        what[256];     /* the input */
  char        consumer[512]; /* the consumer and its options */
  char        message[512];  /* the error message */
  char        reason[64];    /* the divergence reason */
  char        failure[512];  /* why the case failed */
} FuzzResult;

typedef struct {
  char      dir[PETSC_MAX_PATH_LEN];
  char      backend[16];
  PetscInt  maxn, timeout;
  PetscInt  verbose; /* 1: a line per case; 2: also the input and options as they start */
  PetscBool leakcheck, keep;
  PetscInt  ncases, nerror, ncorrect, ndiverged, nfail;
  PetscInt  petscleaks; /* cases whose error left memory behind in PETSc's own error paths */
  PetscInt  corrupt;    /* files MatLoad accepted with a corrupt CSR (PETSc 3.18 does not check column indices) */
  PetscInt  consumers[FUZZ_NKINDS];
  PetscInt  npaths;       /* the sptrsv_* solver types, from the path registry */
  char      paths[8][64]; /* their MatSolverType names */
  PetscBool pathicc[8];
  PetscInt  nsweep;       /* PC gs schedulers: "auto" and the paths that run sweeps */
  char      sweep[8][64];
} FuzzCtx;

PETSC_INTERN PetscBool fuzz_trace, fuzz_native, fuzz_drop_bad;
PETSC_INTERN void           FuzzFail(FuzzResult *, const char *, ...) PETSC_ATTRIBUTE_FORMAT(2, 3);
PETSC_INTERN PetscErrorCode FuzzRecordError(FuzzResult *, PetscErrorCode, const char *);
PETSC_INTERN PetscErrorCode FuzzCheckLoaded(Mat, char[], size_t);
PETSC_INTERN PetscErrorCode FuzzConsume(FuzzCtx *, FuzzRng *, Mat, PetscBool, FuzzResult *);
PETSC_INTERN PetscErrorCode FuzzSetUp(FuzzCtx *);
PETSC_INTERN PetscErrorCode FuzzTearDown(FuzzCtx *);
PETSC_INTERN PetscErrorCode FuzzReport(FuzzCtx *, long long, PetscLogDouble);
