import AmbienceSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct LineReaderTests {
    func lines(of text: String, chunkSize: Int) throws -> [String] {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        try FileDescriptor(rawValue: ends[1]).writeAll(text)
        close(ends[1])
        defer { close(ends[0]) }
        var reader = LineReader(descriptor: FileDescriptor(rawValue: ends[0]), chunkSize: chunkSize)
        var result: [String] = []
        while let line = try reader.nextLine() { result.append(String(decoding: line, as: UTF8.self)) }
        return result
    }

    @Test(arguments: [1, 3, 64, 65536])
    func splitsLinesWhateverTheChunkSize(chunkSize: Int) throws {
        #expect(try lines(of: "a,1\r\nbb,22\n\nlast", chunkSize: chunkSize) == ["a,1", "bb,22", "", "last"])
    }

    @Test func emptyInputHasNoLines() throws {
        #expect(try lines(of: "", chunkSize: 16).isEmpty)
    }
}
