// Linux interfaces that Glibc's Swift module leaves out.
#include <sys/signalfd.h>

#include <fcntl.h>
#include <unistd.h>

// pipe2(2) is declared only under _GNU_SOURCE, which Glibc's module is not built with.
static inline int clinux_pipe2(int fds[2], int flags) {
    extern int pipe2(int pipefd[2], int flags);
    return pipe2(fds, flags);
}
