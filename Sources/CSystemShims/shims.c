// Functions that Swift's Glibc module hides behind _GNU_SOURCE.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include "CSystemShims.h"

int mockgps_rename_noreplace(const char *from, const char *to) {
  return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

#include <pthread.h>
#include <string.h>

int mockgps_name_current_thread(const char *name) {
  char shortened[16];
  strncpy(shortened, name, sizeof shortened - 1);
  shortened[sizeof shortened - 1] = '\0';
  return pthread_setname_np(pthread_self(), shortened);
}
