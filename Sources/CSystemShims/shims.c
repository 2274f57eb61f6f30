// Functions and macros that Swift's Glibc module hides behind _GNU_SOURCE or does not import.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include "CSystemShims.h"

int mockgps_rename_noreplace(const char *from, const char *to) {
  return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

int mockgps_name_current_thread(const char *name) {
  char shortened[16];
  strncpy(shortened, name, sizeof shortened - 1);
  shortened[sizeof shortened - 1] = '\0';
  return pthread_setname_np(pthread_self(), shortened);
}

int mockgps_pipe_cloexec_nonblock(int ends[2]) {
  return pipe2(ends, O_CLOEXEC | O_NONBLOCK);
}

int mockgps_monotonic_timer_create(void) {
  return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

int mockgps_monotonic_timer_set(int fd, long long nanoseconds) {
  struct itimerspec spec;
  memset(&spec, 0, sizeof spec);
  // A zero it_value disarms the timer: an absolute deadline of 0 is already in the past, so
  // 1 ns serves as "now".
  if (nanoseconds <= 0) nanoseconds = 1;
  spec.it_value.tv_sec = nanoseconds / 1000000000LL;
  spec.it_value.tv_nsec = nanoseconds % 1000000000LL;
  return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

int mockgps_open_pty_peer(int master, int flags) {
#ifdef TIOCGPTPEER
  return ioctl(master, TIOCGPTPEER, flags);
#else
  (void)master;
  (void)flags;
  errno = ENOTTY;
  return -1;
#endif
}

#include <stdlib.h>

int mockgps_open_pty_master(char *name, size_t length) {
  int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return -1;
  int error = 0;
  if (grantpt(fd) != 0 || unlockpt(fd) != 0) {
    error = errno;
  } else {
    error = ptsname_r(fd, name, length);
  }
  if (error != 0) {
    close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

#include <sys/epoll.h>

int mockgps_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int mockgps_epoll_control(int epfd, int op, int fd, unsigned int events, unsigned long long token) {
  struct epoll_event event;
  memset(&event, 0, sizeof event);
  event.events = events;
  event.data.u64 = token;
  return epoll_ctl(epfd, op, fd, &event);
}

int mockgps_epoll_wait(
    int epfd, unsigned long long *tokens, unsigned int *events, int capacity, int timeout) {
  struct epoll_event ready[64];
  if (capacity > 64) capacity = 64;
  int count = epoll_wait(epfd, ready, capacity, timeout);
  for (int index = 0; index < count; index++) {
    tokens[index] = ready[index].data.u64;
    events[index] = ready[index].events;
  }
  return count;
}

int mockgps_monotonic_timer_set_interval(int fd, long long nanoseconds) {
  struct itimerspec spec;
  memset(&spec, 0, sizeof spec);
  spec.it_interval.tv_sec = nanoseconds / 1000000000LL;
  spec.it_interval.tv_nsec = nanoseconds % 1000000000LL;
  spec.it_value = spec.it_interval;
  return timerfd_settime(fd, 0, &spec, NULL);
}

int mockgps_accept_cloexec_nonblock(int fd) {
  return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

int mockgps_peer_credentials(int fd, int *pid, unsigned int *uid, unsigned int *gid) {
  struct ucred credentials;
  socklen_t length = sizeof credentials;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
  *pid = credentials.pid;
  *uid = credentials.uid;
  *gid = credentials.gid;
  return 0;
}

int mockgps_peer_groups(int fd, unsigned int *groups, int capacity) {
  socklen_t length = (socklen_t)(capacity * sizeof(gid_t));
  if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &length) != 0) return -1;
  return (int)(length / sizeof(gid_t));
}

int mockgps_thread_groups(unsigned int *groups, int capacity) {
  return (int)syscall(SYS_getgroups, capacity, groups);
}

int mockgps_thread_set_file_identity(unsigned int uid, unsigned int gid, int group_count,
                                     const unsigned int *groups) {
  gid_t old_groups[NGROUPS_MAX];
  long old_count = syscall(SYS_getgroups, NGROUPS_MAX, old_groups);
  if (old_count < 0) return -1;
  unsigned int old_gid = (unsigned int)syscall(SYS_setfsgid, -1);
  unsigned int old_uid = (unsigned int)syscall(SYS_setfsuid, -1);
  if (syscall(SYS_setgroups, group_count, groups) != 0) return -1;
  syscall(SYS_setfsgid, gid);
  syscall(SYS_setfsuid, uid);
  // setfsuid and setfsgid report no failure: read back what the thread has now.
  if ((unsigned int)syscall(SYS_setfsgid, -1) != gid
      || (unsigned int)syscall(SYS_setfsuid, -1) != uid) {
    syscall(SYS_setfsuid, old_uid);
    syscall(SYS_setfsgid, old_gid);
    syscall(SYS_setgroups, old_count, old_groups);
    errno = EPERM;
    return -1;
  }
  return 0;
}

void mockgps_thread_file_ids(unsigned int *uid, unsigned int *gid) {
  *uid = (unsigned int)syscall(SYS_setfsuid, -1);
  *gid = (unsigned int)syscall(SYS_setfsgid, -1);
}

int mockgps_open_folder_for_lookups(const char *path) {
  return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int mockgps_open_without_magic_links(int directory, const char *path, int flags, int beneath) {
  struct open_how how = {
      .flags = (unsigned long long)(flags | O_CLOEXEC), .mode = 0,
      .resolve = RESOLVE_NO_MAGICLINKS | (beneath ? RESOLVE_BENEATH : 0)};
  int descriptor = (int)syscall(SYS_openat2, directory, path, &how, sizeof how);
  if (descriptor < 0) return -1;
  /* A thread with a client's rights is still this process, which may read its own /proc
   * entries (/proc/self/maps, /proc/PID/stat) that the client may not: procfs is refused. */
  struct statfs system;
  int error = fstatfs(descriptor, &system) != 0 ? errno
              : system.f_type == PROC_SUPER_MAGIC ? EACCES
                                                  : 0;
  if (error == 0) return descriptor;
  close(descriptor);
  errno = error;
  return -1;
}

int mockgps_spawn_actions_close_from(posix_spawn_file_actions_t *actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
