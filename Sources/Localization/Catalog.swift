#if canImport(Glibc)
import Glibc
#endif
import CLinux
import NudgeCore

/// Nudge's messages in the person's language, through GNU gettext (glibc's libintl), text
/// domain `nudge`. The language is gettext's choice: `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`,
/// `LANG`; glibc translates only when the C library accepts that locale (`locale -a`), and
/// English is what is left whenever anything is missing: no locale, no catalog, a damaged
/// one. Machine output (`--json`, D-Bus names, action keys) never goes through here.
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

    private init() {
        localeAccepted = setlocale(LC_MESSAGES, "") != nil
        // The C library's own messages (strerror's reasons, inside ours) follow LC_MESSAGES
        // from here on, and would come in LC_CTYPE's codeset, which stays C's: ASCII, every
        // Korean letter a '?'. UTF-8, as ours.
        bind_textdomain_codeset("libc", "UTF-8")
        folder = Self.catalogFolder(executable: Self.ownPath())
        if let folder {
            bindtextdomain(Self.domain, folder)
            bind_textdomain_codeset(Self.domain, "UTF-8")
        }
    }

    /// The translation of a message, or the message itself.
    public func tr(_ message: String) -> String {
        guard folder != nil else { return message }
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
        guard folder != nil else { return english }
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
