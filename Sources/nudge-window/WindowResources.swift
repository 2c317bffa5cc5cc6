import CAdwaita
import Foundation
import NudgeKit

/// The window's widget trees: GtkBuilder `.ui` files (in `ui/`), linked into the program as
/// a GResource by the WindowResources plugin and registered once, at start, under
/// `/io/github/nudge/Nudge/`.
enum WindowResources {
    /// Registers the linked GResource with GLib; before any ``Builder`` is made.
    static func register() {
        guard let decoded = Data(base64Encoded: embeddedResource) else { fatalError("the embedded GResource is not base64") }
        // GLib's own copy, kept for the program's life (g_resources_register keeps the resource).
        let copy = g_malloc(gsize(decoded.count))!
        decoded.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: decoded.count)
        let bytes = g_bytes_new_take(copy, gsize(decoded.count))
        var error: UnsafeMutablePointer<GError>?
        guard let resource = g_resource_new_from_data(bytes, &error) else {
            fatalError("the embedded GResource: " + (error.map { String(cString: $0.pointee.message) } ?? "unreadable"))
        }
        g_bytes_unref(bytes)
        g_resources_register(resource)
    }
}

/// One `.ui` file of the GResource, built: its objects by id. Its words are translated in
/// gettext's domain `nudge`, bound by ``Catalog/shared`` before the first builder is made.
/// The widgets taken out must be held (parented, or referenced) before the builder goes.
@MainActor struct Builder {
    private let builder: OpaquePointer

    /// The objects described in `ui/<name>.ui`.
    init(_ name: String) {
        // Bound here, not by the first tr(): a builder translates through gettext itself.
        let catalog = Catalog.shared
        builder = gtk_builder_new()
        if catalog.folder != nil, catalog.damagedCatalog == nil { gtk_builder_set_translation_domain(builder, Catalog.domain) }
        var error: UnsafeMutablePointer<GError>?
        guard gtk_builder_add_from_resource(builder, "/io/github/nudge/Nudge/" + name + ".ui", &error) != 0 else {
            fatalError(name + ".ui: " + (error.map { String(cString: $0.pointee.message) } ?? "not built"))
        }
        // Space and Enter toggle a focused switch, as they press a focused button: GTK 4.8's
        // switch leaves keys to the row around it, and a switch in no row had none.
        let objects = gtk_builder_get_objects(builder)
        var node = objects
        while let current = node {
            if let object = current.pointee.data,
               g_type_check_instance_is_a(object.assumingMemoryBound(to: GTypeInstance.self), gtk_switch_get_type()) != 0 {
                togglesByKeys(object.assumingMemoryBound(to: GtkWidget.self))
            }
            node = current.pointee.next
        }
        g_slist_free(objects)
    }

    /// The widget with this id (a missing id is a mistake in the .ui, found by the first start).
    func callAsFunction(_ id: String) -> Widget {
        UnsafeMutableRawPointer(object(id)).assumingMemoryBound(to: GtkWidget.self)
    }

    /// The widget with this id and a reference of the caller's own: for a file's top widget
    /// that is not a window, which would otherwise go with the builder before it has a parent.
    func keep(_ id: String) -> Widget {
        let widget = self(id)
        g_object_ref(widget.raw)
        return widget
    }

    /// The object with this id (a GtkAdjustment, a GtkStringList…).
    func object(_ id: String) -> UnsafeMutablePointer<GObject> {
        guard let object = gtk_builder_get_object(builder, id) else { fatalError("no object \(id) in the .ui") }
        return object
    }

    /// Lets go of the builder's references: what was not taken goes with it.
    func release() { g_object_unref(UnsafeMutableRawPointer(builder)) }
}
