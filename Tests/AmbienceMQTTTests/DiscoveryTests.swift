import AmbienceMQTT
import JSON
import Testing

struct DiscoveryTests {
    let topics = Topics(prefix: "ambience", deviceID: "lobby", discoveryPrefix: "homeassistant")
    var discovery: Discovery { Discovery(topics: topics, name: "Lobby kiosk", version: "1.2") }

    @Test func oneDeviceDocumentWithDeviceOriginAndFourComponents() throws {
        let (topic, payload) = discovery.deviceDocument(backlight: false)
        #expect(topic == "homeassistant/device/ambience_lobby/config")
        let document = try JSONValue.parse(payload)
        #expect(document["dev"]?["ids"] == .array([.string("ambience_lobby")]))
        #expect(document["dev"]?["name"] == .string("Lobby kiosk"))
        #expect(document["o"]?["name"] == .string("ambience-mqtt"))
        #expect(document["o"]?["sw"] == .string("1.2") && document["dev"]?["sw"] == .string("1.2"))
        #expect(document["availability_topic"] == .string("ambience/lobby/status"))
        #expect(document["state_topic"] == .string("ambience/lobby/state"))
        let components = try #require(document["cmps"])
        #expect(components["lux"]?["p"] == .string("sensor"))
        #expect(components["lux"]?["device_class"] == .string("illuminance"))
        #expect(components["lux"]?["unit_of_measurement"] == .string("lx"))
        #expect(components["lux"]?["state_class"] == .string("measurement"))
        #expect(components["lux"]?["expire_after"] == .number(180))
        #expect(components["theme"]?["device_class"] == .string("enum"))
        #expect(
            components["theme"]?["options"]
                == .array(["invert", "regular", "contrast"].map(JSONValue.string)))
        #expect(components["override"]?["p"] == .string("select"))
        #expect(components["override"]?["command_topic"] == .string("ambience/lobby/override/set"))
        #expect(
            components["override"]?["options"]
                == .array(["auto", "invert", "regular", "contrast"].map(JSONValue.string)))
        #expect(components["fault"]?["p"] == .string("binary_sensor"))
        #expect(components["fault"]?["device_class"] == .string("problem"))
        #expect(components["brightness"] == nil && components["brightness_auto"] == nil)
        let ids = ["lux", "theme", "override", "fault"].compactMap {
            components[$0]?["unique_id"]?.stringValue
        }
        #expect(
            ids == [
                "ambience_lobby_lux", "ambience_lobby_theme", "ambience_lobby_override",
                "ambience_lobby_fault",
            ])
    }

    @Test func perEntityDocumentsCarryTheDeviceEach() throws {
        let documents = discovery.entityDocuments(backlight: false)
        #expect(
            documents.map(\.topic) == [
                "homeassistant/sensor/ambience_lobby/lux/config",
                "homeassistant/sensor/ambience_lobby/theme/config",
                "homeassistant/select/ambience_lobby/override/config",
                "homeassistant/binary_sensor/ambience_lobby/fault/config",
            ])
        for (_, payload) in documents {
            let document = try JSONValue.parse(payload)
            #expect(document["device"]?["ids"] == .array([.string("ambience_lobby")]))
            #expect(document["origin"]?["name"] == .string("ambience-mqtt"))
            #expect(document["state_topic"] == .string("ambience/lobby/state"))
            #expect(document["p"] == nil)
        }
    }

    @Test func theFleetHasOneSelectOnTheGroupTopic() throws {
        let (topic, payload) = discovery.groupDocument
        #expect(topic == "homeassistant/device/ambience_all/config")
        let document = try JSONValue.parse(payload)
        #expect(document["dev"]?["ids"] == .array([.string("ambience_all")]))
        #expect(document["o"]?["name"] == .string("ambience-mqtt"))
        let select = try #require(document["cmps"]?["override"])
        #expect(select["p"] == .string("select"))
        #expect(select["command_topic"] == .string("ambience/all/override/set"))
        #expect(select["unique_id"] == .string("ambience_all_override"))
        #expect(select["state_topic"] == nil)  // optimistic: each kiosk shows what took effect
        let nested = Topics(prefix: "site/kiosks", deviceID: "x", discoveryPrefix: "homeassistant")
        #expect(nested.groupDiscovery == "homeassistant/device/site_kiosks_all/config")
    }

    /// With `[whitepoint]`: the room's colour temperature, a number in kelvin that holds the
    /// display's white, and a button that gives it back to the room.
    @Test func theWhitePointsEntitiesOnlyWithItsKeys() throws {
        let without = try JSONValue.parse(discovery.deviceDocument(backlight: false).payload)
        #expect(without["cmps"]?["cct"] == nil)
        let document = try JSONValue.parse(
            discovery.deviceDocument(backlight: false, whitePoint: true).payload)
        let components = try #require(document["cmps"])
        #expect(components["cct"]?["unit_of_measurement"]?.stringValue == "K")
        #expect(components["cct"]?["value_template"]?.stringValue == "{{ value_json.cct }}")
        #expect(components["whitepoint"]?["p"]?.stringValue == "number")
        #expect(components["whitepoint"]?["command_topic"]?.stringValue == topics.whitePointCommand)
        #expect(components["whitepoint"]?["min"]?.numberValue == 1000)
        #expect(components["whitepoint_auto"]?["payload_press"]?.stringValue == "auto")
    }

    @Test func noVersionNoSoftwareField() throws {
        let document = try JSONValue.parse(
            Discovery(topics: topics, name: "x").deviceDocument(backlight: true).payload)
        #expect(document["o"] == .object([("name", .string("ambience-mqtt"))]))
        #expect(document["dev"]?["sw"] == nil)
    }

    @Test func allTopicsCoverBothStylesWithEveryOutputsEntitiesButNotTheSharedGroup() {
        #expect(!discovery.allTopics.contains(discovery.groupDocument.topic))
        #expect(discovery.allTopics.count == 12)
        #expect(
            Set(discovery.allTopics).isSuperset(
                of: discovery.entityDocuments(backlight: true, display: true, whitePoint: true).map(\.topic)))
        #expect(discovery.allTopics.contains(discovery.deviceDocument(backlight: false).topic))
    }

    @Test func aKioskWithABacklightHasABrightnessNumberAndAnAutomaticButton() throws {
        let document = try JSONValue.parse(discovery.deviceDocument(backlight: true).payload)
        let number = try #require(document["cmps"]?["brightness"])
        #expect(number["p"] == .string("number"))
        #expect(number["unique_id"] == .string("ambience_lobby_brightness"))
        #expect(number["min"] == .number(0) && number["max"] == .number(100) && number["step"] == .number(1))
        #expect(number["mode"] == .string("slider") && number["unit_of_measurement"] == .string("%"))
        #expect(number["command_topic"] == .string("ambience/lobby/brightness/set"))
        // The shared state topic, its `brightness` key: null renders as None, Home Assistant's reset.
        #expect(number["value_template"] == .string("{{ value_json.brightness }}"))
        let button = try #require(document["cmps"]?["brightness_auto"])
        #expect(button["p"] == .string("button"))
        #expect(button["unique_id"] == .string("ambience_lobby_brightness_auto"))
        #expect(button["command_topic"] == .string("ambience/lobby/brightness/set"))
        #expect(button["payload_press"] == .string("auto"))

        let documents = discovery.entityDocuments(backlight: true)
        #expect(
            documents.suffix(2).map(\.topic) == [
                "homeassistant/number/ambience_lobby/brightness/config",
                "homeassistant/button/ambience_lobby/brightness_auto/config",
            ])
        let entity = try JSONValue.parse(documents[4].payload)
        #expect(entity["availability_topic"] == .string("ambience/lobby/status"))
        #expect(entity["state_topic"] == .string("ambience/lobby/state"))
        #expect(entity["command_topic"] == .string("ambience/lobby/brightness/set"))
    }

    @Test func theFleetHasABrightnessNumberAndButtonOnItsBrightnessTopic() throws {
        let document = try JSONValue.parse(discovery.groupDocument.payload)
        let number = try #require(document["cmps"]?["brightness"])
        #expect(number["p"] == .string("number"))
        #expect(number["unique_id"] == .string("ambience_all_brightness"))
        #expect(number["command_topic"] == .string("ambience/all/brightness/set"))
        #expect(number["unit_of_measurement"] == .string("%") && number["max"] == .number(100))
        // Optimistic, as the fleet's select: no state of its own.
        #expect(number["state_topic"] == nil && number["value_template"] == nil)
        let button = try #require(document["cmps"]?["brightness_auto"])
        #expect(button["p"] == .string("button") && button["payload_press"] == .string("auto"))
        #expect(button["command_topic"] == .string("ambience/all/brightness/set"))
    }
}
