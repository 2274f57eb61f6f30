#pragma once
#include <stddef.h>

/// renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE): fails with EEXIST when `to`
/// exists. Returns 0 or -1 with errno set.
int mockgps_rename_noreplace(const char *from, const char *to);

/// pthread_setname_np on the calling thread; names are cut to 15 bytes. Returns 0 or an errno.
int mockgps_name_current_thread(const char *name);
