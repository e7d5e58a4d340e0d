static char help[] = "Unit tests of the locality path's blocks kernel (include/sptrsv/paths/locality.h, \"The blocks kernel\";\n"
                     "src/mat/paths/locality/locality_blocks.c): the blocks, coupling and sizes of SpTrsvLocalityBlocksCreate for every\n"
                     "block size against the test's own computation on banded, strided and block-diagonal (also permuted) triangles,\n"
                     "both orientations; SpTrsvLocalityBlocksCheck passes on them and rejects a block one row too long and a\n"
                     "coupling one column short; the host solves of -mat_sptrsv_locality_kernel blocks at every block size match the\n"
                     "level path, unit and not, both orientations, before and after new values; the conditioning check: a bound of 1\n"
                     "solves every block with an entry by substitution, an ill-conditioned block is solved by substitution while the\n"
                     "others stay inverted, and the solves still match; -mat_sptrsv_locality_block_rows out of range is refused.\n";

#include <sptrsv/paths/locality.h>
#include "chain_patterns.h"
#define OPTS_LOCALITY(o) ((SpTrsvLocalityOptions *)SpTrsvPathOptionsOwn(o, &SpTrsvPath_locality)) /* its own options inside o */

static PetscErrorCode CheckQuiet(const SpTrsvOp *op, const PetscInt *order, const SpTrsvLocalityChain *ch, const SpTrsvLocalityBlocks *blk, PetscErrorCode *ierr)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *ierr = SpTrsvLocalityBlocksCheck(op, order, ch, blk);
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the blocks of every B from the window to 128 against the test's own: blocks of B positions from each group's start,
   R the farthest a row reaches before its block's start; the check passes, and fails on two corruptions */
static PetscErrorCode Verify(const char *what, const SpTrsvOp *op)
{
  const PetscInt      n = op->n;
  SpTrsvLocalityChain ch;
  PetscInt           *order, *pos;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &order, n + 1, &pos));
  PetscCall(SpTrsvLocalityChainCreate(op, 132, order, &ch));
  for (PetscInt k = 0; k < n; k++) pos[order[k]] = k;
  EXPECT(ch.W > 0, "%s: no window (reach %" PetscInt_FMT ")", what, ch.reach);
  for (PetscInt B = ch.W; ch.W && B <= SPTRSV_CHAIN_MAX_WIDTH; B *= 2) {
    SpTrsvLocalityBlocks blk;
    PetscInt             nb = 0, R = 0, maxgb = 0;
    PetscErrorCode       ierr;
    PetscCall(SpTrsvLocalityBlocksCreate(op, order, &ch, B, 1e6, &blk));
    for (PetscInt g = 0; g < ch.ngroups; g++) {
      const PetscInt len = ch.gptr[g + 1] - ch.gptr[g], gb = (len + B - 1) / B;
      nb += gb;
      maxgb = PetscMax(maxgb, gb);
      for (PetscInt k = ch.gptr[g]; k < ch.gptr[g + 1]; k++) {
        const PetscInt i = order[k], p0 = ch.gptr[g] + ((k - ch.gptr[g]) / B) * B;
        for (PetscInt e = op->ri[i]; e < op->ri[i + 1]; e++) R = PetscMax(R, p0 - pos[op->rj[e]]);
      }
    }
    EXPECT(blk.B == B && blk.G == PetscMin(B, 32) && blk.A * blk.G == B && blk.nblocks == nb && blk.R == R && blk.max_group_blocks == maxgb, "%s B=%" PetscInt_FMT ": blocks %" PetscInt_FMT " (want %" PetscInt_FMT "), R %" PetscInt_FMT " (want %" PetscInt_FMT "), longest group %" PetscInt_FMT " (want %" PetscInt_FMT ")", what, B, blk.nblocks, nb, blk.R, R, blk.max_group_blocks, maxgb);
    EXPECT(blk.xsize == (PetscInt64)nb * B * (B + 1) / 2 && blk.msize == (PetscInt64)nb * B * R, "%s B=%" PetscInt_FMT ": storage %" PetscInt64_FMT " + %" PetscInt64_FMT, what, B, blk.xsize, blk.msize);
    PetscCall(CheckQuiet(op, order, &ch, &blk, &ierr));
    EXPECT(!ierr, "%s B=%" PetscInt_FMT ": the check fails on the schedule (error %d)", what, B, (int)ierr);
    if (blk.R > 0) { /* a coupling one column short */
      blk.R--;
      PetscCall(CheckQuiet(op, order, &ch, &blk, &ierr));
      EXPECT(ierr == PETSC_ERR_PLIB, "%s B=%" PetscInt_FMT ": coupling %" PetscInt_FMT " accepted (error %d)", what, B, blk.R, (int)ierr);
      blk.R++;
    }
    if (blk.nblocks > 1 && blk.bptr[1] < n && blk.bptr[1] - blk.bptr[0] == B) { /* the first block one row too long */
      blk.bptr[1]++;
      PetscCall(CheckQuiet(op, order, &ch, &blk, &ierr));
      EXPECT(ierr == PETSC_ERR_PLIB, "%s B=%" PetscInt_FMT ": a block of %" PetscInt_FMT " rows accepted (error %d)", what, B, B + 1, (int)ierr);
      blk.bptr[1]--;
    }
    PetscCall(SpTrsvLocalityBlocksDestroy(&blk));
  }
  {
    SpTrsvLocalityBlocks blk;
    PetscCall(SpTrsvLocalityBlocksCreate(op, order, &ch, 0, 1e6, &blk));
    EXPECT(!ch.W || (blk.B >= ch.W && blk.B <= SPTRSV_CHAIN_MAX_WIDTH && (blk.B & (blk.B - 1)) == 0 && blk.predicted_us > 0), "%s: the model's choice B=%" PetscInt_FMT " (window %" PetscInt_FMT ")", what, blk.B, ch.W);
    PetscCall(SpTrsvLocalityBlocksDestroy(&blk));
  }
  PetscCall(SpTrsvLocalityChainDestroy(&ch));
  PetscCall(PetscFree2(order, pos));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestAnalysis(void)
{
  struct {
    const char *name;
    PatKind     kind;
    PetscInt    n, w, a;
  } pats[] = {
    {"banded w=1", PAT_BAND, 3001, 1, 0},
    {"banded w=8", PAT_BAND, 2000, 8, 0},
    {"banded w=32", PAT_BAND, 1500, 32, 0},
    {"banded w=100", PAT_BAND, 700, 100, 0},
    {"stride 5", PAT_STRIDE, 1000, 5, 0},
    {"block-diagonal bs=100", PAT_BLOCK, 2013, 100, 0},
    {"block-diagonal bs=16", PAT_BLOCK, 2000, 16, 0},
    {"permuted block-diagonal bs=32", PAT_PERMBLOCK, 2000, 32, 7},
  };

  PetscFunctionBeginUser;
  for (size_t c = 0; c < sizeof(pats) / sizeof(pats[0]); c++) {
    Pat       p;
    SpTrsvTri t;
    PetscCall(MakePat(pats[c].kind, pats[c].n, pats[c].w, pats[c].a, &p));
    PetscCall(TriWithValues(&p, PETSC_FALSE, &t));
    for (PetscInt tr = 0; tr < 2; tr++) {
      SpTrsvOp op;
      char     what[160];
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s%s", pats[c].name, tr ? " (transpose)" : ""));
      PetscCall(SpTrsvTriGetOp(t, (PetscBool)tr, &op));
      PetscCall(Verify(what, &op));
    }
    PetscCall(SpTrsvTriDestroy(&t));
    PetscCall(PatFree(&p));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MaxDiff(PetscInt n, const PetscScalar *x, const PetscScalar *y, PetscReal *err, PetscReal *nrm)
{
  PetscFunctionBeginUser;
  *err = *nrm = 0;
  for (PetscInt i = 0; i < n; i++) {
    *err = PetscMax(*err, PetscAbsScalar(x[i] - y[i]));
    *nrm = PetscMax(*nrm, PetscAbsScalar(y[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host solves at block size B (0: the model's) against the level path, then new values (scaled, one block made
   ill-conditioned when illblock >= 0), then a bound cond */
static PetscErrorCode Solves(const char *name, const Pat *p, PetscBool unit, PetscInt B, PetscReal cond)
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
  for (PetscInt tr = 0; tr < 2; tr++) {
    SpTrsvSolver   s, ref;
    PetscErrorCode ierr;
    PetscReal      err, nrm;
    char           what[200];
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s n=%" PetscInt_FMT "%s%s B=%" PetscInt_FMT " cond %g", name, n, unit ? " unit" : "", tr ? " (transpose)" : "", B, (double)cond));
    PetscCall(SpTrsvPathOptionsInitialize(&opts));
    OPTS_LOCALITY(&opts)->locality_kernel     = SPTRSV_LOCALITY_KERNEL_BLOCKS;
    OPTS_LOCALITY(&opts)->locality_block_rows = B;
    OPTS_LOCALITY(&opts)->locality_block_cond = cond;
    PetscCall(SpTrsvSolverCreateWithOptions(t, (PetscBool)tr, SPTRSV_FORMAT_CSR, level, &SpTrsvBackendHost, &opts, &ref));
    PetscCall(CreateQuiet(t, (PetscBool)tr, locality, &opts, &s, &ierr));
    EXPECT(!ierr, "%s: the locality solver failed (error %d)", what, (int)ierr);
    if (ierr) {
      PetscCall(SpTrsvSolverDestroy(&ref));
      continue;
    }
    {
      const SpTrsvLocalitySchedule *ls  = (const SpTrsvLocalitySchedule *)s->plan->data;
      const SpTrsvLocalityBlocks   *blk = &ls->blocks;
      char                          text[4096], want[200];
      PetscInt                      nfilled = 0;
      EXPECT(ls->kernel == SPTRSV_LOCALITY_KERNEL_BLOCKS && !ls->have_slots && (!B || blk->B == B), "%s: runs kernel %s, B %" PetscInt_FMT, what, SpTrsvLocalityKernels[ls->kernel], blk->B);
      EXPECT(blk->have_numeric && blk->ninv >= 0 && blk->ninv <= blk->nblocks, "%s: numeric phase figures: %" PetscInt_FMT " of %" PetscInt_FMT " inverted", what, blk->ninv, blk->nblocks);
      for (PetscInt bk = 0; bk < blk->nblocks; bk++) { /* blocks with an entry inside: kappa > 1 */
        PetscBool any = PETSC_FALSE;
        for (PetscInt k = blk->bptr[bk]; k < blk->bptr[bk + 1] && !any; k++) {
          const PetscInt i = s->plan->order[k];
          for (PetscInt e = s->op.ri[i]; e < s->op.ri[i + 1]; e++) {
            PetscInt kj;
            for (kj = blk->bptr[bk]; kj < k && s->plan->order[kj] != s->op.rj[e]; kj++) { }
            if (kj < k) any = PETSC_TRUE;
          }
        }
        if (any) nfilled++;
      }
      if (cond == 1) EXPECT(blk->ninv == blk->nblocks - nfilled, "%s: bound 1: %" PetscInt_FMT " inverted, expected the %" PetscInt_FMT " blocks without an inner entry", what, blk->ninv, blk->nblocks - nfilled);
      else EXPECT(blk->ninv == blk->nblocks, "%s: %" PetscInt_FMT " of %" PetscInt_FMT " inverted (well-conditioned values)", what, blk->ninv, blk->nblocks);
      PetscCall(PlanViewText(s->plan, "test_locality_blocks.view.tmp", text, sizeof(text)));
      PetscCall(PetscSNPrintf(want, sizeof(want), "inverted diagonal blocks: %" PetscInt_FMT " of %" PetscInt_FMT " (condition number at most %g, -mat_sptrsv_locality_block_cond;", blk->ninv, blk->nblocks, (double)cond));
      EXPECT(strstr(text, "kernel: blocks (-mat_sptrsv_locality_kernel blocks)") && strstr(text, want), "%s: -ksp_view lacks the kernel or \"%s\":\n%s", what, want, text);
    }
    PetscCall(SpTrsvSolverApply(ref, b, xref));
    for (PetscInt i = 0; i < n; i++) x[i] = -12345.0;
    PetscCall(SpTrsvSolverApply(s, b, x));
    PetscCall(MaxDiff(n, x, xref, &err, &nrm));
    EXPECT(nrm > 0 && err <= 1e-12 * nrm, "%s: host solve differs from the level path by %g (|x| %g)", what, (double)err, (double)nrm);
    /* new values: row i's entries scaled, and (not unit) one diagonal entry made tiny: its block is ill-conditioned */
    for (PetscInt q = 0; q < t->i[n]; q++) t->a[q] *= 0.5 + (PetscReal)(q % 3) / 4.0;
    if (!unit) t->idiag[n / 2] = 1e12;
    PetscCall(SpTrsvTriValuesChanged(t));
    PetscCall(SpTrsvSolverUpdateValues(s));
    PetscCall(SpTrsvSolverUpdateValues(ref));
    PetscCall(SpTrsvSolverApply(ref, b, xref));
    PetscCall(SpTrsvSolverApply(s, b, x));
    PetscCall(MaxDiff(n, x, xref, &err, &nrm));
    EXPECT(nrm > 0 && err <= 1e-12 * nrm, "%s: after new values the host solve differs from the level path by %g (|x| %g)", what, (double)err, (double)nrm);
    if (!unit && cond > 1) {
      const SpTrsvLocalityBlocks *blk = &((const SpTrsvLocalitySchedule *)s->plan->data)->blocks;
      EXPECT(blk->ninv == blk->nblocks - 1 && blk->kappa_max > 1e6 && blk->kappa_inv <= cond, "%s: one ill-conditioned block: %" PetscInt_FMT " of %" PetscInt_FMT " inverted, largest kappa %g (inverted %g)", what, blk->ninv, blk->nblocks, (double)blk->kappa_max, (double)blk->kappa_inv);
    }
    PetscCall(SpTrsvSolverDestroy(&s));
    PetscCall(SpTrsvSolverDestroy(&ref));
    PetscCall(SpTrsvTriDestroy(&t));
    PetscCall(TriWithValues(p, unit, &t)); /* the original values for the other orientation */
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
  for (PetscInt B = 16; B <= 128; B *= 2) PetscCall(Solves("banded w=8", &p, PETSC_FALSE, B, 1e6));
  PetscCall(Solves("banded w=8", &p, PETSC_TRUE, 0, 1e6));
  PetscCall(Solves("banded w=8", &p, PETSC_FALSE, 32, 1));
  PetscCall(PatFree(&p));
  PetscCall(MakePat(PAT_BAND, 1000, 1, 0, &p));
  PetscCall(Solves("bidiagonal", &p, PETSC_FALSE, 2, 1e6));
  PetscCall(Solves("bidiagonal", &p, PETSC_TRUE, 8, 1e6));
  PetscCall(PatFree(&p));
  PetscCall(MakePat(PAT_BAND, 1500, 32, 0, &p));
  PetscCall(Solves("banded w=32", &p, PETSC_FALSE, 64, 1e6));
  PetscCall(Solves("banded w=32", &p, PETSC_FALSE, 128, 1e6));
  PetscCall(PatFree(&p));
  PetscCall(MakePat(PAT_PERMBLOCK, 2000, 32, 7, &p));
  PetscCall(Solves("permuted block-diagonal bs=32", &p, PETSC_FALSE, 0, 1e6));
  PetscCall(Solves("permuted block-diagonal bs=32", &p, PETSC_FALSE, 64, 1));
  PetscCall(PatFree(&p));
  PetscCall(MakePat(PAT_BLOCK, 2013, 100, 0, &p));
  PetscCall(Solves("block-diagonal bs=100", &p, PETSC_FALSE, 128, 1e6));
  PetscCall(PatFree(&p));
  PetscCall(MakePat(PAT_BLOCK, 2000, 4, 0, &p));
  PetscCall(Solves("block-diagonal bs=4", &p, PETSC_TRUE, 4, 1e6));
  PetscCall(Solves("block-diagonal bs=4", &p, PETSC_FALSE, 16, 1));
  PetscCall(PatFree(&p));
  { /* a block size that cannot hold the reach, or is no power of two, is refused naming the option */
    SpTrsvTri           t;
    SpTrsvSolver        s;
    SpTrsvPath          locality;
    SpTrsvPathOptions opts;
    PetscErrorCode      ierr;
    const PetscInt      bad[] = {8, 48, 256};
    PetscCall(SpTrsvPathFind("locality", &locality));
    PetscCall(MakePat(PAT_BAND, 500, 8, 0, &p));
    PetscCall(TriWithValues(&p, PETSC_FALSE, &t));
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
      PetscCall(SpTrsvPathOptionsInitialize(&opts));
      OPTS_LOCALITY(&opts)->locality_kernel     = SPTRSV_LOCALITY_KERNEL_BLOCKS;
      OPTS_LOCALITY(&opts)->locality_block_rows = bad[k];
      PetscCall(CreateQuiet(t, PETSC_FALSE, locality, &opts, &s, &ierr));
      EXPECT(ierr == PETSC_ERR_ARG_OUTOFRANGE, "banded w=8: -mat_sptrsv_locality_block_rows %" PetscInt_FMT ": error %d", bad[k], (int)ierr);
      if (!ierr) PetscCall(SpTrsvSolverDestroy(&s));
    }
    PetscCall(SpTrsvTriDestroy(&t));
    PetscCall(PatFree(&p));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SpTrsvInitializePackage());
  PetscCall(TestAnalysis());
  PetscCall(TestSolves());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "test_locality_blocks: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
