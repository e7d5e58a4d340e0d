/* The measured check of MatSolverType sptrsv (src/mat/solvers/automeasure.c; private to the plugin) */
#pragma once
#include <sptrsv/factorhost.h>

/* MatSolverType sptrsv: the chosen paths timed against cuSPARSE at the first numeric factorization (automeasure.c) */
SPTRSV_INTERN PetscErrorCode MatSpTrsvAutoMeasure(Mat);
#include <sptrsv/events.h> /* SPTRSV_AutoMeasure: -log_view's SpTrsvAutoMeasure, the measured check (inside SpTrsvNumeric) */
