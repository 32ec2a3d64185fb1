// The one runtime hook the embedded standard library leaves to its platform that the core uses:
// Double(String) parses through it. The full runtime's version, reproduced for this program
// with the C library: no leading white space, and the end of what was read (NULL for nothing).
#include <ctype.h>
#include <stdlib.h>

const char *_swift_stdlib_strtod_clocale(const char *text, double *result) {
    if (isspace((unsigned char)*text)) return NULL;
    char *end;
    double value = strtod(text, &end);
    if (end == text) return NULL;
    *result = value;
    return end;
}
