#include "ambience_http.h"

#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/ioctl.h>

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

static int tcp_bytes_received(int socket, uint64_t *received) {
    struct tcp_info info = {0};
    socklen_t length = sizeof info;
    if (getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
    // A kernel older than the field (Linux 4.1) gives a shorter structure.
    if (length < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received)
        return -1;
    // The kernel's states are named only in glibc's netinet/tcp.h, beside an older tcp_info:
    // 1 is TCP_ESTABLISHED, 8 TCP_CLOSE_WAIT (the peer's FIN is in, nothing sent back yet). The
    // count holds the FIN as one byte more, which SIOCINQ leaves out.
    if (info.tcpi_state == 1) {
        *received = info.tcpi_bytes_received;
    } else if (info.tcpi_state == 8 && info.tcpi_bytes_received > 0) {
        *received = info.tcpi_bytes_received - 1;
    } else {
        return -1;
    }
    return 0;
}

int ambience_tcp_received(int socket, uint64_t *received, uint64_t *unread) {
    for (int attempt = 0; attempt < 3; attempt++) {
        uint64_t before, after;
        int waiting = 0;
        if (tcp_bytes_received(socket, &before) != 0) return -1;
        if (ioctl(socket, SIOCINQ, &waiting) != 0 || waiting < 0) return -1;
        if (tcp_bytes_received(socket, &after) != 0) return -1;
        if (before == after) {
            *received = after;
            *unread = (uint64_t)waiting;
            return 0;
        }
    }
    return -1;
}
