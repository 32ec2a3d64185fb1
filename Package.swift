// swift-tools-version:6.0
import PackageDescription

// Data flows one way: bus → driver → reading → filter → engine → event → sinks.
// Dependencies point downward only: the programs → AmbienceDaemon → sensors/outputs →
// AmbienceConfig → AmbienceCore. `ambience run` execs ambience-run, the daemon alone.
// AmbienceSimulation (the test doubles, for tests and `simulate`) builds on the daemon; the daemon
// never imports it. Each program decodes its own table of the one file through AmbienceConfig.
// Every program's command line (arguments, exit codes, --help) is AmbienceCommandLine's.
// The companions (ambience-kiosk, -serve, -mqtt) read the pipe and write the control pipe through
// AmbienceClient, which links neither libgpiod nor libi2c; AmbienceOutputs takes its runtime paths
// from there. Every target declares each module it imports.
// libFuzzer targets, only when asked for (AMBIENCE_FUZZ=1 swift build --sanitize=fuzzer …): their
// entry point is libFuzzer's main, so they cannot link in an ordinary build. See scripts/fuzz.sh.
let fuzzTargets: [Target] =
    Context.environment["AMBIENCE_FUZZ"] == nil
    ? []
    : [
        (
            "FuzzConfiguration", "Fuzz/Configuration",
            [
                "AmbienceDaemon", "AmbienceConfig", "AmbienceKiosk", "AmbienceServe", "AmbienceMQTT",
            ]
        ),
        ("FuzzReplayRows", "Fuzz/ReplayRows", ["AmbienceCore", "AmbienceRecord"]),
        ("FuzzControlLines", "Fuzz/ControlLines", ["AmbienceCore"]),
        ("FuzzDisplayReplies", "Fuzz/DisplayReplies", ["AmbienceDisplayProtocols"]),
        ("FuzzEventLines", "Fuzz/EventLines", ["AmbienceCore"]),
        ("FuzzJSON", "Fuzz/JSON", ["JSON"]),
        ("FuzzServeRequests", "Fuzz/ServeRequests", ["AmbienceServe"]),
        ("FuzzDevToolsMessages", "Fuzz/DevToolsMessages", ["AmbienceCore", "AmbienceKiosk", "JSON"]),
    ].map { name, path, libraries in
        .executableTarget(
            name: name, dependencies: libraries.map { .target(name: $0) } + ["AmbienceSystem"], path: path,
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    }

let package = Package(
    name: "ambience",
    products: [
        .executable(name: "ambience", targets: ["ambience"]),
        .executable(name: "ambience-run", targets: ["ambience-run"]),
        .executable(name: "ambience-serve", targets: ["ambience-serve"]),
        .executable(name: "ambience-mqtt", targets: ["ambience-mqtt"]),
        .executable(name: "ambience-kiosk", targets: ["ambience-kiosk"]),
    ],
    targets: [
        // Pure: states, thresholds, filter, engine, events, event and control lines. No I/O, no
        // Foundation.
        .target(name: "AmbienceCore", dependencies: ["JSON"]),

        // Pure: the record of the light and its compact format, traces read and run through the
        // engine, their summaries, replay, and the sample schedule on the record's grid.
        .target(name: "AmbienceRecord", dependencies: ["AmbienceCore"]),

        // Pure: the displays' messages, bytes in and bytes out: DDC/CI, the EDID, HDMI-CEC.
        .target(name: "AmbienceDisplayProtocols", dependencies: ["AmbienceCore"]),

        // JSON values, parsed and written: event lines, and what the companions exchange with
        // browsers and brokers. Pure.
        .target(name: "JSON"),

        // Typed errno, EINTR-safe descriptors, line reading: the one way this project makes syscalls.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        .target(name: "AmbienceSystem", dependencies: ["CLinux"]),

        // Every program's command line: arguments, the exit codes, usage errors, --help, and the
        // one `main` that prints a fatal error at err and ends with its code.
        .target(name: "AmbienceCommandLine", dependencies: ["AmbienceSystem"]),

        // The daemon's clients: following a named pipe by its path (PipeFollower), the state in
        // its lines (StateFollower), one line to the control pipe (DaemonControl), the runtime
        // paths. No libgpiod, no libi2c: what the companions link to talk to the daemon.
        .target(name: "AmbienceClient", dependencies: ["AmbienceCore", "AmbienceSystem"]),

        // GPIO indicator lines (libgpiod), the named pipe, the state file, the control pipe.
        // CGPIODShim compiles against whichever libgpiod generation pkg-config finds (1.6 or 2.x).
        .systemLibrary(name: "CGPIOD", path: "Sources/CGPIOD", pkgConfig: "libgpiod"),
        .target(name: "CGPIODShim", dependencies: ["CGPIOD"]),
        // AmbienceI2C: a DDC/CI monitor's backlight (Backlight/) is driven over the same
        // /dev/i2c-N buses, named the same way, as the sensors.
        .target(
            name: "AmbienceOutputs",
            dependencies: [
                "AmbienceClient", "AmbienceCore", "AmbienceDisplayProtocols", "AmbienceI2C", "AmbienceRecord",
                "AmbienceSystem", "CGPIODShim",
            ]),

        // The I2C layer the sensors and a DDC/CI monitor share: the bus protocol, i2c-dev, buses by
        // adapter name and reopened after a failure, and what a failed transfer means.
        .systemLibrary(name: "CI2C", path: "Sources/CI2C"),
        .target(name: "AmbienceI2C", dependencies: ["AmbienceSystem", "CI2C"]),

        // One folder per chip (Chips/NAME): its driver, settings and descriptor (kind, addresses,
        // [sensor.NAME] table, probe, driver), listed in Chips.all.
        .target(
            name: "AmbienceSensors",
            dependencies: ["AmbienceCore", "AmbienceI2C", "AmbienceSystem", "AmbienceConfig"]),

        // The TOML the project reads: text → typed values with line numbers. Pure, fuzzable alone.
        .target(name: "TOML"),

        // The configuration file every program reads: the layered decoder (the file over its board
        // profile), its FILE:LINE: KEY faults and the file loading. Each program's tables are
        // decoded in that program's module with it: no program links another's settings.
        .target(name: "AmbienceConfig", dependencies: ["AmbienceCore", "AmbienceSystem", "TOML"]),

        // The daemon's tables, the run loop, signals, systemd: `ambience run`.
        .target(
            name: "AmbienceDaemon",
            dependencies: [
                "AmbienceCore", "AmbienceRecord", "AmbienceSystem", "AmbienceI2C", "AmbienceSensors",
                "AmbienceOutputs", "TOML", "AmbienceConfig", "AmbienceCommandLine",
            ]),
        // `ambience run` execs this: the daemon alone, the executable the unit keeps running.
        .executableTarget(name: "ambience-run", dependencies: ["AmbienceDaemon", "AmbienceCommandLine"]),

        // The mock bus, register-level chip emulators, fake GPIO chips, light profiles and the
        // simulated daemon's parts: for tests and `simulate`, never `run`. It builds on the daemon;
        // the daemon never imports it.
        .target(
            name: "AmbienceSimulation",
            dependencies: [
                "AmbienceCore", "AmbienceDisplayProtocols", "AmbienceRecord", "AmbienceSystem", "AmbienceI2C",
                "AmbienceSensors", "AmbienceOutputs", "AmbienceDaemon",
            ]),

        // `ambience plot`: a trace and its engine runs drawn as one SVG document. Pure, no I/O.
        .target(name: "AmbiencePlot", dependencies: ["AmbienceCore", "AmbienceRecord"]),
        // `ambience kiosk`: the DevTools protocol session that keeps a browser's pages at the room's
        // colour scheme, and its settings. Pure; the program around it does the I/O.
        .target(name: "AmbienceKiosk", dependencies: ["AmbienceClient", "AmbienceCore", "AmbienceConfig", "JSON", "TOML"]),
        // A Wayland session's output power (wlr-output-power-management), for `[display] device =
        // "wayland"` (the kiosk) and `ambience probe`: libwayland-client opened at run time, so
        // nothing more to link or depend on.
        .target(name: "CWaylandShim"),
        .target(name: "AmbienceWayland", dependencies: ["AmbienceCore", "AmbienceSystem", "CWaylandShim"]),
        .executableTarget(
            name: "ambience-kiosk",
            dependencies: [
                "AmbienceClient", "AmbienceCore", "AmbienceKiosk", "AmbienceConfig", "AmbienceSystem",
                "AmbienceCommandLine", "AmbienceWayland",
            ]),

        // The command line only: arguments in, library calls, errors to exit codes.
        .executableTarget(
            name: "ambience",
            dependencies: [
                "AmbienceClient", "AmbienceCore", "AmbienceDaemon", "AmbienceDisplayProtocols", "AmbienceI2C",
                "AmbienceOutputs", "AmbiencePlot", "AmbienceRecord", "AmbienceSensors",
                "AmbienceSimulation", "AmbienceSystem", "AmbienceCommandLine", "AmbienceConfig",
                "AmbienceKiosk",
                "AmbienceServe", "AmbienceMQTT", "AmbienceWayland",
            ]),

        // `ambience serve`: the state over loopback HTTP. The routing, limits, event-stream framing
        // and the page's script are pure (AmbienceServe); libmicrohttpd drives them at the edge.
        // No pkgConfig: libmicrohttpd.pc's `-L/usr/lib/<multiarch>` would come before another
        // library's own prefix (libgpiod 2 in /opt for make test-gpiod2) and link the wrong one.
        // Its header and library are in the default paths, a cross build's sysroot included.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"]),
        .target(name: "AmbienceServe", dependencies: ["AmbienceCore", "AmbienceConfig", "AmbienceSystem", "TOML"]),
        .executableTarget(
            name: "ambience-serve",
            dependencies: [
                "AmbienceClient", "AmbienceCore", "AmbienceServe", "AmbienceConfig", "AmbienceSystem",
                "AmbienceCommandLine",
                "CMicroHTTPD",
                "CMicroHTTPDShim",
            ],
            path: "Sources/ambience-serve"),

        // `ambience mqtt`: the daemon's events to an MQTT broker and Home Assistant, overrides back.
        // AmbienceMQTT is its pure part (topics, payloads, discovery, commands, backoff); the
        // program drives libmosquitto by hand, the broker's socket one source of the EventLoop of
        // AmbienceSystem that every program runs on.
        .target(
            name: "AmbienceMQTT",
            dependencies: ["AmbienceClient", "AmbienceCore", "AmbienceConfig", "JSON", "TOML"]),
        .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto", pkgConfig: "libmosquitto"),
        .executableTarget(
            name: "ambience-mqtt",
            dependencies: [
                "AmbienceClient", "AmbienceCore", "AmbienceMQTT", "AmbienceConfig", "AmbienceSystem",
                "AmbienceCommandLine",
                "CMosquitto",
            ]),
        .executableTarget(
            name: "AmbienceBench",
            dependencies: [
                "AmbienceCore", "AmbienceSystem", "AmbienceSensors", "AmbienceSimulation", "AmbienceOutputs",
            ],
            path: "Benchmarks/AmbienceBench"),

        // What the test targets share (the scripted loop waiter, scratch directories, input devices
        // as files, the engine's hand-written fixtures); no production target imports it.
        .target(name: "AmbienceTestSupport", dependencies: ["AmbienceCore", "AmbienceSystem"], path: "Tests/TestSupport"),
        .testTarget(
            name: "AmbienceCoreTests", dependencies: ["AmbienceCore", "AmbienceTestSupport"],
            exclude: ["Fixtures"]),  // read by PortableMathTests from beside its source
        .testTarget(name: "AmbienceRecordTests", dependencies: ["AmbienceCore", "AmbienceRecord", "AmbienceTestSupport"]),
        .testTarget(
            name: "AmbienceDisplayProtocolsTests", dependencies: ["AmbienceCore", "AmbienceDisplayProtocols"]),
        .testTarget(name: "AmbiencePlotTests", dependencies: ["AmbienceCore", "AmbiencePlot", "AmbienceRecord"]),
        .testTarget(name: "AmbienceSystemTests", dependencies: ["AmbienceSystem", "AmbienceTestSupport"]),
        .testTarget(
            name: "AmbienceSensorsTests",
            dependencies: [
                "AmbienceCore", "AmbienceI2C", "AmbienceSensors", "AmbienceSimulation", "AmbienceSystem",
            ]),
        .testTarget(
            name: "AmbienceClientTests",
            dependencies: ["AmbienceTestSupport", "AmbienceClient", "AmbienceCore", "AmbienceSystem"]),
        .testTarget(
            name: "AmbienceOutputsTests",
            dependencies: [
                "AmbienceTestSupport", "AmbienceClient", "AmbienceCore", "AmbienceDisplayProtocols", "AmbienceI2C",
                "AmbienceOutputs", "AmbienceSimulation", "AmbienceSystem",
            ]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML"]),
        .testTarget(name: "AmbienceCommandLineTests", dependencies: ["AmbienceCommandLine"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "AmbienceKioskTests", dependencies: ["AmbienceKiosk", "AmbienceCore", "JSON"]),
        .testTarget(
            name: "AmbienceMQTTTests",
            dependencies: ["AmbienceMQTT", "AmbienceConfig", "AmbienceSystem", "JSON"]),
        .testTarget(
            name: "AmbienceDaemonTests",
            dependencies: [
                "AmbienceTestSupport",
                "AmbienceClient", "AmbienceDaemon", "AmbienceSimulation", "AmbienceKiosk", "AmbienceConfig",
                "AmbienceCore",
                "AmbienceSystem", "AmbienceDisplayProtocols", "AmbienceI2C", "AmbienceOutputs", "AmbienceRecord",
                "AmbienceSensors", "TOML",
            ]),
        .testTarget(name: "AmbienceServeTests", dependencies: ["AmbienceServe", "AmbienceConfig"]),
    ] + fuzzTargets
)
