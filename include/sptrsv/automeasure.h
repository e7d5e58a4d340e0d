/* The measured check of MatSolverType sptrsv (src/mat/solvers/automeasure.c; private to the plugin) */
#pragma once
#include <sptrsv/factorhost.h>

/* MatSolverType sptrsv: the chosen paths timed against cuSPARSE at the first numeric factorization (automeasure.c) */
SPTRSV_INTERN PetscErrorCode MatSpTrsvAutoMeasure(Mat);
/* triangle k's solver in place against a new solver of a path (with its options) on the same triangle, timed on b into x;
   the new one stays when it took less than need times the other (won); best: ms per solve of both; setup_ms += the new
   solver's setup; note: a refusal */
SPTRSV_INTERN PetscErrorCode MatSpTrsvAutoChallenge(Mat, PetscInt, SpTrsvPath, const SpTrsvPathOptions *, PetscReal, const PetscScalar *, PetscScalar *, PetscReal[2], PetscBool *, PetscReal *, char *, size_t);
SPTRSV_INTERN PetscErrorCode MatSpTrsvAutoVectors(Mat, PetscScalar **, PetscScalar **); /* random b, x on the backend */
SPTRSV_INTERN PetscErrorCode MatSpTrsvTimeSolves(const SpTrsvBackendOps *, SpTrsvSolver, const PetscScalar *, PetscScalar *, PetscInt, PetscReal *); /* ms per solve of reps solves, synchronized around */
/* triangle k on the first of its choice's candidates that takes it (factormat.c); setup_ms (or NULL): its setup, timed */
SPTRSV_INTERN PetscErrorCode MatSpTrsvAutoCreateFirst(Mat, PetscInt, PetscReal *);
/* the learning choice (autolearn.c): triangle k started on its start path; a solve about to run (counted; a look at every
   doubling; *timed: this solve times each triangle); a numeric factorization done */
SPTRSV_INTERN PetscErrorCode MatSpTrsvAutoLearnCreate(Mat, PetscInt, PetscInt, SpTrsvPath[]);
SPTRSV_INTERN PetscErrorCode MatSpTrsvAutoLearnSolve(Mat, PetscBool, PetscBool *);
SPTRSV_INTERN PetscErrorCode MatSpTrsvAutoLearnTimed(Mat, PetscInt, PetscReal);
#include <sptrsv/events.h> /* SPTRSV_AutoMeasure: -log_view's SpTrsvAutoMeasure, the measured check (inside SpTrsvNumeric) */
