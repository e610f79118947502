// glibc's malloc tuning (mallopt), which Swift's Glibc module leaves out.
#ifndef CAMCTL_CMALLOC_SHIM_H
#define CAMCTL_CMALLOC_SHIM_H
#include <malloc.h>
#endif
