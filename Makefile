# Nudge — build, test, demo. Run as root (or with sudo) on Debian 12 with Swift installed:
# the deps target installs the system packages that are missing.

SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
# release or debug; tests install the debug build.
CONFIG ?= release
# Whether the Swift standard library is linked in (a release always has it; make test's
# package check links a debug build so: see BUILD_DIR).
STATIC ?= $(if $(filter release,$(CONFIG)),yes,no)
# System-wide configuration (the XDG autostart entry goes to $(SYSCONFDIR)/xdg/autostart,
# where sessions look, whatever the PREFIX).
SYSCONFDIR ?= /etc
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
LIBDIR = $(PREFIX)/lib
# nudge-sync, the program `nudge sync` runs: a helper, not a command of its own.
LIBEXECDIR = $(PREFIX)/libexec/nudge
# Where nudge and nudge-window are built: .build, or a scratch folder of its own (make test's
# package check links the debug build as a release is linked, which compiles every module
# anew: in the tree the tests use, it would leave their objects linked for the other way).
BUILD_DIR ?= .build
BIN = $(BUILD_DIR)/$(CONFIG)
SCRATCH = $(if $(filter-out .build,$(BUILD_DIR)),--scratch-path $(BUILD_DIR))
DIST = $(BUILD_DIR)/dist-$(CONFIG)
SWIFT_FLAGS = $(if $(filter release,$(CONFIG)),-c release) $(if $(filter yes,$(STATIC)),--static-swift-stdlib)
# The manual's generator runs here and is never installed: built in .build, linked as its
# configuration links (a static debug link would need ICU for the parts of Foundation a
# release drops).
SWIFT_TOOL_FLAGS = $(if $(filter release,$(CONFIG)),-c release --static-swift-stdlib)
DEB_PACKAGES = libdbus-1-dev pkg-config dbus dbus-x11 dunst xvfb libnotify-bin imagemagick \
               sound-theme-freedesktop fonts-dejavu-core fonts-noto-color-emoji valgrind x11-utils desktop-file-utils libsqlite3-dev \
               dpkg-dev binutils sqlite3 xfce4-notifyd notification-daemon xdotool lintian \
               sway mako-notifier grim gettext locales fonts-nanum librsvg2-bin mate-screensaver \
               dconf-service dconf-gsettings-backend gsettings-desktop-schemas libglib2.0-bin libncurses-dev tmux \
               python3 python3-venv default-jre-headless \
               gnome-shell gjs xwayland libgl1-mesa-dri plasma-workspace kwin-wayland qtwayland5 \
               sway-notification-center lxqt-notificationd python3-pyatspi at-spi2-core \
               libgtk-4-dev libadwaita-1-dev gir1.2-atspi-2.0 gnome-clocks appstream network-manager-dev mmdebstrap orca \
               libcurl4-openssl-dev libxml2-dev radicale xandikos python3-caldav gnome-keyring libsecret-tools evolution-data-server python3-pyqt5
# The locales the tests and the demo run in (glibc translates only in a locale it has).
LOCALES = en_US.UTF-8 ko_KR.UTF-8 pl_PL.UTF-8
# The message catalogs, one per po/LANG.po, compiled for the build tree.
LANGUAGES = $(basename $(notdir $(wildcard po/*.po)))

.PHONY: sync-soak all build release deps locales catalogs pot oracle nmcli test check-builds test-next demo bench bench-check soak fuzz clean dist install uninstall deb

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
	@$(MAKE) -s locales

# Generates the locales in LOCALES that the C library does not have yet (locale-gen).
locales:
	@missing=$$(for l in $(LOCALES); do locale -a 2>/dev/null | grep -qix "$$(echo $$l | sed 's/UTF-8/utf8/')" || echo $$l; done); \
	if [ -n "$$missing" ]; then \
		echo "Generating locales:" $$missing; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		for l in $$missing; do $$SUDO sed -i "s/^# *\($$l UTF-8\)/\1/" /etc/locale.gen; \
			grep -q "^$$l UTF-8" /etc/locale.gen || echo "$$l UTF-8" | $$SUDO tee -a /etc/locale.gen >/dev/null; done; \
		$$SUDO locale-gen >/dev/null; \
	fi

# po/LANG.po -> .build/locale/LANG/LC_MESSAGES/nudge.mo, where a binary run from the build
# tree finds it. msgfmt --check fails on a placeholder a translation lost or changed;
# scripts/check-po fails on a message of the sources that a catalog lacks.
catalogs:
	@for lang in $(LANGUAGES); do \
		mkdir -p .build/locale/$$lang/LC_MESSAGES; \
		msgfmt --check -o .build/locale/$$lang/LC_MESSAGES/nudge.mo po/$$lang.po || exit 1; \
	done
	@scripts/check-po

# Regenerates po/nudge.pot from the sources and merges it into every po/LANG.po.
pot:
	scripts/update-pot

build: deps catalogs
	$(SWIFT) build

# The release binaries, product by product: a plain `swift build` of everything would also
# link GRDB's dynamic library product, which cannot take a static Swift runtime.
RELEASE_PRODUCTS = nudge nudge-sync nudge-window nudge-bench store-bench daemon-bench soak-bench startup-bench water-bench schedule-bench phrase-bench ui-bench ics-bench nudge-fuzz
release: deps catalogs
	@for product in $(RELEASE_PRODUCTS); do $(SWIFT) build -c release --static-swift-stdlib --product $$product || exit 1; done

# The oracles tests check against, from PyPI, in a virtual environment of the build
# tree: Python's icalendar and recurring-ical-events for the calendar exports;
# dateparser, parsedatetime, recurrent (with dateutil), korean-datetime and Duckling
# (the Clojure original in the duckling wrapper, on Java) for schedules said in words,
# with korean-datetime's gold set from its source package.
ORACLE = .build/oracle
oracle:
	@$(ORACLE)/bin/python3 -c 'import icalendar, recurring_ical_events, dateparser, parsedatetime, recurrent, dateutil, korean_datetime, duckling, jpype' 2>/dev/null || { \
		python3 -m venv $(ORACLE) && \
		$(ORACLE)/bin/pip install --quiet --disable-pip-version-check icalendar==7.3.0 recurring-ical-events==3.8.2 \
			dateparser==1.5.0 parsedatetime==2.6 recurrent==0.4.1 python-dateutil==2.9.0.post0 korean-datetime==1.0.0 \
			duckling==1.8.0 JPype1==1.7.1; }
	@test -s $(ORACLE)/korean-datetime-gold.jsonl || { \
		rm -rf $(ORACLE)/sdist && \
		$(ORACLE)/bin/pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: -d $(ORACLE)/sdist korean-datetime==1.0.0 && \
		tar -xzOf $(ORACLE)/sdist/korean_datetime-1.0.0.tar.gz korean_datetime-1.0.0/tests/data/temporal_gold.jsonl > $(ORACLE)/korean-datetime-gold.jsonl; }

# NetworkManager's own command line, for the place tests against the NetworkManager
# stand-in: taken out of Debian's package into .build/tools, not installed (installing
# network-manager would start the service, which would take this machine's network).
NMCLI = .build/tools/usr/bin/nmcli
nmcli: deps
	@test -x $(NMCLI) || { \
		rm -rf .build/tools/deb && mkdir -p .build/tools/deb && \
		(cd .build/tools/deb && apt-get download network-manager 2>/dev/null) && \
		dpkg-deb -x .build/tools/deb/network-manager_*.deb .build/tools && \
		$(NMCLI) --version; }

# The whole suite runs inside the bench: private bus, Xvfb, dunst.
# The checks after the suite build in scratch folders of their own (the fuzz check's
# sanitized build; the package check's, linked as a release is): at nice 19 while the suite
# runs, which leaves most of a core idle waiting on windows and buses, so that they find
# their builds done (a build that failed there is done again, and says why, in its check).
# What the suite needs beside the build (the oracles from PyPI, NetworkManager's nmcli, the
# Debian 13 desktops' root: downloads and unpacking, mostly) is fetched while the build
# compiles: on a fresh machine the root was built inside the live desktops' first test,
# the suite's longest path.
test: deps catalogs
	@mkdir -p .build
	{ $(MAKE) -s oracle nmcli && { [ "$$(id -u)" != 0 ] || scripts/desktop-root build trixie; }; } > .build/test-setup.log 2>&1 & \
	setup=$$!; $(SWIFT) build --build-tests; status=$$?; \
	wait $$setup || { cat .build/test-setup.log; echo "make test: fetching what the suite needs failed (above)" >&2; exit 1; }; exit $$status
	nice -n 19 $(MAKE) -s check-builds > .build/check-builds.log 2>&1 & \
	scripts/testbench run $(SWIFT) test --skip-build; status=$$?; wait; exit $$status
	scripts/check-install
	DEB_CONFIG=debug scripts/testbench run scripts/check-deb
	scripts/fuzz --runs $(FUZZ_CHECK_RUNS)

check-builds:
	scripts/fuzz --build-only
	$(SWIFT) build --static-swift-stdlib --scratch-path .build/deb-debug --product nudge
	$(SWIFT) build --static-swift-stdlib --scratch-path .build/deb-debug --product nudge-sync
	$(SWIFT) build --static-swift-stdlib --scratch-path .build/deb-debug --product nudge-window

# The live desktop suites on sid's desktops (GNOME Shell 51, Plasma 6.7 in late 2026), in a
# root scripts/desktop-root builds once into $(NUDGE_ROOTS) (default /var/cache/nudge-roots).
# Not in make test or CI: sid moves, and its desktops with it. make test runs Debian 12's
# on this machine and Debian 13's in a root the same way.
test-next: deps catalogs
	$(SWIFT) build --build-tests
	NUDGE_LIVE_SUITES=sid scripts/testbench run $(SWIFT) test --skip-build --filter LiveDesktopTests

# Every reader of outside input under libFuzzer and AddressSanitizer (fuzz/README.md),
# FUZZ_TIME seconds each; FUZZ_TARGETS="ical dbus" for some. `make test` runs each for
# FUZZ_CHECK_RUNS inputs made from its seeds with a fixed seed (the same on every machine),
# so that a reader broken again is caught at once.
FUZZ_TIME ?= 180
FUZZ_CHECK_RUNS ?= 10000
FUZZ_TARGETS ?=
fuzz: deps catalogs
	scripts/fuzz $(FUZZ_TIME) $(FUZZ_TARGETS)

# The window (nudge-window) is built and installed where GTK 4 and libadwaita are there to
# build it with (make deps installs them); WINDOW=no leaves it out, and nudge runs without.
WINDOW ?= $(shell pkg-config --exists libadwaita-1 2>/dev/null && echo yes || echo no)

# Shell completions and the man page, generated from the command definitions.
dist: deps catalogs
	$(SWIFT) build $(SWIFT_FLAGS) $(SCRATCH) --product nudge
	$(SWIFT) build $(SWIFT_FLAGS) $(SCRATCH) --product nudge-sync
	if [ "$(WINDOW)" = yes ]; then $(SWIFT) build $(SWIFT_FLAGS) $(SCRATCH) --product nudge-window; fi
	$(SWIFT) build $(SWIFT_TOOL_FLAGS) --product generate-manual
	rm -rf $(DIST) && mkdir -p $(DIST)
	# bash-completion sources the file: no #! line (lintian: bash-completion-with-hashbang).
	$(BIN)/nudge --generate-completion-script bash | sed '1{/^#!/d}' > $(DIST)/nudge.bash
	$(BIN)/nudge --generate-completion-script zsh > $(DIST)/_nudge
	$(BIN)/nudge --generate-completion-script fish > $(DIST)/nudge.fish
	scripts/make-manual $(BIN)/nudge .build/$(CONFIG)/generate-manual $(DIST) \
		"$$(git log -1 --format=%cs 2>/dev/null || date -u +%F)"

install: dist
	install -D -m 755 $(BIN)/nudge $(DESTDIR)$(BINDIR)/nudge
	install -D -m 755 $(BIN)/nudge-sync $(DESTDIR)$(LIBEXECDIR)/nudge-sync
	install -D -m 644 $(DIST)/nudge.1 $(DESTDIR)$(DATADIR)/man/man1/nudge.1
	install -D -m 644 $(DIST)/nudge.bash $(DESTDIR)$(DATADIR)/bash-completion/completions/nudge
	install -D -m 644 $(DIST)/_nudge $(DESTDIR)$(DATADIR)/zsh/vendor-completions/_nudge
	install -D -m 644 $(DIST)/nudge.fish $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/nudge.fish
	install -D -m 644 packaging/io.github.nudge.Nudge.desktop $(DESTDIR)$(DATADIR)/applications/io.github.nudge.Nudge.desktop
	install -D -m 644 packaging/icons/io.github.nudge.Nudge.svg $(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/io.github.nudge.Nudge.svg
	install -D -m 644 packaging/icons/io.github.nudge.Nudge-48.png $(DESTDIR)$(DATADIR)/icons/hicolor/48x48/apps/io.github.nudge.Nudge.png
	sed 's|@BINDIR@|$(BINDIR)|g' packaging/autostart/io.github.nudge.Nudge.desktop.in > $(DIST)/autostart.desktop
	sed 's|@BINDIR@|$(BINDIR)|g' packaging/systemd/nudge.service.in > $(DIST)/nudge.service
	sed 's|@BINDIR@|$(BINDIR)|g' packaging/dbus/io.github.nudge.Nudge.service.in > $(DIST)/dbus.service
	install -D -m 644 $(DIST)/autostart.desktop $(DESTDIR)$(SYSCONFDIR)/xdg/autostart/io.github.nudge.Nudge.desktop
	install -D -m 644 $(DIST)/nudge.service $(DESTDIR)$(LIBDIR)/systemd/user/nudge.service
	install -D -m 644 $(DIST)/dbus.service $(DESTDIR)$(DATADIR)/dbus-1/services/io.github.nudge.Nudge.service
	install -D -m 644 packaging/search/io.github.nudge.Nudge.search-provider.ini $(DESTDIR)$(DATADIR)/gnome-shell/search-providers/io.github.nudge.Nudge.search-provider.ini
	install -D -m 644 packaging/search/io.github.nudge.Nudge.krunner.desktop $(DESTDIR)$(DATADIR)/krunner/dbusplugins/io.github.nudge.Nudge.desktop
	for lang in $(LANGUAGES); do \
		install -D -m 644 .build/locale/$$lang/LC_MESSAGES/nudge.mo $(DESTDIR)$(DATADIR)/locale/$$lang/LC_MESSAGES/nudge.mo || exit 1; \
	done
	if [ "$(WINDOW)" = yes ]; then \
		install -D -m 755 $(BIN)/nudge-window $(DESTDIR)$(BINDIR)/nudge-window && \
		install -D -m 644 packaging/man/nudge-window.1 $(DESTDIR)$(DATADIR)/man/man1/nudge-window.1 && \
		install -D -m 644 packaging/io.github.nudge.Nudge.metainfo.xml $(DESTDIR)$(DATADIR)/metainfo/io.github.nudge.Nudge.metainfo.xml; \
	fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/nudge \
		$(DESTDIR)$(LIBEXECDIR)/nudge-sync \
		$(DESTDIR)$(BINDIR)/nudge-window \
		$(DESTDIR)$(DATADIR)/man/man1/nudge-window.1 \
		$(DESTDIR)$(DATADIR)/metainfo/io.github.nudge.Nudge.metainfo.xml \
		$(DESTDIR)$(DATADIR)/man/man1/nudge.1 \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/nudge \
		$(DESTDIR)$(DATADIR)/zsh/vendor-completions/_nudge \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/nudge.fish \
		$(DESTDIR)$(DATADIR)/applications/io.github.nudge.Nudge.desktop \
		$(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/io.github.nudge.Nudge.svg \
		$(DESTDIR)$(DATADIR)/icons/hicolor/48x48/apps/io.github.nudge.Nudge.png \
		$(DESTDIR)$(SYSCONFDIR)/xdg/autostart/io.github.nudge.Nudge.desktop \
		$(DESTDIR)$(LIBDIR)/systemd/user/nudge.service \
		$(DESTDIR)$(DATADIR)/dbus-1/services/io.github.nudge.Nudge.service \
		$(DESTDIR)$(DATADIR)/gnome-shell/search-providers/io.github.nudge.Nudge.search-provider.ini \
		$(DESTDIR)$(DATADIR)/krunner/dbusplugins/io.github.nudge.Nudge.desktop \
		$(foreach lang,$(LANGUAGES),$(DESTDIR)$(DATADIR)/locale/$(lang)/LC_MESSAGES/nudge.mo)

# The Debian package: release build with the Swift runtime linked in, installed under /usr.
deb: deps
	scripts/build-deb

demo: build
	scripts/demo

bench: release nmcli
	scripts/testbench run .build/release/startup-bench
	scripts/testbench run .build/release/nudge-bench 1000
	bench/servers.sh
	.build/release/schedule-bench
	.build/release/phrase-bench
	.build/release/store-bench
	scripts/testbench run .build/release/daemon-bench
	scripts/testbench run .build/release/water-bench
	.build/release/ui-bench
	.build/release/ics-bench
	/usr/bin/python3 bench/window-bench.py .build/release/nudge-window .build/release/nudge
	/usr/bin/python3 bench/sync-bench.py .build/release/nudge 1000
	for target in $$(.build/release/nudge-fuzz --list | cut -d' ' -f1); do .build/release/nudge-fuzz --scale $$target fuzz/corpus/$$target || exit 1; done

# The benchmarks again, each figure's ratio to its anchor compared with bench/baseline.tsv:
# any more than 25 % worse is named (exit 1). scripts/bench-check --update rewrites the
# baseline, on purpose, in a commit of its own that says why.
bench-check: release
	scripts/bench-check

# The sync soak: 500 seeded runs a server of both sides changing reminders at random, with
# syncs and offline spells between, checked against a model (bench/sync-soak.py).
SYNC_SOAK_RUNS ?= 500
sync-soak: release
	/usr/bin/python3 bench/sync-soak.py .build/release/nudge --runs $(SYNC_SOAK_RUNS) --server radicale
	/usr/bin/python3 bench/sync-soak.py .build/release/nudge --runs $(SYNC_SOAK_RUNS) --server xandikos

# The daemon under 20,000 pop-ups answered every way (about 40 minutes); SOAK_COUNT=N for fewer.
SOAK_COUNT ?= 20000
soak: release
	scripts/testbench run .build/release/soak-bench $(SOAK_COUNT)

clean:
	$(SWIFT) package clean
	rm -f demo.png
