// Glibc's headers for Embedded Swift, which has no Glibc overlay: the module Glibc.swift
// re-exports, with small wrappers for what Swift cannot call or import as C declares it.
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

// Variadic in C, so not callable from Swift: one fixed form each.
static inline int cglibc_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
static inline int cglibc_fcntl(int fd, int command, int argument) { return fcntl(fd, command, argument); }
static inline int cglibc_ioctl_value(int fd, unsigned long request, int value) { return ioctl(fd, request, value); }
static inline int cglibc_ioctl_pointer(int fd, unsigned long request, void *pointer) {
    return ioctl(fd, request, pointer);
}

// Macros Swift does not import: errno is a function call, SIG_IGN and SIG_DFL casts.
static inline int *cglibc_errno(void) { return &errno; }
static inline char **cglibc_environ(void) {
    extern char **environ;  // declared by unistd.h only under _GNU_SOURCE, which the module is built without
    return environ;
}
static inline __sighandler_t cglibc_sig_ign(void) { return SIG_IGN; }
static inline __sighandler_t cglibc_sig_dfl(void) { return SIG_DFL; }
