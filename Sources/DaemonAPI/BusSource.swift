import DBus
import Platform

extension EventLoop {
    /// A bus connection's descriptors and timeouts on the loop, its messages dispatched
    /// after every wait; `disconnected` is called once when the bus is gone (the source is
    /// removed then).
    @discardableResult
    public func add(bus connection: Connection, disconnected: @escaping () -> Void) -> Source {
        let io = connection.integrateWithLoop()
        var source: Source?
        source = add(set: { (io.pollDescriptors, io.nextTimeout) }, dispatch: { results in
            io.handle(results)
            if !connection.dispatch() {
                source?.remove()
                disconnected()
            }
        })
        return source!
    }
}
