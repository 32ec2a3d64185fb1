// Hides the two libgpiod API generations behind ambience_gpio.h. Which one is compiled is
// decided by the gpiod.h that pkg-config points at: only 1.x defines GPIOD_LINE_BULK_MAX_LINES
// (the line-bulk API was removed in 2.0), so no build flag is needed on either kind of system.

#include "ambience_gpio.h"

#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>

#if defined(GPIOD_LINE_BULK_MAX_LINES)
#define AMBIENCE_GPIOD_GENERATION 1
#else
#define AMBIENCE_GPIOD_GENERATION 2
#endif

int ambience_gpio_api_generation(void) { return AMBIENCE_GPIOD_GENERATION; }

static void copy_string(char *destination, size_t size, const char *source) {
    if (size == 0) return;
    strncpy(destination, source ? source : "", size - 1);
    destination[size - 1] = '\0';
}

#if AMBIENCE_GPIOD_GENERATION == 1

struct ambience_gpio_chip {
    struct gpiod_chip *chip;
};

struct ambience_gpio_request {
    size_t count;
    struct gpiod_line *lines[];
};

const char *ambience_gpio_library_version(void) { return gpiod_version_string(); }

ambience_gpio_chip *ambience_gpio_chip_open(const char *path) {
    ambience_gpio_chip *wrapper = calloc(1, sizeof *wrapper);
    if (!wrapper) return NULL;
    wrapper->chip = gpiod_chip_open(path);
    if (!wrapper->chip) {
        int saved = errno;
        free(wrapper);
        errno = saved;
        return NULL;
    }
    return wrapper;
}

void ambience_gpio_chip_close(ambience_gpio_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

const char *ambience_gpio_chip_name(const ambience_gpio_chip *chip) {
    const char *name = gpiod_chip_name(chip->chip);
    return name ? name : "";
}

const char *ambience_gpio_chip_label(const ambience_gpio_chip *chip) {
    const char *label = gpiod_chip_label(chip->chip);
    return label ? label : "";
}

unsigned int ambience_gpio_chip_line_count(const ambience_gpio_chip *chip) {
    return gpiod_chip_num_lines(chip->chip);
}

int ambience_gpio_line_consumer(
    ambience_gpio_chip *chip, unsigned int offset, char *consumer, size_t consumer_size) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line || gpiod_line_update(line) < 0) return -1;
    if (!gpiod_line_is_used(line)) return 0;
    copy_string(consumer, consumer_size, gpiod_line_consumer(line));
    return 1;
}

ambience_gpio_request *ambience_gpio_request_outputs(
    ambience_gpio_chip *chip, const char *consumer, const unsigned int *offsets,
    const bool *active_low, const int *values, size_t count) {
    ambience_gpio_request *request = calloc(1, sizeof *request + count * sizeof(struct gpiod_line *));
    if (!request) return NULL;
    // 1.6 applies request flags to a whole bulk, so lines with their own active-low flag are
    // requested one by one.
    for (size_t i = 0; i < count; i++) {
        struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offsets[i]);
        int flags = active_low[i] ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
        if (!line || gpiod_line_request_output_flags(line, consumer, flags, values[i] ? 1 : 0) < 0) {
            int saved = errno;
            ambience_gpio_request_release(request);
            errno = saved;
            return NULL;
        }
        request->lines[request->count++] = line;
    }
    return request;
}

int ambience_gpio_request_set_value(ambience_gpio_request *request, size_t index, int value) {
    if (index >= request->count) {
        errno = EINVAL;
        return -1;
    }
    return gpiod_line_set_value(request->lines[index], value ? 1 : 0);
}

void ambience_gpio_request_release(ambience_gpio_request *request) {
    if (!request) return;
    for (size_t i = 0; i < request->count; i++) gpiod_line_release(request->lines[i]);
    free(request);
}

#else

struct ambience_gpio_chip {
    struct gpiod_chip *chip;
    struct gpiod_chip_info *info;
};

struct ambience_gpio_request {
    struct gpiod_line_request *request;
    size_t count;
    unsigned int offsets[];
};

const char *ambience_gpio_library_version(void) { return gpiod_api_version(); }

ambience_gpio_chip *ambience_gpio_chip_open(const char *path) {
    ambience_gpio_chip *wrapper = calloc(1, sizeof *wrapper);
    if (!wrapper) return NULL;
    wrapper->chip = gpiod_chip_open(path);
    if (wrapper->chip) wrapper->info = gpiod_chip_get_info(wrapper->chip);
    if (!wrapper->info) {
        int saved = errno;
        ambience_gpio_chip_close(wrapper);
        errno = saved;
        return NULL;
    }
    return wrapper;
}

void ambience_gpio_chip_close(ambience_gpio_chip *chip) {
    if (!chip) return;
    if (chip->info) gpiod_chip_info_free(chip->info);
    if (chip->chip) gpiod_chip_close(chip->chip);
    free(chip);
}

const char *ambience_gpio_chip_name(const ambience_gpio_chip *chip) {
    const char *name = gpiod_chip_info_get_name(chip->info);
    return name ? name : "";
}

const char *ambience_gpio_chip_label(const ambience_gpio_chip *chip) {
    const char *label = gpiod_chip_info_get_label(chip->info);
    return label ? label : "";
}

unsigned int ambience_gpio_chip_line_count(const ambience_gpio_chip *chip) {
    return (unsigned int)gpiod_chip_info_get_num_lines(chip->info);
}

int ambience_gpio_line_consumer(
    ambience_gpio_chip *chip, unsigned int offset, char *consumer, size_t consumer_size) {
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (!info) return -1;
    int used = gpiod_line_info_is_used(info) ? 1 : 0;
    if (used) copy_string(consumer, consumer_size, gpiod_line_info_get_consumer(info));
    gpiod_line_info_free(info);
    return used;
}

ambience_gpio_request *ambience_gpio_request_outputs(
    ambience_gpio_chip *chip, const char *consumer, const unsigned int *offsets,
    const bool *active_low, const int *values, size_t count) {
    ambience_gpio_request *request = calloc(1, sizeof *request + count * sizeof(unsigned int));
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    int failed = !request || !line_config || !request_config || !settings;
    for (size_t i = 0; !failed && i < count; i++) {
        gpiod_line_settings_reset(settings);
        gpiod_line_settings_set_active_low(settings, active_low[i]);
        failed = gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT) < 0
            || gpiod_line_settings_set_output_value(
                   settings, values[i] ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE) < 0
            || gpiod_line_config_add_line_settings(line_config, &offsets[i], 1, settings) < 0;
        request->offsets[i] = offsets[i];
    }
    if (!failed) {
        gpiod_request_config_set_consumer(request_config, consumer);
        request->request = gpiod_chip_request_lines(chip->chip, request_config, line_config);
        request->count = count;
        failed = !request->request;
    }
    int saved = errno;
    gpiod_line_settings_free(settings);
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    if (failed) {
        free(request);
        errno = saved;
        return NULL;
    }
    return request;
}

int ambience_gpio_request_set_value(ambience_gpio_request *request, size_t index, int value) {
    if (index >= request->count) {
        errno = EINVAL;
        return -1;
    }
    return gpiod_line_request_set_value(
        request->request, request->offsets[index],
        value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
}

void ambience_gpio_request_release(ambience_gpio_request *request) {
    if (!request) return;
    gpiod_line_request_release(request->request);
    free(request);
}

#endif
