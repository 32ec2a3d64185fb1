/*
 * The C floor for the benchmark: the Python peer's job (ambience_peer.py) as a C programmer
 * would write it, with the same choices, so that the figures of `ambience run` sit between
 * what C costs and what a script costs. A BH1750 read through /dev/i2c-N (I2C_RDWR) at 10 Hz,
 * an exponential moving average, thresholds with hysteresis and a minimum dwell, the state on
 * GPIO lines (libgpiod 1.6, as Debian 12 has it), as a JSON line to a named pipe and atomically
 * into a state file.
 *
 *     ambience_peer_c --bus N --chip /dev/gpiochipN [--lines 0,1,2] [--dir /tmp/peer]
 *
 * Plain on purpose, as such programs are: one loop, nanosleep to the next sample, the pipe
 * opened non-blocking (no reader: skipped; a full pipe: the line dropped). Each change is said on
 * stderr as the Python peer says it ("state A → B"), which is what measure_daemon.py counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <gpiod.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ADDRESS 0x23
#define MTREG 69
#define CONVERSION_SECONDS 0.181
#define INTERVAL 0.1
#define TAU 2.0
#define DWELL 5.0

static const char *states[] = {"invert", "regular", "contrast"};
/* (fall, rise) of the boundary above each state but the last: ambience's defaults. */
static const double boundaries[2][2] = {{20.0, 50.0}, {2500.0, 5000.0}};
static volatile sig_atomic_t running = 1;

static void stop(int signal_number) {
    (void)signal_number;
    running = 0;
}

static double monotonic(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static int indicated(int state, double lux) {
    while (state < 2 && lux > boundaries[state][1]) state++;
    while (state > 0 && lux < boundaries[state - 1][0]) state--;
    return state;
}

static int bus_command(int bus, unsigned char command) {
    struct i2c_msg message = {.addr = ADDRESS, .flags = 0, .len = 1, .buf = &command};
    struct i2c_rdwr_ioctl_data transfer = {.msgs = &message, .nmsgs = 1};
    return ioctl(bus, I2C_RDWR, &transfer) < 0 ? -1 : 0;
}

static int read_lux(int bus, double *lux) {
    unsigned char bytes[2];
    struct i2c_msg message = {.addr = ADDRESS, .flags = I2C_M_RD, .len = 2, .buf = bytes};
    struct i2c_rdwr_ioctl_data transfer = {.msgs = &message, .nmsgs = 1};
    if (ioctl(bus, I2C_RDWR, &transfer) < 0) return -1;
    *lux = (double)(bytes[0] << 8 | bytes[1]) / 1.2 * 69 / MTREG;
    return 0;
}

static void write_pipe(const char *path, int *descriptor, const char *line) {
    if (*descriptor < 0) {
        *descriptor = open(path, O_WRONLY | O_NONBLOCK);
        if (*descriptor < 0) return; /* no reader (ENXIO) */
    }
    if (write(*descriptor, line, strlen(line)) < 0 && errno == EPIPE) {
        close(*descriptor);
        *descriptor = -1;
    }
}

static void write_state_file(const char *path, const char *line) {
    char temporary[4200];
    snprintf(temporary, sizeof temporary, "%s.tmp", path);
    int file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (file < 0) return;
    ssize_t written = write(file, line, strlen(line));
    fsync(file);
    close(file);
    if (written == (ssize_t)strlen(line)) rename(temporary, path);
}

int main(int argc, char **argv) {
    int bus_number = -1;
    const char *chip_path = NULL, *lines = "0,1,2", *directory = "/tmp/ambience-peer-c";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--bus") == 0) bus_number = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--chip") == 0) chip_path = argv[i + 1];
        else if (strcmp(argv[i], "--lines") == 0) lines = argv[i + 1];
        else if (strcmp(argv[i], "--dir") == 0) directory = argv[i + 1];
    }
    if (bus_number < 0 || chip_path == NULL) {
        fprintf(stderr, "usage: %s --bus N --chip /dev/gpiochipN [--lines 0,1,2] [--dir DIR]\n", argv[0]);
        return 2;
    }
    mkdir(directory, 0755);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGTERM, stop);

    unsigned offsets[3];
    if (sscanf(lines, "%u,%u,%u", &offsets[0], &offsets[1], &offsets[2]) != 3) {
        fprintf(stderr, "--lines takes three offsets\n");
        return 2;
    }
    struct gpiod_chip *chip = gpiod_chip_open(chip_path);
    struct gpiod_line_bulk bulk;
    int off[3] = {0, 0, 0};
    if (chip == NULL || gpiod_chip_get_lines(chip, offsets, 3, &bulk) < 0 ||
        gpiod_line_request_bulk_output(&bulk, "ambience-peer-c", off) < 0) {
        perror(chip_path);
        return 1;
    }
    char pipe_path[4096], state_path[4096];
    snprintf(pipe_path, sizeof pipe_path, "%s/state", directory);
    snprintf(state_path, sizeof state_path, "%s/state.json", directory);
    struct stat status;
    if (stat(pipe_path, &status) < 0) mkfifo(pipe_path, 0660);
    else if (!S_ISFIFO(status.st_mode)) {
        fprintf(stderr, "%s exists and is not a FIFO\n", pipe_path);
        return 1;
    }
    int pipe_descriptor = -1;

    char bus_path[64];
    snprintf(bus_path, sizeof bus_path, "/dev/i2c-%d", bus_number);
    int bus = open(bus_path, O_RDWR);
    if (bus < 0) {
        perror(bus_path);
        return 1;
    }
    const unsigned char setup[] = {0x01, 0x07, 0x40 | MTREG >> 5, 0x60 | (MTREG & 0x1F), 0x10};
    for (size_t i = 0; i < sizeof setup; i++)
        if (bus_command(bus, setup[i]) < 0) {
            perror("BH1750");
            return 1;
        }
    struct timespec conversion = {0, (long)(CONVERSION_SECONDS * 1e9)};
    nanosleep(&conversion, NULL);

    int state = -1;
    double filtered = 0, last_time = 0, last_switch = -INFINITY, next_sample = monotonic();
    while (running) {
        double now = monotonic(), lux;
        if (read_lux(bus, &lux) == 0) {
            if (state < 0) filtered = lux;
            else filtered += (1 - exp(-(now - last_time) / TAU)) * (lux - filtered);
            last_time = now;
            int target = indicated(state < 0 ? 1 : state, state < 0 ? lux : filtered);
            if (target != state && (state < 0 || now - last_switch >= DWELL)) {
                char stamp[32], line[512], previous[16];
                time_t wall = time(NULL);
                strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&wall));
                snprintf(previous, sizeof previous, state < 0 ? "null" : "\"%s\"", state < 0 ? "" : states[state]);
                snprintf(line, sizeof line,
                         "{\"event\": \"change\", \"state\": \"%s\", \"previous\": %s, \"animated\": %s, "
                         "\"reason\": \"%s\", \"lux\": %.2f, \"filtered\": %.2f, \"time\": \"%s\"}\n",
                         states[target], previous, state < 0 ? "false" : "true", state < 0 ? "startup" : "light",
                         lux, filtered, stamp);
                fprintf(stderr, "state %s → %s\n", state < 0 ? "none" : states[state], states[target]);
                state = target;
                last_switch = now;
                int values[3];
                for (int i = 0; i < 3; i++) values[i] = i == state;
                gpiod_line_set_value_bulk(&bulk, values);
                write_pipe(pipe_path, &pipe_descriptor, line);
                write_state_file(state_path, line);
            }
        }
        next_sample += INTERVAL;
        double delay = next_sample - monotonic();
        if (delay > 0) {
            struct timespec wait = {(time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9)};
            nanosleep(&wait, NULL);
        } else {
            next_sample = monotonic();
        }
    }
    int values[3] = {0, 0, 0};
    gpiod_line_set_value_bulk(&bulk, values);
    gpiod_line_release_bulk(&bulk);
    gpiod_chip_close(chip);
    return 0;
}
