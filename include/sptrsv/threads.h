/*
   Host threads of the setup (src/mat/threads.c): the symbolic factorization and the analysis touch arrays of several
   times the matrix's size for the first time, and on the GPU machine a first touch costs about 0.4 ms per MB on one
   core (the kernel faults and clears each page), a third of the ILU(0) setup of a 4e6-row grid (docs/PERFORMANCE.md,
   e2e run 18). Those pages are faulted by several threads at once, and loops whose rows are independent (the level-0
   pattern's copy, the diagonal search) are split over the same threads. What runs in a thread is plain C: no PETSc
   call, no allocation, no error.

   The count (-mat_sptrsv_setup_threads, read by the factor; 0: automatic) holds while a factor's setup runs
   (SpTrsvThreadsPush()/SpTrsvThreadsPop() around it); elsewhere the setup is sequential. Automatic: the CPUs this
   process may run on (its affinity mask: one under an MPI launcher that binds ranks to cores) shared with the other
   ranks on the node, at most SPTRSV_THREADS_AUTO_MAX.
*/
#pragma once
#include <sptrsv/compat.h>

#define SPTRSV_THREADS_AUTO_MAX    16                /* the automatic count's cap (the GPU machine's 16 cores: 256 MB faulted in 11 ms, against 110 ms on one) */
#define SPTRSV_THREADS_MIN_BYTES   ((size_t)4 << 20) /* arrays below this are faulted by the caller, as before */
#define SPTRSV_THREADS_MIN_ROWS    65536             /* row loops below this run in the caller */

typedef void (*SpTrsvRangeFn)(void *ctx, PetscInt lo, PetscInt hi); /* rows [lo, hi) of a loop; plain C */
typedef PetscErrorCode (*SpTrsvSideFn)(void *ctx);                  /* a side job: the caller's thread, PETSc calls allowed */

SPTRSV_INTERN PetscErrorCode SpTrsvThreadsAuto(PetscInt *);                                    /* the automatic count */
SPTRSV_INTERN PetscErrorCode SpTrsvThreadsPush(PetscInt, PetscInt *);                          /* the count for a setup (0: automatic); the previous one */
SPTRSV_INTERN PetscErrorCode SpTrsvThreadsPop(PetscInt);                                       /* back to the previous count */
SPTRSV_INTERN PetscInt       SpTrsvThreadsCurrent(void);                                       /* the count now (1 outside a setup) */
SPTRSV_INTERN PetscErrorCode SpTrsvThreadsFor(PetscInt, SpTrsvRangeFn, void *);                /* [0, n) in SpTrsvThreadsCurrent() ranges, one per thread */
SPTRSV_INTERN PetscErrorCode SpTrsvThreadsFault(void *, size_t);                               /* the pages of a new array, touched by the threads */
SPTRSV_INTERN PetscErrorCode SpTrsvThreadsPair(SpTrsvRangeFn, void *, SpTrsvRangeFn, void *);  /* two tasks at once (the second in a thread) with two threads or more; else one after the other */
SPTRSV_INTERN PetscErrorCode SpTrsvThreadsEach(PetscInt, SpTrsvRangeFn, void *);               /* fn(ctx, lo, hi) over the tasks [0, ntasks), one range per thread */
SPTRSV_INTERN PetscInt       SpTrsvThreadsParts(PetscInt);                                      /* how many parts a loop of n rows is worth (at most the threads) */
/* the side job: the setup's own thread works (uploads) while two threads analyse L and U (SpTrsvThreadsPair()) */
SPTRSV_INTERN PetscErrorCode SpTrsvThreadsSideBegin(SpTrsvSideFn, void *); /* run beside the next pair with 3 threads or more (else by SideEnd) */
SPTRSV_INTERN PetscErrorCode SpTrsvThreadsSideEnd(PetscBool);              /* run it now if no pair did and the flag says so; else drop it */

/* the first row of part t of a loop of n rows in nparts equal parts (t = nparts: n); every split of the setup's loops */
static inline PetscInt SpTrsvThreadsPartStart(PetscInt n, PetscInt t, PetscInt nparts)
{
  return (PetscInt)(((PetscInt64)n * t) / nparts);
}

/* PetscMalloc1() of a large array, its pages faulted by the setup's threads (the contents are undefined, as PetscMalloc1's) */
#define SpTrsvMallocFaulted1(n, p) (PetscMalloc1((n), (p)) ? PETSC_ERR_MEM : SpTrsvThreadsFault((void *)*(p), (size_t)(n) * sizeof(**(p))))
