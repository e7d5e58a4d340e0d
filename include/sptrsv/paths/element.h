/* The element path's schedule (plan->data of sptrsv_element): shared by its analysis
   (src/mat/paths/element/element.c) and its CUDA executor (src/cuda/paths/element/element.cu) (private to the plugin) */
#pragma once
#include <sptrsv/registry.h>

/* warps per block of the element kernels: a block takes one ticket, i.e. this many consecutive rows */
#define SPTRSV_ELEMENT_WARPS 8

typedef struct {
  /* per dispatch position k (row order[k]) of op(T) read in the plan's format:
     CSR: offset, inside row order[k] of op(T), of its critical dependency (the one dispatched last;
          -1 for a row without dependencies); the lane that spins waits on it;
     CSC: the number of dependencies of row order[k] (entries of its row of op(T)) */
  PetscInt *aux;
  PetscBool csc;
} SpTrsvElementSchedule;
SPTRSV_PATH_DECLARE(element);
