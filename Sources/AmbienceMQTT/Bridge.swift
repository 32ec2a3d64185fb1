import AmbienceCore

/// One message to the broker.
public struct Publication: Equatable, Sendable {
    public var topic: String
    public var payload: String
    public var retain: Bool

    public init(topic: String, payload: String, retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

/// What the bridge decided; the program does it (a broker client, the control pipe, stderr).
public enum BridgeAction: Equatable, Sendable {
    case publish(Publication)
    case subscribe(String)
    /// A line for the daemon's control pipe.
    case control(String)
    case warn(String)
    case note(String)
}

/// The bridge's decisions, free of I/O and clocks: the program feeds it the connection's ups and
/// downs, the daemon's event lines, the broker's messages and the monotonic time, and does what
/// it returns. Nothing is queued while offline: what was missed is replaced, on each connection,
/// by one fresh state.
///
/// Discovery documents of another setting (the other style after `discovery_per_entity` changed,
/// or any after discovery was turned off) are emptied only where the broker holds one: on each
/// connection the bridge subscribes to those topics, empties each retained document the broker
/// delivers there, and announces itself only after that, so that Home Assistant removes the old
/// entities before the new documents name the same ones. An empty document at a topic whose
/// entities Home Assistant discovered on another topic makes it warn of a conflicting discovery
/// message, so nothing is published where nothing was found. The broker delivers the retained
/// documents of a subscription in order, before those of a later one: the bridge subscribes to
/// its own status topic last, and the retained `online` it published there a moment before says
/// that every stale document has arrived.
///
/// The brightness entities are announced only for a kiosk with a backlight, the display's only
/// for one with a `[display]`, which the daemon's lines tell (`brightness` is null without
/// `[backlight]`, `display` absent without `[display]`): the announcement waits for the first
/// line (the daemon writes one within a second of the pipe's opening), at most another
/// `staleCheckTimeout`, and is made again when a restarted daemon says otherwise.
public final class Bridge {
    public struct Settings: Sendable {
        public var topics: Topics
        /// Nil: discovery off, its documents removed.
        public var discovery: Discovery?
        public var perEntityDiscovery: Bool
        /// Every how many seconds the state is published again without news.
        public var republishInterval: Double
        /// The longest wait before announcing again after Home Assistant says `online`.
        public var announceJitter: Double
        /// How long to wait, after connecting, for the retained status that ends the look for
        /// stale discovery documents (a broker that retains nothing never sends it).
        public var staleCheckTimeout: Double

        public init(
            topics: Topics, discovery: Discovery?, perEntityDiscovery: Bool = false,
            republishInterval: Double = 60,
            announceJitter: Double = 3,
            staleCheckTimeout: Double = 5
        ) {
            self.topics = topics
            self.discovery = discovery
            self.perEntityDiscovery = perEntityDiscovery
            self.republishInterval = republishInterval
            self.announceJitter = announceJitter
            self.staleCheckTimeout = staleCheckTimeout
        }
    }

    public let settings: Settings
    public private(set) var status = KioskStatus()
    public private(set) var isConnected = false
    private let random: () -> Double
    private var nextRepublish: Double?
    private var announceAt: Double?
    /// Connected, the retained documents of the stale topics still coming: the announcement
    /// waits, at most until this time.
    private var staleCheckEnds: Double?
    /// This connection's announcement was made (a stale document found later is emptied, then
    /// the documents are announced again).
    private var announced = false
    /// The daemon's pipe has a writer: what `status` says is current, worth publishing again.
    private var daemonWriting = false
    /// What the kiosk has, as the daemon's last line said; nil before its first.
    private var features: Features?
    /// What this connection's announcement said the kiosk has.
    private var announcedFeatures = Features.none

    /// The outputs that bring entities of their own.
    struct Features: Equatable {
        var backlight: Bool
        var display: Bool
        var whitePoint: Bool

        static let none = Features(backlight: false, display: false, whitePoint: false)
        static let all = Features(backlight: true, display: true, whitePoint: true)
    }
    /// The look for stale documents is over, the daemon not heard from yet: the announcement
    /// waits for its first line, at most until this time.
    private var daemonWaitEnds: Double?

    /// `random` returns a number in [0, 1): the delay before announcing again.
    public init(settings: Settings, random: @escaping () -> Double) {
        self.settings = settings
        self.random = random
    }

    private var topics: Topics { settings.topics }

    /// On every CONNACK: online, subscriptions and a fresh state; the announcement once the
    /// stale discovery topics have been looked at (`message`, `tick`).
    public func connected(now: Double) -> [BridgeAction] {
        isConnected = true
        announceAt = nil
        announced = false
        staleCheckEnds = now + settings.staleCheckTimeout
        var actions: [BridgeAction] = [
            .publish(Publication(topic: topics.status, payload: "online", retain: true))
        ]
        actions += commandTopics.map(BridgeAction.subscribe)
        if settings.discovery != nil { actions.append(.subscribe(topics.homeAssistantStatus)) }
        actions += staleDiscoveryTopics.map(BridgeAction.subscribe)
        // Last: the retained `online` published above comes back after every retained document
        // of the subscriptions before it.
        actions.append(.subscribe(topics.status))
        if daemonWriting, status.state != nil { actions.append(publishState(now: now)) }
        return actions
    }

    /// The daemon closed its pipe (stopped, or restarting): its last state is no longer
    /// published again, so Home Assistant's lux goes unavailable (`expire_after`) if it stays away.
    public func daemonLeft() {
        daemonWriting = false
        nextRepublish = nil
    }

    public func disconnected() {
        isConnected = false
        nextRepublish = nil
        announceAt = nil
        staleCheckEnds = nil
        daemonWaitEnds = nil
        announced = false
    }

    /// The clean shutdown's last word, before disconnecting: the will is for unclean ends.
    public func shuttingDown() -> [BridgeAction] {
        guard isConnected else { return [] }
        return [.publish(Publication(topic: topics.status, payload: "offline", retain: true))]
    }

    /// One line from the daemon's pipe: every event is published.
    public func eventLine(_ line: String, now: Double) -> [BridgeAction] {
        guard status.consume(line, now: now) else { return [] }
        daemonWriting = true
        features = Features(
            backlight: status.brightness != nil, display: status.display != nil,
            whitePoint: status.whitePoint != nil)
        guard isConnected else { return [] }
        var actions = [publishState(now: now)]
        if daemonWaitEnds != nil {
            daemonWaitEnds = nil
            actions += announce()
        } else if announced, features != announcedFeatures {
            // A daemon restarted with or without `[backlight]` or `[display]`: entities come or go.
            actions += announce()
        }
        return actions
    }

    /// The topics commands arrive on: the theme's, the backlight's and the display's, this
    /// kiosk's and the fleet's.
    private var commandTopics: [String] {
        [
            topics.overrideCommand, topics.groupOverrideCommand, topics.brightnessCommand,
            topics.groupBrightnessCommand, topics.displayCommand, topics.groupDisplayCommand,
            topics.whitePointCommand,
        ]
    }

    private func commandKind(_ topic: String) -> OverridePayload.Kind? {
        switch topic {
        case topics.overrideCommand, topics.groupOverrideCommand: .theme
        case topics.brightnessCommand, topics.groupBrightnessCommand: .brightness
        case topics.displayCommand, topics.groupDisplayCommand: .display
        case topics.whitePointCommand: .whitePoint
        default: nil
        }
    }

    /// A message on a subscribed topic.
    public func message(topic: String, payload: [UInt8], retained: Bool, now: Double) -> [BridgeAction] {
        if topic == topics.status {
            // The bridge's own status, retained: every stale document has been delivered.
            guard retained, staleCheckEnds != nil else { return [] }
            return endStaleCheck(now: now)
        }
        if staleDiscoveryTopics.contains(topic) {
            return staleDocument(topic: topic, payload: payload, retained: retained)
        }
        if topic == topics.homeAssistantStatus {
            // A retained birth message is an old one, delivered on subscribing: just announced.
            guard String(decoding: payload, as: UTF8.self) == "online", !retained, settings.discovery != nil
            else {
                return []
            }
            // Home Assistant restarted: announce again, after a pause that spreads a fleet out.
            announceAt = now + settings.announceJitter * random()
            return []
        }
        guard let kind = commandKind(topic) else { return [] }
        if retained {
            // A retained command would strike again at every reconnect (and a group one on
            // every kiosk): commands are for now only.
            return [
                .warn(
                    "\(topic): ignored the retained command \(OverridePayload.quoted(payload));"
                        + " publish commands without retain (clear it with an empty retained message)")
            ]
        }
        switch OverridePayload.controlLine(payload, kind: kind) {
        case .success(let line):
            return [.note("\(topic): \(OverridePayload.quoted(payload))"), .control(line)]
        case .failure(let error):
            return [
                .warn(
                    "\(topic): ignored \(OverridePayload.quoted(payload)): \(error.message);"
                        + " expected \(kind.expected)")
            ]
        }
    }

    /// The periodic state and a delayed announcement, when due.
    public func tick(now: Double) -> [BridgeAction] {
        guard isConnected else { return [] }
        var actions: [BridgeAction] = []
        if let due = staleCheckEnds, now >= due {
            actions.append(
                .note(
                    "\(topics.status): the retained status did not come back within"
                        + " \(Int(settings.staleCheckTimeout)) s; going on without it"))
            actions += endStaleCheck(now: now)
        }
        if let due = daemonWaitEnds, now >= due {
            daemonWaitEnds = nil
            if settings.discovery != nil {
                actions.append(
                    .note(
                        "no line from the daemon within \(Int(settings.staleCheckTimeout)) s: announcing"
                            + " without the brightness and display entities until it says it has them"))
            }
            actions += announce()
        }
        if let due = announceAt, now >= due {
            announceAt = nil
            // Before the look for stale documents ends, its own announcement is still to come.
            if staleCheckEnds == nil, daemonWaitEnds == nil {
                actions += announce()
                if daemonWriting, status.state != nil { actions.append(publishState(now: now)) }
            }
        }
        if let due = nextRepublish, now >= due, daemonWriting, status.state != nil {
            actions.append(publishState(now: now))
        }
        return actions
    }

    /// The next time `tick` has something to do.
    public var nextDeadline: Double? {
        [nextRepublish, announceAt, staleCheckEnds, daemonWaitEnds].compactMap { $0 }.min()
    }

    private func publishState(now: Double) -> BridgeAction {
        nextRepublish = now + settings.republishInterval
        return .publish(Publication(topic: topics.state, payload: status.payload(now: now), retain: true))
    }

    /// The discovery topics of this kiosk that the current setting leaves unused: the other
    /// style's, or all of them with discovery off (never the fleet's, which other kiosks announce).
    /// With the features not known yet, the brightness and display entities' own topics are not
    /// stale.
    public var staleDiscoveryTopics: [String] {
        let all = Discovery(topics: topics, name: "").allTopics
        let current = Set(documents(features ?? .all).map { $0.topic })
        return all.filter { !current.contains($0) }
    }

    /// The documents of the current setting; none with discovery off.
    private func documents(_ features: Features) -> [(topic: String, payload: String)] {
        guard let discovery = settings.discovery else { return [] }
        // The fleet's entities only with device-based discovery (Home Assistant 2024.11 on).
        return settings.perEntityDiscovery
            ? discovery.entityDocuments(
                backlight: features.backlight, display: features.display, whitePoint: features.whitePoint)
            : [
                discovery.deviceDocument(
                    backlight: features.backlight, display: features.display, whitePoint: features.whitePoint),
                discovery.groupDocument,
            ]
    }

    private func endStaleCheck(now: Double) -> [BridgeAction] {
        staleCheckEnds = nil
        guard features != nil else {
            daemonWaitEnds = now + settings.staleCheckTimeout
            return []
        }
        // The state went out on connecting, retained: Home Assistant reads it when it subscribes.
        return announce()
    }

    /// The announcement, after which a change of the features announces again. Per entity, the
    /// documents announced before and no longer wanted are emptied (a device's new document
    /// itself removes the components it leaves out).
    private func announce() -> [BridgeAction] {
        let wanted = Set(documents(features ?? .none).map { $0.topic })
        let dropped =
            announced
            ? documents(announcedFeatures).map { $0.topic }.filter { !wanted.contains($0) } : []
        announced = true
        announcedFeatures = features ?? .none
        return dropped.map { .publish(Publication(topic: $0, payload: "", retain: true)) } + announcement()
    }

    /// A document at a stale topic: emptied when it is a retained one (what the broker holds),
    /// which removes what Home Assistant made of it. Empty payloads (the bridge's own removals
    /// coming back) and live ones are left alone.
    private func staleDocument(topic: String, payload: [UInt8], retained: Bool) -> [BridgeAction] {
        guard retained, !payload.isEmpty else { return [] }
        let setting =
            settings.discovery == nil
            ? "discovery is off"
            : settings.perEntityDiscovery ? "discovery is per entity" : "discovery is per device"
        var actions: [BridgeAction] = [
            .note("\(topic): removing the retained discovery document of another setting (\(setting))"),
            .publish(Publication(topic: topic, payload: "", retain: true)),
        ]
        // Found after the announcement (the retained status was late): announced again, after the
        // removal, so that Home Assistant takes the documents once the old entities are gone.
        if announced { actions += announce() }
        return actions
    }

    /// The current setting's discovery documents (none with discovery off: stale ones are
    /// removed as they are found).
    private func announcement() -> [BridgeAction] {
        documents(features ?? .none).map {
            .publish(Publication(topic: $0.topic, payload: $0.payload, retain: true))
        }
    }
}
