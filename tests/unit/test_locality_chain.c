static char help[] = "Unit tests of the locality path's chain kernel (include/sptrsv/paths/locality.h, \"The chain kernel\";\n"
                     "src/mat/paths/locality/chain.c): the chain order, reach, window, lanes, components and groups of\n"
                     "SpTrsvLocalityChainCreate checked against the test's own computation on banded, strided, block-diagonal\n"
                     "(also with permuted rows) and grid triangles, both orientations; the rule for accepting the window's storage;\n"
                     "SpTrsvLocalityChainCheck passes on the schedule and rejects a swapped pair of dependent rows, a halved window\n"
                     "and a group boundary inside a component; the host solves of -mat_sptrsv_locality_kernel chain match the level\n"
                     "path, both orientations; a forced chain on a triangle of too long a reach is an error, auto falls back to the\n"
                     "slot kernel.\n";

#include <sptrsv/paths/locality.h>
#include "chain_patterns.h"
#include "test_helpers.h"
#define OPTS_LOCALITY(o) ((SpTrsvLocalityOptions *)SpTrsvPathOptionsOwn(o, &SpTrsvPath_locality)) /* its own options inside o */

static PetscErrorCode CheckQuiet(const SpTrsvOp *op, const PetscInt *order, const SpTrsvLocalityChain *ch, PetscErrorCode *ierr)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *ierr = SpTrsvLocalityChainCheck(op, order, ch);
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the smallest power of two >= reach + 1 and >= 2; 0 when it would exceed SPTRSV_CHAIN_MAX_WIDTH */
static PetscInt ExpectedW(PetscInt reach)
{
  PetscInt W = 2;
  while (W < reach + 1) W *= 2;
  return W > SPTRSV_CHAIN_MAX_WIDTH ? 0 : W;
}

/*
  Corrupt - SpTrsvLocalityChainCheck must reject (PETSC_ERR_PLIB): two dependent rows swapped in the order; the window
  halved (lanes and accumulators left as they were, and made consistent); a group boundary inside a component (a new
  boundary, and an existing one moved by one row)
*/
static PetscErrorCode Corrupt(const char *what, const SpTrsvOp *op, const PetscInt *order, const SpTrsvLocalityChain *ch, const PetscInt *comp)
{
  const PetscInt      n = op->n;
  PetscInt           *ord, *pos, *gptr;
  SpTrsvLocalityChain c;
  PetscErrorCode      ierr;
  PetscBool           found = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(n + 1, &ord, n + 1, &pos, ch->ngroups + 2, &gptr));
  PetscCall(PetscArraycpy(ord, order, n));
  for (PetscInt k = 0; k < n; k++) pos[order[k]] = k;
  /* 1. a dependent pair swapped */
  for (PetscInt i = 0; i < n && !found; i++)
    if (op->ri[i + 1] > op->ri[i]) {
      const PetscInt j = op->rj[op->ri[i]];
      ord[pos[i]] = j;
      ord[pos[j]] = i;
      PetscCall(CheckQuiet(op, ord, ch, &ierr));
      EXPECT(ierr == PETSC_ERR_PLIB, "%s: rows %" PetscInt_FMT " and its dependency %" PetscInt_FMT " swapped in the order passed the check (error %d)", what, i, j, (int)ierr);
      ord[pos[i]] = i;
      ord[pos[j]] = j;
      found       = PETSC_TRUE;
    }
  /* 2. the window halved */
  c   = *ch;
  c.W = ch->W / 2;
  PetscCall(CheckQuiet(op, order, &c, &ierr));
  EXPECT(ierr == PETSC_ERR_PLIB, "%s: window halved to %" PetscInt_FMT " (lanes x accumulators %" PetscInt_FMT " x %" PetscInt_FMT " kept) passed the check (error %d)", what, c.W, c.G, c.A, (int)ierr);
  if (c.W >= 2) {
    c.G = PetscMin(c.W, 32);
    c.A = c.W / c.G;
    PetscCall(CheckQuiet(op, order, &c, &ierr));
    EXPECT(ierr == PETSC_ERR_PLIB, "%s: window halved to %" PetscInt_FMT " (%" PetscInt_FMT " x %" PetscInt_FMT ", consistent) passed the check (error %d)", what, c.W, c.G, c.A, (int)ierr);
    /* the reach made to agree too: only the distances can tell */
    c.reach = c.W - 1;
    PetscCall(CheckQuiet(op, order, &c, &ierr));
    EXPECT(ierr == PETSC_ERR_PLIB, "%s: window halved to %" PetscInt_FMT " with the reach claimed %" PetscInt_FMT " passed the check (error %d)", what, c.W, c.reach, (int)ierr);
  }
  /* 3. a group boundary inside a component that has a dependency across it: the first row k > 0 of the order whose
        row depends on a row at an earlier position in the same group ... simplest: a row with a dependency, cut just
        before it */
  found = PETSC_FALSE;
  for (PetscInt k = 1; k < n && !found; k++) {
    const PetscInt i = order[k];
    if (op->ri[i + 1] == op->ri[i] || comp[order[k - 1]] != comp[i]) continue;
    {
      PetscInt g = 0, ng = 0;
      while (ch->gptr[g + 1] <= k) g++;
      if (ch->gptr[g] == k) continue; /* already a boundary (cannot be: components are whole) */
      for (PetscInt a = 0; a <= g; a++) gptr[ng++] = ch->gptr[a];
      gptr[ng++] = k;
      for (PetscInt a = g + 1; a <= ch->ngroups; a++) gptr[ng++] = ch->gptr[a];
      c         = *ch;
      c.gptr    = gptr;
      c.ngroups = ch->ngroups + 1;
      PetscCall(CheckQuiet(op, order, &c, &ierr));
      EXPECT(ierr == PETSC_ERR_PLIB, "%s: a group boundary inserted at position %" PetscInt_FMT " (inside a component) passed the check (error %d)", what, k, (int)ierr);
      found = PETSC_TRUE;
    }
  }
  EXPECT(found || op->nnz == 0, "%s: no place to cut a component", what);
  if (ch->ngroups > 1) { /* an existing boundary moved one row back and forward (the group cap lifted: only the cut counts) */
    for (PetscInt s = -1; s <= 1; s += 2) {
      PetscInt g;
      for (g = 1; g < ch->ngroups; g++) {
        /* move boundary g by s: the row that changes group must share its component with a row it leaves behind,
           joined by an entry; a component of one row can not be cut */
        const PetscInt k = ch->gptr[g] + (s < 0 ? -1 : 0); /* the position that changes group */
        const PetscInt i = order[k];
        PetscBool      cut = PETSC_FALSE;
        for (PetscInt q = op->ri[i]; q < op->ri[i + 1]; q++) cut = PETSC_TRUE; /* a dependency in its component */
        for (PetscInt kk = ch->gptr[g - 1]; kk < ch->gptr[g + 1] && !cut; kk++)
          if (kk != k && comp[order[kk]] == comp[i]) cut = PETSC_TRUE;
        if (cut && ch->gptr[g] + s > ch->gptr[g - 1] && ch->gptr[g] + s < ch->gptr[g + 1]) break;
      }
      if (g == ch->ngroups) continue;
      PetscCall(PetscArraycpy(gptr, ch->gptr, ch->ngroups + 1));
      gptr[g] += s;
      c                = *ch;
      c.gptr           = gptr;
      c.max_group_rows = n;
      PetscCall(CheckQuiet(op, order, &c, &ierr));
      EXPECT(ierr == PETSC_ERR_PLIB, "%s: group boundary %" PetscInt_FMT " moved by %" PetscInt_FMT " (into a component) passed the check (error %d)", what, g, s, (int)ierr);
    }
  }
  PetscCall(PetscFree3(ord, pos, gptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Verify - SpTrsvLocalityChainCreate on op(T) against the test's own figures: the components (union-find), the chain
  order (a permutation, components contiguous, the rows of each by index, ascending for a lower op(T), descending for
  an upper one), the reach (the largest rank distance of an entry within its component), W, G, A, the groups (whole
  components, tiling 0 .. n, the longest one), the acceptance rule, and SpTrsvLocalityChainCheck; then the corruptions
*/
static PetscErrorCode Verify(const char *what, const SpTrsvOp *op, PetscInt *reach_out)
{
  const PetscInt      n = op->n;
  PetscInt           *order, *par, *csize, *cseen, *rank, *pos, *cid, ncomp = 0, reach = 0, W;
  SpTrsvLocalityChain ch;
  PetscBool           perm = PETSC_TRUE, contiguous = PETSC_TRUE, direction = PETSC_TRUE, whole = PETSC_TRUE, tile = PETSC_TRUE;
  PetscErrorCode      ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &order));
  PetscCall(PetscMalloc5(n + 1, &par, n + 1, &csize, n + 1, &cseen, n + 1, &rank, n + 1, &pos));
  PetscCall(PetscMalloc1(n + 1, &cid));
  for (PetscInt k = 0; k < n; k++) order[k] = -1;
  PetscCall(SpTrsvLocalityChainCreate(op, SPTRSV_LOCALITY_DEFAULT_SMS, order, &ch));
  /* components */
  for (PetscInt i = 0; i < n; i++) par[i] = i;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = op->ri[i]; q < op->ri[i + 1]; q++) par[UnionFindRoot(par, i)] = UnionFindRoot(par, op->rj[q]);
  for (PetscInt i = 0; i < n; i++) csize[i] = cseen[i] = 0;
  for (PetscInt i = 0; i < n; i++) {
    cid[i] = UnionFindRoot(par, i);
    csize[cid[i]]++;
  }
  for (PetscInt i = 0; i < n; i++) ncomp += cid[i] == i;
  /* ranks in the chain direction: ascending index for lower, descending for upper */
  for (PetscInt i = 0; i < n; i++) rank[i] = cseen[cid[i]]++;
  if (!op->lower)
    for (PetscInt i = 0; i < n; i++) rank[i] = csize[cid[i]] - 1 - rank[i];
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = op->ri[i]; q < op->ri[i + 1]; q++) reach = PetscMax(reach, rank[i] - rank[op->rj[q]]);
  W = ExpectedW(reach);
  EXPECT(ch.ncomp == ncomp, "%s: %" PetscInt_FMT " components, counted %" PetscInt_FMT, what, ch.ncomp, ncomp);
  EXPECT(ch.reach == reach, "%s: reach %" PetscInt_FMT ", computed %" PetscInt_FMT, what, ch.reach, reach);
  EXPECT(ch.W == W, "%s: window %" PetscInt_FMT " for reach %" PetscInt_FMT ", expected %" PetscInt_FMT, what, ch.W, reach, W);
  /* the order: a permutation, each component contiguous, its rows in rank order */
  for (PetscInt i = 0; i < n; i++) pos[i] = -1;
  for (PetscInt k = 0; k < n; k++) {
    if (order[k] < 0 || order[k] >= n || pos[order[k]] >= 0) {
      perm = PETSC_FALSE;
      break;
    }
    pos[order[k]] = k;
  }
  EXPECT(perm, "%s: the chain order is not a permutation", what);
  if (perm) {
    for (PetscInt i = 0; i < n; i++) cseen[i] = 0;
    for (PetscInt k = 0; k < n; k++) {
      const PetscInt i = order[k];
      if (k && cid[order[k - 1]] != cid[i] && cseen[cid[i]]) contiguous = PETSC_FALSE;
      if (rank[i] != cseen[cid[i]]) direction = PETSC_FALSE;
      cseen[cid[i]]++;
    }
    EXPECT(contiguous, "%s: a component is not contiguous in the chain order", what);
    EXPECT(direction, "%s: the rows of a component are not by index %s", what, op->lower ? "ascending" : "descending");
  }
  if (W) {
    PetscInt maxg = 0;
    EXPECT(ch.G == PetscMin(W, 32) && ch.A == W / PetscMin(W, 32), "%s: %" PetscInt_FMT " lanes x %" PetscInt_FMT " accumulators for a window of %" PetscInt_FMT, what, ch.G, ch.A, W);
    EXPECT(ch.gptr && ch.ngroups >= (n ? 1 : 0) && ch.ngroups <= ncomp, "%s: %" PetscInt_FMT " groups for %" PetscInt_FMT " components", what, ch.ngroups, ncomp);
    if (ch.gptr) {
      if (ch.gptr[0] != 0 || ch.gptr[ch.ngroups] != n) tile = PETSC_FALSE;
      for (PetscInt g = 0; g < ch.ngroups; g++) {
        const PetscInt k = ch.gptr[g];
        if (ch.gptr[g + 1] <= k) tile = PETSC_FALSE;
        else {
          maxg = PetscMax(maxg, ch.gptr[g + 1] - k);
          if (perm && k > 0 && cid[order[k - 1]] == cid[order[k]]) whole = PETSC_FALSE;
        }
      }
      EXPECT(tile, "%s: the groups do not tile 0 .. %" PetscInt_FMT, what, n);
      EXPECT(whole, "%s: a group boundary cuts a component", what);
      EXPECT(!tile || maxg == ch.max_group_rows, "%s: longest group %" PetscInt_FMT " rows, recorded %" PetscInt_FMT, what, maxg, ch.max_group_rows);
    }
    EXPECT(ch.accepted == (PetscBool)((PetscInt64)W * n <= (PetscInt64)SPTRSV_CHAIN_MAX_STORAGE * (op->nnz + n)), "%s: accepted %d with W n = %" PetscInt64_FMT " and %d (nnz + n) = %" PetscInt64_FMT, what, (int)ch.accepted, (PetscInt64)W * n, SPTRSV_CHAIN_MAX_STORAGE, (PetscInt64)SPTRSV_CHAIN_MAX_STORAGE * (op->nnz + n));
    EXPECT(ch.predicted_us > 0, "%s: predicted %g us", what, (double)ch.predicted_us);
    PetscCall(CheckQuiet(op, order, &ch, &ierr));
    EXPECT(!ierr, "%s: SpTrsvLocalityChainCheck rejects the schedule (error %d)", what, (int)ierr);
    if (!ierr && perm && tile && n > 1) PetscCall(Corrupt(what, op, order, &ch, cid));
  } else {
    EXPECT(!ch.accepted && !ch.gptr && !ch.ngroups, "%s: no window, yet accepted %d, %" PetscInt_FMT " groups", what, (int)ch.accepted, ch.ngroups);
    PetscCall(CheckQuiet(op, order, &ch, &ierr));
    EXPECT(ierr == PETSC_ERR_PLIB, "%s: a schedule without a window passed the check (error %d)", what, (int)ierr);
  }
  if (reach_out) *reach_out = ch.reach;
  PetscCall(SpTrsvLocalityChainDestroy(&ch));
  EXPECT(!ch.gptr, "%s: gptr not freed", what);
  PetscCall(PetscFree(order));
  PetscCall(PetscFree5(par, csize, cseen, rank, pos));
  PetscCall(PetscFree(cid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestPat(const char *name, PatKind kind, PetscInt n, PetscInt w, PetscInt a, PetscInt want_reach)
{
  Pat       p;
  SpTrsvTri t;

  PetscFunctionBeginUser;
  PetscCall(MakePat(kind, n, w, a, &p));
  PetscCall(TriFromCSR(n, SPTRSV_LOWER, PETSC_FALSE, p.ai, p.aj, &t));
  for (PetscInt tr = 0; tr < 2; tr++) {
    SpTrsvOp op;
    PetscInt reach;
    char     what[160];
    PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s n=%" PetscInt_FMT " nnz=%" PetscInt_FMT "%s", name, n, op.nnz, tr ? " (transpose)" : ""));
    EXPECT(op.lower == (PetscBool)!tr, "%s: op(T) lower %d", what, (int)op.lower);
    PetscCall(Verify(what, &op, &reach));
    if (want_reach >= 0) EXPECT(reach == want_reach, "%s: reach %" PetscInt_FMT ", by construction %" PetscInt_FMT, what, reach, want_reach);
  }
  PetscCall(SpTrsvTriDestroy(&t));
  PetscCall(PatFree(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestAnalysis(void)
{
  const PetscInt bands[] = {1, 2, 7, 8, 31, 32, 63, 127, 128, 200};
  const PetscInt bss[]   = {1, 8, 32, 100};
  char           name[64];

  PetscFunctionBeginUser;
  for (size_t k = 0; k < sizeof(bands) / sizeof(bands[0]); k++) {
    const PetscInt w = bands[k];
    PetscCall(PetscSNPrintf(name, sizeof(name), "banded w=%" PetscInt_FMT, w));
    PetscCall(TestPat(name, PAT_BAND, 2000, w, 0, w));
    PetscCall(PetscSNPrintf(name, sizeof(name), "band i-1,i-%" PetscInt_FMT, w));
    PetscCall(TestPat(name, PAT_BAND2, 2000, w, 0, w));
    PetscCall(PetscSNPrintf(name, sizeof(name), "stride %" PetscInt_FMT, w));
    PetscCall(TestPat(name, PAT_STRIDE, 2000, w, 0, 1)); /* w chains of reach 1 */
  }
  for (size_t k = 0; k < sizeof(bss) / sizeof(bss[0]); k++) {
    const PetscInt bs = bss[k];
    PetscCall(PetscSNPrintf(name, sizeof(name), "block-diagonal bs=%" PetscInt_FMT, bs));
    PetscCall(TestPat(name, PAT_BLOCK, 2000, bs, 0, bs - 1));
    PetscCall(TestPat(name, PAT_BLOCK, 2013, bs, 0, bs - 1)); /* the last block cut short (2013 = 3 x 11 x 61) */
    PetscCall(PetscSNPrintf(name, sizeof(name), "permuted block-diagonal bs=%" PetscInt_FMT, bs));
    PetscCall(TestPat(name, PAT_PERMBLOCK, 2000, bs, 7, bs - 1));    /* gcd(7, 2000) = 1 */
    PetscCall(TestPat(name, PAT_PERMBLOCK, 2013, bs, 1000, bs - 1)); /* gcd(1000, 2013) = 1, the last block short */
    PetscCall(PetscSNPrintf(name, sizeof(name), "permuted block chains bs=%" PetscInt_FMT, bs));
    PetscCall(TestPat(name, PAT_PERMCHAIN, 2000, bs, 7, bs > 1 ? 1 : 0));
  }
  /* small sizes */
  PetscCall(TestPat("banded w=3 tiny", PAT_BAND, 1, 3, 0, 0));
  PetscCall(TestPat("banded w=3 tiny", PAT_BAND, 2, 3, 0, 1));
  PetscCall(TestPat("banded w=3 tiny", PAT_BAND, 5, 3, 0, 3));
  /* grids: reach nx (the row above), no window from nx = 128 on */
  PetscCall(TestPat("grid 30x30", PAT_GRID, 900, 30, 0, 30));
  PetscCall(TestPat("grid 127x10", PAT_GRID, 1270, 127, 0, 127));
  PetscCall(TestPat("grid 128x10", PAT_GRID, 1280, 128, 0, 128));
  PetscCall(TestPat("grid 200x200", PAT_GRID, 40000, 200, 0, 200));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- host solves ----------------------------------------------------------------------------------- */
static PetscErrorCode Solves(const char *name, const Pat *p, PetscBool unit)
{
  const PetscInt      n = p->n;
  SpTrsvTri           t;
  SpTrsvPath          locality, level;
  SpTrsvPathOptions opts;
  PetscScalar        *b, *x, *xref;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathFind("locality", &locality));
  PetscCall(SpTrsvPathFind("level", &level));
  PetscCall(TriWithValues(p, unit, &t));
  PetscCall(PetscMalloc3(n + 1, &b, n + 1, &x, n + 1, &xref));
  for (PetscInt i = 0; i < n; i++) b[i] = (PetscScalar)((i * 3) % 17) / 17.0 - 0.5;
  for (PetscInt tr = 0; tr < 2; tr++)
    for (PetscInt kern = SPTRSV_LOCALITY_KERNEL_AUTO; kern <= SPTRSV_LOCALITY_KERNEL_CHAIN; kern++) {
      SpTrsvSolver   s, ref;
      PetscErrorCode ierr;
      PetscReal      err = 0, nrm = 0;
      char           what[200];
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s n=%" PetscInt_FMT "%s%s kernel %s", name, n, unit ? " unit" : "", tr ? " (transpose)" : "", SpTrsvLocalityKernels[kern]));
      PetscCall(SpTrsvPathOptionsInitialize(&opts));
      OPTS_LOCALITY(&opts)->locality_kernel = kern;
      PetscCall(SpTrsvSolverCreateWithOptions(t, (PetscBool)tr, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &opts, &ref));
      PetscCall(CreateQuiet(t, (PetscBool)tr, locality, &opts, &s, &ierr));
      EXPECT(!ierr, "%s: the locality solver failed (error %d)", what, (int)ierr);
      if (ierr) {
        PetscCall(SpTrsvSolverDestroy(&ref));
        continue;
      }
      {
        const SpTrsvLocalitySchedule *ls = (const SpTrsvLocalitySchedule *)s->plan->data;
        char                          text[4096], want[160];
        EXPECT(ls->kernel_requested == kern, "%s: kernel requested %" PetscInt_FMT, what, ls->kernel_requested);
        if (kern == SPTRSV_LOCALITY_KERNEL_CHAIN) EXPECT(ls->kernel == SPTRSV_LOCALITY_KERNEL_CHAIN && !ls->have_slots, "%s: runs kernel %s (slot schedule built %d)", what, SpTrsvLocalityKernels[ls->kernel], (int)ls->have_slots);
        if (kern == SPTRSV_LOCALITY_KERNEL_SLOTS) EXPECT(ls->kernel == SPTRSV_LOCALITY_KERNEL_SLOTS && ls->have_slots && !ls->chain.W, "%s: runs kernel %s", what, SpTrsvLocalityKernels[ls->kernel]);
        if (kern == SPTRSV_LOCALITY_KERNEL_AUTO) {
          EXPECT(ls->have_slots && ls->chain.W > 0, "%s: slot schedule built %d, chain window %" PetscInt_FMT, what, (int)ls->have_slots, ls->chain.W);
          EXPECT(ls->kernel == SPTRSV_LOCALITY_KERNEL_SLOTS || ls->chain.accepted, "%s: auto runs the chain kernel although its window is not accepted", what);
          PetscCall(PetscInfo(NULL, "%s: auto runs %s (chain predicted %g us)\n", what, SpTrsvLocalityKernels[ls->kernel], (double)ls->chain.predicted_us));
        }
        PetscCall(PlanViewText(s->plan, "test_locality_chain.view.tmp", text, sizeof(text)));
        PetscCall(PetscSNPrintf(want, sizeof(want), "kernel: %s (-mat_sptrsv_locality_kernel %s)", SpTrsvLocalityKernels[ls->kernel], SpTrsvLocalityKernels[kern]));
        EXPECT(strstr(text, want) != NULL, "%s: -ksp_view lacks \"%s\":\n%s", what, want, text);
        if (kern != SPTRSV_LOCALITY_KERNEL_SLOTS) {
          PetscCall(PetscSNPrintf(want, sizeof(want), "  chain: %" PetscInt_FMT " components, reach %" PetscInt_FMT " rows, window %" PetscInt_FMT " rows (", ls->chain.ncomp, ls->chain.reach, ls->chain.W));
          EXPECT(strstr(text, want) != NULL, "%s: -ksp_view lacks \"%s\":\n%s", what, want, text);
        }
        if (kern == SPTRSV_LOCALITY_KERNEL_CHAIN) EXPECT(strstr(text, "sub-graphs of at most") == NULL, "%s: -ksp_view shows a slot schedule that was not built", what);
      }
      PetscCall(SpTrsvSolverApply(ref, b, xref));
      for (PetscInt i = 0; i < n; i++) x[i] = -12345.0;
      PetscCall(SpTrsvSolverApply(s, b, x));
      for (PetscInt i = 0; i < n; i++) {
        err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
        nrm = PetscMax(nrm, PetscAbsScalar(xref[i]));
      }
      EXPECT(nrm > 0 && err <= 1e-13 * nrm, "%s: host solve differs from the level path by %g (|x| %g)", what, (double)err, (double)nrm);
      /* a second solve (the executor keeps nothing between solves) and new values on the same pattern */
      for (PetscInt i = 0; i < n; i++) x[i] = 0;
      PetscCall(SpTrsvSolverApply(s, b, x));
      err = 0;
      for (PetscInt i = 0; i < n; i++) err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
      EXPECT(err <= 1e-13 * nrm, "%s: second solve differs by %g", what, (double)err);
      PetscCall(SpTrsvSolverDestroy(&s));
      PetscCall(SpTrsvSolverDestroy(&ref));
    }
  PetscCall(PetscFree3(b, x, xref));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a triangle of too long a reach: chain forced is an error naming the option, auto and slots run the slot kernel */
static PetscErrorCode TooLong(const char *name, const Pat *p)
{
  SpTrsvTri           t;
  SpTrsvPath          locality, level;
  SpTrsvPathOptions opts;
  PetscScalar        *b, *x, *xref;
  const PetscInt      n = p->n;

  PetscFunctionBeginUser;
  PetscCall(SpTrsvPathFind("locality", &locality));
  PetscCall(SpTrsvPathFind("level", &level));
  PetscCall(TriWithValues(p, PETSC_FALSE, &t));
  PetscCall(PetscMalloc3(n + 1, &b, n + 1, &x, n + 1, &xref));
  for (PetscInt i = 0; i < n; i++) b[i] = (PetscScalar)((i * 3) % 17) / 17.0 - 0.5;
  for (PetscInt tr = 0; tr < 2; tr++) {
    SpTrsvSolver   s, ref;
    PetscErrorCode ierr;
    PetscReal      err = 0, nrm = 0;
    char           what[160];
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s%s", name, tr ? " (transpose)" : ""));
    PetscCall(SpTrsvPathOptionsInitialize(&opts));
    OPTS_LOCALITY(&opts)->locality_kernel = SPTRSV_LOCALITY_KERNEL_CHAIN;
    PetscCall(CreateQuiet(t, (PetscBool)tr, locality, &opts, &s, &ierr));
    EXPECT(ierr == PETSC_ERR_SUP, "%s: kernel chain forced: error %d, expected PETSC_ERR_SUP (%d)", what, (int)ierr, (int)PETSC_ERR_SUP);
    if (!ierr) PetscCall(SpTrsvSolverDestroy(&s));
    for (PetscInt kern = SPTRSV_LOCALITY_KERNEL_AUTO; kern <= SPTRSV_LOCALITY_KERNEL_SLOTS; kern++) {
      OPTS_LOCALITY(&opts)->locality_kernel = kern;
      PetscCall(CreateQuiet(t, (PetscBool)tr, locality, &opts, &s, &ierr));
      EXPECT(!ierr, "%s: kernel %s failed (error %d)", what, SpTrsvLocalityKernels[kern], (int)ierr);
      if (ierr) continue;
      {
        const SpTrsvLocalitySchedule *ls = (const SpTrsvLocalitySchedule *)s->plan->data;
        EXPECT(ls->kernel == SPTRSV_LOCALITY_KERNEL_SLOTS, "%s: kernel %s runs %s", what, SpTrsvLocalityKernels[kern], SpTrsvLocalityKernels[ls->kernel]);
        if (kern == SPTRSV_LOCALITY_KERNEL_AUTO) {
          char text[4096];
          EXPECT(ls->chain.W == 0 && !ls->chain.accepted && ls->chain.reach >= SPTRSV_CHAIN_MAX_WIDTH, "%s: auto: chain window %" PetscInt_FMT " reach %" PetscInt_FMT " accepted %d", what, ls->chain.W, ls->chain.reach, (int)ls->chain.accepted);
          PetscCall(PlanViewText(s->plan, "test_locality_chain.view.tmp", text, sizeof(text)));
          EXPECT(strstr(text, "kernel: slots (-mat_sptrsv_locality_kernel auto)") && strstr(text, "no window of at most 128 rows holds it"), "%s: -ksp_view:\n%s", what, text);
        }
      }
      PetscCall(SpTrsvSolverCreateWithOptions(t, (PetscBool)tr, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &opts, &ref));
      PetscCall(SpTrsvSolverApply(ref, b, xref));
      PetscCall(SpTrsvSolverApply(s, b, x));
      err = nrm = 0;
      for (PetscInt i = 0; i < n; i++) {
        err = PetscMax(err, PetscAbsScalar(x[i] - xref[i]));
        nrm = PetscMax(nrm, PetscAbsScalar(xref[i]));
      }
      EXPECT(err <= 1e-12 * PetscMax(nrm, 1.0), "%s: kernel %s: host solve differs from the level path by %g", what, SpTrsvLocalityKernels[kern], (double)err);
      PetscCall(SpTrsvSolverDestroy(&s));
      PetscCall(SpTrsvSolverDestroy(&ref));
    }
    /* an out-of-range kernel is refused */
    OPTS_LOCALITY(&opts)->locality_kernel = 4;
    PetscCall(CreateQuiet(t, (PetscBool)tr, locality, &opts, &s, &ierr));
    EXPECT(ierr == PETSC_ERR_ARG_OUTOFRANGE, "%s: kernel 4: error %d", what, (int)ierr);
    if (!ierr) PetscCall(SpTrsvSolverDestroy(&s));
  }
  PetscCall(PetscFree3(b, x, xref));
  PetscCall(SpTrsvTriDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestSolves(void)
{
  Pat p;

  PetscFunctionBeginUser;
  PetscCall(MakePat(PAT_BAND, 2000, 8, 0, &p));
  PetscCall(Solves("banded w=8", &p, PETSC_FALSE));
  PetscCall(Solves("banded w=8", &p, PETSC_TRUE));
  PetscCall(PatFree(&p));
  PetscCall(MakePat(PAT_PERMBLOCK, 2000, 32, 7, &p));
  PetscCall(Solves("permuted block-diagonal bs=32", &p, PETSC_FALSE));
  PetscCall(PatFree(&p));
  PetscCall(MakePat(PAT_BLOCK, 2013, 100, 0, &p));
  PetscCall(Solves("block-diagonal bs=100", &p, PETSC_FALSE));
  PetscCall(PatFree(&p));
  PetscCall(MakePat(PAT_BAND2, 2000, 100, 0, &p)); /* window not accepted: auto keeps the slots, chain forced still runs */
  PetscCall(Solves("band i-1,i-100", &p, PETSC_FALSE));
  PetscCall(PatFree(&p));
  PetscCall(MakePat(PAT_GRID, 40000, 200, 0, &p));
  PetscCall(TooLong("grid 200x200", &p));
  PetscCall(PatFree(&p));
  PetscCall(MakePat(PAT_BAND, 2000, 128, 0, &p));
  PetscCall(TooLong("banded w=128", &p));
  PetscCall(PatFree(&p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(TestAnalysis());
  PetscCall(TestSolves());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_locality_chain: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
