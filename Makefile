# Ambience. The two commands a new machine needs are `make demo` and `make test` (as root on
# Debian 12 with the Swift toolchain in /opt/swift or on PATH); both set up what they need first.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift
BIN := .build/debug/ambience
RELEASE_BIN := .build/release/ambience
PREFIX ?= /usr/local
GPIOD2_PREFIX ?= /opt/libgpiod2
FUZZ_SECONDS ?= 15

.PHONY: setup build release demo test unit-test embedded-test cli-test kiosk-test serve-test mqtt-test ha-test record-test lint \
	fuzz test-gpiod2 test-swift6.0 dist test-arm64 rig-setup rig-test bench install uninstall clean deb deb-test

# Debian packages the build and the tests need (installed only when missing).
# lintian and chrpath: make deb and its test. libmicrohttpd-dev: ambience-serve; nodejs: its
# script's test. libmosquitto-dev: ambience-mqtt; mosquitto, mosquitto-clients and openssl: its
# tests against a real broker (make mqtt-test). chromium: make record-test renders a plot, make
# kiosk-test and the kiosk bench drive it. dbus, dconf-gsettings-backend,
# gsettings-desktop-schemas, libglib2.0-bin: the desktop colour scheme recipe's test (a private
# D-Bus session with dconf). shellcheck: make lint's check of every shell script.
PACKAGES := libi2c-dev libgpiod-dev gpiod i2c-tools pkg-config python3 lintian chrpath libmicrohttpd-dev nodejs \
	libmosquitto-dev mosquitto mosquitto-clients openssl chromium dbus dconf-gsettings-backend \
	gsettings-desktop-schemas libglib2.0-bin shellcheck
setup:
	@missing=$$(for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "no Swift toolchain: install one in /opt/swift (see README)"; exit 1; }

build: setup
	$(SWIFT) build

# The release build's flags live in scripts/release-build.sh alone (make bench builds with it too).
release: setup
	SWIFT=$(SWIFT) scripts/release-build.sh

# The main job: a simulated day (24 h of light in 30 s) through the whole pipeline.
demo: build
	scripts/demo.sh $(BIN)

# prepare-tests starts the roots, the venv and the rigs' setup in the background (see
# scripts/prepare-tests.sh): on a new machine they are made while the first steps compile.
# rig-test-deb is left out for time: make test-system runs the package as installed.
test: setup prepare-tests lint unit-test embedded-test cli-test kiosk-test serve-test mqtt-test ha-test record-test fuzz \
	test-gpiod2 test-swift6.0 rig-test deb-test test-system
	scripts/prepare-tests.sh --wait

.PHONY: prepare-tests
prepare-tests: setup
	scripts/prepare-tests.sh --start

unit-test:
	$(SWIFT) build --build-tests
	$(SWIFT) test

cli-test: build
	Tests/cli/run.sh $(BIN)

# The pure core (AmbienceCore, JSON) built in Embedded Swift; `replay` made of it must match the
# portable build's byte for byte.
embedded-test: build
	Tests/embedded/run.sh $(BIN)

# ambience serve over real loopback sockets, driven by a simulated daemon (Tests/serve/run.py).
serve-test: setup
	$(SWIFT) build --product ambience
	$(SWIFT) build --product ambience-serve
	Tests/serve/run.py $(dir $(BIN))
# The record of the light, plot and replay --summary through the built binary; the pictures it
# draws (SVG, and a PNG from headless Chromium) stay in .build/record-test.
record-test: build
	Tests/record/run.sh $(BIN)
# ambience mqtt against a real broker: mosquitto started by the tests on loopback (never the
# system's service, which installing the package may have started: it is stopped and disabled).
define stop_mosquitto_service
	@if command -v systemctl >/dev/null && systemctl is-active --quiet mosquitto 2>/dev/null; then \
		echo "stopping the mosquitto service the package started"; systemctl disable --now mosquitto; fi
endef
mqtt-test: build
	$(stop_mosquitto_service)
	$(SWIFT) build --product ambience-mqtt
	Tests/mqtt/run.sh .build/debug
# A real Home Assistant (PyPI's, pinned, in a venv inside the trixie root that
# scripts/debian-root.sh keeps outside the repository, both made on first use) against a
# mosquitto of the test's own and a simulated kiosk bridged by ambience mqtt (Tests/ha/run.py).
ha-test: build
	$(stop_mosquitto_service)
	$(SWIFT) build --product ambience-mqtt
	Tests/ha/run.sh .build/debug
# `ambience kiosk` driving Debian's Chromium, headless, and `ambience serve`'s script in it: what
# the pages themselves see; and the desktop colour scheme recipe against dconf in a private D-Bus
# session.
kiosk-test: setup
	$(SWIFT) build --product ambience
	$(SWIFT) build --product ambience-kiosk
	$(SWIFT) build --product ambience-serve
	Tests/browser/run.py $(BIN) .build/debug/ambience-kiosk
	Tests/desktop/color-scheme.sh $(BIN)

# The README's screenshots of the three states (docs/images/kiosk-*.png).
.PHONY: kiosk-screenshots
kiosk-screenshots: setup
	Tests/browser/screenshots.py docs/images

# swift format, every module a target imports declared in Package.swift (scripts/check-imports.py),
# and every relative link and anchor of the Markdown files (Tests/docs/check_links.py).
lint:
	$(SWIFT) format lint --strict -r Sources Tests Fuzz Benchmarks
	SWIFT=$(SWIFT) scripts/check-imports.py
	python3 Tests/docs/check_links.py
	scripts/shellcheck.sh

# libFuzzer on the configuration loader, replay rows, control lines and serve's request path, bounded in time.
fuzz: setup
	scripts/fuzz.sh $(FUZZ_SECONDS)

# The outputs again, built against libgpiod 2.x (Debian 13's, unpacked into a prefix).
test-gpiod2: setup
	[ -f $(GPIOD2_PREFIX)/lib/pkgconfig/libgpiod.pc ] || .ci/libgpiod2.sh $(GPIOD2_PREFIX)
	export PKG_CONFIG_PATH=$(GPIOD2_PREFIX)/lib/pkgconfig; \
	export LD_LIBRARY_PATH=$$(pkg-config --variable=libdir libgpiod); \
	$(SWIFT) build --scratch-path .build/gpiod2 --build-tests && \
	$(SWIFT) test --scratch-path .build/gpiod2 --skip-build --filter 'AmbienceOutputsTests|AmbienceDaemonTests'

# The unit tests again with Debian trixie's Swift 6.0.3 (swiftlang) and its libgpiod 2.x, in a
# Debian root kept outside the repository (scripts/debian-root.sh; made on first use).
TRIXIE_SCRATCH ?= .build/trixie-amd64
test-swift6.0:
	scripts/debian-root.sh trixie amd64
	scripts/in-root.sh trixie amd64 swift build --build-tests --scratch-path $(TRIXIE_SCRATCH)
	scripts/in-root.sh trixie amd64 swift test --skip-build --scratch-path $(TRIXIE_SCRATCH)

# Release binaries for trixie's .deb packages, built by Debian's Swift in Debian roots (arm64 under
# qemu-user): .build/dist/trixie-amd64/ambience and .build/dist/trixie-arm64/ambience.
dist:
	scripts/build-in-root.sh trixie amd64
	scripts/build-in-root.sh trixie arm64

# What does not fit in make test's time on a fresh machine (docs/tests.md, "arm64", and
# docs/debian-swift.md): the arm64 binary replays a day byte for byte like the amd64 one, then its package,
# installed by dpkg in Debian 13's arm64 kernel under qemu-system-aarch64, passes the rig, and
# installed by apt in a Debian 13 arm64 guest booted with systemd, passes the system rig.
test-arm64: dist
	Tests/arm64/replay-compare.sh trixie
	deb=$$(scripts/make-deb.sh --suite trixie --arch arm64 --binary .build/dist/trixie-arm64/ambience \
		--out .build/deb | tail -n 1) && \
	RIG_DEB=$$deb Tests/rig/run-arm64.sh
	Tests/system/run.sh .build/dist/trixie-arm64/ambience

# The real-kernel rig: Debian's kernel in QEMU with i2c-stub, the project's test adapter and
# gpio-sim; the binary built here runs against real /dev/i2c-N and /dev/gpiochipN.
rig-setup:
	rig/setup.sh

rig-test: build
	Tests/rig/run.sh

# The same scenarios on arm64: Debian 13's arm64 kernel in qemu-system-aarch64 with the Debian
# 13 arm64 root; the binary is AMBIENCE_ARM64 (default .build/dist/trixie-arm64/ambience) or
# the package RIG_DEB=path.deb, installed in the guest with dpkg.
.PHONY: rig-test-arm64
rig-test-arm64:
	Tests/rig/run-arm64.sh

# The scenarios a Pi owner meets (probe, light, faults, signals) with this host's package
# (bookworm amd64) installed by dpkg in the amd64 guest, its release binary under test.
RIG_DEB_SCENARIOS := Tests/rig/scenarios/10-* Tests/rig/scenarios/20-* Tests/rig/scenarios/30-* \
	Tests/rig/scenarios/50-* Tests/rig/scenarios/55-* Tests/rig/scenarios/57-* Tests/rig/scenarios/80-*
.PHONY: rig-test-deb
rig-test-deb: release
	deb=$$(scripts/make-deb.sh --suite bookworm --arch amd64 \
		--binary "$$(scripts/release-build.sh --show-bin-path)/ambience" --out .build/deb | tail -n 1) && \
	RIG_DEB=$$deb RIG_SCENARIOS="$(RIG_DEB_SCENARIOS)" Tests/rig/run.sh

# The trixie amd64 package as installed: a Debian 13 guest booted with systemd and udevd under
# QEMU, the package installed by apt and set up as the README says, then its services restarted,
# crashed, hung, reloaded, upgraded, rebooted, removed and purged (docs/rig.md, "The system rig").
# The binary is the release build against Debian 13's libgpiod, as make deb packages it.
# The release build against libgpiod 2.x, as trixie's package has it: what the system rig installs
# (test-system, sd-bench, test-powercut).
GPIOD2_RELEASE_BIN = "$$(scripts/release-build.sh --scratch-path .build/gpiod2-release --show-bin-path)/ambience"
.PHONY: gpiod2-release test-system sd-bench test-powercut
gpiod2-release: setup
	[ -f $(GPIOD2_PREFIX)/lib/pkgconfig/libgpiod.pc ] || .ci/libgpiod2.sh $(GPIOD2_PREFIX)
	PKG_CONFIG_PATH=$(GPIOD2_PREFIX)/lib/pkgconfig SWIFT=$(SWIFT) \
		scripts/release-build.sh --scratch-path .build/gpiod2-release
test-system: gpiod2-release
	Tests/system/run.sh $(GPIOD2_RELEASE_BIN)
# What the installed stack writes to the card in a day at steady state, from the system rig guest's
# own counters (docs/performance.md, "Writes to the SD card"); about 25 minutes.
sd-bench: gpiod2-release
	SYSTEM_RIG_ONLY="sd-bench 1300 sd_bench" Tests/system/run.sh $(GPIOD2_RELEASE_BIN)
# Power cuts (docs/rig.md, "Power cuts"): the same guest and package, installed once, then its
# power cut 30 times (QEMU killed, no shutdown, no sync) during record flushes, overrides, reloads,
# upgrades and boots, every boot checking each persisted file is the old content or the new.
test-powercut: gpiod2-release
	Tests/system/powercut.sh $(GPIOD2_RELEASE_BIN)

install: release
	scripts/install.sh install "$(PREFIX)" "$(RELEASE_BIN)"

uninstall:
	scripts/install.sh uninstall "$(PREFIX)"

# Debian packages (docs/packaging.md): bookworm amd64 and trixie amd64 built here, and whatever
# .build/dist/SUITE-ARCH/ambience holds (trixie arm64 from the trixie roots), into .build/deb.
deb: setup
	GPIOD2_PREFIX=$(GPIOD2_PREFIX) scripts/debs.sh

# The bookworm amd64 package built, linted, installed on this host, upgraded, removed, purged.
deb-test: release
	Tests/deb/run.sh "$$(scripts/release-build.sh --show-bin-path)/ambience"

clean:
	rm -rf .build

# Release-build figures in one table, the Python peer alongside in the rig (see docs/performance.md).
bench: setup
	scripts/bench.sh
