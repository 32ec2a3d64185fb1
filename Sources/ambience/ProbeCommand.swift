import AmbienceCommandLine
import AmbienceCore
import AmbienceDisplayProtocols
import AmbienceI2C
import AmbienceOutputs
import AmbienceSensors
import AmbienceSystem
import AmbienceWayland

let probeCommand = Command(
    name: "probe",
    summary: "find light sensors on the I2C buses and take a first reading",
    usage: """
        ambience probe [--bus N|NAME]

          Looks at the sensors' addresses (below) on bus N, on the adapter named NAME
          (as /sys/class/i2c-dev/*/name has it; shell patterns allowed), or on every /dev/i2c-*
          bus, identifies what answers (by ID registers, the BH1750 by behaviour) and shows a
          first reading. Problems met on the way (no bus, no permission, an address claimed by a
          kernel driver) are explained.
          Displays too, for [backlight] and [display]: the backlights in /sys/class/backlight
          (with every bus), and on each bus looked at a monitor whose EDID answers at 0x50, named
          by it, with its brightness read through DDC/CI at 0x37; for each, whether [display] can
          put it to sleep (bl_power, VCP 0xD6); and each HDMI port's CEC adapter (/dev/cecN),
          with the TV's answer when asked its power (Give Device Power Status); in a Wayland
          session (WAYLAND_DISPLAY), whether its compositor offers the outputs' power
          (wlr-output-power-management, for [display] device = "wayland").
          Exit 0 when a sensor was found, 1 when none.

          Addresses looked at:
        \(chipAddresses)
        """,
    run: runProbe)

/// "    BH1750: 0x23 (ADDR low), 0x5C (ADDR high)", a line per chip, from its descriptor.
private let chipAddresses = Chips.all.filter { $0.usesBus }.map { chip in
    "    \(chip.name): " + chip.addresses.map { "\($0.address) (\($0.pins))" }.joined(separator: ", ")
}.joined(separator: "\n")

private func runProbe(_ arguments: inout Arguments) throws(CommandFailure) -> ExitCode {
    let requestedBus = try arguments.option("--bus").map { text throws(CommandFailure) -> I2CBusSelector in
        guard let number = Int(text) else { return .name(text) }
        guard number >= 0 else {
            throw CommandFailure.usage("--bus takes a bus number or an adapter's name, not '\(text)'")
        }
        return .number(number)
    }
    try arguments.finish()

    let busNumbers: [Int]
    switch requestedBus {
    case nil:
        busNumbers = LinuxI2CBus.availableBusNumbers()
    case .number(let number):
        busNumbers = [number]
    case let selector?:
        guard let number = selector.busNumber(among: I2CBusSelector.adapters()) else {
            do {
                _ = try selector.resolve()
            } catch {
                printOut(error.description)
            }
            return .failure
        }
        busNumbers = [number]
    }
    // Sensors a kernel driver has: listed whatever the bus asked for, since their addresses
    // are busy for i2c-dev and the scan below can only say so.
    var sensorsFound = 0
    if requestedBus == nil {
        for channel in IIOChannel.all() {
            printOut(describe(channel))
            sensorsFound += 1
        }
        for backlight in BacklightProbe.sysfsEntries() {
            printOut(describe(backlight))
        }
        for port in TelevisionProbe.ports(clock: SystemClock()) {
            printOut(describe(port))
        }
        // Only in a Wayland session: without WAYLAND_DISPLAY libwayland would guess one.
        if let session = Environment.value(of: "WAYLAND_DISPLAY") {
            printOut(describeSession(session))
        }
    }
    guard !busNumbers.isEmpty else {
        printOut(
            "no I2C bus (/dev has no i2c-* device): "
                + (I2CError(.busMissing, bus: "/dev/i2c-*").hint ?? ""))
        return sensorsFound > 0 ? .ok : .failure
    }
    let clock = SystemClock()
    for number in busNumbers {
        let bus: LinuxI2CBus
        do {
            bus = try LinuxI2CBus(number: number)
        } catch {
            printOut(error.description)
            continue
        }
        defer { bus.close() }
        let findings = SensorProbe.scan(bus, clock: clock)
        for finding in findings {
            printOut("\(bus.path) \(finding.address): " + describe(finding.outcome))
        }
        sensorsFound += findings.filter { $0.isSensor }.count
        if let monitor = BacklightProbe.monitor(on: bus, clock: clock) {
            printOut(describe(monitor, bus: number))
        }
        if findings.isEmpty {
            let addresses = SensorProbe.addresses.map { $0.description }.joined(separator: ", ")
            printOut("\(bus.path): nothing answers at \(addresses)")
        }
    }
    if sensorsFound == 0 {
        printOut("no sensor found; check the wiring and power, and 'i2cdetect -y BUS' for the addresses")
        return .failure
    }
    return .ok
}

/// "iio:device0 'bh1750' (kernel driver on 1-0023): 250.0 lux; …": where it is and how to read it.
private func describe(_ channel: IIOChannel) -> String {
    let device =
        channel.deviceDirectory.split(separator: "/").last.map(String.init) ?? channel.deviceDirectory
    // The device's sysfs link runs through its parent: …/i2c-1/1-0023/iio:device0.
    let parent = (try? FileSystem.linkTarget(of: channel.deviceDirectory))?.split(separator: "/").dropLast()
        .last
    let reading: String
    switch channel.read() {
    case .success(let light):
        // A colour sensor's gain and integration are what udev set, or the chip's power-on ones.
        reading =
            "\((light.lux * 10).rounded() / 10) lux" + (channel.colour == nil ? "" : " (\(light.settings))")
    case .failure(let error): reading = "no reading: \(error)"
    }
    return "\(device) '\(channel.name)' (kernel driver" + (parent.map { " on \($0)" } ?? "") + "): "
        + reading + "; read it with kind = \"iio\", device = \"\(channel.name)\""
}

/// "backlight 'rpi_backlight' (/sys/class/backlight/rpi_backlight): 200 of 255; …".
private func describe(_ backlight: BacklightProbe.SysfsEntry) -> String {
    let level =
        switch (backlight.current, backlight.maximum) {
        case (let current?, let maximum?): "brightness \(current) of \(maximum)"
        default: "brightness unreadable"
        }
    let power =
        switch backlight.power {
        case 0?: "; on (bl_power 0): [display] can put it to sleep"
        case let value?: "; asleep (bl_power \(value)): [display] can wake it"
        case nil: "; no bl_power: [display] cannot put it to sleep"
        }
    return "backlight '\(backlight.name)' (\(BacklightProbe.sysfsBacklights)/\(backlight.name)): \(level); "
        + "drive it with [backlight] device = \"\(backlight.name)\"" + power
}

/// "wayland session wayland-0: its outputs are on (wlr-output-power-management): …".
private func describeSession(_ name: String) -> String {
    let head = "wayland session \(name): "
    switch WaylandOutputs.request(nil) {
    case .power(let power):
        return head + "its outputs are \(power.rawValue) (wlr-output-power-management):"
            + " [display] device = \"wayland\", with ambience kiosk in this session, can put them to sleep"
    case .noOutputs:
        return head + "the compositor has no output now"
    case .unavailable(let why):
        return head + why
    }
}

/// "cec0 'vc4-hdmi-0' (vc4_hdmi), physical address 1.0.0.0: the TV answers on; …".
private func describe(_ port: TelevisionProbe.Port) -> String {
    let device = "[display] device = \"cec:\(port.number)\""
    let head = "cec\(port.number) '\(port.name)' (\(port.driver))"
    func at(_ address: UInt16) -> String {
        head + ", physical address \(CEC.describe(physicalAddress: address))"
    }
    switch port.finding {
    case .unusable(let why):
        return "cec\(port.number): \(why)"
    case .unplugged:
        return head
            + ": no physical address: nothing plugged in, or a TV in standby that pulled hot-plug low;"
            + " \(device) wakes such a TV"
    case .unconfigured(let address):
        return at(address) + ": no logical address yet, so the TV cannot be asked; \(device) claims one"
    case .answered(let address, let power):
        return at(address)
            + ": the TV answers \(power.rawValue) (Give Device Power Status): \(device) can put it to sleep"
    case .silent(let address):
        return at(address) + ": the TV acknowledges and does not report its power: \(device) can put it to"
            + " sleep, reporting what it told it"
    case .failed(let address, let why):
        return at(address) + ": " + why
    }
}

/// "ddc:20 (0x37): monitor 'DELL U2415' (DEL 0xA0C4, by its EDID at 0x50): brightness 50 of 100; …".
private func describe(_ monitor: BacklightProbe.Monitor, bus: Int) -> String {
    let edid = monitor.edid
    let product = String(edid.productCode, radix: 16, uppercase: true)
    let identity =
        "monitor '\(edid.monitorName ?? "unnamed")' (\(edid.manufacturer) 0x"
        + String(repeating: "0", count: max(0, 4 - product.count)) + product + ", by its EDID at 0x50)"
    let text =
        switch monitor.brightness {
        case .success(let value):
            "brightness \(value.current) of \(value.maximum) through DDC/CI; "
                + "drive it with [backlight] device = \"ddc:\(bus)\""
                + (monitor.power.map { "; \($0.rawValue) (VCP 0xD6): [display] can put it to sleep" }
                    ?? "; no power mode (VCP 0xD6): [display] cannot put it to sleep")
        case .failure(let failure): failure.description
        }
    return DDCMonitor.name(of: .number(bus)) + ": " + identity + ": " + text
}

private func describe(_ outcome: ProbeFinding.Outcome) -> String {
    switch outcome {
    case .tsl2561(let part, let package, let reading):
        return "\(part) (\(package) package, by its ID register): " + describe(reading)
    case .bh1750(let reading):
        return "BH1750 (by behaviour: takes its commands, data clears on reset): " + describe(reading)
    case .identified(let chip, let identifiedBy, let reading):
        return "\(chip) (by \(identifiedBy)): " + describe(reading)
    case .unidentified(let what):
        return what
    case .problem(let error):
        return error.explanation
    }
}

private func describe(_ reading: Result<Reading, SensorError>) -> String {
    switch reading {
    case .success(let reading):
        let lux = (reading.lux * 10).rounded() / 10
        return (reading.isSaturated ? "at least " : "") + "\(lux) lux (\(reading.settings))"
    case .failure(let error):
        if case .bus(let busError) = error.kind { return "no reading: \(busError)" }
        return "no reading: \(error)"
    }
}
