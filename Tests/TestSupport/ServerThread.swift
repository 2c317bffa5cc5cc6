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
            while !isStopping, connection.process(timeout: .milliseconds(tick == nil ? 20 : 10)) { tick?(connection) }
        }
        ready.wait()
        if let failure { throw failure }
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
