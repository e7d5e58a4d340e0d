/* The conversion both direct factors share (SuperLU LU, CHOLMOD Cholesky): the image of the library's supernodal
   storage as CSR patterns of L and U with value maps (direct.h: SpTrsvDirectImage), and its hand-over to the factor's
   triangles. The libraries keep their own walks over their storage and their own value formulas. */
#include <sptrsv/direct.h>

PetscErrorCode SpTrsvDirectImageCreate(PetscInt n, SpTrsvDirectImage *im)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(im, sizeof(*im)));
  im->n = n;
  PetscCall(PetscCalloc1(n + 1, &im->li));
  PetscCall(PetscCalloc1(n + 1, &im->ui));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDirectImageAllocate(SpTrsvDirectImage *im)
{
  const PetscInt n = im->n;

  PetscFunctionBegin;
  for (PetscInt r = 0; r < n; r++) {
    im->li[r + 1] += im->li[r];
    im->ui[r + 1] += im->ui[r];
  }
  PetscCall(PetscMalloc1(im->li[n] + 1, &im->lj));
  PetscCall(PetscMalloc1(im->li[n] + 1, &im->lmap));
  PetscCall(PetscMalloc1(im->ui[n] + 1, &im->uj));
  PetscCall(PetscMalloc1(im->ui[n] + 1, &im->umap));
  PetscCall(PetscMalloc1(n + 1, &im->dmap));
  PetscCall(PetscMalloc1(n + 1, &im->lpos));
  PetscCall(PetscMalloc1(n + 1, &im->upos));
  PetscCall(PetscArraycpy(im->lpos, im->li, n));
  PetscCall(PetscArraycpy(im->upos, im->ui, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDirectImageFinish(SpTrsvDirectImage *im, PetscInt nsuper, const int *super)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(im->lpos));
  PetscCall(PetscFree(im->upos));
  PetscCall(PetscFree(im->super));
  im->nsuper = nsuper;
  PetscCall(PetscMalloc1(nsuper + 1, &im->super));
  for (PetscInt k = 0; k <= nsuper; k++) im->super[k] = super[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a copy of the first n entries of a, in an array of size (the pattern a triangle adopts) */
static PetscErrorCode SpTrsvDirectImageCopy(PetscInt size, PetscInt n, const PetscInt *a, PetscInt **b)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(size, b));
  PetscCall(PetscArraycpy(*b, a, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDirectImageInstall(SpTrsvDirectImage *im, PetscBool keep, PetscBool values_later, SpTrsvFactor fac, PetscBool *created)
{
  const PetscInt n = im->n;
  PetscInt      *li = im->li, *lj = im->lj, *ui = im->ui, *uj = im->uj;

  PetscFunctionBegin;
  PetscCheck(n == fac->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Image of order %" PetscInt_FMT " for a factor of order %" PetscInt_FMT, n, fac->n);
  if (created) *created = (PetscBool)!fac->L;
  if (!fac->L) {
    PetscCall(SpTrsvTriCreate(n, SPTRSV_LOWER, PETSC_TRUE, &fac->L));
    PetscCall(SpTrsvTriCreate(n, SPTRSV_UPPER, PETSC_FALSE, &fac->U));
  }
  if (keep) {
    PetscCall(SpTrsvDirectImageCopy(n + 1, n + 1, im->li, &li));
    PetscCall(SpTrsvDirectImageCopy(im->li[n] + 1, im->li[n], im->lj, &lj));
    PetscCall(SpTrsvDirectImageCopy(n + 1, n + 1, im->ui, &ui));
    PetscCall(SpTrsvDirectImageCopy(im->ui[n] + 1, im->ui[n], im->uj, &uj));
  } else im->li = im->lj = im->ui = im->uj = NULL;
  /* values_later: left unset, for a numeric phase that writes every entry of L, U and U's diagonal before a solve (the
     columns past a failed pivot as zeros): the executors set up on this pattern skip their numeric work until then
     (with zeros they inverted every diagonal block of a supernodal schedule for nothing); else zeros, which the caller
     overwrites before the triangles' solvers are set up */
  PetscCall(SpTrsvTriSetPatternTrusted(fac->L, li, lj, (PetscBool)!values_later));
  PetscCall(SpTrsvTriSetPatternTrusted(fac->U, ui, uj, (PetscBool)!values_later));
  PetscCall(SpTrsvTriSetSupernodes(fac->L, im->nsuper, im->super));
  PetscCall(SpTrsvTriSetSupernodes(fac->U, im->nsuper, im->super));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDirectImageSamePattern(const SpTrsvDirectImage *a, const SpTrsvDirectImage *b, PetscBool *same)
{
  const PetscInt n = a->n;

  PetscFunctionBegin;
  *same = PETSC_FALSE;
  if (!a->li || !b->li || a->n != b->n || a->li[n] != b->li[n] || a->ui[n] != b->ui[n] || a->nsuper != b->nsuper) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscArraycmp(a->li, b->li, n + 1, same));
  if (*same) PetscCall(PetscArraycmp(a->ui, b->ui, n + 1, same));
  if (*same) PetscCall(PetscArraycmp(a->lj, b->lj, a->li[n], same));
  if (*same) PetscCall(PetscArraycmp(a->uj, b->uj, a->ui[n], same));
  if (*same) PetscCall(PetscArraycmp(a->super, b->super, a->nsuper + 1, same));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SpTrsvDirectImageReset(SpTrsvDirectImage *im)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(im->li));
  PetscCall(PetscFree(im->lj));
  PetscCall(PetscFree(im->ui));
  PetscCall(PetscFree(im->uj));
  PetscCall(PetscFree(im->lmap));
  PetscCall(PetscFree(im->umap));
  PetscCall(PetscFree(im->dmap));
  PetscCall(PetscFree(im->super));
  PetscCall(PetscFree(im->lpos));
  PetscCall(PetscFree(im->upos));
  PetscCall(PetscMemzero(im, sizeof(*im)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
