import AmbienceCore
import JSON

/// Home Assistant MQTT discovery documents for one kiosk. Facts from Home Assistant's MQTT
/// documentation this relies on:
/// - device-based discovery (2024.11 and later) takes one retained document at
///   `<discovery_prefix>/device/<object_id>/config` holding `dev` (device), `o` (origin; its
///   `name` is required) and `cmps` (components); each component needs `p` (its platform) and
///   a `unique_id`; `state_topic`, `command_topic`, `qos` and the availability options may be
///   shared at the top level;
/// - per-entity discovery takes one document per entity at
///   `<discovery_prefix>/<component>/[<node_id>/]<object_id>/config`, ids being [a-zA-Z0-9_-];
/// - an empty retained payload at a discovery topic removes what it configured;
/// - `availability_topic` expects `online`/`offline` by default (payload_available and
///   payload_not_available);
/// - a `sensor` with `device_class: enum` takes `options`; `illuminance` is in `lx`;
///   `state_class: measurement`; `expire_after` makes it unavailable when no state arrives
///   for that many seconds;
/// - a `select` takes `options` and `command_topic`, and publishes the option chosen there;
/// - a `binary_sensor` reads `ON`/`OFF` by default; `device_class: problem` means ON = a problem;
/// - Home Assistant publishes `online` at `<discovery_prefix>/status` when it starts, after
///   which devices should announce themselves again.
public struct Discovery: Sendable {
    public var topics: Topics
    public var name: String
    /// The software version shown in Home Assistant (`sw`); nil leaves it out, the project having
    /// no version number of its own yet.
    public var version: String?
    /// Seconds without a state after which Home Assistant shows the lux as unavailable: a few
    /// of the bridge's 60 s republications.
    public var expireAfter: Double

    public init(topics: Topics, name: String, version: String? = nil, expireAfter: Double = 180) {
        self.topics = topics
        self.name = name
        self.version = version
        self.expireAfter = expireAfter
    }

    public struct Component: Sendable {
        /// The key under `cmps`, and the object id in per-entity topics.
        public var key: String
        public var platform: String
        public var options: [(String, JSONValue)]
    }

    public static let overrideOptions = ["auto"] + AmbienceState.allCases.map(\.rawValue)

    public var components: [Component] {
        let id = topics.discoveryObjectID
        return [
            Component(
                key: "lux", platform: "sensor",
                options: [
                    ("unique_id", .string("\(id)_lux")), ("name", .string("Illuminance")),
                    ("device_class", .string("illuminance")), ("unit_of_measurement", .string("lx")),
                    ("state_class", .string("measurement")),
                    ("value_template", .string("{{ value_json.lux }}")),
                    ("expire_after", .number(expireAfter)),
                ]),
            Component(
                key: "theme", platform: "sensor",
                options: [
                    ("unique_id", .string("\(id)_theme")), ("name", .string("Theme")),
                    ("device_class", .string("enum")),
                    ("options", .array(AmbienceState.allCases.map { .string($0.rawValue) })),
                    ("value_template", .string("{{ value_json.state }}")),
                    ("icon", .string("mdi:theme-light-dark")),
                ]),
            Component(
                key: "override", platform: "select",
                options: [
                    ("unique_id", .string("\(id)_override")), ("name", .string("Override")),
                    ("options", .array(Self.overrideOptions.map(JSONValue.string))),
                    ("command_topic", .string(topics.overrideCommand)),
                    ("value_template", .string("{{ value_json.override or 'auto' }}")),
                    ("icon", .string("mdi:hand-back-right")),
                ]),
            Component(
                key: "fault", platform: "binary_sensor",
                options: [
                    ("unique_id", .string("\(id)_fault")), ("name", .string("Sensor fault")),
                    ("device_class", .string("problem")),
                    ("value_template", .string("{{ 'ON' if value_json.fault else 'OFF' }}")),
                ]),
        ]
    }

    private var device: JSONValue {
        .object(
            [
                ("ids", .array([.string(topics.discoveryObjectID)])), ("name", .string(name)),
                ("mf", .string("Ambience")), ("mdl", .string("ambient-light kiosk")),
            ] + software)
    }

    private var software: [(String, JSONValue)] { version.map { [("sw", .string($0))] } ?? [] }

    private var origin: JSONValue {
        .object([("name", .string("ambience-mqtt"))] + software)
    }

    /// What every entity shares: where its state and availability come from.
    private var shared: [(String, JSONValue)] {
        [
            ("availability_topic", .string(topics.status)), ("state_topic", .string(topics.state)),
            ("qos", .number(1)),
        ]
    }

    /// The one device-based document.
    public var deviceDocument: (topic: String, payload: String) {
        let components = components.map { component in
            (component.key, JSONValue.object([("p", .string(component.platform))] + component.options))
        }
        let document = JSONValue.object(
            [("dev", device), ("o", origin)] + shared + [("cmps", .object(components))])
        return (topics.deviceDiscovery, document.text)
    }

    /// The fleet's device, "all kiosks", with one select on the group topic. Home Assistant keeps
    /// no state for it (no state topic: the select is optimistic); each kiosk's own select shows
    /// what took effect. Never removed by one bridge, since the others share it.
    public var groupDocument: (topic: String, payload: String) {
        let id = topics.groupObjectID
        let select = JSONValue.object([
            ("p", .string("select")), ("unique_id", .string("\(id)_override")),
            ("name", .string("Override all kiosks")),
            ("options", .array(Self.overrideOptions.map(JSONValue.string))),
            ("command_topic", .string(topics.groupOverrideCommand)),
            ("icon", .string("mdi:monitor-multiple")),
        ])
        let document = JSONValue.object([
            (
                "dev",
                .object(
                    [
                        ("ids", .array([.string(id)])), ("name", .string("Ambience: all kiosks")),
                        ("mf", .string("Ambience")), ("mdl", .string("kiosk fleet")),
                    ] + software)
            ),
            ("o", origin), ("qos", .number(1)), ("cmps", .object([("override", select)])),
        ])
        return (topics.groupDiscovery, document.text)
    }

    /// One document per entity, for Home Assistant before 2024.11.
    public var entityDocuments: [(topic: String, payload: String)] {
        components.map { component in
            let document = JSONValue.object(
                component.options + shared + [("device", device), ("origin", origin)])
            return (
                topics.entityDiscovery(platform: component.platform, objectID: component.key), document.text
            )
        }
    }

    /// Every topic of this kiosk in either style (not the fleet's): where the bridge looks for
    /// documents of another setting to remove.
    public var allTopics: [String] {
        [topics.deviceDiscovery]
            + components.map { topics.entityDiscovery(platform: $0.platform, objectID: $0.key) }
    }
}
