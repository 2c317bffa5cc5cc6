#if canImport(Glibc)
import Glibc
#endif
import CAdwaita
import NudgeKit

/// The GTK side of the program: an AdwApplication with the desktop entry's id (so the
/// desktop matches the window to Nudge's entry and icon), marked non-unique: GApplication
/// would otherwise take the id as a bus name, and that name is the daemon's. Uniqueness is
/// ``WindowInstance``'s. Closing the window ends the program; the daemon keeps firing.
@MainActor final class WindowApplication {
    private let application: UnsafeMutablePointer<AdwApplication>
    private let host = HostedLoop()
    private let world: World
    private let instance: WindowInstance
    private var window: MainWindow?
    private var show: String?
    private var search: String?

    init(world: World, instance: WindowInstance, show: String?, search: String?) {
        self.world = world
        self.instance = instance
        self.show = show
        self.search = search
        application = adw_application_new(Notification.appID, G_APPLICATION_NON_UNIQUE)
        g_set_application_name("Nudge")
        on(application, "activate") { [unowned self] in activate() }
        // Ctrl+Q ends the program, as closing its window does; the daemon goes on reminding.
        Action("quit") { [unowned self] in
            let gtkApplication = UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self)
            // Its windows go as the close button takes them; with none left, g_application_run returns (0).
            var open: [Widget] = []
            var node = gtk_application_get_windows(gtkApplication)
            while let item = node {
                if let data = item.pointee.data { open.append(data.assumingMemoryBound(to: GtkWidget.self)) }
                node = item.pointee.next
            }
            open.forEach { $0.destroy() }
        }.add(to: UnsafeMutableRawPointer(application))
        Action.setKey("<Control>q", for: "app.quit", in: application)
    }

    func run() -> Int32 {
        host.attach()
        instance.serve({ [unowned self] id in
            MainActor.assumeIsolated {
                show = id
                activate()
            }
        }, search: { [unowned self] text in
            MainActor.assumeIsolated {
                search = text
                activate()
            }
        })
        // GApplication parses no arguments of ours: only the program's name is passed.
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("nudge-window"), nil]
        defer { free(argv[0]) }
        let status = g_application_run(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self), 1, &argv)
        host.detach()
        return status
    }

    private func activate() {
        if window == nil {
            if !AdwaitaGeneration.toastAnimationsOverlapSafely { turnOffAnimations() }
            window = MainWindow(application: application, host: host, world: world, instance: instance)
        }
        window?.present(at: show, searching: search)
        show = nil
        search = nil
    }
}
