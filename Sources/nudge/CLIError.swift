import ArgumentParser
import NudgeCore
import Localization

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
}
