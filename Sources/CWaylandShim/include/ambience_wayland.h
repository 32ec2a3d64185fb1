// The power of a Wayland session's outputs through wlr-output-power-management-unstable-v1, the
// protocol labwc, wayfire and sway offer and wlopm and swayidle use. libwayland-client is opened
// at run time (dlopen), so a program linked with this runs, and builds, where it is absent: it
// is there wherever a Wayland browser is.
#ifndef AMBIENCE_WAYLAND_H
#define AMBIENCE_WAYLAND_H

enum ambience_output_power_outcome {
    // Every output answered; the counts say how.
    AMBIENCE_OUTPUT_POWER_DONE = 0,
    // libwayland-client.so.0 could not be opened.
    AMBIENCE_OUTPUT_POWER_NO_LIBRARY = 1,
    // No compositor at WAYLAND_DISPLAY (errno says why).
    AMBIENCE_OUTPUT_POWER_NO_COMPOSITOR = 2,
    // The compositor does not offer zwlr_output_power_manager_v1 (cage, GNOME's, KDE's).
    AMBIENCE_OUTPUT_POWER_UNSUPPORTED = 3,
    // The connection broke, or the compositor did not answer within the timeout (errno says).
    AMBIENCE_OUTPUT_POWER_BROKEN = 4,
};

struct ambience_output_power_counts {
    // Outputs the compositor has.
    int outputs;
    // Of them, those whose mode is on and off after the request.
    int on;
    int off;
    // Those whose control object failed: another client holds one, or the output went away.
    int failed;
};

// One request, as wlopm makes it: connects to the session's compositor (WAYLAND_DISPLAY),
// sets every output's power mode to `mode` (0 off, 1 on; -1 only asks), reads each output's mode
// back, and disconnects. No control object outlives the call, so swayidle and wlopm keep working
// beside it. Waits for the compositor at most `timeout_ms` at each step.
enum ambience_output_power_outcome ambience_output_power(int mode, int timeout_ms,
                                                         struct ambience_output_power_counts *counts);

#endif
