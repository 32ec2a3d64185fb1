import AmbienceCore
import AmbienceSimulation
import Testing

/// `simulate`'s terminal line: the LEDs, and the backlight's percent beside them when there is one.
struct TerminalIndicatorsTests {
    final class Lines {
        var written: [String] = []
    }

    func indicators(_ lines: Lines) -> TerminalIndicators {
        TerminalIndicators(colour: false, timeOfDay: { _ in "06:30" }, write: { lines.written.append($0) })
    }

    func event(_ kind: Event.Kind, brightness: Int?, lux: Double = 300) -> Event {
        Event(
            kind: kind, state: .regular, previous: nil, animated: false, reason: .light, lux: lux,
            filtered: lux, time: 0, brightness: brightness)
    }

    @Test func theBrightnessShowsBesideTheLEDsAndAFadesEndGetsALine() {
        let lines = Lines()
        let terminal = indicators(lines)
        terminal.deliver(event(.change, brightness: 55))
        terminal.deliver(event(.current, brightness: 63))
        terminal.deliver(event(.current, brightness: 63))  // nothing new: no line
        #expect(
            lines.written == [
                "06:30  [ ] invert [●] regular [ ] contrast  [ ] fault  ☀ 55 %  lux 300 (light)\n",
                "06:30  [ ] invert [●] regular [ ] contrast  [ ] fault  ☀ 63 %  lux 300 (brightness)\n",
            ])
    }

    @Test func withoutABacklightTheLineIsAsBefore() {
        let lines = Lines()
        let terminal = indicators(lines)
        terminal.deliver(event(.change, brightness: nil))
        terminal.deliver(event(.current, brightness: nil))
        #expect(lines.written == ["06:30  [ ] invert [●] regular [ ] contrast  [ ] fault  lux 300 (light)\n"])
    }
}
