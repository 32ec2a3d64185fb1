// In-process benchmarks of the release build, for scripts/bench.sh: each prints one line
// `name median min max unit runs` over several runs. Figures, not assertions: nothing here fails
// on a slow machine.
//
//   AmbienceBench engine|pipeline|stall [RUNS]
import AmbienceCore
import AmbienceOutputs
import AmbienceSensors
import AmbienceSimulation
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let systemClock = SystemClock()

func report(_ name: String, _ values: [Double], unit: String) {
    let sorted = values.sorted()
    let median =
        sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    print("\(name) \(median) \(sorted.first!) \(sorted.last!) \(unit) \(values.count)")
}

/// A light that crosses both boundaries now and then, with some noise: the engine's usual work,
/// and now and then a switch.
func light(at time: Double) -> Double {
    let levels = [8.0, 300, 9000, 300]
    let level = levels[Int(time / 40) % levels.count]
    let wobble = sin(time * 7.3) * 0.05
    return level * (1 + wobble)
}

// MARK: (a) the engine alone

/// Samples per second through `Engine.ingest`, 10 Hz simulated time.
func engineThroughput(samples: Int) -> Double {
    var engine = Engine(configuration: .indoorKiosk, startTime: 0)
    var events = 0
    let start = systemClock.now
    for index in 0..<samples {
        let time = Double(index) * 0.1
        events &+= engine.ingest(Sample(time: time, lux: light(at: time))).count
    }
    let elapsed = systemClock.now - start
    precondition(events > 0)
    return Double(samples) / elapsed
}

// MARK: (c) and (g): the pipeline around the engine

/// The daemon's per-sample path without its wait: the emulated BH1750 on the mock bus through the
/// real driver, the engine (filter inside), and every event fanned out to a named pipe with a
/// reader, the state file and GPIO lines (FakeGPIO).
final class Pipeline {
    let clock = ManualClock(now: 0)
    let directory: String
    let sensor: BH1750
    var engine = Engine(configuration: .indoorKiosk, startTime: 0)
    let pipe: NamedPipeSink
    let sinks: [any Sink]
    let reader: Int32
    var flip = false

    init(directory: String) throws {
        self.directory = directory
        let bus = MockI2CBus(clock: clock)
        bus.attach(BH1750Emulator(light: light(at:)), at: 0x23)
        sensor = BH1750(bus: bus, address: 0x23, settings: .automatic, clock: clock)
        let log: OutputLog = { print("output: \($0)") }
        let renderTime = EventTime.wallClock(monotonic: clock)
        pipe = try NamedPipeSink(
            NamedPipeSink.Configuration(path: directory + "/state"), renderTime: renderTime, log: log)
        reader = open(directory + "/state", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        precondition(reader >= 0, "cannot open the pipe for reading")
        let devices = FakeGPIO(chips: [FakeGPIO.Chip(name: "gpiochip0", label: "bench", lineCount: 8)])
        let gpio = try GPIOIndicator(
            GPIOIndicator.Configuration(
                chip: "gpiochip0", lines: [.invert: 0, .regular: 1, .contrast: 2], fault: 3),
            devices: devices, log: log)
        sinks = [
            gpio, pipe, try StateFileSink(path: directory + "/state.json", renderTime: renderTime, log: log),
        ]
        pipe.poll(now: 0)
        precondition(pipe.isConnected, "the pipe sink did not find its reader")
    }

    /// One sample 0.1 s after the last, as the daemon takes it. `forceEvent`: a change event
    /// on every sample as well, so every sink writes each time (the worst case).
    func step(forceEvent: Bool) {
        clock.advance(by: 0.1)
        let reading = try? sensor.read(waitingOn: clock)
        var events = engine.ingest(Sample(time: clock.now, lux: reading?.lux))
        if forceEvent {
            flip.toggle()
            events.append(
                Event(
                    kind: .change, state: flip ? .contrast : .regular, previous: flip ? .regular : .contrast,
                    animated: true, reason: .light, lux: reading?.lux, filtered: engine.filteredLux,
                    time: clock.now))
        }
        for event in events {
            for sink in sinks { sink.deliver(event) }
        }
        // The daemon polls its sinks once a second.
        if Int((clock.now * 10).rounded()) % 10 == 0 {
            for sink in sinks { sink.poll(now: clock.now) }
        }
    }

    /// What a kiosk reading the pipe does (not timed).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while read(reader, &buffer, buffer.count) > 0 {}
    }

    func close() {
        for sink in sinks { sink.close() }
        Glibc.close(reader)
        unlink(directory + "/state.json")
        unlink(directory + "/state")
        rmdir(directory)
    }
}

/// On tmpfs, as /run is on a Pi (the state file's default place): /dev/shm where there is one,
/// since a disk's fsync would measure the disk. AMBIENCE_BENCH_DIR chooses another place.
func makeDirectory() -> String {
    let parent =
        getenv("AMBIENCE_BENCH_DIR").map { String(cString: $0) }
        ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp")
    var template = Array((parent + "/ambience-bench-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "mkdtemp failed")
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Microseconds per sample: the first figure with the usual events only, the second with an
/// event written to every sink on every sample.
func pipelineCost(samples: Int, forceEvent: Bool) throws -> Double {
    let pipeline = try Pipeline(directory: makeDirectory())
    defer { pipeline.close() }
    for _ in 0..<100 { pipeline.step(forceEvent: forceEvent) }  // past initialisation and ranging
    pipeline.drain()
    var total = 0.0
    for _ in 0..<samples {
        let start = systemClock.now
        pipeline.step(forceEvent: forceEvent)
        total += systemClock.now - start
        pipeline.drain()
    }
    return total / Double(samples) * 1e6
}

/// The longest single sample (event to every sink included) while the pipe's reader holds it open
/// and reads nothing, as a stopped process does: the pipe fills after a few hundred lines, and
/// from then on lines are dropped. Milliseconds.
func stoppedReaderStall(samples: Int) throws -> Double {
    let pipeline = try Pipeline(directory: makeDirectory())
    defer { pipeline.close() }
    var longest = 0.0
    for _ in 0..<samples {
        let start = systemClock.now
        pipeline.step(forceEvent: true)
        longest = max(longest, systemClock.now - start)
    }
    return longest * 1e3
}

let arguments = CommandLine.arguments
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 7 : 7
switch arguments.count > 1 ? arguments[1] : "" {
case "engine":
    _ = engineThroughput(samples: 200_000)
    report("engine", (0..<runs).map { _ in engineThroughput(samples: 2_000_000) }, unit: "samples/s")
case "pipeline":
    report(
        "pipeline", try (0..<runs).map { _ in try pipelineCost(samples: 20_000, forceEvent: false) },
        unit: "us")
    report(
        "pipeline-event", try (0..<runs).map { _ in try pipelineCost(samples: 2_000, forceEvent: true) },
        unit: "us")
case "stall":
    report("stall", try (0..<runs).map { _ in try stoppedReaderStall(samples: 2_000) }, unit: "ms")
default:
    print("usage: AmbienceBench engine|pipeline|stall [RUNS]")
    exit(2)
}
