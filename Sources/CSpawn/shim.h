// glibc's spawn action that closes every descriptor from a number on (glibc 2.34 and later),
// declared here because spawn.h offers it only to GNU sources, which Swift's Glibc module is not
// built as.
#ifndef CAMCTL_CSPAWN_SHIM_H
#define CAMCTL_CSPAWN_SHIM_H
#include <spawn.h>

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#endif
