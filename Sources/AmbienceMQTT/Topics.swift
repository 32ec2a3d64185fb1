/// Where the bridge publishes and listens (docs/mqtt.md): everything of one kiosk
/// under PREFIX/ID, the fleet's shared command under PREFIX/all.
public struct Topics: Equatable, Sendable {
    public var prefix: String
    public var deviceID: String
    public var discoveryPrefix: String

    public init(prefix: String, deviceID: String, discoveryPrefix: String) {
        self.prefix = prefix
        self.deviceID = deviceID
        self.discoveryPrefix = discoveryPrefix
    }

    /// `online` or `offline`, retained; the broker publishes `offline` as the last will.
    public var status: String { "\(prefix)/\(deviceID)/status" }
    /// The state payload, retained.
    public var state: String { "\(prefix)/\(deviceID)/state" }
    /// Overrides for this kiosk.
    public var overrideCommand: String { "\(prefix)/\(deviceID)/override/set" }
    /// Overrides for every kiosk at once.
    public var groupOverrideCommand: String { "\(prefix)/all/override/set" }
    /// The backlight's overrides for this kiosk: a percent, or `auto`.
    public var brightnessCommand: String { "\(prefix)/\(deviceID)/brightness/set" }
    /// The backlight's overrides for every kiosk at once.
    public var groupBrightnessCommand: String { "\(prefix)/all/brightness/set" }
    /// The display's sleep overrides for this kiosk: `on`, `off` or `auto`.
    public var displayCommand: String { "\(prefix)/\(deviceID)/display/set" }
    /// The display's sleep overrides for every kiosk at once.
    public var groupDisplayCommand: String { "\(prefix)/all/display/set" }
    /// The display's white for this kiosk: whole kelvin, or `auto`.
    public var whitePointCommand: String { "\(prefix)/\(deviceID)/whitepoint/set" }
    /// Home Assistant says `online` here when it (re)starts: the moment to announce again.
    public var homeAssistantStatus: String { "\(discoveryPrefix)/status" }

    /// The object id of the device in discovery topics and unique ids.
    public var discoveryObjectID: String { "ambience_\(deviceID)" }

    /// Device-based discovery (Home Assistant 2024.11 and later): one retained document.
    public var deviceDiscovery: String { "\(discoveryPrefix)/device/\(discoveryObjectID)/config" }

    /// The fleet's own device in Home Assistant: a select on the group topic. Every bridge
    /// announces the same document, so any one of them makes it appear.
    public var groupDiscovery: String { "\(discoveryPrefix)/device/\(groupObjectID)/config" }

    /// `ambience_all` for the default prefix: one per prefix, that is per fleet.
    public var groupObjectID: String { prefix.split(separator: "/").joined(separator: "_") + "_all" }

    /// Per-entity discovery: `<prefix>/<component>/<node_id>/<object_id>/config`.
    public func entityDiscovery(platform: String, objectID: String) -> String {
        "\(discoveryPrefix)/\(platform)/\(discoveryObjectID)/\(objectID)/config"
    }
}
