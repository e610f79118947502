// libmicrohttpd, with shims for its variadic calls, which Swift cannot make.
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// Starts a daemon bound to `address` that serves each connection on a thread of its own, with
/// limits on connections (in all and per client address), idle seconds and each connection's
/// memory (its request headers and buffered body); NULL when it cannot listen.
static inline struct MHD_Daemon *camctl_http_start(const struct sockaddr *address, unsigned int connections,
                                                   unsigned int perAddress, unsigned int idleSeconds, size_t memory,
                                                   MHD_AccessHandlerCallback handler, void *context,
                                                   MHD_RequestCompletedCallback completed) {
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    if (address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_LIMIT, connections,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, perAddress,
                            MHD_OPTION_CONNECTION_TIMEOUT, idleSeconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_END);
}

/// The port a daemon listens on (the one the system chose for port 0).
static inline unsigned short camctl_http_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
