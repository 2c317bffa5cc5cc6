#if canImport(Glibc)
import Glibc
#endif

/// The process environment and everything Nudge takes from it, in one place: the XDG
/// folders (relative values ignored, as the XDG spec says), the session bus's address,
/// the locale, whether to use colour, the time zone. Read from `environ` without
/// Foundation; a test builds one from a dictionary literal.
public struct Environment: Sendable, ExpressibleByDictionaryLiteral {
    /// The variables given, or nil for the process's own, read by name when asked: a
    /// dictionary of every variable cost `nudge send` 4 % of its run, for the two it reads.
    private let given: [String: String]?

    public init(_ variables: [String: String]) { given = variables }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { $1 }))
    }

    private init(process: Void) { given = nil }

    /// The process's environment (no program here changes its own).
    public static var current: Environment { Environment(process: ()) }

    /// A variable's value as set, empty or not.
    private func raw(_ name: String) -> String? {
        if let given { return given[name] }
        return getenv(name).map { String(cString: $0) }
    }

    /// A variable's value; an empty one counts as unset.
    public subscript(name: String) -> String? {
        guard let value = raw(name), !value.isEmpty else { return nil }
        return value
    }

    // MARK: Folders

    /// `HOME`, else the password database's home folder.
    public var home: String {
        if let home = self["HOME"] { return home }
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return "/" }
        return String(cString: dir)
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public var dataHome: String { absolute("XDG_DATA_HOME") ?? home + "/.local/share" }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public var configHome: String { absolute("XDG_CONFIG_HOME") ?? home + "/.config" }

    /// `$XDG_DATA_DIRS` (absolute entries), else `/usr/local/share` and `/usr/share`.
    public var dataDirs: [String] { absoluteList("XDG_DATA_DIRS") ?? ["/usr/local/share", "/usr/share"] }

    /// `$XDG_CONFIG_DIRS` (absolute entries), else `/etc/xdg`.
    public var configDirs: [String] { absoluteList("XDG_CONFIG_DIRS") ?? ["/etc/xdg"] }

    /// The folders `PATH` names.
    public var searchPath: [String] {
        (self["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    private func absolute(_ name: String) -> String? {
        self[name].flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    private func absoluteList(_ name: String) -> [String]? {
        let list = (self[name] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return list.isEmpty ? nil : list
    }

    // MARK: The session

    /// The session bus's address: the bus that started us by activation
    /// (`DBUS_STARTER_ADDRESS` with `DBUS_STARTER_BUS_TYPE=session`), else
    /// `DBUS_SESSION_BUS_ADDRESS`, else the systemd user bus socket `$XDG_RUNTIME_DIR/bus`
    /// when it exists. `nil` when there is none: never an autolaunched bus of our own.
    public var sessionBusAddress: String? {
        if self["DBUS_STARTER_BUS_TYPE"] == "session", let address = self["DBUS_STARTER_ADDRESS"] { return address }
        if let address = self["DBUS_SESSION_BUS_ADDRESS"] { return address }
        guard let runtime = self["XDG_RUNTIME_DIR"] else { return nil }
        var info = stat()
        guard stat(runtime + "/bus", &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=\(runtime)/bus"
    }

    /// The system bus's address: `DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket
    /// `/run/dbus/system_bus_socket` when it exists; `nil` when there is none.
    public var systemBusAddress: String? {
        if let address = self["DBUS_SYSTEM_BUS_ADDRESS"] { return address }
        var info = stat()
        guard stat("/run/dbus/system_bus_socket", &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    /// The login session this process belongs to (`XDG_SESSION_ID`), as logind names it.
    public var loginSession: String? { self["XDG_SESSION_ID"] }

    /// The desktops `XDG_CURRENT_DESKTOP` names (`GNOME`, `KDE`, `XFCE`…).
    public var currentDesktops: [String] {
        (self["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map(String.init)
    }

    // MARK: Language and look

    /// The locale of a category as POSIX picks it (`LC_ALL`, then the category, then
    /// `LANG`), without codeset or modifier (`ko_KR`); `nil` for C and POSIX.
    public func locale(_ category: String) -> String? {
        let raw = localeSetting(category) ?? "C"
        let name = String(raw.prefix { $0 != "." && $0 != "@" })
        return name == "C" || name == "POSIX" || name.isEmpty ? nil : name
    }

    /// The locale of a category as ``locale(_:)`` names it, when the C library has that
    /// locale (`newlocale` takes the setting as written: it is in `locale -a`); `nil` for C
    /// and POSIX and for a locale this machine lacks, whose formats Foundation would
    /// otherwise make up from its own data (`M11 24, Tue` for `xx_YY`), where glibc, and so
    /// everything else on the machine, writes C's.
    public func installedLocale(_ category: String) -> String? {
        guard let name = locale(category), let setting = localeSetting(category) else { return nil }
        let mask = switch category {
        case "LC_TIME": LC_TIME_MASK
        case "LC_MESSAGES": LC_MESSAGES_MASK
        // A locale is installed whole: any other category asks as LC_CTYPE does.
        default: LC_CTYPE_MASK
        }
        guard let handle = newlocale(mask, setting, nil) else { return nil }
        freelocale(handle)
        return name
    }

    /// The locale a category is set to, as written (`ko_KR.UTF-8`): `LC_ALL`, then the
    /// category, then `LANG`; `nil` when none is set.
    public func localeSetting(_ category: String) -> String? {
        ["LC_ALL", category, "LANG"].lazy.compactMap { self[$0] }.first
    }

    /// Whether colour is welcome on a terminal: no `NO_COLOR` (no-color.org) and a
    /// terminal that is not `dumb`.
    public var allowsColour: Bool { self["NO_COLOR"] == nil && raw("TERM") != "dumb" }

    // MARK: Time

    /// `TZ` exactly as set (an empty value means UTC to the C library); `nil` when unset.
    public var timeZone: String? { raw("TZ") }

    /// Where zone files live: `TZDIR` when absolute, else `/usr/share/zoneinfo`.
    public var zoneFolder: String { absolute("TZDIR") ?? "/usr/share/zoneinfo" }
}
