# A virtual touchscreen through the kernel's uinput, and a reader of an evdev node (rig scenario 48).
#
#   python3 rig/guest/touchscreen.py device FIFO   makes the touchscreen, prints its node
#       ("node /dev/input/eventN"), then takes commands from FIFO, a line each, and prints
#       "done COMMAND" once its frames are written (the kernel has then passed them on to every
#       reader): "down X" (a finger comes down at X), "move X", "up", "tap X" (down, then up).
#   python3 rig/guest/touchscreen.py read NODE    prints "ready", then every event NODE gives,
#       "TYPE CODE VALUE" a line, as it comes (never grabs it).
#
# The device is what udev's input_id calls a touchscreen, as a Raspberry Pi's is: INPUT_PROP_DIRECT,
# EV_KEY BTN_TOUCH, EV_ABS ABS_X/ABS_Y and multi-touch (type B: a slot, a tracking id, positions).
# Only Python's standard library: the rig's guest has python3 on amd64 and on arm64.
import fcntl
import os
import struct
import sys

EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT = 0x00
BTN_TOUCH = 0x14A
ABS_X, ABS_Y = 0x00, 0x01
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
INPUT_PROP_DIRECT = 0x01
# struct input_event: a struct timeval (two longs), type, code, value.
EVENT = struct.Struct("llHHi")
MAX_POSITION = 1023
Y = 300  # every contact on one line: the scenario tells its taps apart by X


def ioc(direction, number, size):
    return direction << 30 | size << 16 | ord("U") << 8 | number


IOC_WRITE, IOC_READ = 1, 2
UI_DEV_CREATE = ioc(0, 1, 0)
UI_DEV_DESTROY = ioc(0, 2, 0)
UI_DEV_SETUP = ioc(IOC_WRITE, 3, 92)  # struct uinput_setup: input_id, name[80], ff_effects_max
UI_ABS_SETUP = ioc(IOC_WRITE, 4, 28)  # struct uinput_abs_setup: code, struct input_absinfo
UI_SET_EVBIT = ioc(IOC_WRITE, 100, 4)
UI_SET_KEYBIT = ioc(IOC_WRITE, 101, 4)
UI_SET_ABSBIT = ioc(IOC_WRITE, 103, 4)
UI_SET_PROPBIT = ioc(IOC_WRITE, 110, 4)
UI_GET_SYSNAME = ioc(IOC_READ, 44, 64)


def say(line):
    print(line, flush=True)


def make_device():
    uinput = os.open("/dev/uinput", os.O_WRONLY)
    for bit in (EV_SYN, EV_KEY, EV_ABS):
        fcntl.ioctl(uinput, UI_SET_EVBIT, bit)
    fcntl.ioctl(uinput, UI_SET_KEYBIT, BTN_TOUCH)
    fcntl.ioctl(uinput, UI_SET_PROPBIT, INPUT_PROP_DIRECT)
    axes = {
        ABS_X: MAX_POSITION, ABS_Y: MAX_POSITION, ABS_MT_SLOT: 9,
        ABS_MT_POSITION_X: MAX_POSITION, ABS_MT_POSITION_Y: MAX_POSITION, ABS_MT_TRACKING_ID: 65535,
    }
    for code, maximum in axes.items():
        fcntl.ioctl(uinput, UI_SET_ABSBIT, code)
        # code, then struct input_absinfo: value, minimum, maximum, fuzz, flat, resolution
        fcntl.ioctl(uinput, UI_ABS_SETUP, struct.pack("Hxxiiiiii", code, 0, 0, maximum, 0, 0, 0))
    # BUS_VIRTUAL, a vendor and product of no one's
    setup = struct.pack("HHHH80sI", 0x06, 0x1234, 0x5678, 1, b"ambience rig touchscreen", 0)
    fcntl.ioctl(uinput, UI_DEV_SETUP, setup)
    fcntl.ioctl(uinput, UI_DEV_CREATE)
    sysname = bytearray(64)
    fcntl.ioctl(uinput, UI_GET_SYSNAME, sysname)
    sysname = sysname.split(b"\0")[0].decode()
    events = [name for name in os.listdir(f"/sys/devices/virtual/input/{sysname}") if name.startswith("event")]
    if len(events) != 1:
        sys.exit(f"touchscreen: {sysname} has event nodes {events} (is evdev loaded?)")
    return uinput, "/dev/input/" + events[0]


def frame(uinput, *events):
    data = b"".join(EVENT.pack(0, 0, kind, code, value) for kind, code, value in events)
    os.write(uinput, data + EVENT.pack(0, 0, EV_SYN, SYN_REPORT, 0))


def run_device(fifo):
    uinput, node = make_device()
    tracking_id = 0
    say(f"node {node}")
    # Read and write: the FIFO never reaches end of file between the scenario's writers.
    with open(os.open(fifo, os.O_RDWR), "r") as commands:
        for command in commands:
            words = command.split()
            if not words:
                continue
            if words[0] in ("down", "tap"):
                x = int(words[1])
                tracking_id += 1
                frame(uinput, (EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, tracking_id),
                      (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, Y),
                      (EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, Y))
            if words[0] == "move":
                x = int(words[1])
                frame(uinput, (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_X, x))
            if words[0] in ("up", "tap"):
                frame(uinput, (EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0))
            if words[0] == "quit":
                break
            say("done " + " ".join(words))
    fcntl.ioctl(uinput, UI_DEV_DESTROY)


def run_reader(node):
    device = os.open(node, os.O_RDONLY)
    say("ready")
    buffered = b""
    while True:
        data = os.read(device, EVENT.size * 64)
        if not data:
            return
        buffered += data
        while len(buffered) >= EVENT.size:
            _, _, kind, code, value = EVENT.unpack(buffered[:EVENT.size])
            buffered = buffered[EVENT.size:]
            say(f"{kind} {code} {value}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "device":
        run_device(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "read":
        run_reader(sys.argv[2])
    else:
        sys.exit("usage: touchscreen.py device FIFO | read NODE")
