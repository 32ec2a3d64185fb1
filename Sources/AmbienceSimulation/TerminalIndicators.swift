import AmbienceCore
import AmbienceDaemon
import AmbienceOutputs
import AmbienceSystem

/// Virtual indicator LEDs on the terminal for `simulate`: one line per change or fault, with the
/// simulated time of day, the backlight's percent beside them (`☀ 63 %`) with `[backlight]`,
/// also on the line that ends a fade, and the display's power (`▣ on`, `□ off`) with `[display]`,
/// also on the line that says it changed. A sink like any other, so it sees exactly what GPIO
/// lines would.
public final class TerminalIndicators: Sink {
    private let write: (String) -> Void
    private let timeOfDay: (Double) -> String
    private var state: AmbienceState?
    private var faulted = false
    /// The percent the last line showed: a `current` line (a fade's end) is news only when it
    /// changes it.
    private var shownBrightness: Int?
    private var shownDisplay: DisplayPower?
    private let colour: Bool

    public init(colour: Bool, timeOfDay: @escaping (Double) -> String, write: @escaping (String) -> Void) {
        self.colour = colour
        self.timeOfDay = timeOfDay
        self.write = write
    }

    public func deliver(_ event: Event) {
        switch event.kind {
        case .change: state = event.state
        case .fault: faulted = true
        case .recovered: faulted = false
        case .current:
            let news =
                (event.brightness != nil && event.brightness != shownBrightness)
                || (event.display != nil && event.display != shownDisplay)
            guard news else { return }
        }
        let why =
            event.kind == .current
            ? (event.display != shownDisplay ? " (display)" : " (brightness)")
            : event.reason.map { " (\($0.rawValue))" } ?? (event.kind == .recovered ? " (recovered)" : "")
        shownBrightness = event.brightness
        shownDisplay = event.display
        let lamps = AmbienceState.allCases.map { lamp($0.rawValue, lit: $0 == state) }
        let fault = lamp("fault", lit: faulted, red: true)
        let lux = event.lux.map { "lux \(Daemon.rounded($0))" } ?? "no reading"
        let brightness = event.brightness.map { "  ☀ \($0) %" } ?? ""
        let display = event.display.map { $0 == .on ? "  ▣ on" : "  □ off" } ?? ""
        write(
            "\(timeOfDay(event.time))  \(lamps.joined(separator: " "))  \(fault)\(brightness)\(display)  \(lux)\(why)\n"
        )
    }

    public func poll(now: Double) {}

    public func close() {}

    private func lamp(_ name: String, lit: Bool, red: Bool = false) -> String {
        guard colour else { return (lit ? "[●] " : "[ ] ") + name }
        let on = red ? "\u{1B}[1;31m●\u{1B}[0m" : "\u{1B}[1;33m●\u{1B}[0m"
        return (lit ? on : "\u{1B}[2m○\u{1B}[0m") + " " + (lit ? name : "\u{1B}[2m\(name)\u{1B}[0m")
    }
}
