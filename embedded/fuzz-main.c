// A fuzz target's entry (LLVMFuzzerTestOneInput) run over the files named on the command line,
// each read whole and given once, as libFuzzer replays a corpus: for the fuzz targets built in
// Embedded Swift (scripts/embedded-build.sh --fuzz), which have no libFuzzer to run them. An input
// the target rejects traps in the target; a file that cannot be read ends this with status 2.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        FILE *file = fopen(argv[i], "rb");
        if (!file) {
            perror(argv[i]);
            return 2;
        }
        size_t capacity = 4096, size = 0;
        uint8_t *data = malloc(capacity);
        size_t got;
        while (data && (got = fread(data + size, 1, capacity - size, file)) > 0) {
            size += got;
            if (size < capacity) continue;
            uint8_t *larger = realloc(data, capacity *= 2);
            if (!larger) free(data);
            data = larger;
        }
        int failed = ferror(file) || !data;
        fclose(file);
        if (failed) {
            fprintf(stderr, "%s: cannot be read\n", argv[i]);
            return 2;
        }
        LLVMFuzzerTestOneInput(data, size);
        free(data);
    }
    return 0;
}
