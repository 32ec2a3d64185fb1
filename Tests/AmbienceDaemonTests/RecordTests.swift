import AmbienceClient
import AmbienceConfig
import AmbienceCore
import AmbienceDaemon
import AmbienceOutputs
import AmbienceRecord
import AmbienceSystem
import AmbienceTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's record of the light (`ambience record`) against what it emitted.
struct DaemonRecordTests {
    /// Light that switches, falls dark, saturates a band, and a sensor that fails for a while.
    static func light(_ time: Double) -> Double? {
        let t = time - 1000
        switch t {
        case ..<20: return 300 + (t * 7).truncatingRemainder(dividingBy: 13)
        case ..<45: return 2 + (t * 3).truncatingRemainder(dividingBy: 5) / 10
        case ..<52: return nil
        case ..<70: return 3000 + t
        case ..<80: return 700
        default: return 15 + (t * 11).truncatingRemainder(dividingBy: 9)
        }
    }

    @Test func theRecordsRowsReplayToTheEventsTheDaemonEmitted() throws {
        let harness = DaemonHarness(
            configuration: daemonConfiguration(interval: 0.1), script: [(120, .signal(SIGTERM))],
            light: Self.light)
        try harness.daemon.run()
        let emitted = harness.sink.events
        #expect(emitted.contains { $0.kind == .fault } && emitted.contains { $0.kind == .recovered })
        #expect(emitted.filter { $0.kind == .change }.count >= 4)

        // Through the record's text, as `ambience record` hands it out.
        let record = harness.daemon.record
        #expect(record.count == 1200)
        var reader = TraceReader()
        var run = TraceRun(configuration: daemonConfiguration(interval: 0.1).engine)
        var replayed: [Event] = []
        for line in [LightRecord.header + "\n"] + record.rows.map(LightRecord.line) {
            guard let row = try reader.row(Array(line.utf8.dropLast())[...]) else { continue }
            replayed += run.feed(row)
        }
        #expect(replayed == emitted)
    }

    @Test func theRecordKeepsWhatTheEngineShowedAfterEachSample() throws {
        let harness = DaemonHarness(
            configuration: daemonConfiguration(interval: 0.1), script: [(60, .signal(SIGTERM))],
            light: Self.light)
        try harness.daemon.run()
        let rows = harness.daemon.record.rows
        #expect(rows.first?.state == .regular)
        #expect(rows.contains { $0.lux == nil && $0.isFaulted })
        // Stamped with its slot, the time its measurement began, and read at its conversion's end.
        #expect(rows.map(\.time) == harness.sensor.readTimes)
        #expect(rows.last?.lux == Self.light(harness.sensor.doneTimes.last!))
        #expect(rows.allSatisfy { $0.override == nil })
    }

    @Test func lateWakeUpsStillStampTheSlotsSoTheRecordPredictsEveryTime() throws {
        let harness = DaemonHarness(
            configuration: daemonConfiguration(interval: 0.1), script: [(60, .signal(SIGTERM))],
            light: { _ in 300 })
        // Up to 3 ms late, as an emulated board wakes, never the same twice running.
        harness.waiter.lateness = { Double(($0 * 7919) % 31) / 10_000 }
        try harness.daemon.run()
        #expect(harness.sensor.readTimes.contains { ($0 * 1000).rounded() != $0 * 1000 })
        let rows = harness.daemon.record.rows
        #expect(rows.count == 600)
        for (index, row) in rows.enumerated() {
            #expect(row.time == CompactRecord.sampleTime(1000 + Double(index) * 0.1), "row \(index)")
        }
        var encoder = CompactRecord.Encoder(parameters: .init(timeConstant: 1, interval: 0.1))
        let text = rows.map { encoder.line($0) }.joined() + encoder.finish()
        #expect(!text.contains("@") && text.split(separator: "\n").count < 20, "\(text)")
    }

    @Test func theRingKeepsOnlyTheNewestRows() throws {
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0) { $0 }
        let daemon = Daemon(
            configuration: daemonConfiguration(interval: 0.1), clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: []), logger: Logger(prefixed: true, write: { _ in }),
            overrides: { _ in nil }, recordCapacity: 50, assemble: { _, _ in DaemonParts.of(sensor: sensor) },
            reload: brokenReload("no reload"))
        try daemon.run(until: 10)
        let rows = daemon.record.rows
        #expect(rows.count == 50)
        #expect(rows.map(\.lux) == sensor.doneTimes.suffix(50).map { $0 })
    }

    @Test func anOverrideInTheRecordReplaysWithinOneSampleOfTheDaemons() throws {
        let scratch = TemporaryDirectory()
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0) { $0 < 20 ? 300 : 2 }
        let sink = RecordingSink()
        var configuration = daemonConfiguration(interval: 0.1)
        configuration.controlPipe = scratch.path + "/control"
        let waiter = ControlScript(
            clock: clock, at: 5.05, send: "override contrast for 10", to: configuration.controlPipe)
        let daemon = Daemon(
            configuration: configuration, clock: clock, waiter: waiter,
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil },
            assemble: { configuration, _ throws(DaemonError) in
                do {
                    return DaemonParts.of(
                        sensor: sensor, pipes: [sink],
                        control: try ControlPipe(path: configuration.controlPipe, log: { _ in }))
                } catch {
                    throw .unavailable("\(error)")
                }
            },
            reload: brokenReload("no reload"))
        try daemon.run(until: 40)
        let rows = daemon.record.rows
        #expect(rows.filter { $0.override == .contrast }.count == 100)  // 5.1 … 15.0
        var reader = TraceReader()
        var run = TraceRun(configuration: configuration.engine)
        var replayed: [Event] = []
        for line in [LightRecord.header + "\n"] + rows.map(LightRecord.line) {
            guard let row = try reader.row(Array(line.utf8.dropLast())[...]) else { continue }
            replayed += run.feed(row)
        }
        let emitted = sink.events
        #expect(emitted.map(\.reason) == [.startup, .override, .auto, .light])
        #expect(replayed.map(\.reason) == emitted.map(\.reason))
        #expect(replayed.map(\.state) == emitted.map(\.state))
        for (again, original) in zip(replayed, emitted) {
            #expect(again.time >= original.time && again.time - original.time <= 0.1 + 1e-9)
        }
    }

    @Test func aRecordLineOnTheControlPipeWritesTheRecordBesideIt() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.path + "/run"
        let clock = ManualClock(now: 0)
        let sensor = FakeSensor(clock: clock, conversion: 0) { _ in 300 }
        var configuration = daemonConfiguration(interval: 0.1)
        configuration.controlPipe = directory + "/control"
        let waiter = ControlScript(clock: clock, at: 5, send: "record", to: configuration.controlPipe)
        let daemon = Daemon(
            configuration: configuration, clock: clock, waiter: waiter,
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil },
            assemble: { configuration, _ throws(DaemonError) in
                do {
                    return DaemonParts.of(
                        sensor: sensor,
                        control: try ControlPipe(path: configuration.controlPipe, log: { _ in }))
                } catch {
                    throw .unavailable("\(error)")
                }
            },
            reload: brokenReload("no reload"))
        try daemon.run(until: 6)
        let path = RuntimePaths.record(forControl: configuration.controlPipe)
        #expect(path == directory + "/record.csv")
        let status = try FileSystem.status(of: path)
        #expect(status.mode & 0o777 == 0o600)
        let file = try FileDescriptor.open(path, O_RDONLY)
        defer { file.close() }
        var reader = LineReader(descriptor: file)
        var lines: [String] = []
        while let line = try reader.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
        #expect(lines.first == LightRecord.header)
        #expect(lines.count == 1 + 50)  // samples at 0, 0.1, … 4.9: the line came before the one at 5
        #expect(lines[1] == "0,300,300.0,regular,0,,")  // no [backlight]: no brightness
    }
}

/// The persistent record: batches, never a write per sample.
struct PersistentRecordTests {
    static func daemon(_ clock: ManualClock, store: RecordStore, configuration: DaemonConfiguration) -> Daemon
    {
        let sensor = FakeSensor(clock: clock, conversion: 0) { 100 + $0.truncatingRemainder(dividingBy: 7) }
        return Daemon(
            configuration: configuration, clock: clock, waiter: ScriptedWaiter(clock: clock, script: []),
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor, record: store) },
            reload: brokenReload("no reload"))
    }

    static func lines(_ path: String) throws -> [String] {
        let file = try FileDescriptor.open(path, O_RDONLY)
        defer { file.close() }
        var reader = LineReader(descriptor: file)
        var lines: [String] = []
        while let line = try reader.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    /// The rows of a persistent record, through the reader every command uses.
    static func rows(_ path: String) throws -> [TraceReader.Row] {
        let file = try FileDescriptor.open(path, O_RDONLY)
        defer { file.close() }
        var lines = LineReader(descriptor: file)
        var reader = TraceReader()
        var rows: [TraceReader.Row] = []
        while let line = try lines.nextLine() { try reader.rows(line) { rows.append($0) } }
        return rows
    }

    /// The store is the record's device, rebuilt by a reload that moves it: the rows made before
    /// the reload go to the store they were meant for, the rest to the new one, none twice.
    @Test func aReloadThatMovesTheRecordLeavesEachRowInTheStoreItWasMadeFor() throws {
        let scratch = TemporaryDirectory()
        let clock = ManualClock(now: 0)
        var before = daemonConfiguration(interval: 1)
        before.stateDirectory = scratch.file("before")
        before.record = .init(flushInterval: 600)
        var after = before
        after.stateDirectory = scratch.file("after")
        let sensor = FakeSensor(clock: clock, conversion: 0) { _ in 100 }
        let devices = MachineDevices(clock: clock, logger: Logger(write: { _ in }))
        let daemon = Daemon(
            configuration: before, clock: clock,
            waiter: ScriptedWaiter(clock: clock, script: [(30.5, .signal(SIGHUP))]),
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil },
            assemble: { configuration, wanted throws(DaemonError) in
                var parts = try Assembly.parts(
                    configuration, wanted.intersection([.record]), devices: devices)
                parts.sensor = sensor
                return parts
            },
            reload: { () throws(ConfigFileErrors) in after })
        try daemon.run(until: 60)
        let early = try Self.rows(before.stateDirectory + "/" + RecordStore.fileName)
        let late = try Self.rows(after.stateDirectory + "/" + RecordStore.fileName)
        #expect(early.map(\.time) == (0...30).map { Double($0) })
        #expect(late.first?.time == 31)
        #expect(early.count + late.count == daemon.record.count)
    }

    @Test func aCSVFileIsMovedAsideBeforeTheFirstCompactRows() throws {
        let scratch = TemporaryDirectory()
        let clock = ManualClock(now: 0)
        let store = RecordStore(directory: scratch.path, maximumBytes: 50_000_000)
        for older in [LightRecord.headerWithoutBrightness, LightRecord.header] {
            let csv = older + "\n1,300,280,regular,0,\(older == LightRecord.header ? "," : "")\n"
            let file = try FileDescriptor.open(store.path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
            try file.writeAll(csv)
            file.close()
            var configuration = daemonConfiguration(interval: 0.1)
            configuration.backlight = BacklightSettings()
            try Self.daemon(
                clock, store: RecordStore(directory: scratch.path, maximumBytes: 50_000_000),
                configuration: configuration
            ).run(until: clock.now + 10)
            #expect(try Self.lines(store.previousPath) == csv.split(separator: "\n").map(String.init))
            #expect(try Self.lines(store.path).first == CompactRecord.header)
            let rows = try Self.rows(store.path)
            // The daemon's percent in every row.
            #expect(rows.count == 100 && rows.allSatisfy { $0.recorded?.brightness != nil })
            try FileSystem.removeFile(store.path)
        }
    }

    @Test func anHourAtTenHertzIsWrittenInTwelveBatches() throws {
        let scratch = TemporaryDirectory()
        let clock = ManualClock(now: 0)
        let store = RecordStore(directory: scratch.path + "/lib", maximumBytes: 50_000_000)
        let daemon = Self.daemon(clock, store: store, configuration: daemonConfiguration(interval: 0.1))
        try daemon.run(until: 3600)
        #expect(store.writes == 11 + 1)  // at 300, 600, … 3300 s, and the rest at shutdown
        let lines = try Self.lines(store.path)
        #expect(lines.prefix(2) == [CompactRecord.header, "!1,0.1"])
        let rows = try Self.rows(store.path)
        #expect(rows.count == 36_000)
        #expect(rows.map(\.time) == (0..<36_000).map { Double($0 * 100) / 1000 })
        #expect(Int64(lines.map { $0.utf8.count + 1 }.reduce(0, +)) == store.bytesWritten)
        // The light cycles through 70 values: every row is predicted but for a back-reference
        // of one or two characters (the same hour in CSV: about 1.2 MB).
        #expect(store.bytesWritten < 36_000 * 4)
    }

    @Test func thePersistentRecordReplaysToTheEventsTheDaemonEmitted() throws {
        let scratch = TemporaryDirectory()
        let clock = ManualClock(now: 1000)
        let store = RecordStore(directory: scratch.path, maximumBytes: 50_000_000)
        let sink = RecordingSink()
        // A sensor whose reads end at uneven times, as a real one's do.
        let sensor = FakeSensor(clock: clock, conversion: 0.0123, light: DaemonRecordTests.light)
        let configuration = daemonConfiguration(interval: 0.1)
        let daemon = Daemon(
            configuration: configuration, clock: clock, waiter: ScriptedWaiter(clock: clock, script: []),
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil },
            assemble: { _, _ in DaemonParts.of(sensor: sensor, pipes: [sink], record: store) },
            reload: brokenReload("no reload"))
        try daemon.run(until: 1120)
        let emitted = sink.events
        #expect(emitted.contains { $0.kind == .fault } && emitted.contains { $0.kind == .recovered })
        #expect(emitted.filter { $0.kind == .change }.count >= 4)
        let rows = try Self.rows(store.path)
        #expect(rows.count == daemon.record.count)
        #expect(zip(rows, daemon.record.rows).allSatisfy { $0.time == $1.time && $0.lux == $1.lux })
        var run = TraceRun(configuration: configuration.engine)
        #expect(rows.flatMap { run.feed($0) } == emitted)
        // Every sample on the millisecond after the grid's, its time predicted.
        #expect(try Self.lines(store.path).allSatisfy { !$0.contains("@") && !$0.contains("'") })
    }

    @Test func aRecordAcrossARebootReplaysEachRunFromItsOwnStart() throws {
        let scratch = TemporaryDirectory()
        var emitted: [Event] = []
        var boots: [ManualClock] = []
        // The second boot's monotonic clock starts again, before the first one's last rows.
        for start in [1000.0, 20] {
            let clock = ManualClock(now: start)
            boots.append(clock)
            let sink = RecordingSink()
            let sensor = FakeSensor(clock: clock, conversion: 0.0123) {
                DaemonRecordTests.light($0 + 1000 - start)
            }
            try Daemon(
                configuration: daemonConfiguration(interval: 0.1), clock: clock,
                waiter: ScriptedWaiter(clock: clock, script: []),
                logger: Logger(prefixed: true, write: { _ in }),
                overrides: { _ in nil },
                assemble: { _, _ in
                    DaemonParts.of(
                        sensor: sensor, pipes: [sink],
                        record: RecordStore(directory: scratch.path, maximumBytes: 50_000_000))
                },
                reload: brokenReload("no reload")
            ).run(until: start + 60)
            emitted += sink.events
        }
        let path = scratch.path + "/" + RecordStore.fileName
        #expect(try Self.lines(path).filter { $0.hasPrefix("!") } == ["!1,0.1", "!1,0.1"])
        let rows = try Self.rows(path)
        #expect(rows.count == 1200)
        #expect(rows.indices.filter { rows[$0].startsRun } == [0, 600])
        var run = TraceRun(configuration: daemonConfiguration(interval: 0.1).engine)
        let replayed = rows.flatMap { run.feed($0) }
        #expect(replayed.filter { $0.reason == .startup }.count == 2)
        #expect(replayed == emitted)
    }

    @Test func aTornLastLineIsCutBeforeTheNextRows() throws {
        let scratch = TemporaryDirectory()
        let store = RecordStore(directory: scratch.path, maximumBytes: 50_000_000)
        let whole = CompactRecord.header + "\n!2,0.1\n=300^1000%r\n*9\n"
        for torn in ["=3", "", "*", "!2,0."] {
            let file = try FileDescriptor.open(store.path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
            try file.writeAll(whole + torn)
            file.close()
            var record = LightRecord(capacity: 10)
            for index in 0..<5 {
                record.append(
                    LightRecord.Row(
                        time: 50 + Double(index), lux: 20, filtered: 20, state: .invert, isFaulted: false,
                        override: nil))
            }
            let writer = RecordStore(directory: scratch.path, maximumBytes: 50_000_000)
            try writer.append(
                from: record, after: 0, parameters: CompactRecord.Parameters(timeConstant: 2, interval: 1))
            let rows = try Self.rows(store.path)
            #expect(rows.count == 10 + 5, "\(torn)")
            #expect(
                rows.prefix(10).allSatisfy { $0.lux == 300 } && rows.suffix(5).allSatisfy { $0.lux == 20 })
            #expect(try Self.lines(store.path).dropFirst(4).first == "!2,1")
        }
    }

    @Test func aFileTornInItsHeaderStartsAgain() throws {
        let scratch = TemporaryDirectory()
        let store = RecordStore(directory: scratch.path, maximumBytes: 50_000_000)
        let file = try FileDescriptor.open(store.path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        try file.writeAll("ambience-rec")
        file.close()
        var record = LightRecord(capacity: 10)
        record.append(
            LightRecord.Row(time: 5, lux: 20, filtered: 20, state: .invert, isFaulted: false, override: nil))
        try store.append(
            from: record, after: 0, parameters: CompactRecord.Parameters(timeConstant: 2, interval: 1))
        #expect(try Self.rows(store.path).count == 1)
    }

    @Test func aLongFlushIntervalNeverLosesRows() throws {
        let scratch = TemporaryDirectory()
        let clock = ManualClock(now: 0)
        var configuration = daemonConfiguration(interval: 0.1)
        configuration.record.flushInterval = 7200
        let store = RecordStore(directory: scratch.path, maximumBytes: 50_000_000)
        let daemon = Daemon(
            configuration: configuration, clock: clock, waiter: ScriptedWaiter(clock: clock, script: []),
            logger: Logger(prefixed: true, write: { _ in }), overrides: { _ in nil }, recordCapacity: 1000,
            assemble: { _, _ in
                DaemonParts.of(sensor: FakeSensor(clock: clock, conversion: 0) { _ in 100 }, record: store)
            },
            reload: brokenReload("no reload"))
        try daemon.run(until: 600)
        // Half a ring (500 rows) at a time, so none is dropped before it is written; none left at the end.
        #expect(store.writes == 12)
        #expect(try Self.rows(store.path).count == 6000)
    }

    @Test func aFullFileIsRotatedAndEachFileStartsWithTheHeader() throws {
        let scratch = TemporaryDirectory()
        let clock = ManualClock(now: 0)
        let store = RecordStore(directory: scratch.path, maximumBytes: 2_000)
        let daemon = Self.daemon(clock, store: store, configuration: daemonConfiguration(interval: 0.1))
        try daemon.run(until: 1800)
        let current = try Self.lines(store.path)
        let previous = try Self.lines(store.previousPath)
        // The daemon's run goes on in the new file: `+`, not the `!` of a start.
        #expect(current.prefix(2) == [CompactRecord.header, "+1,0.1"])
        #expect(previous.prefix(2) == [CompactRecord.header, "+1,0.1"])
        // Each file a trace on its own, its first row's time in full.
        let rows = try Self.rows(store.previousPath) + Self.rows(store.path)
        #expect(rows.count > 3000 && rows.map(\.time) == rows.map(\.time).sorted())
        let status = try FileSystem.status(of: store.previousPath)
        #expect(status.size < 2_000 + 12_000)  // one batch past the limit at most
    }
}
