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
/// - a `number` takes `min`, `max`, `step`, `mode` (`slider`) and `unit_of_measurement`, publishes
///   the value set at `command_topic` (a whole number as one, `40`), shows its state topic's value,
///   unknown when that is `None` (`payload_reset`), and is optimistic without a state topic;
/// - a `button` publishes `payload_press` at `command_topic`, and has no state;
/// - device-based discovery removes a component that a new document of the device leaves out;
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

    public static let overrideOptions = ["auto"] + AmbienceState.allCases.map { $0.rawValue }

    /// The screen's brightness as a `number`, 0 to 100 %, as Home Assistant's own kiosk
    /// integration shows a screen's brightness (not a `light`: "turn off all lights" would then
    /// reach the kiosks, and percent 0 is the dimmest lit step, never off). Without a state topic
    /// (the fleet's) Home Assistant keeps the value last set.
    static func brightnessNumber(uniqueID: String, name: String, commandTopic: String, stateful: Bool)
        -> [(String, JSONValue)]
    {
        [
            ("unique_id", .string(uniqueID)), ("name", .string(name)),
            ("min", .number(0)), ("max", .number(100)), ("step", .number(1)), ("mode", .string("slider")),
            ("unit_of_measurement", .string("%")), ("command_topic", .string(commandTopic)),
        ]
            // A null brightness renders as None, Home Assistant's `payload_reset`: unknown.
            + (stateful ? [("value_template", .string("{{ value_json.brightness }}"))] : [])
            + [("icon", .string("mdi:brightness-6"))]
    }

    /// The way back from the number to the light sensor: a `button` sending `auto`. A number has
    /// no value for "automatic", and a switch would need a state the event lines do not carry.
    static func automaticBrightnessButton(uniqueID: String, name: String, commandTopic: String)
        -> [(String, JSONValue)]
    {
        [
            ("unique_id", .string(uniqueID)), ("name", .string(name)),
            ("command_topic", .string(commandTopic)), ("payload_press", .string("auto")),
            ("icon", .string("mdi:brightness-auto")),
        ]
    }

    /// The display's switch: its state the device's own word in the state payload (never
    /// assumed: no optimistic mode), `on` and `off` holding it until `auto`.
    static func displaySwitch(uniqueID: String, name: String, commandTopic: String) -> [(String, JSONValue)] {
        [
            ("unique_id", .string(uniqueID)), ("name", .string(name)),
            ("command_topic", .string(commandTopic)),
            ("payload_on", .string("on")), ("payload_off", .string("off")), ("state_on", .string("on")),
            ("state_off", .string("off")), ("value_template", .string("{{ value_json.display }}")),
            ("icon", .string("mdi:monitor")),
        ]
    }

    /// A button sending one payload to a display topic: `auto` (back to the room), or for the
    /// fleet, which has no one state to show, `on` and `off`.
    static func displayButton(
        uniqueID: String, name: String, commandTopic: String, payload: String, icon: String
    )
        -> [(String, JSONValue)]
    {
        [
            ("unique_id", .string(uniqueID)), ("name", .string(name)),
            ("command_topic", .string(commandTopic)),
            ("payload_press", .string(payload)), ("icon", .string(icon)),
        ]
    }

    /// The kiosk's entities; the brightness ones only with `backlight` (its daemon's lines carry
    /// a percent, not null: a kiosk without a backlight has nothing to show or set), the
    /// display's only with `display` (its lines carry the display's power).
    public func components(backlight: Bool, display: Bool = false, whitePoint: Bool = false) -> [Component] {
        let id = topics.discoveryObjectID
        let brightness = [
            Component(
                key: "brightness", platform: "number",
                options: Self.brightnessNumber(
                    uniqueID: "\(id)_brightness", name: "Brightness", commandTopic: topics.brightnessCommand,
                    stateful: true)),
            Component(
                key: "brightness_auto", platform: "button",
                options: Self.automaticBrightnessButton(
                    uniqueID: "\(id)_brightness_auto", name: "Automatic brightness",
                    commandTopic: topics.brightnessCommand)),
        ]
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
        ] + (backlight ? brightness : []) + (display ? displayComponents : [])
            + (whitePoint ? whitePointComponents : [])
    }

    /// The room's colour temperature, and the display's white: a number in kelvin that holds
    /// it (`whitepoint KELVIN`) and a button that gives it back to the room. Home Assistant has
    /// no device class for a colour temperature: the unit says it.
    private var whitePointComponents: [Component] {
        let id = topics.discoveryObjectID
        return [
            Component(
                key: "cct", platform: "sensor",
                options: [
                    ("unique_id", .string("\(id)_cct")), ("name", .string("Room colour temperature")),
                    ("unit_of_measurement", .string("K")), ("state_class", .string("measurement")),
                    ("value_template", .string("{{ value_json.cct }}")), ("icon", .string("mdi:palette")),
                ]),
            Component(
                key: "whitepoint", platform: "number",
                options: [
                    ("unique_id", .string("\(id)_whitepoint")), ("name", .string("Display white")),
                    ("min", .number(1000)), ("max", .number(15000)), ("step", .number(100)),
                    ("mode", .string("box")), ("unit_of_measurement", .string("K")),
                    ("command_topic", .string(topics.whitePointCommand)),
                    ("value_template", .string("{{ value_json.whitepoint }}")),
                    ("icon", .string("mdi:white-balance-auto")),
                ]),
            Component(
                key: "whitepoint_auto", platform: "button",
                options: Self.displayButton(
                    uniqueID: "\(id)_whitepoint_auto", name: "Display white follows the room",
                    commandTopic: topics.whitePointCommand, payload: "auto", icon: "mdi:palette-outline")),
        ]
    }

    private var displayComponents: [Component] {
        let id = topics.discoveryObjectID
        return [
            Component(
                key: "display", platform: "switch",
                options: Self.displaySwitch(
                    uniqueID: "\(id)_display", name: "Display", commandTopic: topics.displayCommand)),
            Component(
                key: "display_auto", platform: "button",
                options: Self.displayButton(
                    uniqueID: "\(id)_display_auto", name: "Display sleeps with the room",
                    commandTopic: topics.displayCommand, payload: "auto", icon: "mdi:monitor-shimmer")),
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
    public func deviceDocument(backlight: Bool, display: Bool = false, whitePoint: Bool = false) -> (
        topic: String, payload: String
    ) {
        let components = components(backlight: backlight, display: display, whitePoint: whitePoint).map {
            component in
            (component.key, JSONValue.object([("p", .string(component.platform))] + component.options))
        }
        let document = JSONValue.object(
            [("dev", device), ("o", origin)] + shared + [("cmps", .object(components))])
        return (topics.deviceDiscovery, document.text)
    }

    /// The fleet's device, "all kiosks", with a select on the group's override topic and the
    /// brightness number and button on its brightness topic. Home Assistant keeps no state for
    /// them (no state topic: the select and the number are optimistic); each kiosk's own entities
    /// show what took effect. Every bridge publishes the same document, with or without a
    /// backlight of its own (a daemon without one logs the line and ignores it). The displays
    /// have buttons, not a switch: a fleet has no one state a switch could show without lying.
    /// Never removed by one bridge, since the others share it.
    public var groupDocument: (topic: String, payload: String) {
        let id = topics.groupObjectID
        let select = JSONValue.object([
            ("p", .string("select")), ("unique_id", .string("\(id)_override")),
            ("name", .string("Override all kiosks")),
            ("options", .array(Self.overrideOptions.map(JSONValue.string))),
            ("command_topic", .string(topics.groupOverrideCommand)),
            ("icon", .string("mdi:monitor-multiple")),
        ])
        let brightness = JSONValue.object(
            [("p", .string("number"))]
                + Self.brightnessNumber(
                    uniqueID: "\(id)_brightness", name: "Brightness of all kiosks",
                    commandTopic: topics.groupBrightnessCommand, stateful: false))
        let automatic = JSONValue.object(
            [("p", .string("button"))]
                + Self.automaticBrightnessButton(
                    uniqueID: "\(id)_brightness_auto", name: "Automatic brightness on all kiosks",
                    commandTopic: topics.groupBrightnessCommand))
        let displayButtons = [
            ("display_on", "Wake all displays", "on", "mdi:monitor"),
            ("display_off", "Sleep all displays", "off", "mdi:monitor-off"),
            ("display_auto", "All displays sleep with the room", "auto", "mdi:monitor-shimmer"),
        ].map { key, name, payload, icon in
            (
                key,
                JSONValue.object(
                    [("p", .string("button"))]
                        + Self.displayButton(
                            uniqueID: "\(id)_\(key)", name: name, commandTopic: topics.groupDisplayCommand,
                            payload: payload, icon: icon))
            )
        }
        let document = JSONValue.object([
            (
                "dev",
                .object(
                    [
                        ("ids", .array([.string(id)])), ("name", .string("Ambience: all kiosks")),
                        ("mf", .string("Ambience")), ("mdl", .string("kiosk fleet")),
                    ] + software)
            ),
            ("o", origin), ("qos", .number(1)),
            (
                "cmps",
                .object(
                    [("override", select), ("brightness", brightness), ("brightness_auto", automatic)]
                        + displayButtons)
            ),
        ])
        return (topics.groupDiscovery, document.text)
    }

    /// One document per entity, for Home Assistant before 2024.11.
    public func entityDocuments(backlight: Bool, display: Bool = false, whitePoint: Bool = false)
        -> [(topic: String, payload: String)]
    {
        components(backlight: backlight, display: display, whitePoint: whitePoint).map { component in
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
            + components(backlight: true, display: true, whitePoint: true).map {
                topics.entityDiscovery(platform: $0.platform, objectID: $0.key)
            }
    }
}
