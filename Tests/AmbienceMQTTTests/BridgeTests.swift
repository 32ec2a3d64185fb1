import AmbienceMQTT
import Testing

struct BridgeTests {
    static let topics = Topics(prefix: "ambience", deviceID: "k1", discoveryPrefix: "homeassistant")
    static let line =
        #"{"event":"change","state":"regular","previous":null,"animated":false,"reason":"startup","lux":300,"filtered":300,"time":"x","override":null,"override_remaining_s":null,"fault":false}"#

    func makeBridge(discovery: Bool = true, perEntity: Bool = false, random: Double = 0.5) -> Bridge {
        Bridge(
            settings: Bridge.Settings(
                topics: Self.topics,
                discovery: discovery ? Discovery(topics: Self.topics, name: "K1", version: "1") : nil,
                perEntityDiscovery: perEntity),
            random: { random })
    }

    func published(_ actions: [BridgeAction]) -> [Publication] {
        actions.compactMap { if case .publish(let publication) = $0 { publication } else { nil } }
    }

    @Test func eachConnectionSaysOnlineSubscribesAnnouncesAndPublishesOneFreshState() {
        let bridge = makeBridge()
        #expect(bridge.eventLine(Self.line, now: 0).isEmpty)  // offline: nothing is queued
        let actions = bridge.connected(now: 5)
        #expect(
            actions.first
                == .publish(Publication(topic: "ambience/k1/status", payload: "online", retain: true)))
        #expect(
            actions.filter { if case .subscribe = $0 { true } else { false } } == [
                .subscribe("ambience/k1/override/set"), .subscribe("ambience/all/override/set"),
                .subscribe("homeassistant/status"),
            ])
        let topics = published(actions).map(\.topic)
        #expect(topics.contains("homeassistant/device/ambience_k1/config"))
        #expect(topics.contains("homeassistant/device/ambience_all/config"))
        #expect(topics.last == "ambience/k1/state")
        #expect(published(actions).allSatisfy { $0.retain })
        bridge.disconnected()
        #expect(published(bridge.connected(now: 9)).filter { $0.topic == "ambience/k1/state" }.count == 1)
    }

    @Test func everyEventIsPublishedAndTheStateAgainEveryMinute() {
        let bridge = makeBridge()
        _ = bridge.connected(now: 0)
        #expect(published(bridge.eventLine(Self.line, now: 1)).map(\.topic) == ["ambience/k1/state"])
        #expect(bridge.nextDeadline == 61)
        #expect(bridge.tick(now: 60).isEmpty)
        #expect(published(bridge.tick(now: 61)).map(\.topic) == ["ambience/k1/state"])
        #expect(bridge.eventLine("not an event", now: 62).isEmpty)
    }

    @Test func aDaemonThatLeftIsNotPublishedAgainUntilItWritesAgain() {
        let bridge = makeBridge()
        _ = bridge.connected(now: 0)
        _ = bridge.eventLine(Self.line, now: 1)
        bridge.daemonLeft()
        #expect(bridge.nextDeadline == nil)
        #expect(bridge.tick(now: 200).isEmpty)
        bridge.disconnected()
        #expect(!published(bridge.connected(now: 300)).contains { $0.topic == "ambience/k1/state" })
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

    @Test func discoveryOffRemovesEveryDiscoveryTopicWithEmptyRetainedPayloads() {
        let bridge = makeBridge(discovery: false)
        let removals = published(bridge.connected(now: 0)).filter { $0.topic.hasPrefix("homeassistant/") }
        #expect(removals.count == 5)  // never the fleet's select, which the other kiosks announce
        #expect(!removals.contains { $0.topic == "homeassistant/device/ambience_all/config" })
        #expect(removals.allSatisfy { $0.payload.isEmpty && $0.retain })
    }

    @Test func perEntityDiscoveryEmptiesTheDeviceTopicFirst() {
        let bridge = makeBridge(perEntity: true)
        let discovery = published(bridge.connected(now: 0)).filter { $0.topic.hasPrefix("homeassistant/") }
        #expect(
            discovery.first
                == Publication(topic: "homeassistant/device/ambience_k1/config", payload: "", retain: true))
        #expect(discovery.dropFirst().count == 4)
        #expect(discovery.dropFirst().allSatisfy { !$0.payload.isEmpty })
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
