import AmbienceCore
import AmbienceRecord
import AmbienceSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Why a profile's text (`simulate --profile`) was refused.
public enum ProfileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `step:…` or `noise:…` with a field that is not a finite, non-negative number.
    case notANumber(profile: String, fields: String)
    case unknownProfile(String)
    /// `csv:FILE` could not be read, or holds a malformed row.
    case trace(path: String, reason: String)

    public var description: String {
        switch self {
        case .notANumber(let profile, let fields):
            return "\(profile): '\(fields)' holds something that is not a number"
        case .unknownProfile(let text):
            return "unknown profile '\(text)': use day, step, noise, csv:FILE or stdin"
        case .trace(let path, let reason):
            return "csv:\(path): \(reason)"
        }
    }
}

extension LightSwitchboard.Source {
    /// `day`, `step[:BEFORE:AFTER:AT]`, `noise[:LUX[:SPREAD]]`, `csv:FILE` (read now, whole) or
    /// `stdin`. Fields left out take the defaults of a kiosk's demo.
    public init(parsing text: String) throws(ProfileError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let numbers = parts.count > 1 ? parts[1].split(separator: ":").map { Double($0) } : []
        func number(_ index: Int, _ fallback: Double) throws(ProfileError) -> Double {
            guard index < numbers.count else { return fallback }
            guard let value = numbers[index], value.isFinite, value >= 0 else {
                throw .notANumber(profile: text, fields: parts[1])
            }
            return value
        }
        // An empty text, or only a colon, splits into nothing: no profile by that name either.
        switch parts.first ?? "" {
        case "day": self = .profile(.day(length: 86_400))
        case "step":
            self = .profile(
                .step(before: try number(0, 5), after: try number(1, 30_000), at: try number(2, 30)))
        case "noise": self = .profile(.noise(level: try number(0, 2500), spread: try number(1, 0.3)))
        case "stdin": self = .typed
        case "csv" where parts.count == 2:
            self = .profile(.trace(try LightProfile.trace(contentsOf: parts[1])))
        default: throw .unknownProfile(text)
        }
    }
}

extension LightProfile {
    /// The rows of a `seconds,lux` trace file, as `replay` reads them; a failed read (`nan`, or
    /// an empty lux field) becomes a NaN row, which unplugs the emulated chip for that row.
    public static func trace(contentsOf path: String) throws(ProfileError) -> [(time: Double, lux: Double)] {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY)
        } catch {
            throw .trace(path: path, reason: "\(error)")
        }
        defer { file.close() }
        var lines = LineReader(descriptor: file)
        var reader = TraceReader()
        var rows: [(time: Double, lux: Double)] = []
        do {
            try lines.forEachLine { line throws(TraceReader.RowError) in
                try reader.rows(line) { rows.append(($0.time, $0.lux ?? .nan)) }
            }
        } catch {
            throw .trace(path: path, reason: "\(error)")
        }
        return rows
    }
}
