# Nudge — build, test, demo. Run as root (or with sudo) on Debian 12 with Swift installed:
# the deps target installs the system packages that are missing.

SWIFT ?= swift
PREFIX ?= /usr/local
DEB_PACKAGES = libdbus-1-dev pkg-config dbus dbus-x11 dunst xvfb libnotify-bin imagemagick \
               sound-theme-freedesktop fonts-dejavu-core valgrind x11-utils desktop-file-utils libsqlite3-dev

.PHONY: all build release deps test demo bench clean

all: build

# Installs only what is missing, so a second run asks apt nothing.
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing: $$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

# The whole suite runs inside the bench: private bus, Xvfb, dunst.
test: deps
	$(SWIFT) build --build-tests
	scripts/testbench run $(SWIFT) test --skip-build

demo: build
	scripts/demo

bench: release
	scripts/testbench run bench/send.sh
	.build/release/schedule-bench

clean:
	$(SWIFT) package clean
	rm -f demo.png
