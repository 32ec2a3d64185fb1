import AmbienceCore
import AmbienceOutputs
import AmbienceSensors

/// The one place that decides whether the daemon's devices are the machine's (`run`:
/// `MachineDevices`) or stand-ins (`simulate`: AmbienceSimulation's `SimulatedDevices`). Each
/// output's folder builds its device through this, so `simulate` differs from `run` by the
/// devices it passes, not by a second assembly. The pipes, the state file and the control pipe
/// are real files either way; only the times on their lines are this context's.
public protocol Devices: AnyObject {
    /// An assembly for `configuration` begins: a device two outputs share (one DDC/CI monitor for
    /// both the brightness and the power) is made once within it.
    func beginAssembly(_ configuration: DaemonConfiguration)

    /// Where the devices' warnings go.
    var log: OutputLog { get }

    /// How event lines spell a monotonic time.
    var renderTime: EventTimeRenderer { get }

    /// The state directory as this context keeps it for `configuration`.
    func stateDirectory(of configuration: DaemonConfiguration) -> String

    /// The configured chip's driver, on its bus.
    func sensor(_ settings: DaemonConfiguration.SensorSettings) throws(DaemonError) -> any LightSensor

    /// The indicator lines of `[gpio]` (nil when not configured), or what stands in for them.
    func indicators(_ settings: GPIOIndicator.Configuration?) throws(OutputError) -> (any Sink)?

    /// The brightness control of `[backlight] device`; nil where nothing can stand in for it.
    func backlight(_ device: BacklightSettings.Device) throws(OutputError) -> (any Backlight)?

    /// The power switch of the display that sleeps.
    func display(_ device: DisplaySettings.Device) throws(OutputError) -> any DisplaySwitch

    /// The touchscreens that wake the display; nil where there are none.
    func touchScreens() -> TouchScreens?
}
