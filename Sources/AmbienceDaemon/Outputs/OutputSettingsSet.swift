/// Every output's settings, each type declared in its output's folder with its accessor on
/// `DaemonConfiguration`, so that the configuration has no property of its own per output. Held
/// under the name of the output's table; a setting equal to its default is not held, so that two
/// configurations that mean the same are equal.
public struct OutputSettingsSet: Equatable, Sendable {
    private var byTable: [String: HeldSettings] = [:]

    public init() {}

    /// The settings of the output whose table is `table`; `defaultValue` when none are held.
    public subscript<Value: Equatable & Sendable>(table: String, default defaultValue: Value) -> Value {
        get { (byTable[table] as? Held<Value>)?.value ?? defaultValue }
        set { byTable[table] = newValue == defaultValue ? nil : Held(newValue) }
    }

    public static func == (lhs: OutputSettingsSet, rhs: OutputSettingsSet) -> Bool {
        lhs.byTable.count == rhs.byTable.count
            && lhs.byTable.allSatisfy { table, held in rhs.byTable[table].map(held.isEqual) ?? false }
    }
}

/// One output's settings with their type erased: a class, since Embedded Swift has existentials
/// of class-bound protocols only, and immutable, so that sharing it between copies of a
/// configuration is safe.
class HeldSettings: @unchecked Sendable {
    func isEqual(_ other: HeldSettings) -> Bool { false }
}

final class Held<Value: Equatable & Sendable>: HeldSettings, @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    override func isEqual(_ other: HeldSettings) -> Bool { (other as? Held<Value>)?.value == value }
}
