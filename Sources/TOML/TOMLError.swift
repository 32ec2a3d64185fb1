/// Why a text is not the TOML this parser reads, and where: the first fault found.
public struct TOMLError: Error, Equatable, Sendable, CustomStringConvertible {
    public var position: TOMLPosition
    public var message: String

    public init(_ message: String, at position: TOMLPosition) {
        self.message = message
        self.position = position
    }

    public var line: Int { position.line }
    public var column: Int { position.column }

    public var description: String { "\(position): \(message)" }
}
