#if canImport(Glibc)
import Glibc
#endif
import CDBus

/// What a connection needs from a poll(2) loop (`dbus_connection_set_watch_functions`,
/// `dbus_connection_set_timeout_functions`): the descriptors libdbus wants watched and the
/// timers it runs (reply timeouts of calls sent with ``Connection/send(_:timeout:reply:)``).
///
/// The loop asks for ``pollDescriptors`` and ``nextTimeout``, polls, hands the results to
/// ``handle(_:)`` and calls ``Connection/dispatch()``. libdbus arms no timer while no call
/// waits for a reply, so an idle connection costs no wake-ups.
public final class LoopIntegration {
    private var watches: [OpaquePointer] = []
    private var timeouts: [OpaquePointer: UInt64] = [:]

    init() {}

    /// The descriptors to poll now, one per enabled watch.
    public var pollDescriptors: [pollfd] {
        watches.compactMap { watch in
            guard dbus_watch_get_enabled(watch) != 0 else { return nil }
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & UInt32(DBUS_WATCH_READABLE.rawValue) != 0 { events |= Int16(POLLIN) }
            if flags & UInt32(DBUS_WATCH_WRITABLE.rawValue) != 0 { events |= Int16(POLLOUT) }
            return pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0)
        }
    }

    /// Milliseconds until the earliest reply timeout, or `nil` when none runs.
    public var nextTimeout: Int32? {
        guard let earliest = timeouts.values.min() else { return nil }
        let now = Self.monotonicMilliseconds()
        return Int32(clamping: earliest > now ? earliest - now : 0)
    }

    /// Lets libdbus read and write for the descriptors poll(2) reported, and runs the
    /// timeouts that are due (`dbus_watch_handle`, `dbus_timeout_handle`).
    public func handle(_ results: [pollfd]) {
        for result in results where result.revents != 0 {
            var flags: UInt32 = 0
            if result.revents & Int16(POLLIN) != 0 { flags |= UInt32(DBUS_WATCH_READABLE.rawValue) }
            if result.revents & Int16(POLLOUT) != 0 { flags |= UInt32(DBUS_WATCH_WRITABLE.rawValue) }
            if result.revents & Int16(POLLERR) != 0 { flags |= UInt32(DBUS_WATCH_ERROR.rawValue) }
            if result.revents & Int16(POLLHUP) != 0 { flags |= UInt32(DBUS_WATCH_HANGUP.rawValue) }
            // Handling one watch may add or remove others (a disconnect frees both of the
            // connection's): only a watch still ours may be touched, so membership is
            // checked before libdbus is asked anything about it.
            for watch in watches {
                guard watches.contains(watch), dbus_watch_get_unix_fd(watch) == result.fd,
                      dbus_watch_get_enabled(watch) != 0 else { continue }
                dbus_watch_handle(watch, flags)
            }
        }
        let now = Self.monotonicMilliseconds()
        for (timeout, deadline) in timeouts where deadline <= now {
            guard timeouts[timeout] != nil else { continue }
            timeouts[timeout] = now + UInt64(max(dbus_timeout_get_interval(timeout), 0))
            dbus_timeout_handle(timeout)
        }
    }

    fileprivate func add(watch: OpaquePointer) { watches.append(watch) }
    fileprivate func remove(watch: OpaquePointer) { watches.removeAll { $0 == watch } }

    fileprivate func update(timeout: OpaquePointer) {
        if dbus_timeout_get_enabled(timeout) != 0 {
            timeouts[timeout] = Self.monotonicMilliseconds() + UInt64(max(dbus_timeout_get_interval(timeout), 0))
        } else {
            timeouts[timeout] = nil
        }
    }

    fileprivate func remove(timeout: OpaquePointer) { timeouts[timeout] = nil }

    static func monotonicMilliseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec) / 1_000_000
    }

    /// Installs the callbacks on a connection. They only record what libdbus asks for: the
    /// connection's lock is held while they run, so they must not call back into it.
    func install(on raw: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(raw, { watch, data in
            guard let watch, let data else { return 0 }
            Unmanaged<LoopIntegration>.fromOpaque(data).takeUnretainedValue().add(watch: watch)
            return 1
        }, { watch, data in
            guard let watch, let data else { return }
            Unmanaged<LoopIntegration>.fromOpaque(data).takeUnretainedValue().remove(watch: watch)
        }, { _, _ in
            // Enabled state is read on every pass through the loop.
        }, context, nil)
        dbus_connection_set_timeout_functions(raw, { timeout, data in
            guard let timeout, let data else { return 0 }
            Unmanaged<LoopIntegration>.fromOpaque(data).takeUnretainedValue().update(timeout: timeout)
            return 1
        }, { timeout, data in
            guard let timeout, let data else { return }
            Unmanaged<LoopIntegration>.fromOpaque(data).takeUnretainedValue().remove(timeout: timeout)
        }, { timeout, data in
            guard let timeout, let data else { return }
            Unmanaged<LoopIntegration>.fromOpaque(data).takeUnretainedValue().update(timeout: timeout)
        }, context, nil)
    }
}

extension Connection {
    /// Hands the connection's I/O to a poll(2) loop from now on (see ``LoopIntegration``).
    /// Blocking calls (``call(_:timeout:)``) keep working.
    public func integrateWithLoop() -> LoopIntegration {
        if let loop { return loop }
        let integration = LoopIntegration()
        loop = integration
        integration.install(on: raw)
        return integration
    }

    /// Runs the handlers of every message read so far: filters, subscriptions, exported
    /// objects, reply callbacks (`dbus_connection_dispatch`). Returns `false` once the bus is gone.
    @discardableResult
    public func dispatch() -> Bool {
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
        if dbus_connection_get_is_connected(raw) == 0 { isDisconnected = true }
        return !isDisconnected
    }

    /// Sends a method call without waiting (`dbus_connection_send_with_reply`,
    /// `dbus_pending_call_set_notify`): `reply` runs during a later ``dispatch()`` with the
    /// reply, or with the error reply, `NoReply` after `timeout`, or `Disconnected`.
    ///
    /// A peer that was only slow still answers after the timeout; with `late`, such a reply
    /// (or error) is handed to it during a later dispatch instead of being dropped. The few
    /// hundred most recent timed-out calls are remembered.
    public func send(_ message: Message, timeout: Duration = Connection.defaultTimeout,
                     reply: @escaping (Result<Message, BusError>) -> Void,
                     late: ((Result<Message, BusError>) -> Void)? = nil) {
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, timeout.milliseconds) != 0 else {
            reply(.failure(BusError(.noMemory)))
            return
        }
        guard let pending else {
            reply(.failure(BusError(.disconnected, "the bus connection is closed")))
            return
        }
        var handler = reply
        if let late {
            let serial = message.serial
            handler = { [weak self] result in
                if case .failure(let error) = result, error.name == .noReply, let self {
                    self.awaitLate(serial: serial, late)
                }
                reply(result)
            }
        }
        let box = Unmanaged.passRetained(ReplyBox(handler)).toOpaque()
        let set = dbus_pending_call_set_notify(pending, { pending, data in
            guard let pending, let data else { return }
            let handler = Unmanaged<ReplyBox>.fromOpaque(data).takeUnretainedValue().handler
            guard let raw = dbus_pending_call_steal_reply(pending) else {
                handler(.failure(BusError(.noReply, "no reply")))
                return
            }
            let message = Message(owning: raw)
            var error = CDBus.DBusError()
            if dbus_set_error_from_message(&error, raw) != 0 {
                handler(.failure(BusError(consuming: &error)))
            } else {
                handler(.success(message))
            }
        }, box, { data in
            if let data { Unmanaged<ReplyBox>.fromOpaque(data).release() }
        })
        if set == 0 {
            Unmanaged<ReplyBox>.fromOpaque(box).release()
            reply(.failure(BusError(.noMemory)))
        }
        dbus_pending_call_unref(pending)
    }
}

extension Connection {
    /// Calls a method without waiting (see ``send(_:timeout:reply:late:)``): `reply` runs
    /// during a later ``dispatch()`` with the reply's values or the error (`NoReply` after
    /// `timeout`). A message that cannot be made is an error at once.
    public func call(destination: String, path: String, interface: String, member: String, arguments: [Value] = [],
                     timeout: Duration = Connection.defaultTimeout, autoStart: Bool = true,
                     reply: @escaping (Result<[Value], BusError>) -> Void) {
        let message: Message
        do {
            message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
            message.autoStart = autoStart
            try message.append(contentsOf: arguments)
        } catch {
            return reply(.failure(error))
        }
        send(message, timeout: timeout) { result in
            reply(result.flatMap { message in
                do throws(BusError) { return .success(try message.arguments()) } catch { return .failure(error) }
            })
        }
    }

    /// A property's value without waiting (`org.freedesktop.DBus.Properties.Get`, never
    /// starting a service): `reply` runs during a later ``dispatch()``.
    public func property(_ name: String, of interface: String, at destination: String, path: String,
                         timeout: Duration = Connection.defaultTimeout, reply: @escaping (Result<Value?, BusError>) -> Void) {
        call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
             arguments: [.string(interface), .string(name)], timeout: timeout, autoStart: false) { result in
            reply(result.map { $0.first?.unwrapped })
        }
    }
}

extension Connection {
    fileprivate func awaitLate(serial: UInt32, _ late: @escaping (Result<Message, BusError>) -> Void) {
        lateReplies[serial] = { message in
            var error = CDBus.DBusError()
            if dbus_set_error_from_message(&error, message.raw) != 0 {
                late(.failure(BusError(consuming: &error)))
            } else {
                late(.success(message))
            }
        }
        lateOrder.append(serial)
        if lateOrder.count > 256 {
            for old in lateOrder.prefix(lateOrder.count - 256) { lateReplies[old] = nil }
            lateOrder.removeFirst(lateOrder.count - 256)
        }
    }

    /// Forgets every call still waiting for a late reply (its peer is gone).
    public func forgetLateReplies() {
        lateReplies.removeAll()
        lateOrder.removeAll()
    }
}

/// A reply callback kept alive by libdbus until the pending call is freed.
private final class ReplyBox {
    let handler: (Result<Message, BusError>) -> Void
    init(_ handler: @escaping (Result<Message, BusError>) -> Void) { self.handler = handler }
}
