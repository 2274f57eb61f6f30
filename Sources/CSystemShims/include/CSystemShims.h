#pragma once
#include <stddef.h>

/// renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE): fails with EEXIST when `to`
/// exists. Returns 0 or -1 with errno set.
int mockgps_rename_noreplace(const char *from, const char *to);

/// pthread_setname_np on the calling thread; names are cut to 15 bytes. Returns 0 or an errno.
int mockgps_name_current_thread(const char *name);

/// pipe2(ends, O_CLOEXEC | O_NONBLOCK): both ends close-on-exec from the start.
int mockgps_pipe_cloexec_nonblock(int ends[2]);

/// timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK).
int mockgps_monotonic_timer_create(void);

/// Arms a timer made by mockgps_monotonic_timer_create to fire once at an absolute monotonic
/// time in nanoseconds (a time in the past fires at once). Returns 0 or -1 with errno set.
int mockgps_monotonic_timer_set(int fd, long long nanoseconds);

/// ioctl(master, TIOCGPTPEER, flags): opens the slave of a pseudo-terminal from its master,
/// without a path. Returns the descriptor or -1 with errno set.
int mockgps_open_pty_peer(int master, int flags);

/// Opens a pseudo-terminal master close-on-exec and non-blocking from the start
/// (posix_openpt, grantpt, unlockpt) and writes the slave's path into `name`.
/// Returns the master or -1 with errno set.
int mockgps_open_pty_master(char *name, size_t length);
