/* Declarations of the Gauss-Seidel benchmark (bench_gs.c, bench_gs_cusparse.c); the shared pieces are in bench.h */
#pragma once
#include "bench.h"
#include <sptrsv/gs.h>

/* Result.kind of a row: where the sweeps ran */
#define GS_ON_GPU "gpu"
#define GS_ON_CPU "cpu"

/* the cuSPARSE baseline's variant name */
#define GS_CUS "CUS"

#if defined(BENCH_HAVE_CUDA)
PetscErrorCode RunCuSparseGS(Bench *, SpTrsvGS, PetscReal);
#endif
