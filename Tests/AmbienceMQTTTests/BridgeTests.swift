import AmbienceMQTT
import JSON
import Testing

struct BridgeTests {
    static let topics = Topics(prefix: "ambience", deviceID: "k1", discoveryPrefix: "homeassistant")
    static let line =
        #"{"event":"change","state":"regular","previous":null,"animated":false,"reason":"startup","lux":300,"filtered":300,"time":"x","override":null,"override_remaining_s":null,"fault":false,"brightness":null}"#

    static let backlightLine = line.replacing(#""brightness":null"#, with: #""brightness":40"#)
    static let asleepLine = line.replacing(#""brightness":null"#, with: #""brightness":null,"display":"off""#)

    /// A bridge that has read `daemonLine` from the daemon, offline (nil: nothing read yet).
    func makeBridge(
        discovery: Bool = true, perEntity: Bool = false, random: Double = 0.5, daemonLine: String? = Self.line
    ) -> Bridge {
        let bridge = Bridge(
            settings: Bridge.Settings(
                topics: Self.topics,
                discovery: discovery ? Discovery(topics: Self.topics, name: "K1", version: "1") : nil,
                perEntityDiscovery: perEntity),
            random: { random })
        if let daemonLine { _ = bridge.eventLine(daemonLine, now: 0) }
        return bridge
    }

    func published(_ actions: [BridgeAction]) -> [Publication] {
        actions.compactMap { if case .publish(let publication) = $0 { publication } else { nil } }
    }

    func subscribed(_ actions: [BridgeAction]) -> [String] {
        actions.compactMap { if case .subscribe(let topic) = $0 { topic } else { nil } }
    }

    /// The broker's answer to the last subscription of a connection: the bridge's own retained status.
    func statusReturns(_ bridge: Bridge, now: Double) -> [BridgeAction] {
        bridge.message(topic: "ambience/k1/status", payload: Array("online".utf8), retained: true, now: now)
    }

    func retainedDocument(_ bridge: Bridge, at topic: String, now: Double = 1) -> [BridgeAction] {
        bridge.message(topic: topic, payload: Array(#"{"name":"old"}"#.utf8), retained: true, now: now)
    }

    static let deviceTopic = "homeassistant/device/ambience_k1/config"
    static let groupTopic = "homeassistant/device/ambience_all/config"
    static let entityTopics = [
        "homeassistant/sensor/ambience_k1/lux/config", "homeassistant/sensor/ambience_k1/theme/config",
        "homeassistant/select/ambience_k1/override/config",
        "homeassistant/binary_sensor/ambience_k1/fault/config",
    ]
    static let brightnessEntityTopics = [
        "homeassistant/number/ambience_k1/brightness/config",
        "homeassistant/button/ambience_k1/brightness_auto/config",
    ]
    static let displayEntityTopics = [
        "homeassistant/switch/ambience_k1/display/config",
        "homeassistant/button/ambience_k1/display_auto/config",
    ]
    static let whitePointEntityTopics = [
        "homeassistant/sensor/ambience_k1/cct/config", "homeassistant/number/ambience_k1/whitepoint/config",
        "homeassistant/button/ambience_k1/whitepoint_auto/config",
    ]
    static let commandTopics = [
        "ambience/k1/override/set", "ambience/all/override/set", "ambience/k1/brightness/set",
        "ambience/all/brightness/set", "ambience/k1/display/set", "ambience/all/display/set",
        "ambience/k1/whitepoint/set",
    ]

    @Test func eachConnectionSaysOnlineSubscribesAnnouncesAndPublishesOneFreshState() {
        let bridge = makeBridge()
        #expect(bridge.eventLine(Self.line, now: 0).isEmpty)  // offline: nothing is queued
        let actions = bridge.connected(now: 5)
        #expect(
            actions.first
                == .publish(Publication(topic: "ambience/k1/status", payload: "online", retain: true)))
        // The other style's topics, then the bridge's own status last. (Typed apart: Swift
        // 6.0's type checker gives up on the whole sum inside #expect.)
        let otherStyle: [String] =
            Self.entityTopics + Self.brightnessEntityTopics + Self.displayEntityTopics
            + Self.whitePointEntityTopics
        let expected: [String] =
            Self.commandTopics + ["homeassistant/status"] + otherStyle + ["ambience/k1/status"]
        #expect(subscribed(actions) == expected)
        #expect(published(actions).map(\.topic) == ["ambience/k1/status", "ambience/k1/state"])
        // The retained status back: the documents.
        let announcement = published(statusReturns(bridge, now: 5.1))
        #expect(announcement.map(\.topic) == [Self.deviceTopic, Self.groupTopic])
        #expect(announcement.allSatisfy { $0.retain && !$0.payload.isEmpty })
        // Once a connection: the bridge's own `offline` coming back later is nothing.
        #expect(statusReturns(bridge, now: 6).isEmpty)
        bridge.disconnected()
        #expect(published(bridge.connected(now: 9)).filter { $0.topic == "ambience/k1/state" }.count == 1)
        #expect(
            published(statusReturns(bridge, now: 9.1)).map(\.topic) == [Self.deviceTopic, Self.groupTopic])
    }

    @Test func announcementsPublishNothingAtTheOtherStylesTopics() {
        // Home Assistant warns of a conflicting discovery message for each entity when an
        // empty document arrives at a topic other than the one it discovered the entity on.
        for perEntity in [false, true] {
            let bridge = makeBridge(perEntity: perEntity)
            _ = bridge.eventLine(Self.line, now: 0)
            var actions = bridge.connected(now: 0) + statusReturns(bridge, now: 0.1)
            _ = bridge.message(
                topic: "homeassistant/status", payload: Array("online".utf8), retained: false, now: 10)
            actions += bridge.tick(now: 20)
            bridge.disconnected()
            actions += bridge.connected(now: 30) + statusReturns(bridge, now: 30.1)
            let discovery = published(actions).filter { $0.topic.hasPrefix("homeassistant/") }
            #expect(discovery.count == (perEntity ? 12 : 6))
            #expect(discovery.allSatisfy { !$0.payload.isEmpty })
            let other = perEntity ? [Self.deviceTopic] : Self.entityTopics
            #expect(!discovery.contains { other.contains($0.topic) })
        }
    }

    @Test func retainedDocumentsOfTheOtherStyleAreEmptiedBeforeTheAnnouncement() {
        // Per-entity now, a device document from before: emptied, then the four documents.
        let perEntity = makeBridge(perEntity: true)
        #expect(subscribed(perEntity.connected(now: 0)).contains(Self.deviceTopic))
        let removal = retainedDocument(perEntity, at: Self.deviceTopic)
        #expect(published(removal) == [Publication(topic: Self.deviceTopic, payload: "", retain: true)])
        #expect(removal.contains { if case .note = $0 { true } else { false } })
        #expect(published(statusReturns(perEntity, now: 1.1)).map(\.topic) == Self.entityTopics)

        // Device-based now, four documents from before: each emptied, then the device's.
        let device = makeBridge()
        _ = device.connected(now: 0)
        var actions: [BridgeAction] = []
        for topic in Self.entityTopics { actions += retainedDocument(device, at: topic) }
        actions += statusReturns(device, now: 1.1)
        #expect(
            published(actions).map(\.topic) == Self.entityTopics + [Self.deviceTopic, Self.groupTopic])
        #expect(published(actions).prefix(4).allSatisfy { $0.payload.isEmpty && $0.retain })
    }

    @Test func emptyOrLiveDocumentsAtTheOtherStylesTopicsAreLeftAlone() {
        let bridge = makeBridge()
        _ = bridge.connected(now: 0)
        let topic = Self.entityTopics[0]
        // The bridge's own removal coming back, and a retained empty one.
        #expect(bridge.message(topic: topic, payload: [], retained: false, now: 1).isEmpty)
        #expect(bridge.message(topic: topic, payload: [], retained: true, now: 1).isEmpty)
        // Published while subscribed: not what the broker holds from before.
        #expect(bridge.message(topic: topic, payload: Array("{}".utf8), retained: false, now: 1).isEmpty)
        // The current style's own topic is not a stale one.
        #expect(retainedDocument(bridge, at: Self.deviceTopic).isEmpty)
    }

    @Test func withoutTheRetainedStatusTheAnnouncementComesAfterTheTimeout() {
        let bridge = makeBridge()
        _ = bridge.connected(now: 0)
        #expect(bridge.nextDeadline == 5)
        #expect(bridge.tick(now: 4.9).isEmpty)
        let actions = bridge.tick(now: 5)
        #expect(published(actions).map(\.topic) == [Self.deviceTopic, Self.groupTopic])
        #expect(actions.contains { if case .note = $0 { true } else { false } })
        #expect(bridge.nextDeadline == 60)  // only the periodic state
        // A stale document found after that: emptied, then the documents once more.
        let late = retainedDocument(bridge, at: Self.entityTopics[2], now: 6)
        #expect(
            published(late).map(\.topic) == [Self.entityTopics[2], Self.deviceTopic, Self.groupTopic])
        #expect(published(late).first?.payload == "")
    }

    @Test func homeAssistantOnlineBeforeTheStaleCheckEndsAnnouncesOnce() {
        let bridge = makeBridge(random: 0)
        _ = bridge.connected(now: 0)
        _ = bridge.message(
            topic: "homeassistant/status", payload: Array("online".utf8), retained: false, now: 0.1)
        #expect(bridge.tick(now: 0.1).isEmpty)
        #expect(published(statusReturns(bridge, now: 0.2)).count == 2)
        #expect(bridge.tick(now: 1).isEmpty)
    }

    @Test func everyEventIsPublishedAndTheStateAgainEveryMinute() {
        let bridge = makeBridge()
        _ = bridge.connected(now: 0) + statusReturns(bridge, now: 0)
        #expect(published(bridge.eventLine(Self.line, now: 1)).map(\.topic) == ["ambience/k1/state"])
        #expect(bridge.nextDeadline == 61)
        #expect(bridge.tick(now: 60).isEmpty)
        #expect(published(bridge.tick(now: 61)).map(\.topic) == ["ambience/k1/state"])
        #expect(bridge.eventLine("not an event", now: 62).isEmpty)
    }

    @Test func aDaemonThatLeftIsNotPublishedAgainUntilItWritesAgain() {
        let bridge = makeBridge()
        _ = bridge.connected(now: 0) + statusReturns(bridge, now: 0)
        _ = bridge.eventLine(Self.line, now: 1)
        bridge.daemonLeft()
        #expect(bridge.nextDeadline == nil)
        #expect(bridge.tick(now: 200).isEmpty)
        bridge.disconnected()
        #expect(!published(bridge.connected(now: 300)).contains { $0.topic == "ambience/k1/state" })
        _ = statusReturns(bridge, now: 300)
        #expect(published(bridge.eventLine(Self.line, now: 301)).map(\.topic) == ["ambience/k1/state"])
        #expect(bridge.nextDeadline == 361)
    }

    @Test func commandsOnBothTopicsReachTheControlPipe() {
        let bridge = makeBridge()
        _ = bridge.connected(now: 0)
        let own = bridge.message(
            topic: "ambience/k1/override/set", payload: Array("contrast for 30m".utf8), retained: false,
            now: 1)
        #expect(own.contains(.control("override contrast for 30m")))
        let group = bridge.message(
            topic: "ambience/all/override/set", payload: Array("auto".utf8), retained: false, now: 1)
        #expect(group.contains(.control("override auto")))
    }

    @Test func brightnessCommandsOnBothTopicsReachTheControlPipe() {
        let bridge = makeBridge()
        _ = bridge.connected(now: 0)
        let own = bridge.message(
            topic: "ambience/k1/brightness/set", payload: Array("40".utf8), retained: false, now: 1)
        #expect(own.contains(.control("brightness 40")))
        #expect(own.contains { if case .note = $0 { true } else { false } })
        let timed = bridge.message(
            topic: "ambience/k1/brightness/set", payload: Array("10 for 2h".utf8), retained: false, now: 1)
        #expect(timed.contains(.control("brightness 10 for 2h")))
        let group = bridge.message(
            topic: "ambience/all/brightness/set", payload: Array("auto".utf8), retained: false, now: 1)
        #expect(group.contains(.control("brightness auto")))
        // A theme on the brightness topic, a percent on the theme's: each topic takes its own.
        for (topic, payload) in [
            ("ambience/k1/brightness/set", "invert"), ("ambience/all/override/set", "40"),
        ] {
            let actions = bridge.message(topic: topic, payload: Array(payload.utf8), retained: false, now: 1)
            #expect(actions.count == 1)
            guard case .warn(let message) = actions.first else {
                Issue.record("no warning for \(payload) at \(topic)")
                continue
            }
            #expect(message.contains(topic.hasSuffix("brightness/set") ? "whole percent" : "contrast"))
        }
        let retained = bridge.message(
            topic: "ambience/all/brightness/set", payload: Array("40".utf8), retained: true, now: 1)
        #expect(retained.count == 1 && !retained.contains { if case .control = $0 { true } else { false } })
    }

    @Test func aKioskWithABacklightAnnouncesItsBrightnessEntitiesInEitherStyle() throws {
        let device = makeBridge(daemonLine: Self.backlightLine)
        let actions = device.connected(now: 0)
        // Its own style's brightness topics are not stale; the other style's are.
        #expect(
            subscribed(actions).filter { Self.brightnessEntityTopics.contains($0) }
                == Self.brightnessEntityTopics)
        let announcement = published(statusReturns(device, now: 0.1))
        #expect(announcement.map(\.topic) == [Self.deviceTopic, Self.groupTopic])
        let document = try JSONValue.parse(announcement[0].payload)
        #expect(document["cmps"]?["brightness"]?["p"] == .string("number"))
        #expect(document["cmps"]?["brightness_auto"]?["p"] == .string("button"))
        // A per-entity document of the brightness from before: emptied, the device announced again.
        let removal = published(retainedDocument(device, at: Self.brightnessEntityTopics[0], now: 1))
        #expect(removal.map(\.topic) == [Self.brightnessEntityTopics[0], Self.deviceTopic, Self.groupTopic])
        #expect(removal[0].payload.isEmpty)

        let perEntity = makeBridge(perEntity: true, daemonLine: Self.backlightLine)
        let subscriptions = subscribed(perEntity.connected(now: 0))
        #expect(!subscriptions.contains { Self.brightnessEntityTopics.contains($0) })
        #expect(
            published(statusReturns(perEntity, now: 0.1)).map(\.topic)
                == Self.entityTopics + Self.brightnessEntityTopics)
    }

    @Test func aKioskWithADisplayAnnouncesASwitchThatShowsWhatTheDeviceSays() throws {
        let bridge = makeBridge(daemonLine: Self.asleepLine)
        _ = bridge.connected(now: 0)
        let announcement = published(statusReturns(bridge, now: 0.1))
        let document = try JSONValue.parse(announcement[0].payload)
        let display = try #require(document["cmps"]?["display"])
        #expect(display["p"] == .string("switch"))
        #expect(display["command_topic"] == .string("ambience/k1/display/set"))
        #expect(display["value_template"] == .string("{{ value_json.display }}"))
        #expect(display["state_off"] == .string("off") && display["payload_off"] == .string("off"))
        #expect(display["optimistic"] == nil)  // its state is read, never assumed
        #expect(document["cmps"]?["display_auto"]?["payload_press"] == .string("auto"))
        #expect(document["cmps"]?["brightness"] == nil)
        // The state the switch reads: the device's word, from the daemon's line.
        let state = published(bridge.eventLine(Self.asleepLine, now: 1)).first {
            $0.topic == "ambience/k1/state"
        }
        #expect(try JSONValue.parse(#require(state).payload)["display"] == .string("off"))
        // The fleet's: buttons, no switch that would have to guess.
        let group = try JSONValue.parse(announcement[1].payload)
        #expect(group["cmps"]?["display_off"]?["p"] == .string("button"))
        #expect(group["cmps"]?["display_off"]?["command_topic"] == .string("ambience/all/display/set"))
        // Without [display]: neither entity, and the state has no display key.
        let without = makeBridge()
        _ = without.connected(now: 0)
        let plain = try JSONValue.parse(published(statusReturns(without, now: 0.1))[0].payload)
        #expect(plain["cmps"]?["display"] == nil && plain["cmps"]?["display_auto"] == nil)
        #expect(!without.status.payload(now: 1).contains("display"))
        // Per entity: its two documents after the others.
        let perEntity = makeBridge(perEntity: true, daemonLine: Self.asleepLine)
        _ = perEntity.connected(now: 0)
        #expect(
            published(statusReturns(perEntity, now: 0.1)).map(\.topic) == Self.entityTopics
                + Self.displayEntityTopics)
    }

    @Test func displayCommandsOnBothTopicsReachTheControlPipe() {
        let bridge = makeBridge(daemonLine: Self.asleepLine)
        _ = bridge.connected(now: 0)
        for (topic, payload, line) in [
            ("ambience/k1/display/set", "off", "display off"),
            ("ambience/k1/display/set", "on for 1h", "display on for 1h"),
            ("ambience/all/display/set", "auto", "display auto"),
        ] {
            let actions = bridge.message(topic: topic, payload: Array(payload.utf8), retained: false, now: 1)
            #expect(actions.contains(.control(line)), "\(topic) \(payload)")
        }
        let refused = bridge.message(
            topic: "ambience/k1/display/set", payload: Array("dim".utf8), retained: false, now: 1)
        #expect(!refused.contains { if case .control = $0 { true } else { false } })
        #expect(
            refused.contains {
                if case .warn(let message) = $0 { message.contains("on, off or auto") } else { false }
            })
    }

    static let warmLine =
        #"{"event":"current","state":"regular","lux":300,"filtered":300,"fault":false,"brightness":null,"cct":2712,"whitepoint":4000}"#

    /// With `[whitepoint]`: the room's colour temperature in the state and a sensor reading it,
    /// the display's white as a number whose commands reach the control pipe.
    @Test func aKioskWithAWhitePointShowsTheRoomsColourAndTakesAWhite() throws {
        let bridge = makeBridge(daemonLine: Self.warmLine)
        _ = bridge.connected(now: 0)
        let document = try JSONValue.parse(published(statusReturns(bridge, now: 0.1))[0].payload)
        #expect(document["cmps"]?["cct"]?["p"] == .string("sensor"))
        #expect(document["cmps"]?["whitepoint"]?["p"] == .string("number"))
        let state = try #require(
            published(bridge.eventLine(Self.warmLine, now: 1)).first { $0.topic == "ambience/k1/state" })
        let payload = try JSONValue.parse(state.payload)
        #expect(payload["cct"] == .number(2712) && payload["whitepoint"] == .number(4000))
        for (payload, line) in [
            ("4500", "whitepoint 4500"), ("3000K for 2h", "whitepoint 3000K for 2h"),
            ("auto", "whitepoint auto"),
        ] {
            let actions = bridge.message(
                topic: "ambience/k1/whitepoint/set", payload: Array(payload.utf8), retained: false, now: 2)
            #expect(actions.contains(.control(line)), "\(payload)")
        }
        let refused = bridge.message(
            topic: "ambience/k1/whitepoint/set", payload: Array("900".utf8), retained: false, now: 2)
        #expect(
            refused.contains {
                if case .warn(let message) = $0 { message.contains("1000 to 15000") } else { false }
            })
        // Without [whitepoint]: no entity, and no key in the state.
        let without = makeBridge()
        _ = without.connected(now: 0)
        #expect(
            try JSONValue.parse(published(statusReturns(without, now: 0.1))[0].payload)["cmps"]?["cct"] == nil
        )
        #expect(!without.status.payload(now: 1).contains("cct"))
    }

    @Test func withoutABacklightNoBrightnessEntity() throws {
        let bridge = makeBridge()
        _ = bridge.connected(now: 0)
        let announcement = published(statusReturns(bridge, now: 0.1))
        let document = try JSONValue.parse(announcement[0].payload)
        #expect(document["cmps"]?["brightness"] == nil && document["cmps"]?["brightness_auto"] == nil)
        // The fleet's are there all the same: every bridge publishes the one document.
        #expect(try JSONValue.parse(announcement[1].payload)["cmps"]?["brightness"] != nil)
    }

    @Test func theAnnouncementWaitsForTheDaemonsFirstLine() throws {
        let bridge = makeBridge(daemonLine: nil)
        _ = bridge.connected(now: 0)
        #expect(statusReturns(bridge, now: 0.1).isEmpty)
        #expect(bridge.nextDeadline == 5.1)
        let actions = published(bridge.eventLine(Self.backlightLine, now: 0.8))
        #expect(actions.map(\.topic) == ["ambience/k1/state", Self.deviceTopic, Self.groupTopic])
        #expect(try JSONValue.parse(actions[1].payload)["cmps"]?["brightness"] != nil)
        #expect(bridge.nextDeadline == 60.8)

        // No daemon: announced without the brightness after the wait, with it once it writes.
        let alone = makeBridge(daemonLine: nil)
        _ = alone.connected(now: 0)
        _ = statusReturns(alone, now: 0.1)
        #expect(alone.tick(now: 5).isEmpty)
        let late = alone.tick(now: 5.1)
        #expect(late.contains { if case .note = $0 { true } else { false } })
        #expect(published(late).map(\.topic) == [Self.deviceTopic, Self.groupTopic])
        #expect(try JSONValue.parse(published(late)[0].payload)["cmps"]?["brightness"] == nil)
        let back = published(alone.eventLine(Self.backlightLine, now: 30))
        #expect(back.map(\.topic) == ["ambience/k1/state", Self.deviceTopic, Self.groupTopic])
        #expect(try JSONValue.parse(back[1].payload)["cmps"]?["brightness"] != nil)
        // Further lines with the same backlight: only the state.
        #expect(published(alone.eventLine(Self.backlightLine, now: 31)).map(\.topic) == ["ambience/k1/state"])
    }

    @Test func homeAssistantOnlineWhileWaitingForTheDaemonAnnouncesOnceItWrites() {
        let bridge = makeBridge(random: 0, daemonLine: nil)
        _ = bridge.connected(now: 0)
        _ = statusReturns(bridge, now: 0.1)
        _ = bridge.message(
            topic: "homeassistant/status", payload: Array("online".utf8), retained: false, now: 0.2)
        // The pause is over before the daemon wrote: nothing yet, since which entities is not known.
        #expect(published(bridge.tick(now: 0.3)).isEmpty)
        let announcement = published(bridge.eventLine(Self.backlightLine, now: 0.9))
        #expect(announcement.map(\.topic) == ["ambience/k1/state", Self.deviceTopic, Self.groupTopic])
        #expect(bridge.tick(now: 5.1).isEmpty)
        // Discovery off: the same wait, and nothing at the discovery topics after it.
        let off = makeBridge(discovery: false, daemonLine: nil)
        _ = off.connected(now: 0)
        _ = statusReturns(off, now: 0.1)
        #expect(off.tick(now: 5.1).isEmpty)
        #expect(
            !published(off.eventLine(Self.backlightLine, now: 6)).contains {
                $0.topic.hasPrefix("homeassistant/")
            })
    }

    @Test func aDaemonRestartedWithoutItsBacklightTakesItsEntitiesAway() throws {
        let perEntity = makeBridge(perEntity: true, daemonLine: Self.backlightLine)
        _ = perEntity.connected(now: 0)
        _ = statusReturns(perEntity, now: 0.1)
        let gone = published(perEntity.eventLine(Self.line, now: 10))
        #expect(gone.map(\.topic) == ["ambience/k1/state"] + Self.brightnessEntityTopics + Self.entityTopics)
        #expect(gone[1].payload.isEmpty && gone[2].payload.isEmpty && gone.allSatisfy(\.retain))

        // Device-based: the new document leaves them out, which removes them.
        let device = makeBridge(daemonLine: Self.backlightLine)
        _ = device.connected(now: 0)
        _ = statusReturns(device, now: 0.1)
        let document = published(device.eventLine(Self.line, now: 10))
        #expect(document.map(\.topic) == ["ambience/k1/state", Self.deviceTopic, Self.groupTopic])
        #expect(try JSONValue.parse(document[1].payload)["cmps"]?["brightness"] == nil)
    }

    @Test func retainedCommandsAreIgnoredWithAWarning() {
        let bridge = makeBridge()
        let actions = bridge.message(
            topic: "ambience/all/override/set", payload: Array("invert".utf8), retained: true, now: 1)
        #expect(actions.count == 1)
        guard case .warn(let message) = actions.first else {
            Issue.record("no warning")
            return
        }
        #expect(message.contains("retained"))
    }

    @Test func malformedCommandsAreLoggedAndIgnored() {
        let bridge = makeBridge()
        let actions = bridge.message(
            topic: "ambience/k1/override/set", payload: Array("dark please".utf8), retained: false, now: 1)
        #expect(actions.allSatisfy { if case .warn = $0 { true } else { false } })
        #expect(actions.count == 1)
    }

    @Test func homeAssistantOnlineAnnouncesAgainAfterARandomPause() {
        let bridge = makeBridge(random: 0.5)
        _ = bridge.connected(now: 0)
        _ = statusReturns(bridge, now: 0)
        _ = bridge.eventLine(Self.line, now: 0)
        #expect(
            bridge.message(
                topic: "homeassistant/status", payload: Array("online".utf8), retained: false, now: 10
            ).isEmpty)
        #expect(bridge.nextDeadline == 11.5)  // jitter 3 s × 0.5
        #expect(bridge.tick(now: 11).isEmpty)
        let topics = published(bridge.tick(now: 11.5)).map(\.topic)
        #expect(topics.contains("homeassistant/device/ambience_k1/config"))
        #expect(topics.last == "ambience/k1/state")
        #expect(
            bridge.message(
                topic: "homeassistant/status", payload: Array("offline".utf8), retained: false, now: 20
            ).isEmpty)
        #expect(bridge.nextDeadline == 71.5)  // only the periodic state
        _ = bridge.message(
            topic: "homeassistant/status", payload: Array("online".utf8), retained: true, now: 80)
        // A retained birth is an old one: the state is due, no announcement.
        #expect(published(bridge.tick(now: 100)).map(\.topic) == ["ambience/k1/state"])
    }

    @Test func discoveryOffEmptiesTheRetainedDocumentsItFindsAndPublishesNoOther() {
        let bridge = makeBridge(discovery: false)
        let actions = bridge.connected(now: 0)
        // Every topic of this kiosk looked at, never the fleet's, which the other kiosks announce.
        let documents: [String] =
            [Self.deviceTopic] + Self.entityTopics + Self.brightnessEntityTopics + Self.displayEntityTopics
            + Self.whitePointEntityTopics
        let expected: [String] = Self.commandTopics + documents + ["ambience/k1/status"]
        #expect(subscribed(actions) == expected)
        #expect(!published(actions).contains { $0.topic.hasPrefix("homeassistant/") })
        let removal = retainedDocument(bridge, at: Self.deviceTopic)
        #expect(published(removal) == [Publication(topic: Self.deviceTopic, payload: "", retain: true)])
        #expect(published(statusReturns(bridge, now: 2)).isEmpty)
        // Nothing more to find: nothing published at the discovery topics on later connections.
        bridge.disconnected()
        #expect(
            !published(bridge.connected(now: 10) + statusReturns(bridge, now: 10.1) + bridge.tick(now: 20))
                .contains { $0.topic.hasPrefix("homeassistant/") })
    }

    @Test func aCleanShutdownSaysOffline() {
        let bridge = makeBridge()
        #expect(bridge.shuttingDown().isEmpty)
        _ = bridge.connected(now: 0)
        #expect(
            bridge.shuttingDown() == [
                .publish(Publication(topic: "ambience/k1/status", payload: "offline", retain: true))
            ])
    }
}
