#pragma once
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/random.h>
#include <microhttpd.h>

/* MHD_start_daemon is variadic, which Swift cannot call: the panel's daemon, started on a socket
   that is already listening, with its own polling thread (epoll), suspend/resume for event
   streams, and the given limits. */
static inline struct MHD_Daemon *mockgps_mhd_start(
    int listen_socket, unsigned int connection_limit, size_t connection_memory_limit,
    unsigned int connection_timeout_seconds, MHD_AccessHandlerCallback handler,
    MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback notify,
    void *context) {
  return MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL,
      handler, context,
      MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_socket,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
      MHD_OPTION_NOTIFY_COMPLETED, completed, context,
      MHD_OPTION_NOTIFY_CONNECTION, notify, context,
      MHD_OPTION_END);
}

/* The socket of a connection (MHD_get_connection_info is variadic), or -1. */
static inline int mockgps_mhd_connection_socket(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : (int)info->connect_fd;
}

/* getrandom(2), which Glibc's module map does not declare. */
static inline ssize_t mockgps_getrandom(void *buffer, size_t length) {
  return getrandom(buffer, length, 0);
}
