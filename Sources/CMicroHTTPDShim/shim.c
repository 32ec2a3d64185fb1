#include "ambience_http.h"

struct MHD_Daemon *ambience_http_start(const struct sockaddr *address, int ipv6,
                                       unsigned connection_limit, size_t memory_limit,
                                       unsigned timeout_seconds, MHD_AccessHandlerCallback handler,
                                       ambience_http_uri_logger uri_logger,
                                       MHD_NotifyConnectionCallback notifier, void *context) {
    // No internal thread: MHD_run is called from the caller's loop when the epoll descriptor
    // is readable or MHD_get_timeout has passed.
    unsigned int flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    if (ipv6) flags |= MHD_USE_IPv6;
    // In an option array a callback's function goes in `value`, its closure in `ptr_value`.
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_SOCK_ADDR, 0, (void *)address},
        {MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)memory_limit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, NULL},
        {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_logger, context},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notifier, context},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context, MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

int ambience_http_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

int ambience_http_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

unsigned ambience_http_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
