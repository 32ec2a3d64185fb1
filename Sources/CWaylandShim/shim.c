// See ambience_wayland.h. The protocol's two interfaces are described here as the wayland-scanner
// would describe them, from the protocol's definition; libwayland-client's own (wl_registry,
// wl_output, wl_callback) come from the library.
#define _GNU_SOURCE
#include "ambience_wayland.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

// libwayland-client's public structures (wayland-util.h), stable since 1.0.
struct wl_message {
    const char *name;
    const char *signature;
    const struct wl_interface **types;
};
struct wl_interface {
    const char *name;
    int version;
    int method_count;
    const struct wl_message *methods;
    int event_count;
    const struct wl_message *events;
};
struct wl_proxy;
struct wl_display;
typedef void (*listener_function)(void);

static struct {
    struct wl_display *(*connect)(const char *name);
    void (*disconnect)(struct wl_display *display);
    int (*get_fd)(struct wl_display *display);
    int (*flush)(struct wl_display *display);
    int (*prepare_read)(struct wl_display *display);
    int (*read_events)(struct wl_display *display);
    void (*cancel_read)(struct wl_display *display);
    int (*dispatch_pending)(struct wl_display *display);
    struct wl_proxy *(*marshal_constructor)(struct wl_proxy *proxy, uint32_t opcode,
                                            const struct wl_interface *interface, ...);
    struct wl_proxy *(*marshal_constructor_versioned)(struct wl_proxy *proxy, uint32_t opcode,
                                                      const struct wl_interface *interface,
                                                      uint32_t version, ...);
    void (*marshal)(struct wl_proxy *proxy, uint32_t opcode, ...);
    int (*add_listener)(struct wl_proxy *proxy, listener_function *functions, void *data);
    void (*destroy)(struct wl_proxy *proxy);
    const struct wl_interface *registry_interface;
    const struct wl_interface *output_interface;
    const struct wl_interface *callback_interface;
} wl;

static int load_library(void) {
    static int loaded;  // 0 not tried, 1 loaded, -1 absent
    if (loaded) return loaded > 0;
    loaded = -1;
    void *library = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    void **slots[] = {
        (void **)&wl.connect, (void **)&wl.disconnect, (void **)&wl.get_fd, (void **)&wl.flush,
        (void **)&wl.prepare_read, (void **)&wl.read_events, (void **)&wl.cancel_read,
        (void **)&wl.dispatch_pending, (void **)&wl.marshal_constructor,
        (void **)&wl.marshal_constructor_versioned, (void **)&wl.marshal, (void **)&wl.add_listener,
        (void **)&wl.destroy, (void **)&wl.registry_interface, (void **)&wl.output_interface,
        (void **)&wl.callback_interface,
    };
    const char *names[] = {
        "wl_display_connect", "wl_display_disconnect", "wl_display_get_fd", "wl_display_flush",
        "wl_display_prepare_read", "wl_display_read_events", "wl_display_cancel_read",
        "wl_display_dispatch_pending", "wl_proxy_marshal_constructor",
        "wl_proxy_marshal_constructor_versioned", "wl_proxy_marshal", "wl_proxy_add_listener",
        "wl_proxy_destroy", "wl_registry_interface", "wl_output_interface", "wl_callback_interface",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        *slots[i] = dlsym(library, names[i]);
        if (!*slots[i]) return 0;
    }
    loaded = 1;
    return 1;
}

// zwlr_output_power_manager_v1 and zwlr_output_power_v1, version 1.
static const struct wl_interface power_interface;
static const struct wl_interface *get_output_power_types[2];  // the new object's, wl_output's
static const struct wl_interface *no_types[1];
static const struct wl_message manager_requests[] = {
    {"get_output_power", "no", get_output_power_types},
    {"destroy", "", no_types},
};
static const struct wl_interface manager_interface = {
    "zwlr_output_power_manager_v1", 1, 2, manager_requests, 0, NULL,
};
static const struct wl_message power_requests[] = {
    {"set_mode", "u", no_types},
    {"destroy", "", no_types},
};
static const struct wl_message power_events[] = {
    {"mode", "u", no_types},
    {"failed", "", no_types},
};
static const struct wl_interface power_interface = {
    "zwlr_output_power_v1", 1, 2, power_requests, 2, power_events,
};
enum { DISPLAY_SYNC = 0, DISPLAY_GET_REGISTRY = 1, REGISTRY_BIND = 0 };
enum { MANAGER_GET_OUTPUT_POWER = 0, MANAGER_DESTROY = 1, POWER_SET_MODE = 0, POWER_DESTROY = 1 };

enum { MAX_OUTPUTS = 16 };
struct output {
    struct wl_proxy *output;
    struct wl_proxy *power;
    int mode;  // -1 not said, 0 off, 1 on
    int failed;
};
struct session {
    struct wl_display *display;
    struct wl_proxy *registry;
    struct wl_proxy *manager;
    struct output outputs[MAX_OUTPUTS];
    int count;
};

static void registry_global(void *data, struct wl_proxy *registry, uint32_t name,
                            const char *interface, uint32_t version) {
    (void)version;
    struct session *session = data;
    if (strcmp(interface, "wl_output") == 0 && session->count < MAX_OUTPUTS) {
        struct output *output = &session->outputs[session->count++];
        output->output = wl.marshal_constructor_versioned(
            registry, REGISTRY_BIND, wl.output_interface, 1, name, wl.output_interface->name, 1, NULL);
        output->mode = -1;
    } else if (strcmp(interface, manager_interface.name) == 0 && !session->manager) {
        session->manager = wl.marshal_constructor_versioned(
            registry, REGISTRY_BIND, &manager_interface, 1, name, manager_interface.name, 1, NULL);
    }
}

static void registry_global_remove(void *data, struct wl_proxy *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static void power_mode(void *data, struct wl_proxy *power, uint32_t mode) {
    (void)power;
    ((struct output *)data)->mode = mode == 1;
}

static void power_failed(void *data, struct wl_proxy *power) {
    (void)power;
    ((struct output *)data)->failed = 1;
}

static void sync_done(void *data, struct wl_proxy *callback, uint32_t serial) {
    (void)callback, (void)serial;
    *(int *)data = 1;
}

static long long milliseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

// wl_display_roundtrip with a bound: the library's own waits for ever on a compositor that hangs.
static int roundtrip(struct wl_display *display, int timeout_ms) {
    static listener_function callback_listener[] = {(listener_function)sync_done};
    int done = 0;
    struct wl_proxy *callback =
        wl.marshal_constructor((struct wl_proxy *)display, DISPLAY_SYNC, wl.callback_interface, NULL);
    if (!callback) return -1;
    wl.add_listener(callback, callback_listener, &done);
    long long deadline = milliseconds() + timeout_ms;
    int result = 0;
    while (!done) {
        if (wl.prepare_read(display) != 0) {
            if (wl.dispatch_pending(display) < 0) { result = -1; break; }
            continue;
        }
        if (wl.flush(display) < 0 && errno != EAGAIN) {
            wl.cancel_read(display);
            result = -1;
            break;
        }
        long long remaining = deadline - milliseconds();
        struct pollfd poller = {.fd = wl.get_fd(display), .events = POLLIN};
        int ready = remaining > 0 ? poll(&poller, 1, (int)remaining) : 0;
        if (ready < 0 && errno == EINTR) {
            wl.cancel_read(display);
            continue;
        }
        if (ready <= 0) {
            wl.cancel_read(display);
            if (ready == 0) errno = ETIMEDOUT;
            result = -1;
            break;
        }
        if (wl.read_events(display) < 0 || wl.dispatch_pending(display) < 0) { result = -1; break; }
    }
    wl.destroy(callback);
    return result;
}

static void release(struct session *session) {
    for (int i = 0; i < session->count; i++) {
        struct output *output = &session->outputs[i];
        if (output->power) {
            wl.marshal(output->power, POWER_DESTROY);
            wl.destroy(output->power);
        }
        if (output->output) wl.destroy(output->output);
    }
    if (session->manager) {
        wl.marshal(session->manager, MANAGER_DESTROY);
        wl.destroy(session->manager);
    }
    if (session->registry) wl.destroy(session->registry);
    // The destroy requests reach the compositor before the socket closes.
    wl.flush(session->display);
    wl.disconnect(session->display);
}

enum ambience_output_power_outcome ambience_output_power(int mode, int timeout_ms,
                                                         struct ambience_output_power_counts *counts) {
    static listener_function registry_listener[] = {
        (listener_function)registry_global, (listener_function)registry_global_remove,
    };
    static listener_function power_listener[] = {
        (listener_function)power_mode, (listener_function)power_failed,
    };
    memset(counts, 0, sizeof *counts);
    if (!load_library()) return AMBIENCE_OUTPUT_POWER_NO_LIBRARY;
    get_output_power_types[0] = &power_interface;
    get_output_power_types[1] = wl.output_interface;

    struct session session = {0};
    session.display = wl.connect(NULL);
    if (!session.display) return AMBIENCE_OUTPUT_POWER_NO_COMPOSITOR;
    enum ambience_output_power_outcome outcome = AMBIENCE_OUTPUT_POWER_BROKEN;
    session.registry = wl.marshal_constructor((struct wl_proxy *)session.display, DISPLAY_GET_REGISTRY,
                                              wl.registry_interface, NULL);
    if (!session.registry) goto done;
    wl.add_listener(session.registry, registry_listener, &session);
    if (roundtrip(session.display, timeout_ms) < 0) goto done;
    counts->outputs = session.count;
    if (!session.manager) {
        outcome = AMBIENCE_OUTPUT_POWER_UNSUPPORTED;
        goto done;
    }
    for (int i = 0; i < session.count; i++) {
        struct output *output = &session.outputs[i];
        output->power = wl.marshal_constructor(session.manager, MANAGER_GET_OUTPUT_POWER, &power_interface,
                                               NULL, output->output);
        if (output->power) wl.add_listener(output->power, power_listener, output);
    }
    // Each control object says its output's mode when it is made.
    if (roundtrip(session.display, timeout_ms) < 0) goto done;
    if (mode >= 0) {
        int changed = 0;
        for (int i = 0; i < session.count; i++) {
            struct output *output = &session.outputs[i];
            if (output->power && !output->failed && output->mode != mode) {
                wl.marshal(output->power, POWER_SET_MODE, (uint32_t)mode);
                changed = 1;
            }
        }
        // The compositor commits the output and says its new mode.
        if (changed && roundtrip(session.display, timeout_ms) < 0) goto done;
    }
    for (int i = 0; i < session.count; i++) {
        struct output *output = &session.outputs[i];
        if (output->failed || !output->power) counts->failed++;
        else if (output->mode == 1) counts->on++;
        else if (output->mode == 0) counts->off++;
    }
    outcome = AMBIENCE_OUTPUT_POWER_DONE;
done:;
    int saved = errno;
    release(&session);
    errno = saved;
    return outcome;
}
