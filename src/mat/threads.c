/*
   Host threads of the setup (see include/sptrsv/threads.h): POSIX threads started for one loop and joined at its end
   (a loop of the setup runs for milliseconds; a thread starts in microseconds), the caller running the first range.
*/
#if !defined(_GNU_SOURCE)
  #define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#endif
#include <sptrsv/threads.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

static PetscInt SpTrsvThreadsNow = 1; /* the count while a setup runs (SpTrsvThreadsPush), else 1 */

/* the ranks of this job on this node, from the launcher's environment (Open MPI, MPICH/Hydra, Slurm), else 1: no
   collective call (a factor's setup may run on some ranks only) */
static PetscInt SpTrsvThreadsLocalRanks(void)
{
  const char *vars[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "MPICH_LOCALNRANKS", "PMI_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE"};

  for (size_t v = 0; v < sizeof(vars) / sizeof(vars[0]); v++) {
    const char *s = getenv(vars[v]);
    if (s) {
      const long r = strtol(s, NULL, 10);
      if (r > 0) return (PetscInt)r;
    }
  }
  return 1;
}

/*
  SpTrsvThreadsAuto - the automatic count: the CPUs of this process's affinity mask shared with the node's other ranks,
  between 1 and SPTRSV_THREADS_AUTO_MAX
*/
PetscErrorCode SpTrsvThreadsAuto(PetscInt *nt)
{
  PetscInt  cpus = 1;
  cpu_set_t set;

  PetscFunctionBegin;
  CPU_ZERO(&set);
  if (!sched_getaffinity(0, sizeof(set), &set)) cpus = (PetscInt)CPU_COUNT(&set);
  else {
    const long c = sysconf(_SC_NPROCESSORS_ONLN);
    if (c > 0) cpus = (PetscInt)c;
  }
  *nt = PetscMax(1, PetscMin(SPTRSV_THREADS_AUTO_MAX, cpus / SpTrsvThreadsLocalRanks()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the count for a factor's setup: req > 0 as given, 0 automatic; *prev: what SpTrsvThreadsPop() restores */
PetscErrorCode SpTrsvThreadsPush(PetscInt req, PetscInt *prev)
{
  PetscFunctionBegin;
  *prev = SpTrsvThreadsNow;
  if (req > 0) SpTrsvThreadsNow = req;
  else PetscCall(SpTrsvThreadsAuto(&SpTrsvThreadsNow));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvThreadsPop(PetscInt prev)
{
  PetscFunctionBegin;
  SpTrsvThreadsNow = prev;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt SpTrsvThreadsCurrent(void)
{
  return SpTrsvThreadsNow;
}

typedef struct {
  SpTrsvRangeFn fn;
  void         *ctx;
  PetscInt      lo, hi;
} SpTrsvThreadsRange;

static void *SpTrsvThreadsRun(void *arg)
{
  const SpTrsvThreadsRange *r = (const SpTrsvThreadsRange *)arg;

  r->fn(r->ctx, r->lo, r->hi);
  return NULL;
}

/* the job of the caller's own thread (SpTrsvThreadsSideBegin()): NULL when none is waiting */
static SpTrsvSideFn SpTrsvThreadsSideFn;
static void        *SpTrsvThreadsSideCtx;

/* fn over [0, n) in nt equal ranges, the caller running the first, or with side every range in a thread of its own and
   side(sctx) in the caller meanwhile (*serr its error); a thread that cannot be started has its range run by the caller */
static void SpTrsvThreadsSplitSide(PetscInt n, PetscInt nt, SpTrsvRangeFn fn, void *ctx, SpTrsvSideFn side, void *sctx, PetscErrorCode *serr)
{
  enum { SPTRSV_THREADS_MAX = 256 };
  SpTrsvThreadsRange r[SPTRSV_THREADS_MAX];
  pthread_t          tid[SPTRSV_THREADS_MAX];
  PetscBool          started[SPTRSV_THREADS_MAX];
  const PetscInt     first = side ? 0 : 1; /* the first range started in a thread */

  nt = PetscMax(1, PetscMin(PetscMin(nt, n), SPTRSV_THREADS_MAX));
  for (PetscInt t = 0; t < nt; t++) {
    r[t].fn  = fn;
    r[t].ctx = ctx;
    r[t].lo  = SpTrsvThreadsPartStart(n, t, nt);
    r[t].hi  = SpTrsvThreadsPartStart(n, t + 1, nt);
  }
  for (PetscInt t = first; t < nt; t++) started[t] = (PetscBool)!pthread_create(&tid[t], NULL, SpTrsvThreadsRun, &r[t]);
  if (side) *serr = side(sctx);
  else fn(ctx, r[0].lo, r[0].hi);
  for (PetscInt t = first; t < nt; t++) {
    if (started[t]) (void)pthread_join(tid[t], NULL);
    else fn(ctx, r[t].lo, r[t].hi);
  }
}

static void SpTrsvThreadsSplit(PetscInt n, PetscInt nt, SpTrsvRangeFn fn, void *ctx)
{
  SpTrsvThreadsSplitSide(n, nt, fn, ctx, NULL, NULL, NULL);
}

/*
  SpTrsvThreadsEach - fn(ctx, lo, hi) over the tasks [0, ntasks) in equal ranges, one per thread of the current count
  (the caller runs the first), whatever ntasks: no threshold as SpTrsvThreadsFor()'s. With ntasks the parts of a loop
  (SpTrsvThreadsParts()), at most the count, each part runs in a thread of its own.
*/
PetscErrorCode SpTrsvThreadsEach(PetscInt ntasks, SpTrsvRangeFn fn, void *ctx)
{
  PetscFunctionBegin;
  if (ntasks <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  SpTrsvThreadsSplit(ntasks, SpTrsvThreadsNow, fn, ctx);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the number of parts a loop of n rows is cut into by SpTrsvThreadsFor(): its threads */
PetscInt SpTrsvThreadsParts(PetscInt n)
{
  if (SpTrsvThreadsNow <= 1 || n < SPTRSV_THREADS_MIN_ROWS) return 1;
  return PetscMax(1, PetscMin(SpTrsvThreadsNow, n / (SPTRSV_THREADS_MIN_ROWS / 2)));
}

/*
  SpTrsvThreadsFor - fn over [0, n) in equal ranges, one per thread of the current count, at least
  SPTRSV_THREADS_MIN_ROWS / 2 rows each; below SPTRSV_THREADS_MIN_ROWS, or with one thread, a single call in the caller
*/
PetscErrorCode SpTrsvThreadsFor(PetscInt n, SpTrsvRangeFn fn, void *ctx)
{
  PetscFunctionBegin;
  if (n <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (SpTrsvThreadsParts(n) == 1) fn(ctx, 0, n);
  else SpTrsvThreadsSplit(n, SpTrsvThreadsParts(n), fn, ctx);
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  char  *base;
  size_t bytes, page;
} SpTrsvThreadsPages;

static void SpTrsvThreadsTouch(void *ctx, PetscInt lo, PetscInt hi)
{
  const SpTrsvThreadsPages *p = (const SpTrsvThreadsPages *)ctx;

  for (PetscInt k = lo; k < hi; k++) p->base[(size_t)k * p->page] = 0; /* k < the page count: inside the array */
}

/*
  SpTrsvThreadsFault - a byte of every page of a new array [ptr, ptr + bytes) written (its contents are undefined
  before and after), by the setup's threads, so that the single thread that fills it later finds its pages mapped;
  nothing below SPTRSV_THREADS_MIN_BYTES or with one thread
*/
PetscErrorCode SpTrsvThreadsFault(void *ptr, size_t bytes)
{
  SpTrsvThreadsPages p;
  long               page = sysconf(_SC_PAGESIZE);

  PetscFunctionBegin;
  if (!ptr || bytes < SPTRSV_THREADS_MIN_BYTES || SpTrsvThreadsNow <= 1) PetscFunctionReturn(PETSC_SUCCESS);
  p.base  = (char *)ptr;
  p.bytes = bytes;
  p.page  = page > 0 ? (size_t)page : 4096;
  SpTrsvThreadsSplit((PetscInt)((bytes + p.page - 1) / p.page), SpTrsvThreadsNow, SpTrsvThreadsTouch, &p); /* one range of pages per thread */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a task of SpTrsvThreadsPair(): fn(ctx, 0, 0) */
typedef struct {
  SpTrsvRangeFn fn;
  void         *ctx;
} SpTrsvThreadsTask;

/* the range [lo, hi) of tasks (SpTrsvThreadsSplit() over two: one each) */
static void SpTrsvThreadsTasks(void *arg, PetscInt lo, PetscInt hi)
{
  const SpTrsvThreadsTask *task = (const SpTrsvThreadsTask *)arg;

  for (PetscInt t = lo; t < hi; t++) task[t].fn(task[t].ctx, 0, 0);
}

/*
  SpTrsvThreadsPair - fa(ca, 0, 0) and fb(cb, 0, 0) at once, the second in a thread of its own, when the setup has two
  threads or more; else one after the other in the caller (plain C tasks, as every thread's). A side job waiting
  (SpTrsvThreadsSideBegin()) runs in the caller meanwhile, both tasks in threads of their own, with three threads or
  more (else it keeps waiting for SpTrsvThreadsSideEnd()); its error is returned once both tasks are done
*/
PetscErrorCode SpTrsvThreadsPair(SpTrsvRangeFn fa, void *ca, SpTrsvRangeFn fb, void *cb)
{
  SpTrsvThreadsTask tasks[2] = {
    {fa, ca},
    {fb, cb}
  };
  SpTrsvSideFn   side = SpTrsvThreadsSideFn;
  void          *sctx = SpTrsvThreadsSideCtx;
  PetscErrorCode serr = PETSC_SUCCESS;

  PetscFunctionBegin;
  if (side && SpTrsvThreadsNow >= 3) { /* taken: it runs once, beside the tasks */
    SpTrsvThreadsSideFn  = NULL;
    SpTrsvThreadsSideCtx = NULL;
    SpTrsvThreadsSplitSide(2, 2, SpTrsvThreadsTasks, tasks, side, sctx, &serr);
  } else SpTrsvThreadsSplit(2, SpTrsvThreadsNow >= 2 ? 2 : 1, SpTrsvThreadsTasks, tasks);
  PetscCall(serr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvThreadsSideBegin - a job for the setup's own thread (PETSc and CUDA calls allowed: an upload) that can run while
  threads work: the next SpTrsvThreadsPair() with three threads or more runs it beside its two tasks, else
  SpTrsvThreadsSideEnd(); one job at a time
*/
PetscErrorCode SpTrsvThreadsSideBegin(SpTrsvSideFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCheck(!SpTrsvThreadsSideFn, PETSC_COMM_SELF, PETSC_ERR_ORDER, "A side job of the setup's threads is already waiting");
  SpTrsvThreadsSideFn  = fn;
  SpTrsvThreadsSideCtx = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvThreadsSideEnd - the side job, now, if no SpTrsvThreadsPair() ran it and run is true (dropped otherwise: the
  setup failed before); after it none waits
*/
PetscErrorCode SpTrsvThreadsSideEnd(PetscBool run)
{
  SpTrsvSideFn fn  = SpTrsvThreadsSideFn;
  void        *ctx = SpTrsvThreadsSideCtx;

  PetscFunctionBegin;
  SpTrsvThreadsSideFn  = NULL;
  SpTrsvThreadsSideCtx = NULL;
  if (fn && run) PetscCall(fn(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}
