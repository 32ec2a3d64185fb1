"""Checks the system rig's pictures of the kiosk: each shows test page 1 in the state its name
says, read from the page's background colour (Tests/browser/page1.html), away from the card.
With --save DIR, copies them there (docs/images, for the documentation). With --picture, checks
the one picture given (the guest's screenshot step, which takes it again until it shows the page).

    python3 check-shots.py SHOTS-DIR [--save DIR]
    python3 check-shots.py --picture FILE"""

import os
import shutil
import struct
import sys
import zlib

# page1.html's --background in each state.
BACKGROUND = {"invert": (0x11, 0x14, 0x18), "regular": (0xF4, 0xF1, 0xEA), "contrast": (0xFF, 0xFF, 0xFF)}


def pixels(path):
    """The PNG's rows of (r, g, b), for the 8-bit RGB and RGBA pictures grim writes."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG" % path)
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("%s: depth %d, colour type %d, interlace %d not read here" % (path, depth, colour, interlace))
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append([tuple(line[i : i + 3]) for i in range(0, stride, channels)])
        previous = line
    return rows


def shows_its_state(path):
    """Whether the picture NAME-STATE.png shows the page's background in STATE, said on one line."""
    name = os.path.basename(path)
    state = name[:-4].rsplit("-", 1)[1]
    rows = pixels(path)
    # Bottom right, far from the card at the top left.
    seen = rows[len(rows) - 8][len(rows[0]) - 8]
    ok = seen == BACKGROUND[state]
    print("rig: %s %s: %dx%d, background #%02x%02x%02x (%s wants #%02x%02x%02x)"
          % ("ok" if ok else "FAIL", name, len(rows[0]), len(rows), *seen, state, *BACKGROUND[state]))
    return ok


def main():
    if sys.argv[1] == "--picture":
        return 0 if shows_its_state(sys.argv[2]) else 1
    shots = sys.argv[1]
    save = sys.argv[sys.argv.index("--save") + 1] if "--save" in sys.argv else None
    names = sorted(name for name in os.listdir(shots) if name.endswith(".png"))
    failures = 0
    for name in names:
        ok = shows_its_state(os.path.join(shots, name))
        failures += not ok
        if ok and save:
            shutil.copy(os.path.join(shots, name), os.path.join(save, "system-" + name))
    if not names:
        print("rig: FAIL no pictures in %s" % shots)
        return 1
    return 1 if failures else 0


sys.exit(main())
