// The calls of libmicrohttpd that are variadic in C, which Swift cannot call, as plain functions.
#ifndef AMBIENCE_HTTP_H
#define AMBIENCE_HTTP_H

#include <stddef.h>
#include <sys/socket.h>
#include <microhttpd.h>

// A daemon without threads of its own, driven from the caller's poll loop through one epoll
// descriptor, with suspend/resume for event streams. NULL when it cannot listen (errno says why).
struct MHD_Daemon *ambience_http_start(const struct sockaddr *address, int ipv6,
                                       unsigned connection_limit, size_t memory_limit,
                                       unsigned timeout_seconds, MHD_AccessHandlerCallback handler,
                                       void *handler_context);

// The epoll descriptor to wait on for input before MHD_run; -1 when there is none.
int ambience_http_epoll_fd(struct MHD_Daemon *daemon);

// The connection's socket; -1 when unknown.
int ambience_http_connection_fd(struct MHD_Connection *connection);

// The port the daemon listens on (useful with port 0); 0 when unknown.
unsigned ambience_http_port(struct MHD_Daemon *daemon);

#endif
