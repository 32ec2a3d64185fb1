/// A table while the document is being read, with what TOML needs to know to reject a second
/// definition: how the table came to be, and whether it is still open to more keys.
/// A reference type, since headers and dotted keys reach the same table along different paths.
final class TableBuilder {
    enum Origin {
        /// Named only as the parent of something else (`a` in `[a.b]`): a header may still define it.
        case implicit
        case header
        case dottedKeys
        case inlineTable
    }

    enum Child {
        case table(TableBuilder)
        case value(TOMLValue)
    }

    var origin: Origin
    var position: TOMLPosition
    /// Nesting below the root, bounded so that hostile input cannot exhaust the stack.
    let depth: Int
    /// Set once a table has been defined by a header, or by dotted keys in a section that has
    /// ended: from then on neither a header nor dotted keys may add to it (as tomllib decides).
    var closedToRedefinition = false
    private(set) var keys: [String] = []
    private(set) var children: [String: Child] = [:]

    init(origin: Origin, position: TOMLPosition, depth: Int) {
        self.origin = origin
        self.position = position
        self.depth = depth
    }

    subscript(key: String) -> Child? { children[key] }

    func add(_ key: String, _ child: Child) {
        if children.updateValue(child, forKey: key) == nil {
            keys.append(key)
        }
    }

    func childTable(_ key: String, origin: Origin, position: TOMLPosition) throws(TOMLError) -> TableBuilder {
        guard depth < TableBuilder.maximumDepth else {
            throw TOMLError("tables are nested more than \(TableBuilder.maximumDepth) deep", at: position)
        }
        let table = TableBuilder(origin: origin, position: position, depth: depth + 1)
        add(key, .table(table))
        return table
    }

    /// Marks this table and every table inside it as an inline table: closed for good.
    func closeAsInline() {
        origin = .inlineTable
        for child in children.values {
            if case .table(let table) = child { table.closeAsInline() }
        }
    }

    func built() -> TOMLTable {
        var table = TOMLTable()
        for key in keys {
            switch children[key] {
            case .table(let child): table.set(key, TOMLValue(.table(child.built()), at: child.position))
            case .value(let value): table.set(key, value)
            case nil: break
            }
        }
        return table
    }

    static let maximumDepth = 64
}

extension TableBuilder.Child {
    var position: TOMLPosition {
        switch self {
        case .table(let table): table.position
        case .value(let value): value.position
        }
    }

    var value: TOMLValue {
        switch self {
        case .table(let table): TOMLValue(.table(table.built()), at: table.position)
        case .value(let value): value
        }
    }
}

/// One part of a dotted key, and where it was written.
struct KeyPart {
    var name: String
    var position: TOMLPosition
}

extension Collection<KeyPart> {
    /// The key as a reader would write it: `a.b."c d"`.
    var dotted: String { map { TOMLWriter.key($0.name) }.joined(separator: ".") }
}
