/// How a Nudge program ends, as a process exit status: the sysexits codes every command
/// and the daemon use, defined once.
public enum ExitStatus: Int32, Sendable, Equatable {
    /// It did what was asked (EX_OK).
    case success = 0
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// Data in a file cannot be read: a calendar, a row of the store (EX_DATAERR).
    case dataError = 65
    /// The bus or a service is not there, or another daemon runs (EX_UNAVAILABLE).
    case unavailable = 69
    /// Reading or writing failed (EX_IOERR).
    case ioError = 74
}
