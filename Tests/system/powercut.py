#!/usr/bin/env python3
"""make test-powercut's host side (docs/rig.md, "Power cuts"): boots the system rig's guest again
and again on the same disk, and cuts its power (SIGKILL of QEMU: no shutdown, no sync, the guest's
page cache gone) at the moments the guest names (Tests/system/powercut-guest.sh) or at random ones.
Boot 0 installs the package and powers off cleanly; each later boot checks what the previous cut
left, then does the next action and is cut; the last one checks and powers off.

    powercut.py --root ROOT --kernel VMLINUZ --initrd INITRD --payload DIR --out DIR
                [--cuts N] [--seed S] [--boot-timeout SECONDS]
"""
import argparse
import os
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time

# How many of each action per 30 cuts; firstboot is two cuts (its own, then one during the boot).
MIX = {"record": 5, "override": 5, "brightness": 3, "reload": 3, "upgrade": 4, "firstboot": 2, "demo": 6}


def say(text):
    print("rig: " + text, flush=True)


def plan(cuts, rng):
    base = sum(MIX.values()) + MIX["firstboot"]
    actions = []
    for name, count in MIX.items():
        actions += [name] * max(1, round(count * cuts / base))
    rng.shuffle(actions)
    steps = []
    for action in actions:
        steps.append(action)
        if action == "firstboot":
            steps.append("boot")
    return ["install"] + steps + ["final"]


def make_disk(image, tree, extra_mb):
    size = int(subprocess.check_output(["du", "-sm", tree]).split()[0]) + extra_mb
    subprocess.check_call(["mke2fs", "-q", "-F", "-t", "ext4", "-d", tree, image, f"{size}M"])


def boot(args, rng, cycle, action, previous, log):
    """One boot: returns (cut, seconds, lines)."""
    append = (
        "root=/dev/vda rw console=ttyS0 quiet loglevel=3 panic=-1 systemd.show_status=error "
        f"rig.action={action} rig.cycle={cycle} rig.previous={previous}"
    )
    # cache=none: QEMU writes the guest's disk with O_DIRECT, past the host's page cache, and tells
    # the guest its disk has a volatile write cache, so the guest's fsync becomes a flush QEMU
    # passes on. What the guest had not written out is lost at the kill, as at a power cut.
    drive = "format=raw,if=virtio,cache=none"
    command = [
        "qemu-system-x86_64", "-M", "pc", "-accel", "tcg", "-cpu", "max", "-m", "1536M", "-smp", "2",
        "-display", "none", "-nodefaults", "-serial", "stdio", "-monitor", "none",
        "-drive", f"file={args.out}/root.img,{drive}", "-drive", f"file={args.out}/rig.img,{drive}",
        "-kernel", args.kernel, "-initrd", args.initrd, "-append", append,
    ]
    started = time.monotonic()
    qemu = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = queue.Queue()

    def read():
        for raw in qemu.stdout:
            lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = started + args.boot_timeout
    cut_at = None
    how = None
    if action == "boot":
        # A cut while the system comes up, the daemon starting with an empty state directory.
        delay = rng.uniform(5, 45)
        cut_at, how = started + delay, f"at {delay:.1f} s of the boot"
    seen = []
    ended = False
    while True:
        now = time.monotonic()
        limit = min(deadline, cut_at) if cut_at else deadline
        try:
            line = lines.get(timeout=max(0.0, limit - now))
        except queue.Empty:
            line = ""
        if line is None:
            ended = True
            break
        if line:
            log.write(line + "\n")
            match = re.search(r"rig: .*", line)
            if match:
                text = match.group(0)
                seen.append(text)
                if not re.search(r"rig: (cut-now|cut-after)", text):
                    print(text, flush=True)
                if text == "rig: cut-now" and cut_at is None:
                    cut_at, how = time.monotonic(), "when the guest asked"
                m = re.fullmatch(r"rig: cut-after ([0-9.]+) ([0-9.]+)", text)
                if m and cut_at is None:
                    delay = rng.uniform(float(m.group(1)), float(m.group(2)))
                    cut_at, how = time.monotonic() + delay, f"{delay:.2f} s after the guest's mark"
        if cut_at is not None and time.monotonic() >= cut_at:
            break
        if time.monotonic() >= deadline:
            break
    seconds = time.monotonic() - started
    cut = False
    if not ended:
        if cut_at is not None and time.monotonic() >= cut_at:
            cut = True
            say(f"cut {cycle} ({action}) {how}, {seconds:.1f} s after QEMU started")
        else:
            seen.append(f"rig: FAIL boot-{cycle}: no cut asked for nor power-off within {args.boot_timeout} s")
            print(seen[-1], flush=True)
        qemu.send_signal(signal.SIGKILL)
    qemu.wait()
    reader.join(timeout=10)
    log.flush()
    return cut, seconds, seen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--kernel", required=True)
    parser.add_argument("--initrd", required=True)
    parser.add_argument("--payload", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--cuts", type=int, default=30)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--boot-timeout", type=float, default=420)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.monotonic()
    os.makedirs(args.out, exist_ok=True)
    make_disk(f"{args.out}/root.img", args.root, 768)
    make_disk(f"{args.out}/rig.img", args.payload, 64)
    steps = plan(args.cuts, rng)
    say(f"seed {args.seed}: {len(steps)} boots, {sum(s not in ('install', 'final') for s in steps)} cuts planned")
    failures = []
    figures = []
    cuts = 0
    boot_seconds = []
    previous = "none"
    with open(f"{args.out}/console.log", "w") as log:
        for cycle, action in enumerate(steps):
            cut, seconds, seen = boot(args, rng, cycle, action, previous, log)
            cuts += cut
            boot_seconds.append(seconds)
            failures += [line for line in seen if line.startswith("rig: FAIL")]
            figures += [line for line in seen if line.startswith("rig: figure: demo-")]
            expected = "power-off" if action in ("install", "final") else "cut"
            if action in ("install", "final") and cut:
                failures.append(f"rig: FAIL boot-{cycle}: {action} did not power off")
            if action not in ("install", "boot") and not any(line.startswith(f"rig: checked {cycle} ") or
                                                             line.startswith("rig: install:") for line in seen):
                failures.append(f"rig: FAIL boot-{cycle}: the checks did not run ({expected} expected)")
                print(failures[-1], flush=True)
            if action == "install" and failures:
                break
            previous = action
    losses = {}
    for line in figures:
        for name, verdict in re.findall(r"(\w+)=(\w+)", line):
            losses.setdefault(name, {}).setdefault(verdict, 0)
            losses[name][verdict] += 1
    for name, verdicts in losses.items():
        say(f"figure: demo {name}: " + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
    say(f"figure: {cuts} cuts in {len(boot_seconds)} boots, {time.monotonic() - started:.0f} s in all; "
        f"a boot {min(boot_seconds):.0f} to {max(boot_seconds):.0f} s, "
        f"{sum(boot_seconds) / len(boot_seconds):.0f} s on average")
    if cuts < min(args.cuts, 30):
        failures.append(f"rig: FAIL only {cuts} cuts")
    say(f"{cuts} cuts, {len(failures)} failed")
    for line in failures:
        print(line, flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
