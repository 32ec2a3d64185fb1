// Linux interfaces that Glibc's Swift module leaves out.
#include <sys/signalfd.h>

#include <fcntl.h>
#include <unistd.h>

// pipe2(2) is declared only under _GNU_SOURCE, which Glibc's module is not built with.
static inline int clinux_pipe2(int fds[2], int flags) {
    extern int pipe2(int pipefd[2], int flags);
    return pipe2(fds, flags);
}

// The kernel's CEC framework (/dev/cecN): its ioctl numbers are macros over sizeof, which Swift
// cannot import, so each request is a function here.
#include <linux/cec.h>
#include <sys/ioctl.h>

static inline int clinux_cec_physical_address(int fd, __u16 *address) {
    return ioctl(fd, CEC_ADAP_G_PHYS_ADDR, address);
}
static inline int clinux_cec_logical_addresses(int fd, struct cec_log_addrs *addresses) {
    return ioctl(fd, CEC_ADAP_G_LOG_ADDRS, addresses);
}
static inline int clinux_cec_claim_logical_addresses(int fd, struct cec_log_addrs *addresses) {
    return ioctl(fd, CEC_ADAP_S_LOG_ADDRS, addresses);
}
static inline int clinux_cec_capabilities(int fd, struct cec_caps *capabilities) {
    return ioctl(fd, CEC_ADAP_G_CAPS, capabilities);
}
static inline int clinux_cec_transmit(int fd, struct cec_msg *message) {
    return ioctl(fd, CEC_TRANSMIT, message);
}
static inline int clinux_cec_receive(int fd, struct cec_msg *message) {
    return ioctl(fd, CEC_RECEIVE, message);
}
