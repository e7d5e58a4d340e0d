/*
   sptrsv_pinv's numeric phase: the values of M (include/sptrsv/paths/pinv.h), row by row, on the host for both
   executors, on -mat_sptrsv_pinv_threads threads.

   Row k of M (position k, in part P with first position p0) is the recursion
       M_k = d_i ( e_i - sum_{j dep of i, outside P} T_ij e_j - sum_{j dep of i, in P} T_ij M_pos(j) )
   accumulated in dense vectors wx (the x columns) and wb (the b columns), zero on row k's pattern first, then gathered.
   A row reads only the rows of its in-part dependencies, so the rows fall into "M-levels": mlev(k) = 0 without in-part
   dependencies, else 1 + the largest mlev of them (parts never depend on each other). The rows of one M-level are
   independent.

   Threads (SpTrsvPinvNumericSchedule, built once per pattern). Every thread has its own accumulators (2 n scalars), so
   no two threads ever write the same memory except val, where each position is written by one thread:
   - a light run of M-levels (little work, e.g. the long chains of a banded triangle) is one serial segment: thread 0
     computes its rows in position order;
   - a heavy M-level is one parallel segment: its light rows go to the threads, each row whole to the least loaded
     thread so far (in position order, by work: a fixed assignment, made once); a heavy row
     (more than its share of the level's work, and long enough) is cut by position: thread t computes the t-th slice of
     its x entries and of its b entries, reading from each dependency's row only the columns in its slice's range
     (found by bisection: a dependency's pattern is a subset of the row's, both sorted in each run);
   - the threads meet at a barrier after each segment: a segment's rows are final before the next reads them.
   Each entry of M is computed by the same operations in the same order as by one thread (its dependencies in row order,
   the same additions), so the values are bitwise those of the serial recursion whatever the thread count; the tests
   compare them. Every thread runs the same segment loop and reaches every barrier; a thread that could not be created
   is simply not counted (the team is fixed before the first segment), so nothing waits forever.
*/
#include <sptrsv/paths/pinv.h>
#include <petsctime.h>
#include <pthread.h>
#include <unistd.h>

#define SPTRSV_PINV_MAX_THREADS 64

/* the schedule's thresholds (pinv.h; SpTrsvPinvNumericSetThresholds: the unit test lowers them, so that small triangles
   have parallel levels and cut rows) */
static PetscReal sptrsv_pinv_min_work    = SPTRSV_PINV_MIN_WORK;
static PetscReal sptrsv_pinv_light_level = SPTRSV_PINV_LIGHT_LEVEL;
static PetscInt  sptrsv_pinv_min_slice   = SPTRSV_PINV_MIN_SLICE;

void SpTrsvPinvNumericSetThresholds(PetscReal min_work, PetscReal light_level, PetscInt min_slice)
{
  sptrsv_pinv_min_work    = min_work;
  sptrsv_pinv_light_level = light_level;
  sptrsv_pinv_min_slice   = min_slice;
}

struct _n_SpTrsvPinvNumericSchedule {
  PetscInt   nthreads;     /* the threads the schedule was made for (> 1) */
  PetscInt   nseg;         /* segments */
  PetscInt  *segptr;       /* nseg + 1: segment s holds the rows row[segptr[s] .. segptr[s+1]-1] */
  PetscBool *segparallel;  /* nseg: a heavy M-level (else a serial run of light ones) */
  PetscInt  *row;          /* n: positions, by M-level, in position order inside one */
  PetscInt  *p0;           /* n: the first position of each position's part */
  PetscBool *heavy;        /* n: a heavy row of a parallel segment (cut by position) */
  PetscInt  *owner;        /* n: the thread of a light row of a parallel segment (the least loaded one so far) */
  PetscInt   nheavy, nparallel;
};

/* the first q in [q0, q1) with col[q] >= c (col ascending there) */
static inline PetscInt SpTrsvPinvLowerBound(const PetscInt *col, PetscInt q0, PetscInt q1, PetscInt c)
{
  while (q0 < q1) {
    const PetscInt m = q0 + (q1 - q0) / 2;
    if (col[m] < c) q0 = m + 1;
    else q1 = m;
  }
  return q0;
}

/* the entries [xa, xb) (x run) and [ba, bb) (b run) of row k of M, into val, with the accumulators wx, wb; the
   columns read from each dependency are those between the first and last column of each slice */
static void SpTrsvPinvRowSlice(const SpTrsvOp *op, const SpTrsvPlan plan, PetscScalar *val, PetscInt k, PetscInt p0, PetscInt xa, PetscInt xb, PetscInt ba, PetscInt bb, PetscScalar *wx, PetscScalar *wb)
{
  const SpTrsvPinvSchedule *ps  = (const SpTrsvPinvSchedule *)plan->data;
  const PetscInt           *col = ps->col, *ptr = ps->ptr, *split = ps->split;
  const PetscInt            i   = plan->order[k];
  const PetscScalar         d   = op->unit ? (PetscScalar)1 : op->idiag[i];
  const PetscInt            xlo = xa < xb ? col[xa] : 1, xhi = xa < xb ? col[xb - 1] : 0;
  const PetscInt            blo = ba < bb ? col[ba] : 1, bhi = ba < bb ? col[bb - 1] : 0;
  const PetscBool           whole = (PetscBool)(xa == ptr[k] && xb == split[k] && ba == split[k] && bb == ptr[k + 1]);

  for (PetscInt q = xa; q < xb; q++) wx[col[q]] = 0;
  for (PetscInt q = ba; q < bb; q++) wb[col[q]] = 0;
  if (i >= blo && i <= bhi) wb[i] = 1;
  for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
    const PetscInt    j = op->rj[e], kj = ps->pos[j];
    const PetscScalar t = op->ra[e];
    if (kj < p0) {
      if (j >= xlo && j <= xhi) wx[j] -= t;
    } else if (whole) {
      for (PetscInt q = ptr[kj]; q < split[kj]; q++) wx[col[q]] -= t * val[q];
      for (PetscInt q = split[kj]; q < ptr[kj + 1]; q++) wb[col[q]] -= t * val[q];
    } else {
      if (xlo <= xhi)
        for (PetscInt q = SpTrsvPinvLowerBound(col, ptr[kj], split[kj], xlo); q < split[kj] && col[q] <= xhi; q++) wx[col[q]] -= t * val[q];
      if (blo <= bhi)
        for (PetscInt q = SpTrsvPinvLowerBound(col, split[kj], ptr[kj + 1], blo); q < ptr[kj + 1] && col[q] <= bhi; q++) wb[col[q]] -= t * val[q];
    }
  }
  for (PetscInt q = xa; q < xb; q++) val[q] = d * wx[col[q]];
  for (PetscInt q = ba; q < bb; q++) val[q] = d * wb[col[q]];
}

/* row k whole */
static inline void SpTrsvPinvRow(const SpTrsvOp *op, const SpTrsvPlan plan, PetscScalar *val, PetscInt k, PetscInt p0, PetscScalar *wx, PetscScalar *wb)
{
  const SpTrsvPinvSchedule *ps = (const SpTrsvPinvSchedule *)plan->data;

  SpTrsvPinvRowSlice(op, plan, val, k, p0, ps->ptr[k], ps->split[k], ps->split[k], ps->ptr[k + 1], wx, wb);
}

/* the recursion on one thread, part after part, in position order (a topological order of each part) */
static void SpTrsvPinvNumericSerial(const SpTrsvOp *op, const SpTrsvPlan plan, SpTrsvPinvValues *v)
{
  const SpTrsvPinvSchedule *ps = (const SpTrsvPinvSchedule *)plan->data;

  for (PetscInt p = 0; p < ps->nparts; p++)
    for (PetscInt k = ps->partptr[p]; k < ps->partptr[p + 1]; k++) SpTrsvPinvRow(op, plan, v->val, k, ps->partptr[p], v->wx, v->wb);
}

/* the work of row k: the entries it writes plus those it reads from its in-part dependencies */
static PetscReal SpTrsvPinvRowWork(const SpTrsvOp *op, const SpTrsvPlan plan, PetscInt k, PetscInt p0)
{
  const SpTrsvPinvSchedule *ps = (const SpTrsvPinvSchedule *)plan->data;
  const PetscInt            i  = plan->order[k];
  PetscReal                 w  = (PetscReal)(ps->ptr[k + 1] - ps->ptr[k] + op->ri[i + 1] - op->ri[i]);

  for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
    const PetscInt kj = ps->pos[op->rj[e]];
    if (kj >= p0) w += (PetscReal)(ps->ptr[kj + 1] - ps->ptr[kj]);
  }
  return w;
}

/* what the schedule holds (the unit test checks that it exercised cut rows and parallel levels) */
void SpTrsvPinvNumericScheduleGetInfo(SpTrsvPinvNumericSchedule s, PetscInt *nseg, PetscInt *nparallel, PetscInt *nheavy)
{
  *nseg      = s ? s->nseg : 0;
  *nparallel = s ? s->nparallel : 0;
  *nheavy    = s ? s->nheavy : 0;
}

PetscErrorCode SpTrsvPinvNumericScheduleDestroy(SpTrsvPinvNumericSchedule *sched)
{
  SpTrsvPinvNumericSchedule s = *sched;

  PetscFunctionBegin;
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree2(s->segptr, s->segparallel));
  PetscCall(PetscFree4(s->row, s->p0, s->heavy, s->owner));
  PetscCall(PetscFree(*sched));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPinvNumericScheduleCreate - the M-levels of the recursion and the segments of nthreads threads (see the top of
  this file); *sched is NULL when the work is too small to share (the numeric phase then runs on one thread)
*/
PetscErrorCode SpTrsvPinvNumericScheduleCreate(const SpTrsvOp *op, const SpTrsvPlan plan, PetscInt nthreads, SpTrsvPinvNumericSchedule *sched)
{
  const SpTrsvPinvSchedule *ps = (const SpTrsvPinvSchedule *)plan->data;
  const PetscInt            n  = plan->n;
  SpTrsvPinvNumericSchedule s;
  PetscInt                 *mlev, *cnt, nmlev = 0;
  PetscReal                *work, total = 0; /* entries read and written: beyond 32 bits on large factors */

  PetscFunctionBegin;
  *sched = NULL;
  if (nthreads < 2 || n < 2) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&s));
  PetscCall(PetscMalloc4(n, &s->row, n, &s->p0, n, &s->heavy, n, &s->owner));
  PetscCall(PetscMalloc2(n, &mlev, n, &work));
  for (PetscInt p = 0; p < ps->nparts; p++)
    for (PetscInt k = ps->partptr[p]; k < ps->partptr[p + 1]; k++) {
      const PetscInt i = plan->order[k];
      PetscInt       l = 0;
      s->p0[k]         = ps->partptr[p];
      for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) {
        const PetscInt kj = ps->pos[op->rj[e]];
        if (kj >= ps->partptr[p]) {
          PetscCheck(kj < k, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partitioned inverse: row at position %" PetscInt_FMT " depends on the later position %" PetscInt_FMT " of its part", k, kj);
          l = PetscMax(l, mlev[kj] + 1);
        }
      }
      mlev[k] = l;
      work[k] = SpTrsvPinvRowWork(op, plan, k, ps->partptr[p]);
      total += work[k];
      nmlev = PetscMax(nmlev, l + 1);
    }
  if (total < sptrsv_pinv_min_work) {
    PetscCall(PetscFree2(mlev, work));
    PetscCall(PetscFree4(s->row, s->p0, s->heavy, s->owner));
    PetscCall(PetscFree(s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* positions by M-level (a stable counting sort: position order inside a level), and each level's work */
  PetscCall(PetscCalloc1(nmlev + 1, &cnt));
  for (PetscInt k = 0; k < n; k++) cnt[mlev[k] + 1]++;
  for (PetscInt l = 0; l < nmlev; l++) cnt[l + 1] += cnt[l];
  {
    PetscInt  *next;
    PetscReal *lwork, load[SPTRSV_PINV_MAX_THREADS];
    PetscCall(PetscMalloc2(nmlev, &next, nmlev, &lwork));
    PetscCall(PetscArraycpy(next, cnt, nmlev));
    PetscCall(PetscArrayzero(lwork, nmlev));
    for (PetscInt k = 0; k < n; k++) {
      s->row[next[mlev[k]]++] = k;
      lwork[mlev[k]] += work[k];
    }
    /* segments: each heavy level alone, each run of light levels together */
    PetscCall(PetscMalloc2(nmlev + 1, &s->segptr, nmlev, &s->segparallel));
    s->segptr[0] = 0;
    for (PetscInt l = 0; l < nmlev; l++) {
      const PetscBool par = (PetscBool)(lwork[l] >= sptrsv_pinv_light_level);
      if (!(s->nseg && !par && !s->segparallel[s->nseg - 1])) s->nseg++; /* a new segment unless a light level extends a serial one */
      s->segparallel[s->nseg - 1] = par;
      s->segptr[s->nseg]          = cnt[l + 1];
      for (PetscInt t = 0; t < nthreads; t++) load[t] = 0;
      for (PetscInt r = cnt[l]; r < cnt[l + 1]; r++) {
        const PetscInt k   = s->row[r];
        const PetscInt len = ps->ptr[k + 1] - ps->ptr[k];
        s->heavy[k]        = (PetscBool)(par && work[k] * (PetscReal)nthreads > lwork[l] && len >= sptrsv_pinv_min_slice * nthreads);
        s->nheavy += s->heavy[k];
        s->owner[k] = 0;
        if (par && !s->heavy[k]) { /* the least loaded thread (the first of equals): a deterministic assignment */
          for (PetscInt t = 1; t < nthreads; t++)
            if (load[t] < load[s->owner[k]]) s->owner[k] = t;
          load[s->owner[k]] += work[k];
        }
      }
      s->nparallel += par;
    }
    PetscCall(PetscFree2(next, lwork));
  }
  s->nthreads = nthreads;
  PetscCall(PetscFree(cnt));
  PetscCall(PetscFree2(mlev, work));
  *sched = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the team: a barrier of mutex and condition (its size fixed before the first segment) ---------------- */
typedef struct {
  const SpTrsvOp           *op;
  SpTrsvPlan                plan;
  SpTrsvPinvValues         *v;
  SpTrsvPinvNumericSchedule s;
  PetscScalar              *acc;      /* nthreads x 2n: thread t's wx then wb */
  PetscInt                  nthreads; /* the team's size, set before go */
  pthread_mutex_t           m;
  pthread_cond_t            c;
  int                       go, count;
  unsigned long             phase;
} SpTrsvPinvTeam;

typedef struct {
  SpTrsvPinvTeam *team;
  PetscInt        t;
} SpTrsvPinvWorkerArg;

static void SpTrsvPinvTeamBarrier(SpTrsvPinvTeam *team)
{
  unsigned long phase;

  pthread_mutex_lock(&team->m);
  phase = team->phase;
  if (++team->count == (int)team->nthreads) {
    team->count = 0;
    team->phase++;
    pthread_cond_broadcast(&team->c);
  } else
    while (phase == team->phase) pthread_cond_wait(&team->c, &team->m);
  pthread_mutex_unlock(&team->m);
}

/* thread t's share of every segment, then a barrier after each */
static void SpTrsvPinvTeamRun(SpTrsvPinvTeam *team, PetscInt t)
{
  const SpTrsvPinvNumericSchedule s    = team->s;
  const SpTrsvPinvSchedule       *ps   = (const SpTrsvPinvSchedule *)team->plan->data;
  const PetscInt                  T    = team->nthreads, n = team->plan->n;
  PetscScalar                    *wx   = team->acc + 2 * n * t, *wb = wx + n;
  PetscScalar                    *val  = team->v->val;

  for (PetscInt g = 0; g < s->nseg; g++) {
    if (!s->segparallel[g]) {
      if (t == 0)
        for (PetscInt r = s->segptr[g]; r < s->segptr[g + 1]; r++) SpTrsvPinvRow(team->op, team->plan, val, s->row[r], s->p0[s->row[r]], wx, wb);
    } else {
      for (PetscInt r = s->segptr[g]; r < s->segptr[g + 1]; r++) {
        const PetscInt k = s->row[r];
        if (s->heavy[k] && T > 1) {
          const PetscInt x0 = ps->ptr[k], nx = ps->split[k] - x0, b0 = ps->split[k], nb = ps->ptr[k + 1] - b0;
          SpTrsvPinvRowSlice(team->op, team->plan, val, k, s->p0[k], x0 + nx * t / T, x0 + nx * (t + 1) / T, b0 + nb * t / T, b0 + nb * (t + 1) / T, wx, wb);
        } else if ((T == s->nthreads ? s->owner[k] : s->owner[k] % T) == t) SpTrsvPinvRow(team->op, team->plan, val, k, s->p0[k], wx, wb);
      }
    }
    if (T > 1) SpTrsvPinvTeamBarrier(team);
  }
}

static void *SpTrsvPinvWorker(void *ctx)
{
  SpTrsvPinvWorkerArg *a    = (SpTrsvPinvWorkerArg *)ctx;
  SpTrsvPinvTeam      *team = a->team;

  pthread_mutex_lock(&team->m);
  while (!team->go) pthread_cond_wait(&team->c, &team->m);
  pthread_mutex_unlock(&team->m);
  SpTrsvPinvTeamRun(team, a->t);
  return NULL;
}

/* the number of threads of -mat_sptrsv_pinv_threads 0: the online processors shared among the processes of
   PETSC_COMM_WORLD (one node assumed), at most SPTRSV_PINV_MAX_THREADS */
PetscErrorCode SpTrsvPinvThreadsDefault(PetscInt *nthreads)
{
  long        ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  PetscMPIInt size = 1;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  *nthreads = PetscMax(1, PetscMin(SPTRSV_PINV_MAX_THREADS, (PetscInt)(ncpu > 0 ? ncpu : 1) / size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  SpTrsvPinvNumeric - M's values from op(T)'s (see the top of this file); v->nthreads_used says how many threads ran
*/
PetscErrorCode SpTrsvPinvNumeric(const SpTrsvOp *op, SpTrsvPlan plan, PetscInt nthreads, SpTrsvPinvValues *v)
{
  SpTrsvPinvTeam      team;
  pthread_t           tid[SPTRSV_PINV_MAX_THREADS];
  SpTrsvPinvWorkerArg arg[SPTRSV_PINV_MAX_THREADS];
  PetscInt            created = 0;
  const PetscInt      n       = plan->n;
  PetscLogDouble      t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  nthreads = PetscMin(nthreads, SPTRSV_PINV_MAX_THREADS);
  if (nthreads > 1 && (!v->sched || v->sched->nthreads != nthreads)) {
    PetscCall(SpTrsvPinvNumericScheduleDestroy(&v->sched));
    PetscCall(SpTrsvPinvNumericScheduleCreate(op, plan, nthreads, &v->sched));
  }
  if (nthreads < 2 || !v->sched) {
    SpTrsvPinvNumericSerial(op, plan, v);
    v->nthreads_used = 1;
  } else {
    PetscCall(PetscMemzero(&team, sizeof(team)));
    team.op   = op;
    team.plan = plan;
    team.v    = v;
    team.s    = v->sched;
    PetscCall(PetscMalloc1(2 * n * nthreads, &team.acc));
    PetscCheck(!pthread_mutex_init(&team.m, NULL) && !pthread_cond_init(&team.c, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "sptrsv_pinv: pthread_mutex_init or pthread_cond_init failed");
    for (PetscInt t = 1; t < nthreads; t++) { /* a thread that cannot be created is left out of the team */
      arg[t].team = &team;
      arg[t].t    = t;
      if (pthread_create(&tid[t], NULL, SpTrsvPinvWorker, &arg[t])) break;
      created = t;
    }
    pthread_mutex_lock(&team.m);
    team.nthreads = created + 1;
    team.go       = 1;
    pthread_cond_broadcast(&team.c);
    pthread_mutex_unlock(&team.m);
    SpTrsvPinvTeamRun(&team, 0);
    for (PetscInt t = 1; t <= created; t++) pthread_join(tid[t], NULL);
    pthread_cond_destroy(&team.c);
    pthread_mutex_destroy(&team.m);
    PetscCall(PetscFree(team.acc));
    v->nthreads_used = created + 1;
  }
  PetscCall(PetscTime(&t1));
  v->numeric_time = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
