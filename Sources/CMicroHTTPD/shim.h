// libmicrohttpd, loaded when a server first starts (dlopen) rather than linked: linked, it and
// GnuTLS behind it would be loaded by every camctl start, for the one command that serves. Its
// daemon's start and information calls are variadic, which Swift cannot make: the wrappers below
// make them in C.
#ifndef CAMCTL_CMICROHTTPD_SHIM_H
#define CAMCTL_CMICROHTTPD_SHIM_H
#include <dlfcn.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <poll.h>
#include <microhttpd.h>

// The functions camctl calls, from the loaded library.
typedef struct {
    struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback accept, void *accept_context,
                                       MHD_AccessHandlerCallback handler, void *context, ...);
    void (*stop_daemon)(struct MHD_Daemon *daemon);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info, ...);
    struct MHD_Response *(*create_response_from_buffer)(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
    struct MHD_Response *(*create_response_from_callback)(uint64_t size, size_t block_size, MHD_ContentReaderCallback reader,
                                                          void *context, MHD_ContentReaderFreeCallback free_context);
    struct MHD_Response *(*create_response_from_fd)(size_t size, int fd);
    void (*destroy_response)(struct MHD_Response *response);
    enum MHD_Result (*add_response_header)(struct MHD_Response *response, const char *header, const char *content);
    enum MHD_Result (*queue_response)(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response);
    const char *(*lookup_connection_value)(struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key);
    int (*get_connection_values)(struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
                                 void *context);
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *connection, enum MHD_ConnectionInfoType info, ...);
} camctl_microhttpd;

// Loads libmicrohttpd and finds its functions; 0 when it is not installed or lacks one.
static inline int camctl_microhttpd_load(camctl_microhttpd *api) {
    void *library = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
#define CAMCTL_FIND(field, name) *(void **)(&api->field) = dlsym(library, name); if (!api->field) return 0
    CAMCTL_FIND(start_daemon, "MHD_start_daemon");
    CAMCTL_FIND(stop_daemon, "MHD_stop_daemon");
    CAMCTL_FIND(get_daemon_info, "MHD_get_daemon_info");
    CAMCTL_FIND(create_response_from_buffer, "MHD_create_response_from_buffer");
    CAMCTL_FIND(create_response_from_callback, "MHD_create_response_from_callback");
    CAMCTL_FIND(create_response_from_fd, "MHD_create_response_from_fd");
    CAMCTL_FIND(destroy_response, "MHD_destroy_response");
    CAMCTL_FIND(add_response_header, "MHD_add_response_header");
    CAMCTL_FIND(queue_response, "MHD_queue_response");
    CAMCTL_FIND(lookup_connection_value, "MHD_lookup_connection_value");
    CAMCTL_FIND(get_connection_values, "MHD_get_connection_values");
    CAMCTL_FIND(get_connection_info, "MHD_get_connection_info");
#undef CAMCTL_FIND
    return 1;
}

/// Starts a daemon bound to `address` that serves each connection on a thread of its own, with
/// limits on connections (in all and per client address), idle seconds and each connection's
/// memory (its request headers and buffered body), and tells `notify` of each connection opened
/// and closed; NULL when it cannot listen.
static inline struct MHD_Daemon *camctl_http_start(const camctl_microhttpd *api, const struct sockaddr *address,
                                                   unsigned int connections, unsigned int perAddress, unsigned int idleSeconds,
                                                   size_t memory, MHD_AccessHandlerCallback handler, void *context,
                                                   MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback notify) {
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    if (address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
    return api->start_daemon(flags, 0, NULL, NULL, handler, context,
                             MHD_OPTION_SOCK_ADDR, address,
                             MHD_OPTION_CONNECTION_LIMIT, connections,
                             MHD_OPTION_PER_IP_CONNECTION_LIMIT, perAddress,
                             MHD_OPTION_CONNECTION_TIMEOUT, idleSeconds,
                             MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory,
                             MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                             MHD_OPTION_NOTIFY_CONNECTION, notify, context,
                             MHD_OPTION_END);
}

/// A connection's socket; -1 when unknown.
static inline int camctl_http_connection_socket(const camctl_microhttpd *api, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = api->get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

// Linux's poll event for a peer that closed its end, which glibc's headers name for GNU sources only.
#define CAMCTL_POLL_PEER_CLOSED 0x2000

/// Whether the client of a socket has closed it, or its end of it, or the socket failed.
static inline int camctl_socket_hung_up(int socket) {
    struct pollfd watched = { socket, CAMCTL_POLL_PEER_CLOSED, 0 };
    return poll(&watched, 1, 0) > 0 && (watched.revents & (CAMCTL_POLL_PEER_CLOSED | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

/// The port a daemon listens on (the one the system chose for port 0).
static inline unsigned short camctl_http_port(const camctl_microhttpd *api, struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = api->get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
#endif
