import CAdwaita

/// A GObject property by its name, with the Swift type its value is read and written as:
/// `label[.ellipsize]`, `row[.subtitle] = words`. The names are GTK's and libadwaita's, as
/// a .ui file writes them; a name the object's class does not have stops the window at
/// once (``GObjectProperties/spec(of:_:)``), so a misspelt one fails the first test that
/// reaches it instead of doing nothing. Reading and writing go through GObject's own
/// `g_object_get_property`/`g_object_set_property`, which call the same setters GTK's
/// typed functions do and notify the same way.
struct Property<Value: PropertyValue>: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// A Swift value a GValue holds: read from one initialised to the property's type, and
/// written into one.
protocol PropertyValue {
    init(_ value: UnsafePointer<GValue>)
    func store(in value: UnsafeMutablePointer<GValue>)
}

extension Bool: PropertyValue {
    init(_ value: UnsafePointer<GValue>) { self = g_value_get_boolean(value) != 0 }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_boolean(value, self ? 1 : 0) }
}

extension Int32: PropertyValue {
    init(_ value: UnsafePointer<GValue>) { self = g_value_get_int(value) }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_int(value, self) }
}

extension UInt32: PropertyValue {
    init(_ value: UnsafePointer<GValue>) { self = g_value_get_uint(value) }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_uint(value, self) }
}

extension Double: PropertyValue {
    init(_ value: UnsafePointer<GValue>) { self = g_value_get_double(value) }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_double(value, self) }
}

extension Float: PropertyValue {
    init(_ value: UnsafePointer<GValue>) { self = g_value_get_float(value) }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_float(value, self) }
}

/// A string property, nil where it holds none.
extension Optional: PropertyValue where Wrapped: NullablePropertyValue {
    init(_ value: UnsafePointer<GValue>) { self = Wrapped.read(value) }
    func store(in value: UnsafeMutablePointer<GValue>) { Wrapped.write(self, in: value) }
}

/// What a property may hold or not: a string, an object.
protocol NullablePropertyValue {
    static func read(_ value: UnsafePointer<GValue>) -> Self?
    static func write(_ wrapped: Self?, in value: UnsafeMutablePointer<GValue>)
}

extension String: NullablePropertyValue {
    static func read(_ value: UnsafePointer<GValue>) -> String? { g_value_get_string(value).map { String(cString: $0) } }
    static func write(_ wrapped: String?, in value: UnsafeMutablePointer<GValue>) { g_value_set_string(value, wrapped) }
}

/// An object held by a property (a popover, a window, a model, an adjustment).
extension UnsafeMutableRawPointer: NullablePropertyValue {
    static func read(_ value: UnsafePointer<GValue>) -> UnsafeMutableRawPointer? { g_value_get_object(value) }
    static func write(_ wrapped: UnsafeMutableRawPointer?, in value: UnsafeMutablePointer<GValue>) { g_value_set_object(value, wrapped) }
}

extension UnsafeMutablePointer: NullablePropertyValue where Pointee == GtkWidget {
    static func read(_ value: UnsafePointer<GValue>) -> Widget? { UnsafeMutableRawPointer.read(value)?.assumingMemoryBound(to: GtkWidget.self) }
    static func write(_ wrapped: Widget?, in value: UnsafeMutablePointer<GValue>) { UnsafeMutableRawPointer.write(wrapped.map { $0.raw }, in: value) }
}

/// One of GTK's or Pango's enumerations, as Swift imports it (`GtkAlign`, `PangoWrapMode`).
protocol EnumPropertyValue: PropertyValue, RawRepresentable where RawValue: BinaryInteger {}

extension EnumPropertyValue {
    init(_ value: UnsafePointer<GValue>) { self = Self(rawValue: RawValue(truncatingIfNeeded: g_value_get_enum(value)))! }
    func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_enum(value, Int32(truncatingIfNeeded: rawValue)) }
}

extension GtkAlign: EnumPropertyValue {}
extension GtkOrientation: EnumPropertyValue {}
extension GtkJustification: EnumPropertyValue {}
extension GtkNaturalWrapMode: EnumPropertyValue {}
extension PangoWrapMode: EnumPropertyValue {}
extension PangoEllipsizeMode: EnumPropertyValue {}
extension AdwToastPriority: EnumPropertyValue {}

/// Reading and writing a property of any GObject.
enum GObjectProperties {
    /// `name`'s description in `object`'s class; the window stops on a name the class lacks.
    static func spec(of object: gpointer, _ name: String) -> UnsafeMutablePointer<GParamSpec> {
        let objectClass = object.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class!
        guard let spec = g_object_class_find_property(UnsafeMutableRawPointer(objectClass).assumingMemoryBound(to: GObjectClass.self), name) else {
            fatalError("\(String(cString: g_type_name(objectClass.pointee.g_type))) has no property \(name)")
        }
        return spec
    }

    static func get<Value>(_ object: gpointer, _ key: Property<Value>) -> Value {
        var value = GValue()
        g_value_init(&value, spec(of: object, key.name).pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(object.assumingMemoryBound(to: GObject.self), key.name, &value)
        return Value(&value)
    }

    static func set<Value>(_ object: gpointer, _ key: Property<Value>, _ newValue: Value) {
        var value = GValue()
        g_value_init(&value, spec(of: object, key.name).pointee.value_type)
        defer { g_value_unset(&value) }
        newValue.store(in: &value)
        g_object_set_property(object.assumingMemoryBound(to: GObject.self), key.name, &value)
    }
}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    subscript<Value>(_ key: Property<Value>) -> Value {
        get { GObjectProperties.get(raw, key) }
        nonmutating set { GObjectProperties.set(raw, key, newValue) }
    }
}

// MARK: The properties the window's code reads and writes

extension Property where Value == Bool {
    static var visible: Self { .init("visible") }
    /// A GtkSwitch's, a toggle button's or a check button's.
    static var active: Self { .init("active") }
    /// A GtkSwitch's state beneath its handle.
    static var state: Self { .init("state") }
    static var sensitive: Self { .init("sensitive") }
    static var focusable: Self { .init("focusable") }
    static var canFocus: Self { .init("can-focus") }
    static var hasFocus: Self { .init("has-focus") }
    static var hasTooltip: Self { .init("has-tooltip") }
    static var hexpand: Self { .init("hexpand") }
    /// GtkSettings'.
    static var gtkEnableAnimations: Self { .init("gtk-enable-animations") }
    static var wrap: Self { .init("wrap") }
    /// A GtkWindow's: it has the keyboard.
    static var isActive: Self { .init("is-active") }
    static var useMarkup: Self { .init("use-markup") }
    /// A GSimpleAction's.
    static var enabled: Self { .init("enabled") }
    /// A GtkListItem's.
    static var activatable: Self { .init("activatable") }
    static var selectable: Self { .init("selectable") }
}

extension Property where Value == Int32 {
    static var marginStart: Self { .init("margin-start") }
    static var marginEnd: Self { .init("margin-end") }
    static var marginTop: Self { .init("margin-top") }
    static var marginBottom: Self { .init("margin-bottom") }
    static var heightRequest: Self { .init("height-request") }
    /// A GtkLabel's most lines.
    static var lines: Self { .init("lines") }
    /// A GtkText's most characters.
    static var maxLength: Self { .init("max-length") }
    /// A GtkCalendar's day (1–31), month (0–11) and year.
    static var day: Self { .init("day") }
    static var month: Self { .init("month") }
    static var year: Self { .init("year") }
}

extension Property where Value == UInt32 {
    /// An AdwComboRow's chosen position.
    static var selected: Self { .init("selected") }
    /// A GtkListItem's position.
    static var position: Self { .init("position") }
}

extension Property where Value == Double {
    /// A spin button's, a level bar's, an adjustment's.
    static var value: Self { .init("value") }
    static var pageSize: Self { .init("page-size") }
    static var upper: Self { .init("upper") }
}

extension Property where Value == Float {
    static var xalign: Self { .init("xalign") }
}

extension Property where Value == String? {
    /// A GtkEditable's.
    static var text: Self { .init("text") }
    /// A button's or a menu button's words.
    static var label: Self { .init("label") }
    static var title: Self { .init("title") }
    static var subtitle: Self { .init("subtitle") }
    static var iconName: Self { .init("icon-name") }
    static var tooltipText: Self { .init("tooltip-text") }
    static var tooltipMarkup: Self { .init("tooltip-markup") }
    /// An AdwToast's button.
    static var buttonLabel: Self { .init("button-label") }
    /// A GtkStringObject's.
    static var string: Self { .init("string") }
}

extension Property where Value == Widget? {
    static var child: Self { .init("child") }
    static var popover: Self { .init("popover") }
    static var transientFor: Self { .init("transient-for") }
    /// A toggle button's group (written only).
    static var group: Self { .init("group") }
}

extension Property where Value == gpointer? {
    /// A list or combo row's model.
    static var model: Self { .init("model") }
    static var vadjustment: Self { .init("vadjustment") }
    /// A GtkListItem's.
    static var item: Self { .init("item") }
}

extension Property where Value == GtkAlign {
    static var halign: Self { .init("halign") }
    static var valign: Self { .init("valign") }
}

extension Property where Value == GtkOrientation { static var orientation: Self { .init("orientation") } }
extension Property where Value == GtkJustification { static var justify: Self { .init("justify") } }
extension Property where Value == GtkNaturalWrapMode { static var naturalWrapMode: Self { .init("natural-wrap-mode") } }
extension Property where Value == PangoWrapMode { static var wrapMode: Self { .init("wrap-mode") } }
extension Property where Value == PangoEllipsizeMode { static var ellipsize: Self { .init("ellipsize") } }
extension Property where Value == AdwToastPriority { static var priority: Self { .init("priority") } }
