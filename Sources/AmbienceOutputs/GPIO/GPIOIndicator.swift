import AmbienceCore
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Indicator lines (docs/guarantees.md §5.7): one line per state, lit while that state holds, and an
/// optional line lit while the sensor is faulted. Requested once, with consumer `ambience`;
/// `close` turns them all off, then releases them.
public final class GPIOIndicator: Sink {
    public struct Configuration: Equatable, Sendable {
        /// A chip's path (/dev/gpiochip0), name (gpiochip0), number (0) or label (pinctrl-bcm2711).
        public var chip: String
        /// The line offset lit for each state; a state without one lights nothing.
        public var lines: [AmbienceState: UInt32]
        public var fault: UInt32?
        /// The lines are lit by a low level.
        public var activeLow: Bool

        public init(
            chip: String, lines: [AmbienceState: UInt32], fault: UInt32? = nil, activeLow: Bool = false
        ) {
            self.chip = chip
            self.lines = lines
            self.fault = fault
            self.activeLow = activeLow
        }

        /// The lines in request order (the states', then the fault's), each with its field:
        /// `lines.invert`, …, `fault`. Errors name these fields; the daemon's configuration
        /// places them at its own keys.
        var roles: [(field: String, shows: String, offset: UInt32)] {
            AmbienceState.allCases.compactMap { state in
                lines[state].map { ("lines." + state.rawValue, state.rawValue, $0) }
            } + (fault.map { [("fault", "the fault", $0)] } ?? [])
        }

        /// A line shows one thing: each line given a second role, refused.
        public func repeatedLines() -> [ConfigurationError] {
            let roles = roles
            return roles.indices.compactMap { index in
                let role = roles[index]
                return roles[..<index].first { $0.offset == role.offset }.map { earlier in
                    ConfigurationError(
                        key: role.field,
                        message: "line \(role.offset) already shows \(earlier.shows); a line shows one thing")
                }
            }
        }
    }

    public static let consumer = "ambience"

    /// What each requested line shows, in request order.
    private enum Role: Equatable {
        case state(AmbienceState)
        case fault
    }

    public let chipDescription: String
    private var chip: (any GPIOChip)?
    private var request: (any GPIOLineRequest)?
    private let roles: [Role]
    private var shownState: AmbienceState?
    private var faulted = false
    /// Values known to be on the lines; nil where a set failed, so it is retried.
    private var applied: [Bool?]
    private var report: FaultReport
    private var nextRetry = -Double.infinity

    /// Finds the chip, checks the offsets against it and requests the lines, all off.
    public init(
        _ configuration: Configuration, devices: any GPIODevices = Libgpiod(), log: @escaping OutputLog
    )
        throws(OutputError)
    {
        var roles: [Role] = AmbienceState.allCases.filter { configuration.lines[$0] != nil }.map {
            .state($0)
        }
        if configuration.fault != nil { roles.append(.fault) }
        func key(_ role: Role) -> String {
            switch role {
            case .state(let state): "lines.\(state.rawValue)"
            case .fault: "fault"
            }
        }
        func offset(_ role: Role) -> UInt32 {
            switch role {
            case .state(let state): configuration.lines[state]!
            case .fault: configuration.fault!
            }
        }
        if let repeated = configuration.repeatedLines().first { throw .configuration(repeated) }

        let chip = try Self.findChip(configuration.chip, devices: devices)
        chipDescription = "\(chip.name) (\(chip.label))"
        for role in roles where Int(offset(role)) >= chip.lineCount {
            chip.close()
            throw .configuration(
                ConfigurationError(
                    key: key(role),
                    message:
                        "line \(offset(role)) is out of range: \(chipDescription) has lines 0–\(chip.lineCount - 1)"
                ))
        }
        let lines = roles.map { GPIOOutputLine(offset: offset($0), activeLow: configuration.activeLow) }
        do {
            request = try chip.requestOutputs(lines, consumer: Self.consumer)
        } catch {
            defer { chip.close() }
            if error == .resourceBusy {
                for role in roles {
                    if let holder = try? chip.consumer(ofLine: offset(role)) {
                        throw .lineBusy(
                            key: key(role), chip: chipDescription, offset: offset(role), consumer: holder)
                    }
                }
            }
            throw Files.failure("request lines of", chip.path, error).withGPIOHint
        }
        self.chip = chip
        self.roles = roles
        applied = Array(repeating: false, count: roles.count)
        report = FaultReport(log: log)
    }

    deinit { close() }

    public func deliver(_ event: Event) {
        switch event.kind {
        case .change, .current: shownState = event.state ?? shownState
        case .fault: faulted = true
        case .recovered: faulted = false
        }
        apply()
    }

    /// Retries lines whose last set failed, at most once a second.
    public func poll(now: Double) {
        guard applied.contains(nil), now >= nextRetry else { return }
        nextRetry = now + 1
        apply()
    }

    /// All lines off, then released, then the chip closed. Idempotent.
    public func close() {
        guard let request else { return }
        for index in roles.indices { try? request.setActive(false, at: index) }
        request.release()
        self.request = nil
        chip?.close()
        chip = nil
    }

    private func wanted(_ role: Role) -> Bool {
        switch role {
        case .state(let state): state == shownState
        case .fault: faulted
        }
    }

    /// Lines going off first, then lines going on, so two states are never lit together.
    private func apply() {
        guard let request else { return }
        let order = roles.indices.sorted { !wanted(roles[$0]) && wanted(roles[$1]) }
        var failure: Errno?
        for index in order where applied[index] != wanted(roles[index]) {
            do {
                try request.setActive(wanted(roles[index]), at: index)
                applied[index] = wanted(roles[index])
            } catch {
                applied[index] = nil
                failure = failure ?? error
            }
        }
        if let failure {
            report.failed("GPIO \(chipDescription): cannot set indicator lines: \(failure)")
        } else {
            report.succeeded("GPIO \(chipDescription): indicator lines set again")
        }
    }

    /// By path, by number, or by name or label among the chips present.
    static func findChip(_ selector: String, devices: any GPIODevices) throws(OutputError) -> any GPIOChip {
        let notFound = { (detail: String) in
            OutputError.configuration(ConfigurationError(key: "chip", message: detail))
        }
        if selector.contains("/") || UInt32(selector) != nil {
            let path = selector.contains("/") ? selector : "/dev/gpiochip" + selector
            do {
                return try devices.openChip(at: path)
            } catch .noSuchFileOrDirectory {
                throw notFound("no GPIO chip at \(path)")
            } catch .permissionDenied, .notPermitted {
                throw Files.failure("open", path, .permissionDenied).withGPIOHint
            } catch {
                throw notFound("\(path) is not a GPIO chip (\(error))")
            }
        }
        var present: [String] = []
        var refused: String?
        for path in devices.chipPaths() {
            let chip: any GPIOChip
            do {
                chip = try devices.openChip(at: path)
            } catch {
                if error == .permissionDenied || error == .notPermitted { refused = refused ?? path }
                continue
            }
            if chip.name == selector || chip.label == selector { return chip }
            present.append("\(chip.name) (\(chip.label))")
            chip.close()
        }
        if let refused { throw Files.failure("open", refused, .permissionDenied).withGPIOHint }
        let found = present.isEmpty ? "no GPIO chips present" : "present: " + present.joined(separator: ", ")
        throw notFound("no GPIO chip named or labelled '\(selector)' (\(found))")
    }
}

extension OutputError {
    /// Permission problems on GPIO chips come from a missing udev rule or group membership.
    fileprivate var withGPIOHint: OutputError {
        guard case .permissionDenied(let path, _) = self else { return self }
        return .permissionDenied(
            path: path,
            hint: "add the daemon's user to the gpio group, which udev/ gives access to /dev/gpiochip*")
    }
}
