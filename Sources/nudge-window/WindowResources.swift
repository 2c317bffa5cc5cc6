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

    /// The objects described in `ui/<name>.ui`, their `<signal>`s connected to the handlers
    /// named there (``HandlerScope``).
    init(_ name: String, handlers: [String: HandlerScope.Handler] = [:]) {
        // Bound here, not by the first tr(): a builder translates through gettext itself.
        let catalog = Catalog.shared
        builder = gtk_builder_new()
        if !handlers.isEmpty {
            let scope = HandlerScope.make(handlers)
            gtk_builder_set_scope(builder, scope)
            unref(UnsafeMutableRawPointer(scope))
        }
        if catalog.folder != nil, catalog.damagedCatalog == nil { gtk_builder_set_translation_domain(builder, Catalog.domain) }
        var error: UnsafeMutablePointer<GError>?
        let path = "/io/github/nudge/Nudge/" + name + ".ui"
        let built: Bool
        if AdwaitaGeneration.entryRowsReportFocus {
            built = gtk_builder_add_from_resource(builder, path, &error) != 0
        } else {
            guard let bytes = g_resources_lookup_data(path, G_RESOURCE_LOOKUP_FLAGS_NONE, &error) else {
                fatalError(name + ".ui: " + (error.map { String(cString: $0.pointee.message) } ?? "not in the resource"))
            }
            var size: gsize = 0
            let data = g_bytes_get_data(bytes, &size)
            let text = EntryRows.asActionRows(String(decoding: UnsafeRawBufferPointer(start: data, count: Int(size)), as: UTF8.self))
            built = gtk_builder_add_from_string(builder, text, -1, &error) != 0
            g_bytes_unref(bytes)
        }
        guard built else {
            fatalError(name + ".ui: " + (error.map { String(cString: $0.pointee.message) } ?? "not built"))
        }
        // Space and Enter toggle a focused switch, as they press a focused button: GTK 4.8's
        // switch leaves keys to the row around it, and a switch in no row had none.
        let objects = gtk_builder_get_objects(builder)
        var node = objects
        while let current = node {
            if let object = current.pointee.data?.assumingMemoryBound(to: GtkWidget.self), object.is(.switch) {
                togglesByKeys(object)
            }
            node = current.pointee.next
        }
        g_slist_free(objects)
    }

    /// The row that holds the field with this id: the field itself where it is an entry row,
    /// the action row around it where it was built as one (libadwaita 1.2, ``EntryRows``).
    func row(_ id: String) -> Widget {
        guard let row = find(id + EntryRows.rowSuffix) else { return self(id) }
        return UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self)
    }

    /// The widget with this id (a missing id is a mistake in the .ui, found by the first start).
    func callAsFunction(_ id: String) -> Widget {
        UnsafeMutableRawPointer(object(id)).assumingMemoryBound(to: GtkWidget.self)
    }

    /// The widget with this id and a reference of the caller's own: for a file's top widget
    /// that is not a window, which would otherwise go with the builder before it has a parent.
    func keep(_ id: String) -> Widget {
        let widget = self(id)
        ref(widget.raw)
        return widget
    }

    /// The object with this id (a GtkAdjustment, a GtkStringList…).
    func object(_ id: String) -> UnsafeMutablePointer<GObject> {
        guard let object = find(id) else { fatalError("no object \(id) in the .ui") }
        return object
    }

    private func find(_ id: String) -> UnsafeMutablePointer<GObject>? { gtk_builder_get_object(builder, id) }

    /// Lets go of the builder's references: what was not taken goes with it.
    func release() { unref(UnsafeMutableRawPointer(builder)) }
}

/// libadwaita 1.2's AdwEntryRow tells a screen reader nothing when its text takes the focus
/// (``AdwaitaGeneration/entryRowsReportFocus``). There a `.ui`'s entry rows are built as what
/// reports it: an AdwActionRow (id `ID-row`, its title the same, not a Tab stop of its own)
/// holding a GtkEntry (id `ID`, named by the row), so the code reads and writes the same id.
enum EntryRows {
    static let rowSuffix = "-row"

    /// The `.ui` text with each `<object class="AdwEntryRow" id="ID">` so rewritten (an
    /// AdwPasswordEntryRow's entry is a GtkPasswordEntry). The row's `activates-default` goes
    /// to the entry, and its `entry-activated` is the entry's `activate`; its other properties
    /// and children stay the row's.
    static func asActionRows(_ ui: String) -> String {
        var out = ""
        var rest = Substring(ui)
        let openings = ["<object class=\"AdwEntryRow\" id=\"": "GtkEntry", "<object class=\"AdwPasswordEntryRow\" id=\"": "GtkPasswordEntry"]
        func next(_ text: Substring) -> (Range<Substring.Index>, String)? {
            openings.compactMap { opening, entry in text.range(of: opening).map { ($0, entry) } }.min { $0.0.lowerBound < $1.0.lowerBound }
        }
        while let (start, entry) = next(rest) {
            out += rest[..<start.lowerBound]
            rest = rest[start.upperBound...]
            guard let quote = rest.firstIndex(of: "\""), let close = rest[quote...].firstIndex(of: ">") else { break }
            let id = String(rest[..<quote])
            rest = rest[rest.index(after: close)...]
            // The row's own activates-default (the first in it), which an action row does not have.
            var activates = false
            let property = "<property name=\"activates-default\">1</property>"
            if let found = rest.range(of: property), rest[..<found.lowerBound].range(of: "<object") == nil {
                activates = true
                rest = rest[..<found.lowerBound] + rest[found.upperBound...]
            }
            // Its text's signals (GtkEditable's changed) are the entry's.
            var signals = ""
            while let found = rest.range(of: "<signal name=\"changed\""), rest[..<found.lowerBound].range(of: "<object") == nil,
                  let end = rest[found.upperBound...].range(of: "/>") {
                signals += rest[found.lowerBound..<end.upperBound]
                rest = rest[..<found.lowerBound] + rest[end.upperBound...]
            }
            while let found = rest.range(of: "<signal name=\"entry-activated\""), rest[..<found.lowerBound].range(of: "<object") == nil,
                  let end = rest[found.upperBound...].range(of: "/>") {
                signals += "<signal name=\"activate\"" + rest[found.upperBound..<end.upperBound]
                rest = rest[..<found.lowerBound] + rest[end.upperBound...]
            }
            out += """
                <object class="AdwActionRow" id="\(id)\(rowSuffix)">
                <property name="focusable">0</property>
                <property name="activatable-widget">\(id)</property>
                <child type="suffix"><object class="\(entry)" id="\(id)">
                <property name="valign">center</property><property name="hexpand">1</property>
                <property name="activates-default">\(activates ? 1 : 0)</property>\(signals)
                </object></child>
                """
        }
        return out + rest
    }
}
