// The calls of libmicrohttpd that are variadic in C, which Swift cannot call, as plain functions;
// and what serve asks the kernel about a connection's socket (ioctl is variadic too).
#ifndef AMBIENCE_HTTP_H
#define AMBIENCE_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

// MHD_OPTION_URI_LOG_CALLBACK's function, which microhttpd.h names no type for: called with the
// request target as sent (a C string), before the library decodes it; what it returns becomes the
// request's context.
typedef void *(*ambience_http_uri_logger)(void *context, const char *uri,
                                          struct MHD_Connection *connection);

// A daemon without threads of its own, driven from the caller's poll loop through one epoll
// descriptor, with suspend/resume for event streams. `handler`, `uri_logger` and `notifier`
// (MHD_OPTION_NOTIFY_CONNECTION: each connection's start and end) are all called with
// `context`. NULL when it cannot listen (errno says why).
struct MHD_Daemon *ambience_http_start(const struct sockaddr *address, int ipv6,
                                       unsigned connection_limit, size_t memory_limit,
                                       unsigned timeout_seconds, MHD_AccessHandlerCallback handler,
                                       ambience_http_uri_logger uri_logger,
                                       MHD_NotifyConnectionCallback notifier, void *context);

// The epoll descriptor to wait on for input before MHD_run; -1 when there is none.
int ambience_http_epoll_fd(struct MHD_Daemon *daemon);

// The connection's socket; -1 when unknown.
int ambience_http_connection_fd(struct MHD_Connection *connection);

// The port the daemon listens on (useful with port 0); 0 when unknown.
unsigned ambience_http_port(struct MHD_Daemon *daemon);

// Of a TCP connection: the bytes of data it has received since it was opened (the kernel's
// tcpi_bytes_received, less the peer's FIN) and how many of them no one has read yet, taken at
// one instant: the count is read before and after the unread bytes and must agree. Their
// difference is what has been read. 0 on success; -1 when the kernel does not tell, data kept
// arriving, or this side has closed or shut down its end.
int ambience_tcp_received(int socket, uint64_t *received, uint64_t *unread);

#endif
