# Ambience. The two commands a new machine needs are `make demo` and `make test` (as root on
# Debian 12 with the Swift toolchain in /opt/swift or on PATH); both set up what they need first.
# Each recipe line in bash, timed under its target's name when make test asks
# (scripts/step-times.sh).
SHELL := $(CURDIR)/scripts/step-times.sh
.SHELLFLAGS = --target=$@ -c
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift
BIN := .build/debug/ambience
# Every program built in Embedded Swift (scripts/embedded-build.sh): what the packages ship, and
# what the command-line, browser, serve, MQTT, Home Assistant, record and package tests run.
EMBEDDED_DIR := .build/embedded/x86_64
EMBEDDED_BIN := $(EMBEDDED_DIR)/ambience
RELEASE_BIN := .build/release/ambience
PREFIX ?= /usr/local
GPIOD2_PREFIX ?= /opt/libgpiod2
FUZZ_SECONDS ?= 15

.PHONY: setup build release embedded embedded-gpiod2 demo test unit-test embedded-test cli-test kiosk-test serve-test mqtt-test ha-test record-test lint \
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

# Every program in Embedded Swift, into $(EMBEDDED_DIR) (docs/tests.md, "Embedded Swift").
embedded: setup
	SWIFT=$(SWIFT) scripts/embedded-build.sh

# The same against libgpiod 2.x, as trixie's package links it: the Swift modules are the same
# (copied with their times, so not built again); the shim and the link are that library's.
EMBEDDED_GPIOD2_DIR := .build/embedded/x86_64-gpiod2
embedded-gpiod2: embedded
	[ -f $(GPIOD2_PREFIX)/lib/pkgconfig/libgpiod.pc ] || .ci/libgpiod2.sh $(GPIOD2_PREFIX)
	mkdir -p $(EMBEDDED_GPIOD2_DIR) && cp -a $(EMBEDDED_DIR)/. $(EMBEDDED_GPIOD2_DIR)/
	PKG_CONFIG_PATH=$(GPIOD2_PREFIX)/lib/pkgconfig OUT=$(CURDIR)/$(EMBEDDED_GPIOD2_DIR) SWIFT=$(SWIFT) \
		scripts/embedded-build.sh

# The release build's flags live in scripts/release-build.sh alone (make bench builds with it too).
release: setup
	SWIFT=$(SWIFT) scripts/release-build.sh

# The main job: a simulated day (24 h of light in 30 s) through the whole pipeline.
demo: build
	scripts/demo.sh $(BIN)

# prepare-tests starts the roots, the venv and the rigs' setup in the background (see
# scripts/prepare-tests.sh): on a new machine they are made while the first steps compile.
# The two rigs run last, one after the other; their guests wait on emulated time and leave the
# host's cores mostly idle, so the steps that time nothing in a guest or a browser run beside
# them, the guests first for the CPU (scripts/beside.sh). Every step's time is printed at the end
# (scripts/step-times.sh).
# rig-test-deb is left out for time: make test-system runs the package as installed.
# test-gpiod2 is left out too: test-swift6.0 runs every suite against trixie's libgpiod 2, and
# test-system the Embedded build against it on gpio-sim.
TEST_STEPS := unit-test cli-test kiosk-test serve-test mqtt-test ha-test
TEST_GUEST_STEPS := rig-test test-system
TEST_BESIDE_GUESTS := embedded-test record-test deb-test lint embedded-lint fuzz test-swift6.0
STEP_TIMES ?= $(CURDIR)/.build/step-times
test: export STEP_TIMES := $(STEP_TIMES)
test: test-clock setup prepare-tests $(TEST_STEPS) test-in-guests
	scripts/prepare-tests.sh --wait
	scripts/step-times.sh --report $(STEP_TIMES)
.PHONY: test-clock test-in-guests
test-clock:
	mkdir -p .build && rm -f $(STEP_TIMES)
# What both lanes need is made first, and not made again by either (-o).
MADE_BEFORE_THE_GUESTS := -o setup -o build -o embedded -o embedded-gpiod2
test-in-guests: build embedded-gpiod2
	scripts/beside.sh .build/beside-guests.log "$(MAKE) -j1 $(MADE_BEFORE_THE_GUESTS) $(TEST_BESIDE_GUESTS)" -- \
		$(MAKE) -j1 $(MADE_BEFORE_THE_GUESTS) $(TEST_GUEST_STEPS)

.PHONY: prepare-tests
prepare-tests: setup
	scripts/prepare-tests.sh --start

unit-test:
	$(SWIFT) build --build-tests
	$(SWIFT) test

cli-test: embedded
	Tests/cli/run.sh $(EMBEDDED_BIN)

# The pure core (AmbienceCore, AmbienceRecord, JSON) built in Embedded Swift, `replay` made of it
# matching the portable build's byte for byte; every program built so, interpolating only what it prints, and
# ambience-run answering as the portable build does.
embedded-test: build embedded
	Tests/embedded/run.sh $(BIN) $(EMBEDDED_DIR)
# Every program's modules built unoptimised with line tables, failing on each interpolation
# Embedded Swift prints as a placeholder, which the compiler does not warn of.
.PHONY: embedded-lint
embedded-lint: setup
	SWIFT=$(SWIFT) scripts/embedded-build.sh --lint

# ambience serve over real loopback sockets, driven by a simulated daemon (Tests/serve/run.py).
serve-test: embedded
	Tests/serve/run.py $(EMBEDDED_DIR)
# The record of the light, plot and replay --summary through the built binary; the pictures it
# draws (SVG, and a PNG from headless Chromium) stay in .build/record-test.
record-test: embedded
	Tests/record/run.sh $(EMBEDDED_BIN)
# ambience mqtt against a real broker: mosquitto started by the tests on loopback (never the
# system's service, which installing the package may have started: it is stopped and disabled).
define stop_mosquitto_service
	@if command -v systemctl >/dev/null && systemctl is-active --quiet mosquitto 2>/dev/null; then \
		echo "stopping the mosquitto service the package started"; systemctl disable --now mosquitto; fi
endef
mqtt-test: embedded
	$(stop_mosquitto_service)
	Tests/mqtt/run.sh $(EMBEDDED_DIR)
# A real Home Assistant (PyPI's, pinned, in a venv inside the trixie root that
# scripts/debian-root.sh keeps outside the repository, both made on first use) against a
# mosquitto of the test's own and a simulated kiosk bridged by ambience mqtt (Tests/ha/run.py).
ha-test: embedded
	$(stop_mosquitto_service)
	Tests/ha/run.sh $(EMBEDDED_DIR)
# `ambience kiosk` driving Debian's Chromium, headless, and `ambience serve`'s script in it: what
# the pages themselves see; and the desktop colour scheme recipe against dconf in a private D-Bus
# session.
kiosk-test: embedded
	Tests/browser/run.py $(EMBEDDED_BIN) $(EMBEDDED_DIR)/ambience-kiosk
	Tests/desktop/color-scheme.sh $(EMBEDDED_BIN)

# The README's screenshots of the three states (docs/images/kiosk-*.png).
.PHONY: kiosk-screenshots
kiosk-screenshots: setup
	Tests/browser/screenshots.py docs/images

# swift format, every module a target imports declared in Package.swift (scripts/check-imports.py),
# and every relative link and anchor of the Markdown files (Tests/docs/check_links.py).
lint:
	$(SWIFT) format lint --strict -r Sources Tests Fuzz Benchmarks
	SWIFT=$(SWIFT) scripts/check-imports.py
	SWIFT=$(SWIFT) scripts/check-architecture.py
	python3 Tests/docs/check_links.py
	python3 scripts/portable-math-reference.py | cmp - Tests/AmbienceCoreTests/Fixtures/portable-math.csv
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

# Every program cross-built in Embedded Swift for the Pi (scripts/dist.sh): bookworm and trixie,
# arm64 and armhf (ARMv6 code: every 32-bit Pi, the Zero included), into .build/dist/SUITE-ARCH,
# what make deb packages. From scratch about 20 minutes here (armhf 12, arm64 8); the sysroots and zig made on first use.
dist: setup
	scripts/dist.sh

# The four builds as a Pi owner gets them, under qemu-user (Tests/dist/run.sh): no Swift runtime,
# ARMv6 code alone for armhf, replay, plot and simulate byte for byte the host's, the command-line
# tests, each package lintian clean; the pure core static on an emulated Pi Zero core.
.PHONY: dist-test
dist-test: dist embedded
	Tests/dist/run.sh $(EMBEDDED_BIN)

# What does not fit in make test's time on a fresh machine (docs/tests.md, "arm64"): the trixie
# arm64 package of make dist, installed by dpkg in Debian 13's arm64 kernel under
# qemu-system-aarch64, passes the rig; installed by apt in a Debian 13 arm64 guest booted with
# systemd, the system rig; and the bookworm arm64 package the same in a Debian 12 arm64 guest.
test-arm64: dist
	deb=$$(scripts/make-deb.sh --suite trixie --arch arm64 --binary .build/dist/trixie-arm64/ambience \
		--out .build/deb | tail -n 1) && \
	RIG_DEB=$$deb Tests/rig/run-arm.sh arm64
	Tests/system/run.sh .build/dist/trixie-arm64/ambience trixie
	Tests/system/run.sh .build/dist/bookworm-arm64/ambience bookworm

# The real-kernel rig: Debian's kernel in QEMU with i2c-stub, the project's test adapter and
# gpio-sim; the binary built here runs against real /dev/i2c-N and /dev/gpiochipN.
rig-setup:
	rig/setup.sh

rig-test: build
	Tests/rig/run.sh

# The same scenarios on arm64: Debian 13's arm64 kernel in qemu-system-aarch64 with the Debian
# 13 arm64 root; the binary is AMBIENCE_ARM (default .build/dist/trixie-arm64/ambience) or
# the package RIG_DEB=path.deb, installed in the guest with dpkg.
.PHONY: rig-test-arm64
rig-test-arm64:
	Tests/rig/run-arm.sh arm64

# The rig's scenarios on 32-bit Arm (docs/rig.md, "armhf"): the trixie armhf package of make dist
# installed in Debian 13's armmp kernel on QEMU's virt board, with a Debian 13 armhf root; then,
# installed by apt in a Debian 13 armhf guest booted with systemd, the system rig.
.PHONY: test-armhf
test-armhf: dist
	deb=$$(scripts/make-deb.sh --suite trixie --arch armhf --binary .build/dist/trixie-armhf/ambience \
		--out .build/deb | tail -n 1) && \
	RIG_DEB=$$deb Tests/rig/run-arm.sh armhf
	Tests/system/run.sh .build/dist/trixie-armhf/ambience trixie

# The Pi's own SoC (docs/rig.md, "The Pi's own SoC"): QEMU's raspi3b and raspi4b with Debian 13's
# arm64 kernel and the upstream device trees of the Pi 3 B and 4 B, the board profiles and the
# trixie arm64 package of make dist checked on the real pinctrl-bcm2835/bcm2711 and i2c-bcm2835
# drivers; then raspi0 with Debian 12's ARMv6 kernel and the Pi Zero's tree.
.PHONY: test-raspi
test-raspi: dist embedded
	RASPI_MACHINE=raspi3b rig/raspi/run.sh
	RASPI_MACHINE=raspi4b rig/raspi/run.sh
	RASPI_MACHINE=raspi0 RASPI_REFERENCE=$(EMBEDDED_BIN) rig/raspi/run.sh

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
# The programs are the Embedded build against Debian 13's libgpiod, as make deb packages them:
# what the system rig installs (test-system, sd-bench, test-powercut).
.PHONY: test-system sd-bench test-powercut watchdog-soak
test-system: embedded-gpiod2
	Tests/system/run.sh $(EMBEDDED_GPIOD2_DIR)/ambience
# What the installed stack writes to the card in a day at steady state, from the system rig guest's
# own counters (docs/performance.md, "Writes to the SD card"); about 25 minutes.
sd-bench: embedded-gpiod2
	SYSTEM_RIG_ONLY="sd-bench 1300 sd_bench" Tests/system/run.sh $(EMBEDDED_GPIOD2_DIR)/ambience
# long-interval-watchdog alone for SOAK_SECONDS (default two hours) of the guest's real time:
# `[sensor] interval = 15` under the shipped WatchdogSec=10, one MainPID throughout.
SOAK_SECONDS ?= 7200
watchdog-soak: embedded-gpiod2
	SYSTEM_RIG_TIMEOUT=$$(($(SOAK_SECONDS) + 1200)) SYSTEM_RIG_LONG_INTERVAL=$(SOAK_SECONDS) SYSTEM_RIG_ONLY="watchdog-soak $$(($(SOAK_SECONDS) + 600)) long_interval_watchdog" \
		Tests/system/run.sh $(EMBEDDED_GPIOD2_DIR)/ambience
# Power cuts (docs/rig.md, "Power cuts"): the same guest and package, installed once, then its
# power cut 30 times (QEMU killed, no shutdown, no sync) during record flushes, overrides, reloads,
# upgrades and boots, every boot checking each persisted file is the old content or the new.
test-powercut: embedded-gpiod2
	Tests/system/powercut.sh $(EMBEDDED_GPIOD2_DIR)/ambience

install: release
	scripts/install.sh install "$(PREFIX)" "$(RELEASE_BIN)"

uninstall:
	scripts/install.sh uninstall "$(PREFIX)"

# Debian packages (docs/packaging.md): bookworm amd64 and trixie amd64 (the Embedded builds), and whatever
# .build/dist/SUITE-ARCH/ambience holds (make dist's arm64 and armhf builds), into .build/deb.
deb: embedded-gpiod2
	scripts/debs.sh

# The bookworm amd64 package built, linted, installed on this host, upgraded, removed, purged.
deb-test: embedded
	Tests/deb/run.sh $(EMBEDDED_BIN)

clean:
	rm -rf .build

# Release-build figures in one table, the Python peer alongside in the rig (see docs/performance.md).
bench: setup
	scripts/bench.sh
