#if canImport(Glibc)
import Glibc
#endif
import CAdwaita
import NudgeKit

/// Nudge's ``EventLoop`` run inside GLib's main loop, as one GSource: the window keeps the
/// loop every other face uses (the store's folder through inotify, the session bus, timers)
/// while GTK owns the thread. Each GLib iteration asks the loop what to wait for (its
/// descriptors as GPollFDs, its earliest timer as the timeout), and hands back what poll
/// said; GLib never polls on its own behalf for it, so an idle window costs no wake-ups.
final class HostedLoop {
    let loop = EventLoop()
    private var source: UnsafeMutablePointer<GSource>?
    /// The turn being waited for, and its descriptors as GLib polls them.
    private var wait: EventLoop.Wait?
    private var polled: [UnsafeMutablePointer<GPollFD>] = []
    /// When the turn's timeout ends, in g_get_monotonic_time's microseconds; `nil`: never.
    private var wakeAt: Int?

    nonisolated(unsafe) private static let functions: UnsafeMutablePointer<GSourceFuncs> = {
        let functions = UnsafeMutablePointer<GSourceFuncs>.allocate(capacity: 1)
        functions.initialize(to: GSourceFuncs(
            prepare: { source, timeout in HostedLoop.owner(source).prepare(timeout) },
            check: { source in HostedLoop.owner(source).check() },
            dispatch: { source, _, _ in HostedLoop.owner(source).dispatch() },
            finalize: nil, closure_callback: nil, closure_marshal: nil))
        return functions
    }()

    private static func owner(_ source: UnsafeMutablePointer<GSource>?) -> HostedLoop {
        Unmanaged<HostedLoop>.fromOpaque(nudge_hosted_source_owner(source)).takeUnretainedValue()
    }

    /// Attaches the loop to GLib's default main context; it runs until ``detach()``.
    func attach() {
        let source = nudge_hosted_source_new(Self.functions, Unmanaged.passUnretained(self).toOpaque())!
        g_source_attach(source, nil)
        self.source = source
    }

    func detach() {
        guard let source else { return }
        clearPolls()
        g_source_destroy(source)
        g_source_unref(source)
        self.source = nil
    }

    private func clearPolls() {
        for fd in polled {
            g_source_remove_poll(source, fd)
            fd.deallocate()
        }
        polled = []
    }

    private func prepare(_ timeout: UnsafeMutablePointer<gint>?) -> gboolean {
        wait = loop.prepare()
        guard let wait else {
            clearPolls()
            timeout?.pointee = -1
            return 0
        }
        // The same descriptors as last turn stay as they are: adding or removing a poll
        // wakes GLib's context at once, so redoing them every turn would never sleep.
        let wanted = wait.descriptors.map { descriptor -> (Int32, UInt16) in
            var events: UInt16 = 0
            if descriptor.events & Int16(POLLIN) != 0 { events |= UInt16(G_IO_IN.rawValue) }
            if descriptor.events & Int16(POLLOUT) != 0 { events |= UInt16(G_IO_OUT.rawValue) }
            return (descriptor.fd, events | UInt16(G_IO_ERR.rawValue | G_IO_HUP.rawValue))
        }
        let same = wanted.count == polled.count
            && zip(wanted, polled).allSatisfy { $0.0 == $1.pointee.fd && $0.1 == $1.pointee.events }
        if !same {
            clearPolls()
            for (descriptor, events) in wanted {
                let fd = UnsafeMutablePointer<GPollFD>.allocate(capacity: 1)
                fd.initialize(to: GPollFD(fd: descriptor, events: events, revents: 0))
                g_source_add_poll(source, fd)
                polled.append(fd)
            }
        }
        wakeAt = wait.timeout < 0 ? nil : g_get_monotonic_time() + Int(wait.timeout) * 1000
        timeout?.pointee = wait.timeout
        return wait.timeout == 0 ? 1 : 0
    }

    private func check() -> gboolean {
        if polled.contains(where: { $0.pointee.revents != 0 }) { return 1 }
        if let wakeAt, g_get_monotonic_time() >= wakeAt { return 1 }
        return 0
    }

    private func dispatch() -> gboolean {
        guard var wait else { return 1 }
        for (index, fd) in polled.enumerated() where index < wait.descriptors.count {
            var revents: Int16 = 0
            let got = UInt32(fd.pointee.revents)
            if got & G_IO_IN.rawValue != 0 { revents |= Int16(POLLIN) }
            if got & G_IO_OUT.rawValue != 0 { revents |= Int16(POLLOUT) }
            if got & G_IO_ERR.rawValue != 0 { revents |= Int16(POLLERR) }
            if got & G_IO_HUP.rawValue != 0 { revents |= Int16(POLLHUP) }
            if got & G_IO_NVAL.rawValue != 0 { revents |= Int16(POLLNVAL) }
            wait.descriptors[index].revents = revents
        }
        self.wait = nil
        loop.dispatch(wait)
        return 1
    }
}
