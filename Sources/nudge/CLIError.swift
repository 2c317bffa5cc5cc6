import ArgumentParser
import NudgeCore
import Localization
import Platform

/// A failure the CLI reports as one line on stderr and a sysexits code.
struct CLIError: Error, CustomStringConvertible {
    /// sysexits codes the CLI uses.
    enum Code: Int32 {
        /// EX_USAGE: the command line was wrong.
        case usage = 64
        /// EX_DATAERR: data in a file (a row of the store) cannot be read.
        case dataError = 65
        /// EX_UNAVAILABLE: the bus or a service is not there.
        case unavailable = 69
        /// EX_IOERR: reading or writing failed.
        case ioError = 74
    }

    var code: Code
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }

    /// Every delivery failure means the service is not usable now.
    init(_ error: DeliveryError) {
        self.init(.unavailable, error.phrase.text(Catalog.shared.wording))
    }

    /// A file named with `-o` or `--svg` that was not written.
    init(writing file: String, _ error: FileOutputError) {
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
