#if canImport(Glibc)
import Glibc
#endif
import CLinux
import NudgeCore

/// Nudge's messages in the person's language, through GNU gettext (glibc's libintl), text
/// domain `nudge`. The language is gettext's choice: `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`,
/// `LANG`; glibc translates only when the C library accepts that locale (`locale -a`), and
/// English is what is left whenever anything is missing: no locale, no catalog, a damaged
/// one. A catalog is input Nudge did not write, which glibc maps and trusts: every file glibc
/// could open for this process is checked first (``MessageCatalogFile``), and one that fails
/// leaves the domain unbound. Machine output (`--json`, D-Bus names, action keys) never goes
/// through here.
///
/// Messages are marked for `scripts/update-pot` by the calls `tr("…")`, `trn("…", "…", n)`
/// and, for sentences kept until they are shown, `Phrase("…", …)` (xgettext's keywords).
public final class Catalog: Sendable {
    /// The gettext domain, and the catalogs' file name (`nudge.mo`).
    public static let domain = "nudge"

    /// The process's catalog: the messages locale set from the environment and the domain
    /// bound to the catalogs beside the running binary, on first use.
    public static let shared = Catalog()

    /// Where the catalogs are: `PREFIX/share/locale` beside an installed binary, or the
    /// build tree's `.build/locale`; `nil` when neither exists (English).
    public let folder: String?
    /// Whether the C library took the person's messages locale (`setlocale`); without it
    /// glibc translates nothing.
    public let localeAccepted: Bool
    /// The catalog that kept Nudge in English, "PATH: reason", when a file glibc could have
    /// opened for the person's languages is not a sound catalog; `nil` otherwise.
    public let damagedCatalog: String?
    /// The first sound catalog glibc opens for the person's languages; `nil` when there is
    /// none (English, the messages' own language, needs none).
    public let catalogFile: String?
    /// A catalog glibc would have opened but cannot ("PATH: reason": permission denied, a
    /// dangling link), so that doctor can say why Nudge speaks English.
    public let unreadableCatalog: String?
    /// The languages looked for, in glibc's order (empty in the C locale).
    public let languages: [String]
    /// Whether the domain is bound: a folder found, and no damaged catalog in it. Unbound,
    /// glibc would look in its own default folder, so nothing is asked of it at all.
    private let translates: Bool

    private init() {
        let accepted = setlocale(LC_MESSAGES, "") != nil
        localeAccepted = accepted
        // The C library's own messages (strerror's reasons, inside ours) follow LC_MESSAGES
        // from here on, and would come in LC_CTYPE's codeset, which stays C's: ASCII, every
        // Korean letter a '?'. UTF-8, as ours.
        bind_textdomain_codeset("libc", "UTF-8")
        let found = Self.catalogFolder(executable: Self.ownPath())
        folder = found
        var damage: String? = nil, scan = Scan()
        if let found, accepted, let locale = setlocale(LC_MESSAGES, nil) {
            let names = Self.languageNames(locale: String(cString: locale), language: getenv("LANGUAGE").map { String(cString: $0) })
            scan = Self.scan(folder: found, names: names)
            damage = scan.damaged
        }
        languages = scan.languages
        catalogFile = scan.sound
        unreadableCatalog = scan.unreadable
        damagedCatalog = damage
        translates = found != nil && damage == nil
        if let found, damage == nil {
            bindtextdomain(Self.domain, found)
            bind_textdomain_codeset(Self.domain, "UTF-8")
        }
    }

    /// The translation of a message, or the message itself.
    public func tr(_ message: String) -> String {
        guard translates else { return message }
        // Untranslated, dgettext returns the pointer it was given: a buffer that lives only
        // inside withCString. Read it there, or not at all.
        return message.withCString { msgid in
            guard let translated = dgettext(Self.domain, msgid), UnsafePointer(translated) != msgid else { return message }
            return String(cString: translated)
        }
    }

    /// The form of a message for `count` by the language's plural rule (English: one,
    /// other).
    public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
        let english = count == 1 ? singular : plural
        guard translates else { return english }
        return singular.withCString { one in
            plural.withCString { other in
                guard let translated = dngettext(Self.domain, one, other, UInt(clamping: count)),
                      UnsafePointer(translated) != one, UnsafePointer(translated) != other else { return english }
                return String(cString: translated)
            }
        }
    }

    /// The person's language, looked up in this catalog.
    public var language: Language {
        Language(tr: { [self] in tr($0) }, trn: { [self] in trn($0, $1, $2) })
    }

    /// `../share/locale` from the binary's folder (installed), else `.build/locale` above
    /// the build folder (`.build/<triple>/debug/nudge`: tests and `make demo`).
    static func catalogFolder(executable: String?) -> String? {
        guard let executable, let slash = executable.lastIndex(of: "/") else { return nil }
        let folder = String(executable[..<slash])
        for candidate in [folder + "/../share/locale", folder + "/../../locale"] {
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return candidate }
        }
        return nil
    }

    /// The locale names glibc looks for catalogs under, in its order (intl/dcigettext.c):
    /// none in the C locale, where `LANGUAGE` is ignored too; else `LANGUAGE`'s list when it is
    /// set and not empty, else the messages locale's name; the list ends at "C" or "POSIX".
    /// glibc 2.39 and later also treat "C.<codeset>" as C; older ones do not, so such a name
    /// is looked under here, which costs a few failed opens at most.
    static func languageNames(locale: String, language: String?) -> [String] {
        guard locale != "C", locale != "POSIX" else { return [] }
        var names: [String] = []
        let list = if let language, !language.isEmpty { language } else { locale }
        for name in list.split(separator: ":") {
            if name == "C" || name == "POSIX" { break }
            names.append(String(name))
        }
        return names
    }

    /// The catalog files glibc tries for one locale name `language[_territory][.codeset][@modifier]`
    /// (intl/explodename.c, `_nl_make_l10nflist` in intl/l10nflist.c), most specific first:
    /// every combination of the parts present, counted down with the modifier as the highest
    /// bit, then the territory, the codeset, and the normalized codeset (letters lowercased,
    /// digits kept, the rest dropped, "iso" before digits alone: "UTF-8" is "utf8"), never
    /// both codesets at once. "ko_KR.UTF-8" gives ko_KR.UTF-8, ko_KR.utf8, ko_KR, ko.UTF-8,
    /// ko.utf8, ko. A name without a language part is taken whole. glibc may open every one
    /// of them: a message missing from one catalog is looked for in the next.
    static func catalogCandidates(folder: String, locale name: String) -> [String] {
        let bytes = Array(name.utf8)
        func text(_ part: ArraySlice<UInt8>) -> String { String(decoding: part, as: UTF8.self) }
        func end(from start: Int, before stops: [UInt8]) -> Int {
            bytes[start...].firstIndex { stops.contains($0) } ?? bytes.count
        }
        let (underscore, dot, at) = (UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "@"))
        let languageEnd = end(from: 0, before: [underscore, dot, at])
        guard languageEnd > 0 else { return [folder + "/" + name + "/LC_MESSAGES/" + domain + ".mo"] }
        // The parts present, as glibc's mask bits: 8 modifier, 4 territory, 2 codeset,
        // 1 normalized codeset. An empty part counts as absent.
        var parts: [Int: String] = [:]
        var cursor = languageEnd
        if cursor < bytes.count, bytes[cursor] == underscore {
            let stop = end(from: cursor + 1, before: [dot, at])
            if stop > cursor + 1 { parts[4] = "_" + text(bytes[(cursor + 1)..<stop]) }
            cursor = stop
        }
        if cursor < bytes.count, bytes[cursor] == dot {
            let stop = end(from: cursor + 1, before: [at])
            let codeset = bytes[(cursor + 1)..<stop]
            if !codeset.isEmpty {
                parts[2] = "." + text(codeset)
                let kept = codeset.filter { (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) }
                let normalized = (kept.allSatisfy { (0x30...0x39).contains($0) } ? "iso" : "") + text(kept[...]).lowercased()
                if normalized != text(codeset) { parts[1] = "." + normalized }
            }
            cursor = stop
        }
        if cursor < bytes.count, bytes[cursor] == at, cursor + 1 < bytes.count {
            parts[8] = "@" + text(bytes[(cursor + 1)...])
        }
        let mask = parts.keys.reduce(0, |)
        var paths: [String] = []
        for combination in stride(from: mask, through: 0, by: -1) where combination & ~mask == 0 && combination & 3 != 3 {
            var folderName = text(bytes[..<languageEnd])
            for bit in [4, 2, 1, 8] where combination & bit != 0 { folderName += parts[bit] ?? "" }
            paths.append(folder + "/" + folderName + "/LC_MESSAGES/" + domain + ".mo")
        }
        return paths
    }

    /// glibc's locale aliases file (`LOCALE_ALIAS_PATH`, glibc's localedir): a name listed
    /// there is replaced by its value before glibc looks for catalogs ("korean" is
    /// "ko_KR.eucKR", which leads to `ko/`), so the check must follow it too.
    static let aliasFile = "/usr/share/locale/locale.alias"

    /// The value of `name` in a locale.alias text (intl/localealias.c): lines of "alias value",
    /// "#" comments, names compared without case; the first line for a name wins.
    static func alias(of name: String, in table: [UInt8]) -> String? {
        let wanted = Array(name.lowercased().utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0d).contains(byte) }
        for line in table.split(separator: UInt8(ascii: "\n")) {
            let words = line.split(whereSeparator: isSpace)
            guard words.count >= 2, words[0].first != UInt8(ascii: "#") else { continue }
            if words[0].map({ (0x41...0x5a).contains($0) ? $0 + 0x20 : $0 }) == wanted {
                return String(decoding: words[1], as: UTF8.self)
            }
        }
        return nil
    }

    /// The first of the files glibc could open for `names` that is not a sound catalog, as
    /// "PATH: reason"; `nil` when all that exist are sound. A file that cannot be opened is
    /// skipped, as glibc skips it.
    static func damagedCatalog(folder: String, names: [String]) -> String? { scan(folder: folder, names: names).damaged }

    /// What a look at every catalog glibc could open found.
    struct Scan {
        var languages: [String] = []
        /// The first damaged one, "PATH: reason".
        var damaged: String?
        /// The first sound one's path.
        var sound: String?
        /// The first one there but not to be opened, "PATH: reason".
        var unreadable: String?
    }

    static func scan(folder: String, names: [String]) -> Scan {
        var scan = Scan(languages: names)
        guard !names.isEmpty else { return scan }
        var aliases: [UInt8] = []
        if case .bytes(let table) = fileBytes(aliasFile, limit: 1 << 20) { aliases = table }
        var seen: Set<String> = []
        for name in names {
            for path in catalogCandidates(folder: folder, locale: alias(of: name, in: aliases) ?? name) where seen.insert(path).inserted {
                switch fileBytes(path, limit: catalogLimit) {
                case .missing(let reason):
                    if scan.unreadable == nil, let reason { scan.unreadable = path + ": " + reason }
                case .unusable(let reason):
                    scan.damaged = path + ": " + reason
                    return scan
                case .bytes(let bytes):
                    do { _ = try MessageCatalogFile.read(bytes) } catch {
                        scan.damaged = path + ": " + error.reason
                        return scan
                    }
                    if scan.sound == nil { scan.sound = path }
                }
            }
        }
        return scan
    }

    /// More than any catalog of Nudge's will be (the Korean one is 64 KB): a bigger file is
    /// refused rather than read whole at every start.
    static let catalogLimit = 16 << 20

    /// What `open` and `read` found at a path.
    enum FileBytes: Equatable {
        /// It cannot be opened: glibc skips such a file too. The reason when something is
        /// there (permission denied, a dangling link, a loop), `nil` when nothing is.
        case missing(String?)
        /// It can be opened but is not a file to read: a folder, a FIFO, too big, a read error.
        case unusable(String)
        /// Its contents.
        case bytes([UInt8])
    }

    /// A file's contents through the C library (Localization does without Foundation).
    /// O_NONBLOCK, so that a FIFO put there cannot hold the start up.
    static func fileBytes(_ path: String, limit: Int) -> FileBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            var info = stat()
            // A name that is there (a link, a file not ours to read) is worth saying.
            guard code != ENOENT || lstat(path, &info) == 0 else { return .missing(nil) }
            return .missing(String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .unusable("cannot be examined (errno \(errno))") }
        guard info.st_mode & S_IFMT == S_IFREG else { return .unusable("is not a regular file") }
        guard info.st_size <= limit else { return .unusable("is \(info.st_size) bytes, more than a catalog can be (\(limit) bytes)") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return n == 0 ? .unusable("became shorter while being read") : .unusable("cannot be read (errno \(errno))") }
            done += n
        }
        return .bytes(bytes)
    }

    /// The running binary's real path (`/proc/self/exe`).
    static func ownPath() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBufferPointer { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
        return n > 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : nil
    }
}

/// The translation of a message in the process's catalog (``Catalog/shared``).
public func tr(_ message: String) -> String { Catalog.shared.tr(message) }

/// The form of a message for `count` in the process's catalog.
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    Catalog.shared.trn(singular, plural, count)
}
