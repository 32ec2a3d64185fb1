#ifndef AMBIENCE_GPIO_H
#define AMBIENCE_GPIO_H

// The few GPIO operations the indicator lines need, the same whichever libgpiod generation
// (1.6 or 2.x) shim.c was compiled against. Objects mirror libgpiod 2: a chip, and a request
// of output lines that must be released before its chip is closed. Failures return NULL or -1
// with errno set, as libgpiod does.

#include <stdbool.h>
#include <stddef.h>

typedef struct ambience_gpio_chip ambience_gpio_chip;
typedef struct ambience_gpio_request ambience_gpio_request;

/// 1 or 2: the libgpiod API generation of the headers this shim was compiled against.
int ambience_gpio_api_generation(void);

/// The version of the libgpiod loaded at run time, such as "1.6.3" or "2.2.1".
const char *ambience_gpio_library_version(void);

/// Opens a GPIO character device by path (/dev/gpiochipN).
ambience_gpio_chip *ambience_gpio_chip_open(const char *path);
void ambience_gpio_chip_close(ambience_gpio_chip *chip);

/// The kernel's name (gpiochipN) and label (pinctrl-bcm2711, …) of the chip; never NULL.
const char *ambience_gpio_chip_name(const ambience_gpio_chip *chip);
const char *ambience_gpio_chip_label(const ambience_gpio_chip *chip);
unsigned int ambience_gpio_chip_line_count(const ambience_gpio_chip *chip);

/// 1 if the line is in use (its consumer copied into `consumer`, possibly empty), 0 if free,
/// -1 on error.
int ambience_gpio_line_consumer(
    ambience_gpio_chip *chip, unsigned int offset, char *consumer, size_t consumer_size);

/// Requests `count` lines as outputs, each with its own active-low flag and initial logical
/// value (1 active, 0 inactive). All or nothing: on failure no line stays requested.
ambience_gpio_request *ambience_gpio_request_outputs(
    ambience_gpio_chip *chip, const char *consumer, const unsigned int *offsets,
    const bool *active_low, const int *values, size_t count);

/// Sets the logical value of the line at `index` in the request's order.
int ambience_gpio_request_set_value(ambience_gpio_request *request, size_t index, int value);

void ambience_gpio_request_release(ambience_gpio_request *request);

#endif
