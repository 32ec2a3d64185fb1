// libmicrohttpd (Debian: libmicrohttpd-dev), 0.9.75 in Debian 12 and 1.0 in Debian 13.
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
