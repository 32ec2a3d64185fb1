// Linux interfaces that Glibc's Swift module leaves out.
#include <sys/signalfd.h>
