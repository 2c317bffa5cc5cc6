#if canImport(Glibc)
import Glibc
#endif
import CAdwaita
import NudgeKit

// nudge-window: Nudge's window, for people who never open a terminal. Its own program, so
// `nudge` itself never loads GTK. It calls the operations every face shares (NudgeKit)
// and the daemon's bus API; nothing else of the command line.

/// --help, in the person's language: the usage line, what it does, the options.
func usage() -> String {
    // TRANSLATORS: nudge-window --help: the usage line (the options' names stay as they are).
    let lines = [tr("Usage: nudge-window [--show ID | --search TEXT]"), "",
                 // TRANSLATORS: nudge-window --help: what the program does.
                 tr("Opens Nudge's window: every reminder with its switch, what waits for an answer, and the day's water. Started again, it raises the window already open."), "",
                 // TRANSLATORS: nudge-window --help: the --show option.
                 "  --show ID        " + tr("open the window at this reminder (a pop-up's body click does this)"),
                 // TRANSLATORS: nudge-window --help: the --search option.
                 "  --search TEXT    " + tr("open the window searching for TEXT (the desktop's search does this)"),
                 // TRANSLATORS: nudge-window --help: the --version option.
                 "  --version        " + tr("print the version and exit"),
                 // TRANSLATORS: nudge-window --help: the --help option.
                 "  -h, --help       " + tr("print this help and exit")]
    return lines.joined(separator: "\n")
}

var showID: String?
var searchText: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage())
        exit(0)
    case "--version":
        print("nudge-window \(NudgeService.version)")
        exit(0)
    case "--show":
        guard let id = arguments.popFirst(), !id.isEmpty else {
            // TRANSLATORS: nudge-window --show without an id.
            writeError(tr("nudge-window: --show needs a reminder's id") + "\n")
            exit(64)
        }
        showID = id
    case "--search":
        guard let text = arguments.popFirst() else {
            // TRANSLATORS: nudge-window --search without the words to search for.
            writeError(tr("nudge-window: --search needs the words to search for") + "\n")
            exit(64)
        }
        searchText = text
    default:
        // TRANSLATORS: nudge-window with an argument it does not know; %s is the argument.
        writeError(format(tr("nudge-window: unknown argument %s (see --help)"), argument.escapingControls) + "\n")
        exit(64)
    }
}

// One window per session: a second start hands its request to the first and ends.
let world = World.live
let instance = WindowInstance(world)
if instance.forward(show: showID, search: searchText) { exit(0) }

// GTK's own failure is a warning and exit 1; ours is one line and 69, as everywhere.
guard gtk_init_check() != 0 else {
    // TRANSLATORS: nudge-window started where there is no display (no desktop session).
    writeError(tr("nudge-window: cannot open a display (run it in a desktop session; DISPLAY or WAYLAND_DISPLAY says where)") + "\n")
    exit(69)
}

WindowResources.register()

MainActor.assumeIsolated {
    let application = WindowApplication(world: world, instance: instance, show: showID, search: searchText)
    exit(application.run())
}
