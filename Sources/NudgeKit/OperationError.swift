import NudgeCore
import Localization
import Platform

/// Why an operation did not happen: one line for the person (in their language) and the
/// sysexits status the command line ends with. Every face shows the same line.
public struct OperationError: Error, CustomStringConvertible {
    /// How a command that failed this way ends.
    public var code: ExitStatus
    /// What was wrong, in one line.
    public var message: String
    /// A call the daemon has not answered yet (stopped or busy): it takes it when it goes
    /// on, and the answer, when it comes, is said then.
    public var notAnsweredYet = false
    /// What the daemon refused, by its interface's error: a face says it in its own words.
    public var refusal: DaemonRefusal?

    /// A refusal of the daemon's interface (`io.github.nudge.Nudge1.Error.…`).
    public enum DaemonRefusal: String, Sendable {
        /// It holds no alert with the id it was asked about: removed meanwhile.
        case unknownAlert = "UnknownAlert"
        /// The alert is off: it takes no snooze.
        case alertOff = "AlertOff"
    }

    /// A failure with its status and line.
    public init(_ code: ExitStatus, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The line for the person: ``message``.
    public var description: String { message }

    /// Every delivery failure means the service is not usable now.
    public init(_ error: DeliveryError) {
        self.init(.unavailable, error.phrase.text(Catalog.shared.language))
    }

    /// A file named with `-o` or `--svg` that was not written.
    public init(writing file: String, _ error: FileOutputError) {
        // TRANSLATORS: %1$s is a file's path, %2$s why it was not written.
        let template = tr("cannot write %1$s: %2$s")
        // After tr: the catalog has set the language the system's reasons come in.
        let reason = switch error {
        case .system(let error): error.reason
        // TRANSLATORS: why a file was not written: %1$s is its folder, %2$s the system's reason.
        case .folder(let folder, let error): format(tr("no file can be made in its folder %1$s (%2$s)"), folder, error.reason)
        // TRANSLATORS: why a file was not written: %s is a kernel file system's name (proc, sysfs).
        case .kernelFile(let name): format(tr("it is in the kernel's %s file system, not a place to save a file"), name)
        }
        // The path as given, on one line, and visible when empty.
        let name = file.isEmpty ? "''" : file.escapingControls
        self.init(.ioError, format(template, name, reason))
    }
}

extension OperationError {
    /// A bad schedule token is a usage error.
    public init(_ error: ScheduleError) {
        self.init(.usage, error.phrase.text(Catalog.shared.language))
    }
}
