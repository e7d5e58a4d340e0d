/* The factor matrix every sptrsv_* MatSolverType returns (private to the plugin) */
#pragma once
#include <sptrsv/backend.h>
#include <sptrsv/factor.h>
#include <petsc/private/matimpl.h>

/* a triangular-solve path: its MatSolverType name and the plan its analysis builds */
typedef struct {
  const char    *solvertype;
  SpTrsvPlanType plantype;
  const char    *citation; /* BibTeX of the paper the path implements */
  PetscBool     *cited;
} SpTrsvPath;

typedef struct {
  const SpTrsvPath       *path;
  SpTrsvFactor            fac;
  SpTrsvFormat            format;
  SpTrsvBackendType       backendreq;
  SpTrsvSolverOptions     opts; /* graphs, fusion */
  const SpTrsvBackendOps *backend;
  const char             *backend_note;
  SpTrsvSolver            tri[2][2]; /* [transpose][0 = L, 1 = U] */
  void                   *rperm, *cperm; /* backend copies of the permutations */
  PetscScalar            *w1, *w2, *stage_b, *stage_x; /* backend work and staging vectors */
  PetscBool               copies; /* vectors had to be copied to/from the backend's memory */
  PetscReal               fill_given; /* MatFactorInfo fill, reported by MatGetInfo as PETSc does */
} Mat_SpTrsv;

SPTRSV_INTERN PetscErrorCode MatGetFactor_SpTrsv(Mat, MatFactorType, const SpTrsvPath *, Mat *);
SPTRSV_INTERN PetscErrorCode MatSolverTypeRegister_SpTrsvPaths(void);
