import AmbienceClient
import AmbienceCommandLine
import AmbienceCore
import AmbienceRecord
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

let recordCommand = Command(
    name: "record",
    summary: "get the daemon's record of the recent light as a CSV trace",
    usage: """
        ambience record --out FILE|- [--control PATH] [--timeout S]

          Asks the running daemon through its control pipe (default \(RuntimePaths.controlPipe))
          for its record of the light: its last 18,000 samples (30 minutes at 10 Hz), one row each,
          with the columns \(LightRecord.header).
          The daemon writes it beside the control pipe (record.csv); this copies it to FILE, or to
          standard output with -. A record is a trace for replay, plot and simulate --profile csv:.
          Exit 0 with the record; 1 when the daemon is not running or does not answer within
          --timeout seconds (default 10); 2 on bad usage.
        """,
    run: runRecord)

private func runRecord(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let control = try arguments.option("--control") ?? RuntimePaths.controlPipe
    let timeout = try arguments.number("--timeout") ?? 10
    guard let out = try arguments.option("--out") else {
        throw CommandFailure.usage("give --out FILE, or --out - for standard output")
    }
    try arguments.finish()
    guard timeout > 0 else { throw CommandFailure.usage("--timeout must be a positive number of seconds") }

    let answer = RuntimePaths.record(forControl: control)
    // The daemon renames a new file into place: a new inode tells its answer from an old one.
    let before = try? FileSystem.status(of: answer)
    do {
        try DaemonControl.send(ControlLine.recordRequest, to: control)
    } catch {
        throw CommandFailure(message: error.description, exitCode: .failure)
    }
    let clock = SystemClock()
    let deadline = clock.now + timeout
    while true {
        if let now = try? FileSystem.status(of: answer), before.map({ !now.isSameFile(as: $0) }) ?? true {
            break
        }
        guard clock.now < deadline else {
            throw CommandFailure(
                message: "the daemon did not write \(answer) within \(EventLine.number(timeout)) s"
                    + " (is it an older daemon, or is its runtime directory not writable?)",
                exitCode: .failure)
        }
        clock.sleep(seconds: 0.02)
    }
    let source: FileDescriptor
    do {
        source = try FileDescriptor.open(answer, O_RDONLY)
    } catch {
        throw CommandFailure(message: "cannot read \(answer): \(error)", exitCode: .failure)
    }
    defer { source.close() }
    func copy(to target: FileDescriptor) throws(Errno) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in try source.read(into: bytes) }
            }.get()
            if count == 0 { break }
            try target.writeAll(Array(buffer[..<count]))
        }
    }
    do throws(AtomicFile.Failure) {
        if out == "-" {
            do { try copy(to: .standardOutput) } catch {
                throw AtomicFile.Failure(operation: "write", path: out, errno: error)
            }
        } else {
            try writeOutput(out, writing: copy)
        }
    } catch {
        throw CommandFailure(message: "cannot copy \(answer) to \(out): \(error)", exitCode: .failure)
    }
    return .ok
}
