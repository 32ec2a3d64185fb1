# Ambience: the two commands a new machine needs are `make demo` and `make test` (as root on
# Debian 12 with the Swift toolchain in /opt/swift or on PATH); both set up what they need first.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift
BIN := .build/debug/ambience
RELEASE_BIN := .build/release/ambience

.PHONY: setup build release demo test unit-test cli-test lint clean

# Debian packages the build and the tests need (skipped when all are present).
PACKAGES := libi2c-dev libgpiod-dev gpiod i2c-tools pkg-config python3
setup:
	@missing=$$(for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "no Swift toolchain: install one in /opt/swift (see README)"; exit 1; }

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release --static-swift-stdlib

# The main job: a compressed day of light through the engine.
demo: build
	scripts/demo.sh $(BIN)

test: setup lint unit-test cli-test

unit-test:
	$(SWIFT) build --build-tests
	$(SWIFT) test

cli-test: build
	Tests/cli/run.sh $(BIN)

lint:
	$(SWIFT) format lint --strict -r Sources Tests

clean:
	rm -rf .build

# The real-kernel rig (rig/, Tests/rig/): Debian's kernel in QEMU against real i2c-dev and GPIO.
rig-setup:
	rig/setup.sh

rig-test: build
	Tests/rig/run.sh
