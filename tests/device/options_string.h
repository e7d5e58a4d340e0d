/* Device checks: a configuration's extra options, given as one string ("-key value -flag ..."), are inserted before its
   solver is made and cleared afterwards by the keys the string names, so no list of keys has to follow the options the
   configurations use (check_kernels.c, check_fuzz.c). */
#pragma once
#include <petscsys.h>
#include <ctype.h>

/* clear every option "-key" that appears in s (NULL: nothing) */
static inline PetscErrorCode ClearOptionsString(const char *s)
{
  char key[256];

  PetscFunctionBeginUser;
  while (s && *s) {
    size_t len = 0;

    while (*s && isspace((unsigned char)*s)) s++;
    while (s[len] && !isspace((unsigned char)s[len])) len++;
    if (len > 1 && s[0] == '-' && !isdigit((unsigned char)s[1]) && s[1] != '.') { /* a key, not a negative number */
      PetscCheck(len < sizeof(key), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "option name too long in \"%s\"", s);
      memcpy(key, s, len);
      key[len] = 0;
      PetscCall(PetscOptionsClearValue(NULL, key));
    }
    s += len;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
