#pragma once
#include <spawn.h>
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

/// epoll_create1(EPOLL_CLOEXEC).
int mockgps_epoll_create(void);

/// epoll_ctl(epfd, op, fd, {events, .data.u64 = token}); op is EPOLL_CTL_ADD, _MOD or _DEL.
/// Returns 0 or -1 with errno set. (struct epoll_event is packed on x86-64, which Swift does
/// not import faithfully; these shims keep it on the C side.)
int mockgps_epoll_control(int epfd, int op, int fd, unsigned int events, unsigned long long token);

/// epoll_wait into parallel arrays of tokens and events, at most `capacity` of them.
/// Returns how many are ready, or -1 with errno set.
int mockgps_epoll_wait(
    int epfd, unsigned long long *tokens, unsigned int *events, int capacity, int timeout);

/// Arms a timer made by mockgps_monotonic_timer_create to fire every `nanoseconds`, the first
/// time `nanoseconds` from now. Returns 0 or -1 with errno set.
int mockgps_monotonic_timer_set_interval(int fd, long long nanoseconds);

/// accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK): the connection close-on-exec and
/// non-blocking from the moment it exists. Returns the descriptor or -1 with errno set.
int mockgps_accept_cloexec_nonblock(int fd);

/// getsockopt(SO_PEERCRED) of a connected Unix socket: the peer's process, user and group IDs
/// as they were when it connected. Returns 0 or -1 with errno set.
int mockgps_peer_credentials(int fd, int *pid, unsigned int *uid, unsigned int *gid);

/// getsockopt(SO_PEERGROUPS): the peer's supplementary groups, at most `capacity` of them.
/// Returns how many, or -1 with errno set (ERANGE when `capacity` is too small).
int mockgps_peer_groups(int fd, unsigned int *groups, int capacity);

/// Sets the supplementary groups, file-system group ID and file-system user ID of the calling
/// thread only (raw setgroups, setfsgid and setfsuid system calls: glibc's setgroups changes
/// every thread), so that the files it opens are opened with those rights. Returns 0, or -1
/// with errno set when one was not taken (then the thread's identity is left as it was).
int mockgps_thread_set_file_identity(unsigned int uid, unsigned int gid, int group_count,
                                     const unsigned int *groups);

/// The calling thread's supplementary groups, at most `capacity`. Returns how many or -1.
int mockgps_thread_groups(unsigned int *groups, int capacity);

/// The calling thread's file-system user and group IDs.
void mockgps_thread_file_ids(unsigned int *uid, unsigned int *gid);

/// open(path, O_PATH | O_DIRECTORY | O_CLOEXEC): a folder to resolve paths beneath, which
/// needs no right to read it (O_PATH is hidden from Swift). Returns the descriptor or -1.
int mockgps_open_folder_for_lookups(const char *path);

/// openat2(directory, path, {flags | O_CLOEXEC, 0, RESOLVE_NO_MAGICLINKS}): opens `path` like
/// openat(2), but refuses (ELOOP) to follow /proc's magic links (/proc/self/cwd,
/// /proc/PID/fd/N, /proc/PID/root), which bypass the permission checks of the folders above
/// their target. With `beneath` nonzero, RESOLVE_BENEATH too: every step of the resolution,
/// symbolic links included, stays under `directory` (EXDEV otherwise, and for an absolute
/// path or link). `directory` is AT_FDCWD or an open folder. Returns the descriptor or -1 with
/// errno set (ENOSYS before Linux 5.6). A file on procfs is refused (EACCES): the process may
/// read its own /proc entries whatever the thread's file rights.
int mockgps_open_without_magic_links(int directory, const char *path, int flags, int beneath);

/// posix_spawn_file_actions_addclosefrom_np(actions, from): the spawned program starts with no
/// descriptor from `from` up, whatever other threads of the parent had open without
/// close-on-exec. Returns 0 or an errno.
int mockgps_spawn_actions_close_from(posix_spawn_file_actions_t *actions, int from);
