import ArgumentParser
import CalendarSync
import DBus
import Foundation
import Localization
import NudgeCore
import NudgeKit
import NudgeStore
import NudgeSync
import Platform
import SyncTransport

/// `nudge sync` (this program, which `nudge sync` runs): reminders kept on a CalDAV server
/// (Nextcloud, Radicale, Fastmail…) that the phone and other calendars share.
///
/// Its own program, so that only a sync loads libcurl and libxml2 (45 more libraries, ICU's
/// among them): every other `nudge` command, and `send` above all, starts without them.
@main
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nudge sync",
        abstract: "Keep reminders on a calendar server (CalDAV) that your phone shares.",
        discussion: """
        Nudge's own reminders go to one calendar of the account, as events with an alarm \
        that the phone's calendar shows and rings; the events and tasks with alarms of the \
        calendars it follows pop up here. Every write is conditional: an object changed \
        elsewhere meanwhile is fetched and merged property by property, never overwritten. \
        Passwords are kept in the desktop's keyring (the Secret Service), never in a file.

        Examples:
          nudge sync add https://cloud.example.org/remote.php/dav --user ann
          nudge sync add https://dav.example.org --user ann --password-stdin --own Reminders --follow Tasks < pw.txt
          nudge sync choose 3f25a1b0 --follow Personal
          nudge sync now
          nudge sync status
        """,
        version: NudgeService.version,
        subcommands: [SyncAdd.self, SyncChoose.self, SyncNow.self, SyncStatus.self, SyncConflict.self, SyncRemove.self, SyncServe.self]
    )

    /// Runs the command line, every failure one line on stderr and a sysexits code.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // A word that names no command is a usage error, with --help too (the parser would
        // print sync's help and exit 0): the first word, or the one after help, --help or -h.
        let named = ["help", "--help", "-h"].contains(arguments.first ?? "") ? arguments.dropFirst().first : arguments.first
        if let name = named, !name.hasPrefix("-"), name != "help",
           !configuration.subcommands.contains(where: { $0.configuration.commandName == name }) {
            // TRANSLATORS: %s is the word given where a sync command's name was expected.
            fail(format(tr("unknown command %s: see 'nudge sync --help' for the commands"), name.quotedForMessage()),
                 code: ExitStatus.usage.rawValue)
        }
        let command: ParsableCommand
        do {
            // An option sync does not know is refused before any help is printed.
            if arguments.first?.hasPrefix("-") == true, !["-h", "--help", "--version"].contains(arguments.first!) {
                _ = try parseAsRoot(arguments.filter { $0 != "-h" && $0 != "--help" })
            }
            command = try parseAsRoot(arguments)
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            fail(message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments", code: code.rawValue)
        }
        do {
            var command = command
            try command.run()
            Glibc.exit(0)
        } catch let error as OperationError {
            fail(error.message, code: error.code.rawValue)
        } catch let error as ExitCode {
            Glibc.exit(error.rawValue)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            fail(message(for: error), code: exitCode(for: error).rawValue)
        }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        writeError("nudge: \(text)\n")
        Glibc.exit(code)
    }
}

/// What every `sync` command shares: the store, and an account named by its id.
enum SyncSupport {
    static func store(_ world: World) throws(OperationError) -> AppDatabase { try world.store.forWriting() }

    /// One sync at a time, whoever starts it (a command, the daemon's background sync):
    /// `flock` on `sync.lock` beside the store. Returns the lock's descriptor, held until it
    /// is closed or this process ends (a command leaves it open); `nil` at once when another
    /// holds it and `wait` is off.
    static func lock(_ world: World, wait: Bool = true) throws(OperationError) -> Int32? {
        let path = (world.storePath as NSString).deletingLastPathComponent + "/sync.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        // TRANSLATORS: nudge sync: %1$s is the lock file beside the store, %2$s why it cannot be opened.
        guard fd >= 0 else { throw OperationError(.ioError, format(tr("cannot open %1$s: %2$s"), path, String(cString: strerror(errno)))) }
        while flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            close(fd)
            return nil
        }
        return fd
    }

    /// The account `id` names (a prefix will do), or the only one.
    static func account(_ id: String?, in store: AppDatabase, _ world: World) throws(OperationError) -> SyncAccount {
        let accounts = try world.run { try store.syncAccounts() }
        // TRANSLATORS: nudge sync with no account added yet.
        guard !accounts.isEmpty else { throw OperationError(.usage, tr("no calendar account yet: add one with nudge sync add URL --user NAME")) }
        guard let id else {
            guard accounts.count == 1 else {
                // TRANSLATORS: nudge sync: several accounts, and the command needs one named.
                throw OperationError(.usage, tr("name the account: nudge sync status lists their ids"))
            }
            return accounts[0]
        }
        let found = accounts.filter { $0.id.hasPrefix(id.lowercased()) }
        // TRANSLATORS: nudge sync: %s is an account id given that matches no account.
        guard found.count == 1 else { throw OperationError(.usage, format(tr("no account with id '%s' (nudge sync status lists them)"), id.escapingControls)) }
        return found[0]
    }

    /// The account's password from the keyring, if it has a user.
    static func credentials(for account: SyncAccount, _ world: World) throws(OperationError) -> Credentials? {
        guard !account.user.isEmpty else { return nil }
        let keyring = try secrets(world)
        let password: String?
        do { password = try keyring.password(for: .init(user: account.user, url: account.address)) } catch {
            throw OperationError(.unavailable, error.description)
        }
        guard let password else {
            // TRANSLATORS: nudge sync: the keyring has no password for the account; %1$s is the user, %2$s the address.
            throw OperationError(.unavailable, format(tr("the keyring has no password for %1$s at %2$s: add the account again (nudge sync add)"),
                                                      account.user.escapingControls, account.address.escapingControls))
        }
        return Credentials(user: account.user, password: password)
    }

    static func secrets(_ world: World) throws(OperationError) -> SecretService {
        guard let address = world.busAddress, let bus = try? Connection.bus(address: address) else {
            // TRANSLATORS: nudge sync needs the session bus to reach the keyring.
            throw OperationError(.unavailable, tr("no session bus, so no keyring: run inside your desktop session"))
        }
        return SecretService(bus: bus)
    }

    /// Runs a sync of `account` to the end on a loop of its own.
    static func sync(_ account: SyncAccount, credentials: Credentials?, store: AppDatabase, _ world: World) throws(OperationError) -> [CalendarReport] {
        let loop = EventLoop()
        // NUDGE_SYNC_STALL_SECONDS: the tests' stalled server is given less than 30 s.
        let service = SyncService(loop: loop, store: store, zone: world.zone,
                                  stallSeconds: world.environment["NUDGE_SYNC_STALL_SECONDS"].flatMap(Int.init),
                                  leftTo: { DesktopRinging(environment: world.environment).leaves($0)?.desktop })
        nonisolated(unsafe) var reports: [CalendarReport]?
        service.sync(account: account, credentials: credentials, now: world.now) { reports = $0 }
        do { try SyncService.run(loop) { reports != nil } } catch { throw OperationError(.ioError, error.description) }
        return reports ?? []
    }

    /// One line per calendar synced.
    static func print(_ reports: [CalendarReport]) -> Bool {
        var failed = false
        for report in reports {
            if let failure = report.failure {
                failed = true
                // TRANSLATORS: nudge sync now: %1$s is a calendar's name, %2$s why its sync failed.
                writeErr(format(tr("%1$s: not synced: %2$s"), report.name.escapingControls, failure.escapingControls))
                continue
            }
            if let desktop = report.leftTo {
                // TRANSLATORS: nudge sync now: %1$s is a followed calendar's name, %2$s the desktop that rings its alarms (GNOME (evolution-data-server)); keep the command as it is.
                Swift.print(format(tr("%1$s: rung by %2$s, so not here (never two pop-ups for one alarm); nudge sync choose --ring %1$s rings it here too"),
                                   report.name.escapingControls, desktop))
                continue
            }
            // TRANSLATORS: nudge sync now, one calendar's result: %1$s its name, then counts: objects fetched, reminders changed here, removed here, written there, removed there, conflicts.
            Swift.print(format(tr("%1$s: %2$d fetched, %3$d changed here, %4$d removed here, %5$d sent, %6$d removed there, %7$d conflicts"),
                               report.name.escapingControls, report.fetched, report.changedHere, report.removedHere, report.sent,
                               report.removedThere, report.conflicts))
            for problem in report.problems { writeErr("  " + problem.escapingControls) }
            if report.unsent { failed = true }
        }
        return !failed
    }

    /// Notes the change count the reminders were sent at, for the daemon's background sync
    /// (``AppDatabase/changedSinceSync()``): the earliest at which an own calendar read them;
    /// nothing when one could not (its changes still wait). Without an own calendar, local
    /// changes wait for nothing: the count now.
    static func markSynced(_ reports: [CalendarReport], store: AppDatabase, every: Bool) {
        guard every else { return }
        let owns = (try? store.syncCalendars().filter { $0.role == .own }.count) ?? 0
        let read = reports.compactMap(\.readAt)
        if owns == 0 {
            if let now = try? store.changeCount() { try? store.markSynced(at: now) }
        } else if read.count == owns, let first = read.min(), reports.allSatisfy({ $0.failure == nil }) {
            try? store.markSynced(at: first)
        }
    }

    static func writeErr(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

    /// Whether `name` (a name in any case, an address, a path) names `calendar`.
    static func names(_ calendar: SyncCalendar, _ name: String) -> Bool {
        calendar.name.lowercased() == name.lowercased() || calendar.url == name || CalDAVRequest.path(of: calendar.url) == name
            || calendar.url.hasSuffix("/" + name + "/")
    }

    /// The account's calendars with those made on the server since it was added (asked for
    /// once, as `sync add` does); what is known, as it is, when the server cannot be asked.
    static func refresh(_ account: SyncAccount, _ known: [SyncCalendar], store: AppDatabase, _ world: World) throws(OperationError) -> [SyncCalendar] {
        let credentials = try credentials(for: account, world)
        let loop = EventLoop()
        let service = SyncService(loop: loop, store: store, zone: world.zone)
        nonisolated(unsafe) var found: Result<DiscoveredAccount, SyncFailure>?
        service.discover(address: account.address, credentials: credentials, settings: service.settings(for: account)) { found = $0 }
        do { try SyncService.run(loop) { found != nil } } catch { throw OperationError(.ioError, error.description) }
        guard case .success(let discovered)? = found else { return known }
        let new = discovered.calendars.filter { remote in !known.contains { $0.url == remote.url } }.map { remote in
            SyncCalendar(url: remote.url, accountId: account.id, name: remote.name, components: remote.components.joined(separator: ","),
                         color: remote.color, writable: remote.writable)
        }
        guard !new.isEmpty else { return known }
        try world.run { try store.save(account: account, calendars: known + new) }
        return try world.run { try store.syncCalendars(account: account.id) }
    }

    /// The calendars' roles after `--own` and `--follow` (names or addresses).
    static func choose(_ calendars: [SyncCalendar], own: String?, follow: [String], stop: [String],
                       ring: [String] = [], leave: [String] = []) throws(OperationError) -> [SyncCalendar] {
        func find(_ name: String) throws(OperationError) -> Int {
            let matches = calendars.indices.filter { names(calendars[$0], name) }
            guard matches.count == 1 else {
                guard !calendars.isEmpty else {
                    // TRANSLATORS: nudge sync: %s is a calendar name given; the account has no calendar at all.
                    throw OperationError(.usage, format(tr("no calendar '%s': the account has no calendars"), name.escapingControls))
                }
                let names = calendars.map { "'" + $0.name.escapingControls + "'" }.joined(separator: ", ")
                // TRANSLATORS: nudge sync: %1$s is a calendar name given, %2$s the account's calendars.
                throw OperationError(.usage, format(tr("no calendar '%1$s' in the account (it has %2$s)"), name.escapingControls, names))
            }
            return matches[0]
        }
        if let own, follow.contains(where: { $0.lowercased() == own.lowercased() }) {
            // TRANSLATORS: nudge sync: one calendar named with both --own and --follow.
            throw OperationError(.usage, format(tr("'%s' is named with both --own and --follow: a calendar is one or the other"), own.escapingControls))
        }
        var result = calendars
        if let own {
            let index = try find(own)
            guard result[index].writable, result[index].components.contains("VEVENT") else {
                // TRANSLATORS: nudge sync --own: %s is a calendar that cannot take Nudge's events (read-only, or tasks only).
                throw OperationError(.usage, format(tr("Nudge cannot write its reminders to '%s': it is read-only or holds no events"), result[index].name.escapingControls))
            }
            for i in result.indices where result[i].role == .own { result[i].role = .none }
            result[index].role = .own
        }
        for name in follow {
            let index = try find(name)
            if result[index].role != .own { result[index].role = .follow }
        }
        for name in stop { result[try find(name)].role = .none }
        for name in ring + leave {
            let index = try find(name)
            guard result[index].role == .follow else {
                // TRANSLATORS: nudge sync choose --ring/--leave on a calendar not followed; %s its name.
                throw OperationError(.usage, format(tr("--ring and --leave are for followed calendars: '%s' is not one (Nudge always rings its own)"),
                                                    result[index].name.escapingControls))
            }
        }
        for name in ring { result[try find(name)].ringer = .here }
        for name in leave { result[try find(name)].ringer = nil }
        return result
    }

    /// The account's calendars, one line each, with what Nudge does with it.
    static func list(_ account: SyncAccount, _ calendars: [SyncCalendar],
                     desktop: DesktopRinging = DesktopRinging(environment: Environment.current)) {
        // TRANSLATORS: nudge sync add/choose: %1$s the account id, %2$s the user, %3$s the address.
        Swift.print(format(tr("Account %1$s: %2$s at %3$s"), account.id, account.user.isEmpty ? "-" : account.user.escapingControls,
                           account.address.escapingControls))
        for calendar in calendars {
            let role = switch calendar.role {
            // TRANSLATORS: nudge sync: the calendar Nudge's own reminders go to.
            case .own: tr("Nudge's reminders go here")
            case .follow:
                if let other = desktop.rings(calendar.url) {
                    calendar.ringer == .here
                        // TRANSLATORS: nudge sync: a followed calendar that the desktop rings too and that the person asked Nudge to ring as well; %s is the desktop (GNOME (evolution-data-server)).
                        ? format(tr("its alarms pop up here, and %s rings them too: two pop-ups for one alarm (nudge sync choose --leave NAME)"), other.desktop)
                        // TRANSLATORS: nudge sync: a followed calendar left to the desktop that rings it; %s is the desktop (GNOME (evolution-data-server)).
                        : format(tr("rung by %s, so not here (nudge sync choose --ring NAME rings it here too)"), other.desktop)
                } else {
                    // TRANSLATORS: nudge sync: a calendar whose alarms pop up here.
                    tr("its alarms pop up here")
                }
            // TRANSLATORS: nudge sync: a calendar Nudge leaves alone.
            case .none: tr("not synced")
            }
            let parts = calendar.components.split(separator: ",")
            // TRANSLATORS: nudge sync: what a calendar holds, in a list ("events, tasks").
            let holds = (parts.contains("VEVENT") ? [tr("events")] : []) + (parts.contains("VTODO") ? [tr("tasks")] : [])
            Swift.print("  \(calendar.name.escapingControls) (\(holds.joined(separator: ", "))\(calendar.writable ? "" : ", " + tr("read-only"))): \(role)")
        }
    }
}

/// `nudge sync add URL`.
struct SyncAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a calendar account: find its calendars and choose what Nudge does with them.",
        discussion: """
        Finds the calendars the way other clients do: the address itself, else its \
        /.well-known/caldav (RFC 6764), then the user's principal and calendar home. The \
        password is checked with the server, then kept in the keyring (gnome-keyring, \
        KWallet), never in a file. Without --own or --follow the calendars are only \
        listed: choose later with nudge sync choose.

        Exit status: 0; 64 for a bad address or calendar name; 69 when the server, the \
        keyring or the session bus cannot be reached, or the password is refused.
        """
    )

    @Argument(help: ArgumentHelp("The server's address (https://…); its /.well-known/caldav is tried too.", valueName: "URL"))
    var url: String

    @Option(help: ArgumentHelp("The user name on the server.", valueName: "NAME"))
    var user: String?

    @Flag(help: "Read the password from the first line of stdin (for scripts); otherwise it is asked for on the terminal.")
    var passwordStdin = false

    @Option(help: ArgumentHelp("The calendar Nudge's own reminders go to (its name).", valueName: "NAME"))
    var own: String?

    @Option(help: ArgumentHelp("A calendar whose events and tasks with alarms pop up here; repeat for more.", valueName: "NAME"))
    var follow: [String] = []

    @Flag(help: "Allow plain http:// to a host that is not this machine (the password then crosses the network readable).")
    var insecureHTTP = false

    @Option(help: ArgumentHelp("Trust the certificate authorities in FILE (PEM) for this server instead of the system's.", valueName: "FILE"))
    var caFile: String?

    func run() throws {
        let world = World.live
        let lower = url.lowercased()
        // An address is a line: one of 100 KB (a paste gone wrong) is named by its start.
        guard url.utf8.count <= 2048 else {
            // TRANSLATORS: nudge sync add: an address longer than 2,048 bytes; %s is its start.
            throw OperationError(.usage, format(tr("the address '%s…' is longer than 2,048 characters"), String(url.escapingControls.prefix(60))))
        }
        // A space or a line break pasted in is named, not left to libcurl's words.
        if url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            // TRANSLATORS: nudge sync add: an address with a space, a tab or a line break in it; %s is the address.
            throw OperationError(.usage, format(tr("the address '%s' holds a space or a line break: give it as one word"), String(url.escapingControls.prefix(200))))
        }
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), let host = URLComponents(string: url)?.host, !host.isEmpty else {
            // TRANSLATORS: nudge sync add: %s is what was given instead of an http(s) address.
            throw OperationError(.usage, format(tr("invalid URL '%s': give the server's https:// address"), url.escapingControls))
        }
        if let parts = URLComponents(string: url), parts.user != nil || parts.password != nil {
            // TRANSLATORS: nudge sync add with user:password@ in the address; keep --user as it is.
            throw OperationError(.usage, tr("the address holds a user name or password: give the user with --user, and the password when asked (it goes to the keyring, never into the address)"))
        }
        if lower.hasPrefix("http://"), !insecureHTTP, !HTTPRequest.isLoopback(url) {
            // TRANSLATORS: nudge sync add with http:// to another machine; keep --insecure-http.
            throw OperationError(.usage, format(tr("refusing plain http:// to %s: the password would cross the network readable (use https://, or --insecure-http)"), host))
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            // TRANSLATORS: nudge sync add --ca-file: %s is a file that cannot be read.
            throw OperationError(.usage, format(tr("cannot read the certificate file %s"), caFile.escapingControls))
        }
        if passwordStdin && user == nil {
            // TRANSLATORS: nudge sync add --password-stdin without --user.
            throw OperationError(.usage, tr("--password-stdin needs --user NAME"))
        }
        let store = try SyncSupport.store(world)
        _ = try SyncSupport.lock(world)
        let address = url
        let credentials = try user.map { name throws(OperationError) in Credentials(user: name, password: try password(user: name, url: address)) }
        // The keyring is checked before the server is asked: without one nothing can be kept.
        let keyring = credentials == nil ? nil : try SyncSupport.secrets(world)
        let settings = HTTPClient.Settings(authorityFile: caFile.map { URL(fileURLWithPath: $0).path }, allowsPlainHTTP: insecureHTTP)
        let loop = EventLoop()
        let service = SyncService(loop: loop, store: store, zone: world.zone)
        nonisolated(unsafe) var found: Result<DiscoveredAccount, SyncFailure>?
        service.discover(address: url, credentials: credentials, settings: settings) { found = $0 }
        do { try SyncService.run(loop) { found != nil } } catch { throw OperationError(.ioError, error.description) }
        let discovered: DiscoveredAccount
        switch found! {
        case .success(let account): discovered = account
        // TRANSLATORS: nudge sync add: %1$s the address, %2$s why no calendars were found there.
        case .failure(let failure): throw OperationError(.unavailable, format(tr("cannot add %1$s: %2$s"), url.escapingControls, failure.description))
        }
        let existing = try world.run { try store.syncAccounts() }.first { $0.principal == discovered.principal && $0.user == (user ?? "") }
        let account = SyncAccount(id: existing?.id ?? String(format: "%08x", UInt32.random(in: 0...UInt32.max)), address: url, user: user ?? "",
                                  principal: discovered.principal, home: discovered.home, plainHTTP: insecureHTTP,
                                  authorityFile: settings.authorityFile, created: existing?.created ?? world.now)
        let before = try world.run { try store.syncCalendars(account: account.id) }
        var calendars = discovered.calendars.map { remote in
            let old = before.first { $0.url == remote.url }
            return SyncCalendar(url: remote.url, accountId: account.id, name: remote.name, components: remote.components.joined(separator: ","),
                                color: remote.color, writable: remote.writable, role: old?.role ?? .none, syncToken: old?.syncToken,
                                lastSynced: old?.lastSynced, lastError: old?.lastError, ringer: old?.ringer)
        }
        calendars = try SyncSupport.choose(calendars, own: own, follow: follow, stop: [])
        // Kept once everything given is known to be right: a refused choice (`--own Nope`)
        // leaves no password behind (a hostile pass found one no command could reach).
        if let credentials, let keyring {
            do { try keyring.store(credentials.password, for: .init(user: credentials.user, url: url)) } catch {
                throw OperationError(.unavailable, error.description)
            }
        }
        try world.run { try store.save(account: account, calendars: calendars) }
        SyncSupport.list(account, calendars)
        guard calendars.contains(where: { $0.role != .none }) else {
            // TRANSLATORS: nudge sync add when no calendar was chosen; %s is the account id. Keep the command as it is.
            print(format(tr("Choose what to sync: nudge sync choose %s --own NAME --follow NAME"), account.id))
            return
        }
        let reports = try SyncSupport.sync(account, credentials: credentials, store: store, world)
        let ok = SyncSupport.print(reports)
        SyncSupport.markSynced(reports, store: store, every: try world.run { try store.syncAccounts() }.count == 1)
        world.storeChanged()
        if !ok { throw ExitCode(ExitStatus.unavailable.rawValue) }
    }

    /// The password: stdin's first line, or asked for on the terminal without echo.
    func password(user: String, url: String) throws(OperationError) -> String {
        if passwordStdin {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                // TRANSLATORS: nudge sync add --password-stdin with nothing on stdin.
                throw OperationError(.usage, tr("--password-stdin: stdin gave no password"))
            }
            return line
        }
        guard isatty(0) == 1 else {
            // TRANSLATORS: nudge sync add with --user, no terminal and no --password-stdin.
            throw OperationError(.usage, tr("no terminal to ask for the password: give it with --password-stdin"))
        }
        // TRANSLATORS: nudge sync add's password question; %1$s is the user, %2$s the server's host.
        FileHandle.standardError.write(Data(format(tr("Password for %1$s on %2$s: "), user.escapingControls,
                                                   URLComponents(string: url)?.host ?? url).utf8))
        var modes = termios()
        tcgetattr(0, &modes)
        var silent = modes
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSAFLUSH, &silent)
        let line = readLine(strippingNewline: true)
        tcsetattr(0, TCSAFLUSH, &modes)
        FileHandle.standardError.write(Data("\n".utf8))
        guard let line, !line.isEmpty else {
            // TRANSLATORS: nudge sync add: the password question was answered with nothing.
            throw OperationError(.usage, tr("no password given"))
        }
        return line
    }
}

/// `nudge sync choose ID`.
struct SyncChoose: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "choose",
        abstract: "Choose the calendar for Nudge's reminders and the calendars that pop up here.",
        discussion: """
        Lists the account's calendars with what Nudge does with each, after applying the \
        options. A calendar no longer followed takes its reminders with it; Nudge's own \
        reminders stay here whatever is chosen. A calendar made on the server since the \
        account was added is found when it is named.
        """
    )

    @Argument(help: ArgumentHelp("The account's id (or a unique prefix); may be left out with one account.", valueName: "ID"))
    var id: String?

    @Option(help: ArgumentHelp("The calendar Nudge's own reminders go to.", valueName: "NAME"))
    var own: String?

    @Option(help: ArgumentHelp("A calendar whose alarms pop up here; repeat for more.", valueName: "NAME"))
    var follow: [String] = []

    @Option(help: ArgumentHelp("A calendar to stop syncing; repeat for more.", valueName: "NAME"))
    var stop: [String] = []

    @Option(help: ArgumentHelp("A followed calendar that the desktop rings too (GNOME's calendars): ring it here as well; repeat for more.",
                               valueName: "NAME"))
    var ring: [String] = []

    @Option(help: ArgumentHelp("A followed calendar to leave to the desktop when it rings it (the default); repeat for more.",
                               valueName: "NAME"))
    var leave: [String] = []

    func run() throws {
        let world = World.live
        let store = try SyncSupport.store(world)
        _ = try SyncSupport.lock(world)
        let account = try SyncSupport.account(id, in: store, world)
        var before = try world.run { try store.syncCalendars(account: account.id) }
        // A calendar named that the account does not know (made on the server since it was
        // added): the server is asked for its calendars.
        if ([own].compactMap { $0 } + follow + stop + ring + leave).contains(where: { name in !before.contains { SyncSupport.names($0, name) } }) {
            before = try SyncSupport.refresh(account, before, store: store, world)
        }
        let after = try SyncSupport.choose(before, own: own, follow: follow, stop: stop, ring: ring, leave: leave)
        try world.run {
            // A calendar no longer followed: its reminders go, and what was known of it.
            for (old, new) in zip(before, after) where old.role == new.role && old.ringer != new.ringer {
                try store.save(calendar: new)
            }
            for (old, new) in zip(before, after) where old.role != new.role {
                let objects = try store.syncObjects(calendar: old.url)
                // Nudge's reminders moved to another calendar: Nudge's objects in this one are
                // kept until the next sync deletes them there (else they would be in both);
                // other programs' objects here take their reminders with them, as a calendar
                // no longer followed does. Stopped without another: left there as they are.
                let moved = old.role == .own && after.contains { $0.role == .own && $0.url != old.url }
                let kept = moved ? objects.filter(SyncService.isNudges) : []
                let leaving = objects.filter { object in !kept.contains { $0.url == object.url } }
                let gone = old.role == .follow || moved ? leaving.compactMap { $0.alertId.flatMap(UUID.init(hexString:)) } : []
                var reset = new
                reset.syncToken = nil
                reset.agreedAt = nil
                try store.apply(calendar: old.url, objects: [], forget: leaving.map(\.url), save: [], delete: gone)
                try store.save(calendar: reset)
            }
        }
        SyncSupport.list(account, try world.run { try store.syncCalendars(account: account.id) })
        for (old, new) in zip(before, after) where old.role == .own && new.role != .own {
            if let now = after.first(where: { $0.role == .own }) {
                // TRANSLATORS: nudge sync choose: Nudge's reminders moved to another calendar; %1$s the old one, %2$s the new one.
                Swift.print(format(tr("Nudge's reminders move from %1$s to %2$s at the next sync: their copies in %1$s are deleted there, once each is as Nudge wrote it"),
                                   old.name.escapingControls, now.name.escapingControls))
            }
        }
        world.storeChanged()
    }
}

/// `nudge sync now`.
struct SyncNow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Sync every account now (or the one named).",
        discussion: """
        Exit status: 0; 69 when a calendar could not be synced (the server, the keyring) or an object \
        could not be written (it waits for the next sync); \
        what each calendar did is one line on stdout, each object that could not be taken \
        or written a line on stderr.
        """
    )

    @Argument(help: ArgumentHelp("An account's id (or a unique prefix).", valueName: "ID"))
    var id: String?

    /// The daemon's own syncs: none at all while another runs, and on stdout only
    /// `retry-after SECONDS` when a server asked to be left alone that long.
    @Flag(help: .hidden)
    var background = false

    @Flag(help: "Say, on stderr, each object that needed something and why (new here, changed there, changed on both sides…).")
    var verbose = false

    func run() throws {
        let (ok, retryAfter) = try Self.sync(World.live, id: id, background: background, verbose: verbose)
        // The daemon's own syncs tell it how long a server asked to be left alone.
        if background, let seconds = retryAfter { Swift.print("retry-after \(Int(seconds.rounded(.up)))") }
        if !ok { throw ExitCode(ExitStatus.unavailable.rawValue) }
    }

    /// Syncs every account (or `id`'s) once, `nudge sync now`'s work: whether every calendar
    /// synced, and the longest a failed server asked to be left alone (`Retry-After`). In
    /// the `background`, no sync at all while another runs (then `true`), and nothing said.
    static func sync(_ world: World, id: String?, background: Bool, verbose: Bool) throws -> (ok: Bool, retryAfter: Double?) {
        let store = try SyncSupport.store(world)
        guard let lock = try SyncSupport.lock(world, wait: !background) else { return (true, nil) }
        defer { close(lock) }
        let accounts = id == nil ? try world.run { try store.syncAccounts() } : [try SyncSupport.account(id, in: store, world)]
        // TRANSLATORS: nudge sync now with no account.
        guard !accounts.isEmpty else { throw OperationError(.usage, tr("no calendar account yet: add one with nudge sync add URL --user NAME")) }
        var ok = true
        var all: [CalendarReport] = []
        for account in accounts {
            let credentials: Credentials?
            do { credentials = try SyncSupport.credentials(for: account, world) } catch {
                // Said where the account's calendars are shown (`sync status`, doctor, the
                // window): a sync that cannot start failed them all.
                for var calendar in (try? store.syncCalendars(account: account.id)) ?? [] where calendar.role != .none {
                    calendar.lastError = error.message
                    try? store.save(calendar: calendar)
                }
                throw error
            }
            let reports = try SyncSupport.sync(account, credentials: credentials, store: store, world)
            all += reports
            if verbose { for report in reports { for line in report.details { SyncSupport.writeErr("  \(report.name.escapingControls): \(line.escapingControls)") } } }
            ok = (background ? reports.allSatisfy { $0.failure == nil && !$0.unsent } : SyncSupport.print(reports)) && ok
        }
        SyncSupport.markSynced(all, store: store, every: id == nil)
        world.storeChanged()
        // Alarms answered on another device: their pop-ups here close; snoozed there, they
        // ring here again when the snooze ends.
        var elsewhere: [UUID: Date] = [:], snoozed: [UUID: Date] = [:]
        for report in all {
            elsewhere.merge(report.answeredElsewhere) { max($0, $1) }
            snoozed.merge(report.snoozedElsewhere) { max($0, $1) }
        }
        try Answer.elsewhere(elsewhere, snoozed: snoozed, world, now: world.now)
        return (ok, all.filter { $0.failure != nil }.compactMap(\.retryAfter).max())
    }
}

/// `nudge sync status`.
struct SyncStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say, per calendar, when it last synced, what waits to be sent, the conflicts kept and the last error."
    )

    @Flag(help: "Print one JSON document.")
    var json = false

    func run() throws {
        let world = World.live
        let store = try world.store.forReading()
        let accounts = try world.run { try store.syncAccounts() }
        var documents: [JSON] = []
        if accounts.isEmpty && !json {
            // TRANSLATORS: nudge sync status with no account.
            print(tr("No calendar account yet: add one with nudge sync add URL --user NAME"))
            return
        }
        let alerts = try world.run { try store.alerts() }
        let origins = try world.run { try store.syncOrigins() }
        let desktop = DesktopRinging(environment: world.environment)
        for account in accounts {
            let calendars = try world.run { try store.syncCalendars(account: account.id) }
            if !json { SyncSupport.list(account, calendars, desktop: desktop) }
            var items: [JSON] = []
            for calendar in calendars where calendar.role != .none {
                let objects = try world.run { try store.syncObjects(calendar: calendar.url) }
                let waiting = calendar.role == .own ? SyncWaiting.count(objects: objects, alerts: alerts, origins: origins, zone: world.zone) : 0
                let conflicts = objects.flatMap { object in SyncConflicts.entries(object.conflict).map { (uid: object.uid, what: $0.what) } }
                if json {
                    items.append(.object([("name", .string(calendar.name)), ("url", .string(calendar.url)), ("role", .string(calendar.role.rawValue)),
                                          ("lastSynced", calendar.lastSynced.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null),
                                          ("waiting", .integer(Int64(waiting))), ("conflicts", .integer(Int64(conflicts.count))),
                                          ("objects", .integer(Int64(objects.count))),
                                          ("lastError", calendar.lastError.map(JSON.string) ?? .null),
                                          ("alsoRungBy", desktop.rings(calendar.url).map { .string($0.desktop) } ?? .null),
                                          ("ringsHere", .bool(calendar.role == .own || (calendar.role == .follow && desktop.leaves(calendar) == nil)))]))
                    continue
                }
                let when = calendar.lastSynced.map { Drinking.when($0, zone: world.zone, now: world.now) } ?? tr("never")
                // TRANSLATORS: nudge sync status, per calendar: %1$s its name, %2$s when it last synced, %3$d reminders waiting to be sent, %4$d conflicts kept.
                print("    " + format(tr("%1$s: last synced %2$s; %3$d waiting to be sent; %4$d conflicts kept"),
                                       calendar.name.escapingControls, when, waiting, conflicts.count))
                for conflict in conflicts {
                    let what = conflict.what
                    let line: String
                    switch what {
                    // TRANSLATORS: nudge sync status: a reminder deleted here was changed elsewhere meanwhile; %s names it.
                    case "deleted here": line = format(tr("%s: deleted here but changed on the server meanwhile; the change is kept on both sides"), conflict.uid.escapingControls)
                    // TRANSLATORS: nudge sync status: a reminder changed here was deleted on the server meanwhile; %s names it.
                    case "deleted there": line = format(tr("%s: deleted on the server but changed here meanwhile; it was sent back"), conflict.uid.escapingControls)
                    // TRANSLATORS: nudge sync status: a conflict kept; %1$s the object, %2$s the properties both sides changed.
                    default: line = format(tr("conflict in %1$s: %2$s changed on both sides; the server's kept, yours saved"), conflict.uid.escapingControls, what.escapingControls)
                    }
                    print("      " + line)
                }
                if let error = calendar.lastError {
                    // TRANSLATORS: nudge sync status: %s is the calendar's last error.
                    print("      " + format(tr("last error: %s"), error.escapingControls))
                }
            }
            documents.append(.object([("id", .string(account.id)), ("address", .string(account.address)), ("user", .string(account.user)),
                                      ("calendars", .array(items))]))
        }
        let completes = (try world.run { try store.settings() }[.completeTasks] ?? Setting.completeTasks.defaultValue) == Setting.on
        if json {
            print(JSON.object([("accounts", .array(documents)), ("completeTasks", .bool(completes))]).text)
            return
        }
        print(completes
              // TRANSLATORS: nudge sync status, last line: what Done on a reminder from a calendar's task does (the setting complete-tasks is on); keep the command as it is.
              ? tr("Done on a task's reminder completes the task on its calendar (nudge config complete-tasks off: only its alarm is answered)")
              // TRANSLATORS: nudge sync status, last line: what Done on a reminder from a calendar's task does (the setting complete-tasks is off); keep the command as it is.
              : tr("Done on a task's reminder answers its alarm and leaves the task open (nudge config complete-tasks on: completes it too)"))
    }
}

/// `nudge sync conflict [UID] [--dismiss]`.
struct SyncConflict: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflict",
        abstract: "Show the versions saved when both sides changed the same thing, or dismiss them.",
        discussion: """
            Without UID, lists the objects with conflicts kept. With it, prints the version of \
            each conflict saved here, as iCalendar (nudge import FILE takes it back); --dismiss \
            forgets them. Conflicts are kept until dismissed.
            """
    )

    @Argument(help: ArgumentHelp("The object's UID (or a unique prefix), as sync status names it.", valueName: "UID"))
    var uid: String?

    @Flag(help: "Forget the object's conflicts.")
    var dismiss = false

    func validate() throws {
        // TRANSLATORS: nudge sync conflict --dismiss without the object's UID.
        if dismiss, uid == nil { throw OperationError(.usage, tr("--dismiss needs the UID of the object (nudge sync conflict lists them)")) }
    }

    func run() throws {
        let world = World.live
        let store = try SyncSupport.store(world)
        var kept: [(calendar: String, object: SyncObject)] = []
        for calendar in try world.run({ try store.syncCalendars() }) {
            for object in try world.run({ try store.syncObjects(calendar: calendar.url) }) where object.conflict != nil {
                kept.append((calendar.url, object))
            }
        }
        guard let uid else {
            for (_, object) in kept {
                for entry in SyncConflicts.entries(object.conflict) { print("\(object.uid.escapingControls)\t\(entry.what.escapingControls)") }
            }
            return
        }
        let found = kept.filter { $0.object.uid == uid || $0.object.uid.hasPrefix(uid) }
        guard found.count == 1, let (calendar, object) = found.first else {
            // TRANSLATORS: nudge sync conflict: %s is a UID given that names no object with a conflict kept (or several).
            throw OperationError(.usage, format(found.isEmpty ? tr("no conflict kept for '%s' (nudge sync conflict lists them)")
                                                : tr("'%s' names more than one object: give more of its UID"), uid.escapingControls))
        }
        if dismiss {
            _ = try SyncSupport.lock(world)
            try world.run { try store.setConflict(calendar: calendar, url: object.url, nil) }
            // TRANSLATORS: nudge sync conflict --dismiss: %s is the object's UID.
            print(format(tr("Dismissed the conflicts of %s."), object.uid.escapingControls))
            return
        }
        for entry in SyncConflicts.entries(object.conflict) {
            // The version saved, as iCalendar text on stdout; which properties, on stderr.
            // TRANSLATORS: nudge sync conflict, on stderr before each version saved: %s names what both sides changed (VEVENT/SUMMARY).
            SyncSupport.writeErr(format(tr("saved when both sides changed %s:"), entry.what.escapingControls))
            print(entry.version, terminator: entry.version.hasSuffix("\n") ? "" : "\n")
        }
    }
}

/// `nudge sync remove ID`.
struct SyncRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove an account: its password from the keyring, the reminders its followed calendars brought.",
        discussion: "Nudge's own reminders stay here, and nothing is removed from the server."
    )

    @Argument(help: ArgumentHelp("The account's id (or a unique prefix).", valueName: "ID"))
    var id: String

    func run() throws {
        let world = World.live
        let store = try SyncSupport.store(world)
        _ = try SyncSupport.lock(world)
        let account = try SyncSupport.account(id, in: store, world)
        // The keyring's item goes unless another account signs in with it too.
        let others = try world.run { try store.syncAccounts() }.filter { $0.id != account.id }
        let key = SecretService.Key(user: account.user, url: account.address)
        if !account.user.isEmpty, !others.contains(where: { SecretService.Key(user: $0.user, url: $0.address).sameItem(as: key) }) {
            let keyring = try SyncSupport.secrets(world)
            do { try keyring.remove(for: .init(user: account.user, url: account.address)) } catch {
                throw OperationError(.unavailable, error.description)
            }
        }
        try world.run { try store.remove(account: account.id) }
        world.storeChanged()
        // TRANSLATORS: nudge sync remove: %1$s the account id, %2$s its address.
        print(format(tr("Removed account %1$s (%2$s)."), account.id, account.address.escapingControls))
    }
}
