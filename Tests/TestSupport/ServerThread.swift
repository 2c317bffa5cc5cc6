import DBus
import Foundation

/// A second connection serving objects from its own thread, so a test's connection can
/// make blocking calls to it.
public final class ServerThread: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)
    public private(set) var uniqueName = ""

    /// `tick` runs on the thread between two turns of processing (to send what a test asked for).
    public init(address: String? = nil, tick: (@Sendable (Connection) -> Void)? = nil,
                _ setup: @escaping @Sendable (Connection) throws -> Void) throws {
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: Error?
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            let connection: Connection
            do {
                connection = try address.map { try Connection.bus(address: $0) } ?? Bench.sessionBus()
                try setup(connection)
                uniqueName = connection.uniqueName
            } catch {
                failure = error
                ready.signal()
                return
            }
            ready.signal()
            while !isStopping, connection.process(timeout: .milliseconds(tick == nil ? 20 : 10)) {
                tick?(connection)
                for work in takeQueued() { work(connection) }
            }
        }
        ready.wait()
        if let failure { throw failure }
    }

    private var queued: [@Sendable (Connection) -> Void] = []

    private func takeQueued() -> [@Sendable (Connection) -> Void] {
        lock.lock(); defer { lock.unlock() }
        let work = queued
        queued = []
        return work
    }

    /// Runs `work` on the server's own connection, between two turns, and waits for it:
    /// what the server sends (its signals) comes from the name's owner, as a real
    /// server's does.
    public func perform(_ work: @escaping @Sendable (Connection) throws -> Void) throws {
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: Error?
        lock.lock()
        queued.append { connection in
            do { try work(connection) } catch { failure = error }
            connection.flush()
            finished.signal()
        }
        lock.unlock()
        finished.wait()
        if let failure { throw failure }
    }

    /// Emits a signal from the server's own connection.
    public func emit(path: String, interface: String, member: String, arguments: [Value]) throws {
        try perform { try $0.emit(path: path, interface: interface, member: member, arguments: arguments) }
    }

    private var isStopping: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopping
    }

    /// Stops the thread and waits for its end; a second call returns at once.
    public func stop() {
        lock.lock()
        let first = !stopping
        stopping = true
        lock.unlock()
        if first { done.wait() }
    }
}
