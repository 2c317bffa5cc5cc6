import CAdwaita

/// Signal handlers named in a .ui file, `<signal name="search-changed" handler="search"/>`,
/// as GtkBuilderCScope names C functions, but Swift closures: GTK's C scope subclassed once
/// (`NudgeHandlerScope`), its GtkBuilderScope's `create_closure` answering the names a
/// builder was given (``Builder/init(_:handlers:)``) and leaving the rest to the C scope.
/// The code keeps behaviour; which widget sends what to which handler is in the .ui.
@MainActor enum HandlerScope {
    /// What a handler gets: the signal's values, the emitter first.
    struct Values {
        let values: UnsafePointer<GValue>
        let count: Int

        /// The object at `index` (a list item factory's list item is 1).
        func object(_ index: Int) -> gpointer? { index < count ? UnsafeMutableRawPointer.read(values + index) : nil }
        /// The unsigned number at `index` (a key's value is 1).
        func uint(_ index: Int) -> UInt32 { index < count ? UInt32(values + index) : 0 }
        /// The flags at `index` (a key's modifiers are 3).
        func flags(_ index: Int) -> UInt32 { index < count ? g_value_get_flags(values + index) : 0 }
    }

    /// A handler: for a signal that answers a boolean (`close-request`, a key pressed), its
    /// answer; ignored for the others.
    typealias Handler = @MainActor (Values) -> Bool

    /// A scope for one builder, answering these names.
    static func make(_ handlers: [String: Handler]) -> OpaquePointer {
        let scope = g_object_new_with_properties(scopeType, 0, nil, nil)!
        g_object_set_data_full(scope, tableKey,
                               Unmanaged.passRetained(Table(handlers)).toOpaque()) { data in
            guard let data else { return }
            Unmanaged<Table>.fromOpaque(data).release()
        }
        return OpaquePointer(scope)
    }

    private static let tableKey = "nudge-handlers"

    private final class Table: @unchecked Sendable {
        let handlers: [String: Handler]
        init(_ handlers: [String: Handler]) { self.handlers = handlers }
    }

    /// One connected handler, owned by its GClosure.
    private final class Box: @unchecked Sendable {
        let handler: Handler
        init(_ handler: @escaping Handler) { self.handler = handler }
    }

    /// GtkBuilderCScope's own create_closure, for the names the table does not hold.
    nonisolated(unsafe) private static var parentCreateClosure: (@convention(c) (OpaquePointer?, OpaquePointer?,
        UnsafePointer<CChar>?, GtkBuilderClosureFlags, UnsafeMutablePointer<GObject>?,
        UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> UnsafeMutablePointer<GClosure>?)?

    private static let scopeType: GType = {
        let parent = gtk_builder_cscope_get_type()
        var query = GTypeQuery()
        g_type_query(parent, &query)
        let type = g_type_register_static_simple(parent, "NudgeHandlerScope", query.class_size, nil, query.instance_size, nil,
                                                 GTypeFlags(rawValue: 0))
        // A type that implements its parent's interface again starts from the interface's
        // defaults: the C scope's type lookups are taken over, and its closures chained to.
        var info = GInterfaceInfo(interface_init: { interface, _ in
            guard let interface else { return }
            let mine = interface.assumingMemoryBound(to: GtkBuilderScopeInterface.self)
            if let inherited = g_type_interface_peek_parent(interface)?.assumingMemoryBound(to: GtkBuilderScopeInterface.self) {
                mine.pointee.get_type_from_name = inherited.pointee.get_type_from_name
                mine.pointee.get_type_from_function = inherited.pointee.get_type_from_function
                HandlerScope.parentCreateClosure = inherited.pointee.create_closure
            }
            mine.pointee.create_closure = { scope, builder, name, flags, object, error in
                guard let name, let data = g_object_get_data(UnsafeMutableRawPointer(scope)?.assumingMemoryBound(to: GObject.self), HandlerScope.tableKey),
                      let handler = Unmanaged<Table>.fromOpaque(data).takeUnretainedValue().handlers[String(cString: name)]
                else { return HandlerScope.parentCreateClosure?(scope, builder, name, flags, object, error) }
                let box = Unmanaged.passRetained(Box(handler)).toOpaque()
                let closure = g_closure_new_simple(guint(MemoryLayout<GClosure>.size), box)!
                g_closure_set_marshal(closure) { closure, answer, count, values, _, _ in
                    guard let closure, let values, let data = closure.pointee.data else { return }
                    let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
                    // GTK calls on its own thread, the main one (an address crosses, not a value).
                    let (address, number) = (Int(bitPattern: values), Int(count))
                    let handled = MainActor.assumeIsolated {
                        box.handler(Values(values: UnsafePointer(bitPattern: address)!, count: number))
                    }
                    if let answer, g_type_fundamental(answer.pointee.g_type) == GType(5 << 2) /* G_TYPE_BOOLEAN */ {
                        handled.store(in: answer)
                    }
                }
                g_closure_add_finalize_notifier(closure, box) { data, _ in
                    guard let data else { return }
                    Unmanaged<Box>.fromOpaque(data).release()
                }
                return closure
            }
        }, interface_finalize: nil, interface_data: nil)
        g_type_add_interface_static(type, gtk_builder_scope_get_type(), &info)
        return type
    }()
}

/// Handlers made before their owner is: a builder connects a .ui's signals while it builds,
/// in the owner's init, and the handlers reach the owner once it is whole.
@MainActor final class Owner<Object: AnyObject> {
    weak var object: Object?

    /// A handler that calls `action` on the owner (nothing once it has gone); false to a
    /// signal that asks.
    func handler(_ action: @escaping @MainActor (Object) -> Void) -> HandlerScope.Handler {
        { _ in
            if let object = self.object { action(object) }
            return false
        }
    }

    /// A handler given the signal's values that answers it (false once the owner has gone).
    func answer(_ action: @escaping @MainActor (Object, HandlerScope.Values) -> Bool) -> HandlerScope.Handler {
        { values in self.object.map { action($0, values) } ?? false }
    }

    /// A handler given the signal's values.
    func handler(values action: @escaping @MainActor (Object, HandlerScope.Values) -> Void) -> HandlerScope.Handler {
        { values in
            if let object = self.object { action(object, values) }
            return false
        }
    }
}
