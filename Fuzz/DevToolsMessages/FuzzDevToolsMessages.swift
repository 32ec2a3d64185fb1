import AmbienceCore
import AmbienceKiosk
import JSON

/// libFuzzer entry: any bytes as what a browser writes on its DevTools pipe (NUL-separated
/// messages), through the kiosk's framing and session, a state shown in between; every message
/// the session answers with must be a JSON command with an id and a method.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDevToolsMessages(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var frames = NULFrames(limit: 1024)
    var session = DevToolsSession(overridesAutoDarkMode: size % 2 == 0)
    var sent = session.start()
    let (messages, _) = frames.consume(UnsafeBufferPointer(start: data, count: size))
    for (index, message) in messages.enumerated() {
        // A minute a message: every error page met is loaded again along the way.
        sent += session.receive(message, at: Double(index) * 60).messages
        sent += session.retry(at: Double(index) * 60)
        if index == 1 { sent += session.show(.defaultAppearance(for: .contrast)) }
    }
    for text in sent {
        guard let command = try? JSONValue.parse(text), command["id"]?.numberValue != nil,
            command["method"]?.stringValue != nil
        else { fatalError("not a command: \(text)") }
    }
    return 0
}
