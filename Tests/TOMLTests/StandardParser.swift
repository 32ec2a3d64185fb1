import Foundation
import TOML

/// Python's `tomllib`, the reference the shipped files are held to: each document is parsed
/// by both and compared through one canonical text form that spells out every type and value.
enum StandardParser {
    /// Writes each document to a file, runs tomllib over all of them in one process, and returns,
    /// per document, its canonical form or nil when tomllib rejects it.
    static func canonicalForms(of documents: [String]) throws -> [String?] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("toml-tests-\(ProcessInfo.processInfo.globallyUniqueString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (number, document) in documents.enumerated() {
            let url = directory.appendingPathComponent("\(number).toml")
            try Data(document.utf8).write(to: url)
            paths.append(url.path)
        }
        return try canonicalForms(ofFiles: paths)
    }

    static func canonicalForms(ofFiles paths: [String]) throws -> [String?] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + paths
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(message: "python3 with tomllib failed with status \(process.terminationStatus)")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == paths.count else {
            throw Failure(message: "tomllib answered \(lines.count) times for \(paths.count) files")
        }
        return lines.map { $0 == "error" ? nil : $0 }
    }

    /// The same canonical form as the Python script's `dump`, for this package's parser.
    static func canonicalForm(_ content: TOMLValue.Content) -> String {
        switch content {
        case .boolean(let value): "b\(value)"
        case .integer(let value): "i\(value)"
        case .float(let value): value.isNaN ? "fnan" : "f\(value.bitPattern)"
        case .string(let text):
            "s" + text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")
        case .array(let items): "[" + items.map { canonicalForm($0.content) }.joined(separator: ",") + "]"
        case .table(let table):
            "{"
                + table.entries.map { canonicalForm(.string($0.key)) + ":" + canonicalForm($0.value.content) }
                .joined(separator: ",") + "}"
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    private static let script = """
        import struct, sys, tomllib

        def dump(v):
            if isinstance(v, bool):
                return "b" + ("true" if v else "false")
            if isinstance(v, int):
                return "i%d" % v
            if isinstance(v, float):
                return "fnan" if v != v else "f%d" % struct.unpack("<Q", struct.pack("<d", v))[0]
            if isinstance(v, str):
                return "s" + ".".join("%x" % ord(c) for c in v)
            if isinstance(v, list):
                return "[" + ",".join(dump(x) for x in v) + "]"
            if isinstance(v, dict):
                return "{" + ",".join(dump(k) + ":" + dump(x) for k, x in v.items()) + "}"
            return "?" + type(v).__name__

        for path in sys.argv[1:]:
            try:
                with open(path, "rb") as f:
                    print(dump(tomllib.load(f)))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError):
                print("error")
        """
}
