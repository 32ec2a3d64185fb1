/// What the first bytes of a connection say about its first request line, read (without taking
/// them) before libmicrohttpd reads them.
///
/// libmicrohttpd 0.9 skips empty lines before a request line, as HTTP allows, but it tells an
/// empty line by its first byte being the NUL it wrote over the line's end: a line that begins
/// with a NUL byte is skipped as empty too. A connection that sent only such lines has, to the
/// library, sent nothing, and is held until the idle timeout instead of being refused.
public enum ConnectionStart: Equatable, Sendable {
    /// Nothing yet, or only empty lines (CRLF or LF): more has to come.
    case undecided
    /// A line that libmicrohttpd takes for a request line, well-formed or not: its own parser
    /// and the router answer it.
    case requestLine
    /// A line (after any empty ones) that begins with a NUL byte: not a request line, and
    /// libmicrohttpd would not say so. Its connection is to be closed.
    case malformed

    /// Looks at the bytes from the connection's very first one on.
    public init(_ bytes: some Collection<UInt8>) {
        var rest = bytes[...]
        while let first = rest.first {
            switch first {
            case UInt8(ascii: "\n"):
                rest = rest.dropFirst()
            case UInt8(ascii: "\r"):
                let next = rest.dropFirst().first
                guard next == UInt8(ascii: "\n") else {
                    // CR alone at the end may yet become an empty line; CR then anything else
                    // begins a line the library parses (and refuses) itself.
                    self = next == nil ? .undecided : .requestLine
                    return
                }
                rest = rest.dropFirst(2)
            case 0:
                self = .malformed
                return
            default:
                self = .requestLine
                return
            }
        }
        self = .undecided
    }
}
