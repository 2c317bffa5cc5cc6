import CAdwaita

/// The few properties and calls the window's code uses on every page, in Swift's words:
/// `row.isVisible = false`, not `gtk_widget_set_visible(row, 0)`. Each is GTK's own call,
/// unchecked as GTK's casting macros are: the widget is of the type the name says.
extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// Shown (GtkWidget:visible).
    var isVisible: Bool {
        get { self[.visible] }
        nonmutating set { self[.visible] = newValue }
    }

    /// A GtkSwitch's state (GtkSwitch:active).
    var isOn: Bool {
        get { self[.active] }
        nonmutating set { self[.active] = newValue }
    }

    /// A toggle button's or a check button's state.
    var isPressed: Bool {
        get { self[.active] }
        nonmutating set { self[.active] = newValue }
    }

    /// A GtkEditable's text (an entry, an entry row, a spin button).
    var text: String {
        get { self[.text] ?? "" }
        nonmutating set { self[.text] = newValue }
    }

    /// A GtkSpinButton's value, whole (rounded as `gtk_spin_button_get_value_as_int` does).
    var number: Int {
        get { Int(self[.value].rounded()) }
        nonmutating set { self[.value] = Double(newValue) }
    }

    /// The widget's children, first to last.
    var children: UnfoldSequence<Widget, Widget?> {
        sequence(state: firstChild) { next in
            defer { next = next?.nextSibling }
            return next
        }
    }

    /// Whether it is of `type` or one derived from it (`gtk_button_get_type()`…).
    func `is`(_ type: GType) -> Bool {
        g_type_check_instance_is_a(raw.assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }

    /// Takes the keyboard focus; false where it cannot.
    @discardableResult func grabFocus() -> Bool { gtk_widget_grab_focus(self) != 0 }

    /// Lets go of a reference the caller holds (``Make/held(_:)``, ``Builder/keep(_:)``).
    func release() { unref(raw) }

    func addClass(_ name: String) { gtk_widget_add_css_class(self, name) }
    func hasClass(_ name: String) -> Bool { gtk_widget_has_css_class(self, name) != 0 }
    func removeClass(_ name: String) { gtk_widget_remove_css_class(self, name) }

    // MARK: The tree and the focus

    var parent: Widget? { gtk_widget_get_parent(self) }
    var firstChild: Widget? { gtk_widget_get_first_child(self) }
    var lastChild: Widget? { gtk_widget_get_last_child(self) }
    var nextSibling: Widget? { gtk_widget_get_next_sibling(self) }
    var previousSibling: Widget? { gtk_widget_get_prev_sibling(self) }
    /// Whether it is `ancestor` or inside it.
    func isInside(_ ancestor: Widget) -> Bool { self == ancestor || gtk_widget_is_ancestor(self, ancestor) != 0 }
    /// The widget that has the keyboard's focus in this widget's window.
    var focusInWindow: Widget? { gtk_widget_get_root(self).flatMap { gtk_root_get_focus($0) } }
    var hasFocus: Bool { self[.hasFocus] }
    var isFocusable: Bool {
        get { self[.focusable] && self[.canFocus] }
        nonmutating set { self[.focusable] = newValue }
    }
    /// Moves the focus into it, as Tab (or Shift+Tab) would; false where nothing takes it.
    func focusChild(forward: Bool) -> Bool { gtk_widget_child_focus(self, forward ? GTK_DIR_TAB_FORWARD : GTK_DIR_TAB_BACKWARD) != 0 }
    /// Answers clicks and keys (GtkWidget:sensitive).
    var isSensitive: Bool {
        get { gtk_widget_is_sensitive(self) != 0 }
        nonmutating set { self[.sensitive] = newValue }
    }

    // MARK: Where it is

    var isMapped: Bool { gtk_widget_get_mapped(self) != 0 }
    var height: Float { Float(gtk_widget_get_height(self)) }
    /// Its bounds in `other`'s coordinates, where both are shown.
    func bounds(in other: Widget) -> graphene_rect_t? {
        var bounds = graphene_rect_t()
        return gtk_widget_compute_bounds(self, other, &bounds) != 0 ? bounds : nil
    }

    // MARK: Layout

    /// Where it sits across (GtkWidget:halign) and down (GtkWidget:valign).
    func align(across: GtkAlign? = nil, down: GtkAlign? = nil) {
        if let across { self[.halign] = across }
        if let down { self[.valign] = down }
    }
    var expandsAcross: Bool {
        get { self[.hexpand] }
        nonmutating set { self[.hexpand] = newValue }
    }
    func margins(start: Int32? = nil, end: Int32? = nil, top: Int32? = nil, bottom: Int32? = nil) {
        if let start { self[.marginStart] = start }
        if let end { self[.marginEnd] = end }
        if let top { self[.marginTop] = top }
        if let bottom { self[.marginBottom] = bottom }
    }
    var minimumHeight: Int32 {
        get { self[.heightRequest] }
        nonmutating set { self[.heightRequest] = newValue }
    }
    /// A box's (or any GtkOrientable's) direction.
    var isVertical: Bool {
        get { self[.orientation] == GTK_ORIENTATION_VERTICAL }
        nonmutating set { self[.orientation] = newValue ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL }
    }
    /// Adds `child` at a GtkBox's end.
    func append(_ child: Widget) { gtk_box_append(self.as(GtkBox.self), child) }
    /// Moves a GtkBox's `child` to after `sibling` (first: nil).
    func reorder(_ child: Widget, after sibling: Widget?) { gtk_box_reorder_child_after(self.as(GtkBox.self), child, sibling) }

    /// A GtkLabel's lines: `wraps` between words (and inside a word too long for a line,
    /// `insideWords`) up to `lines`, and cut with "…" when `ellipsizes`.
    func setLines(wraps: Bool, insideWords: Bool = false, lines: Int32 = -1, ellipsizes: Bool) {
        self[.wrap] = wraps
        self[.wrapMode] = insideWords ? PANGO_WRAP_WORD_CHAR : PANGO_WRAP_WORD
        self[.lines] = lines
        self[.ellipsize] = ellipsizes ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE
    }

    // MARK: Scrolling and frames

    /// A scrollable's vertical adjustment (a list view's).
    var verticalAdjustment: Adjustment { Adjustment(self[.vadjustment]) }

    /// Scrolls a list or grid view to its item at `position` (list.scroll-to-item).
    func scrollToItem(_ position: Int) {
        gtk_widget_activate_action_variant(self, "list.scroll-to-item", g_variant_new_uint32(UInt32(position)))
    }

    /// Calls `action` at each frame while it answers true; the id to tell whether it runs.
    @MainActor func eachFrame(_ action: @escaping @MainActor () -> Bool) -> UInt32 {
        let data = Unmanaged.passRetained(FrameClosure(action)).toOpaque()
        return gtk_widget_add_tick_callback(self, { _, _, data in
            MainActor.assumeIsolated { Unmanaged<FrameClosure>.fromOpaque(data!).takeUnretainedValue().action() ? 1 : 0 }
        }, data, { data in Unmanaged<FrameClosure>.fromOpaque(data!).release() })
    }

    // MARK: Words

    /// Whether a GtkLabel cuts its words with "…".
    var ellipsizes: Bool { self[.ellipsize] != PANGO_ELLIPSIZE_NONE }
    /// A GtkLabel's lines centred, one line asked for: wrapped only where it cannot have one.
    func centreLinesAskingOne() {
        self[.justify] = GTK_JUSTIFY_CENTER
        self[.naturalWrapMode] = GTK_NATURAL_WRAP_NONE
    }

    /// A GtkLabel's text (GtkLabel:label, without markup).
    var labelText: String {
        get { String(cString: gtk_label_get_text(opaque)) }
        nonmutating set { gtk_label_set_text(opaque, newValue) }
    }
    var tooltipText: String? { self[.tooltipText] }
    /// A button's own words (GtkButton:label), nil for one that has none.
    var buttonLabel: String? {
        get { self[.label].flatMap { $0.isEmpty ? nil : $0 } }
        nonmutating set { self[.label] = newValue }
    }
    /// A GtkLevelBar's value.
    var level: Double {
        get { self[.value] }
        nonmutating set { self[.value] = newValue }
    }
    var menuButtonLabel: String? { self[.label] }
    /// A GtkImage's icon, by its name in the icon theme.
    var iconName: String? {
        get { self[.iconName] }
        nonmutating set { self[.iconName] = newValue }
    }
    /// An AdwPreferencesRow's title.
    var rowTitle: String {
        get { self[.title] ?? "" }
        nonmutating set { self[.title] = newValue }
    }
    /// An AdwActionRow's subtitle.
    var subtitle: String {
        get { self[.subtitle] ?? "" }
        nonmutating set { self[.subtitle] = newValue }
    }
    /// An AdwWindowTitle's subtitle.
    var headingSubtitle: String {
        get { self[.subtitle] ?? "" }
        nonmutating set { self[.subtitle] = newValue }
    }
    /// Adds `widget` at an AdwActionRow's end.
    func addSuffix(_ widget: Widget) { adw_action_row_add_suffix(self.as(AdwActionRow.self), widget) }
    /// Adds a row to an AdwPreferencesGroup, at its end.
    func addToGroup(_ row: Widget) { adw_preferences_group_add(self.as(AdwPreferencesGroup.self), row) }
    /// Takes a row out of an AdwPreferencesGroup.
    func removeFromGroup(_ row: Widget) { adw_preferences_group_remove(self.as(AdwPreferencesGroup.self), row) }
    /// Adds a row to an AdwExpanderRow, at its end.
    func addToExpander(_ row: Widget) { adw_expander_row_add_row(self.as(AdwExpanderRow.self), row) }
    /// Moves a row of an AdwExpanderRow to its end.
    func moveToExpanderEnd(_ row: Widget) {
        g_object_ref(row.raw)
        adw_expander_row_remove(self.as(AdwExpanderRow.self), row)
        adw_expander_row_add_row(self.as(AdwExpanderRow.self), row)
        g_object_unref(row.raw)
    }
    /// A GtkMenuButton's popover.
    var menuPopover: Widget? { self[.popover] }
    var groupTitle: String { self[.title] ?? "" }
    /// An AdwWindowTitle's title.
    var headingTitle: String {
        get { self[.title] ?? "" }
        nonmutating set { self[.title] = newValue }
    }
    /// An AdwComboRow's chosen position.
    var chosen: Int {
        get { Int(self[.selected]) }
        nonmutating set { self[.selected] = UInt32(newValue) }
    }
    /// A screen reader names it by the name it is given alone, not by the labels inside it too
    /// (GTK 4.8 joins them: "Undo Undo").
    func forgetLabelledBy() { gtk_accessible_reset_relation(opaque, GTK_ACCESSIBLE_RELATION_LABELLED_BY) }
    /// The most characters an entry-like widget takes (its GtkText's max-length).
    func limitLength(_ characters: Int) {
        if let text = gtk_editable_get_delegate(opaque) { GObjectProperties.set(UnsafeMutableRawPointer(text), .maxLength, Int32(characters)) }
    }

    // MARK: Windows

    func present() { gtk_window_present(self.as(GtkWindow.self)) }
    func close() { gtk_window_close(self.as(GtkWindow.self)) }
    func destroy() { gtk_window_destroy(self.as(GtkWindow.self)) }
    var windowTitle: String {
        get { self[.title] ?? "" }
        nonmutating set { self[.title] = newValue }
    }
    var isActiveWindow: Bool { self[.isActive] }
    /// A window's icon, by name (the window manager's and the task switcher's).
    var iconNameOfWindow: String {
        get { self[.iconName] ?? "" }
        nonmutating set { self[.iconName] = newValue }
    }
    /// An AdwToastOverlay's content.
    var toastOverlayChild: Widget? {
        get { self[.child] }
        nonmutating set { self[.child] = newValue }
    }
    /// The cursor after an editable's last character.
    func moveCursorToEnd() { gtk_editable_set_position(opaque, -1) }
    /// Kept above `parent` and closed with it (GtkWindow:transient-for).
    func keepAbove(_ parent: Widget) { self[.transientFor] = parent }

    /// A label's words with a mnemonic ("_Add": Alt+A).
    func setMnemonicText(_ text: String) { gtk_label_set_text_with_mnemonic(opaque, text) }

    // MARK: Choices

    /// A GtkFlowBox's child at `index` (its cell around what was appended).
    func flowBoxCell(_ index: Int) -> Widget? {
        gtk_flow_box_get_child_at_index(opaque, Int32(index)).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }
    }
    func appendToFlowBox(_ child: Widget) { gtk_flow_box_append(opaque, child) }
    /// Makes a toggle button one of `first`'s group: one of them down at a time.
    func joinGroup(of first: Widget) { self[.group] = first }
    /// An AdwComboRow's choices, in words.
    func setChoices(_ words: [String]) {
        let list = StringList(words)
        self[.model] = list.raw
        list.release()
    }
    /// A GtkSpinButton's value.
    var value: Double {
        get { self[.value] }
        nonmutating set { self[.value] = newValue }
    }
    func setRange(_ range: ClosedRange<Double>) { gtk_spin_button_set_range(opaque, range.lowerBound, range.upperBound) }

    /// A GtkCalendar's day picked.
    var pickedDay: (year: Int, month: Int, day: Int) { (Int(self[.year]), Int(self[.month]) + 1, Int(self[.day])) }
    /// Shows a GtkCalendar at a day; a day GLib cannot hold is left alone.
    func pick(year: Int, month: Int, day: Int) {
        guard let date = g_date_time_new_local(Int32(year), Int32(month), Int32(day), 9, 0, 0) else { return }
        gtk_calendar_select_day(opaque, date)
        g_date_time_unref(date)
    }

    // MARK: A switch

    /// A GtkSwitch's state beneath its handle (GtkSwitch:state), apart from where the
    /// handle is (``isOn``) while a change is being decided.
    var switchState: Bool {
        get { self[.state] }
        nonmutating set { self[.state] = newValue }
    }

    // MARK: Kinds

    /// The kinds of widget the window's code asks about, each by GTK's or libadwaita's name
    /// of its type.
    enum Kind: String {
        case button = "GtkButton", menuButton = "GtkMenuButton", image = "GtkImage", label = "GtkLabel", entry = "GtkEntry",
             searchEntry = "GtkSearchEntry", textView = "GtkTextView", popover = "GtkPopover", listBox = "GtkListBox",
             listView = "GtkListView", scrolledWindow = "GtkScrolledWindow", scrollbar = "GtkScrollbar",
             flowBoxChild = "GtkFlowBoxChild", stack = "GtkStack", `switch` = "GtkSwitch", preferencesGroup = "AdwPreferencesGroup",
             preferencesRow = "AdwPreferencesRow", actionRow = "AdwActionRow", windowTitle = "AdwWindowTitle"

        /// Its type, found as GtkBuilder finds a .ui's class names (registered on first use); a
        /// name GTK does not know stops the window.
        var type: GType {
            let type = gtk_builder_get_type_from_name(Kind.typeFinder, rawValue)
            precondition(type != 0, "GTK has no type \(rawValue)")
            return type
        }

        private nonisolated(unsafe) static let typeFinder = gtk_builder_new()
    }

    func `is`(_ kind: Kind) -> Bool { self.is(kind.type) }

    /// A GtkStack's pages (each an accessible node of its own) with their titles.
    var stackPages: [(page: gpointer, title: String)] {
        children.compactMap { child in
            gtk_stack_get_page(opaque, child).map { page in (UnsafeMutableRawPointer(page), GObjectProperties.get(UnsafeMutableRawPointer(page), .title) ?? "") }
        }
    }
    /// Its type's name ("AdwGizmo").
    var typeName: String { String(cString: g_type_name_from_instance(raw.assumingMemoryBound(to: GTypeInstance.self))) }
}

/// Widgets made in code where a .ui would cost more than it says (the list's rows: see
/// ``AlertRowWidget``), each floating until something holds it.
@MainActor enum Make {
    static func box(vertical: Bool, spacing: Int32, _ children: [Widget]) -> Widget {
        let box = gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing)!
        for child in children { box.append(child) }
        return box
    }

    /// A label at its start, in `classes`.
    static func label(_ classes: [String]) -> Widget {
        let label = gtk_label_new(nil)!
        label[.xalign] = 0
        for name in classes { label.addClass(name) }
        return label
    }

    static func iconButton(_ icon: String) -> Widget { gtk_button_new_from_icon_name(icon)! }
    static func `switch`() -> Widget { gtk_switch_new()! }

    /// Takes the floating reference of a widget made here: the caller holds it.
    static func held(_ widget: Widget) -> Widget {
        g_object_ref_sink(widget.raw)
        return widget
    }
}

/// Takes a reference to a GObject (g_object_ref).
func ref(_ object: gpointer) { g_object_ref(object) }
/// Lets go of a reference to a GObject (g_object_unref).
func unref(_ object: gpointer) { g_object_unref(object) }

/// `query-tooltip` on a label: the whole words, only when the label cut them (asked when
/// the pointer or the keyboard rests on it, so nothing is set for each label shown).
func showsWholeTitleWhenCut(_ label: Widget) {
    label[.hasTooltip] = true
    _ = nudge_signal_connect(label.raw, "query-tooltip", unsafeBitCast(wholeTitleWhenCut, to: UnsafeRawPointer.self), nil, nil)
}

private let wholeTitleWhenCut: @convention(c) (UnsafeMutablePointer<GtkWidget>?, Int32, Int32, gboolean, OpaquePointer?, gpointer?) -> gboolean = {
    widget, _, _, _, tooltip, _ in
    guard let widget, let tooltip, let layout = gtk_label_get_layout(widget.opaque), pango_layout_is_ellipsized(layout) != 0 else { return 0 }
    let title = widget.labelText
    // Words other than ASCII kept whole, as ``setTooltip(_:_:)`` does.
    if title.utf8.allSatisfy({ $0 < 0x80 }) { gtk_tooltip_set_text(tooltip, title) } else {
        gtk_tooltip_set_markup(tooltip, wordsKept(title))
    }
    return 1
}

private final class FrameClosure {
    let action: @MainActor () -> Bool
    init(_ action: @escaping @MainActor () -> Bool) { self.action = action }
}

/// A GtkAdjustment: where a scrolled view is, how much of it shows, how long it is.
struct Adjustment {
    let pointer: gpointer?
    init(_ pointer: gpointer?) { self.pointer = pointer }
    var value: Double {
        get { pointer.map { GObjectProperties.get($0, .value) } ?? 0 }
        nonmutating set { if let pointer { GObjectProperties.set(pointer, .value, newValue) } }
    }
    var pageSize: Double { pointer.map { GObjectProperties.get($0, .pageSize) } ?? 0 }
    var upper: Double { pointer.map { GObjectProperties.get($0, .upper) } ?? 0 }
}

/// A list view's GtkListItem: the place on screen a factory fills.
struct ListItem {
    let pointer: gpointer
    init(_ raw: gpointer) { pointer = raw }
    var child: Widget? {
        get { GObjectProperties.get(pointer, .child) }
        nonmutating set { GObjectProperties.set(pointer, .child, newValue) }
    }
    private var item: gpointer? { GObjectProperties.get(pointer, .item) }
    /// The GtkStringObject it shows, as its string; nil while it shows none.
    var string: String? { item.flatMap { GObjectProperties.get($0, .string) } }
    var holdsItem: Bool { item != nil }
    /// Whether it shows `list`'s item at `position` now (after a splice it may still show an
    /// item taken out, with the same string, until the view binds it anew).
    func shows(_ list: StringList, at position: Int) -> Bool {
        guard let item, let current = g_list_model_get_item(OpaquePointer(list.raw), UInt32(position)) else { return false }
        defer { unref(current) }
        return item == current
    }
    var position: Int { Int(GObjectProperties.get(pointer, .position)) }
    /// Neither activated nor selected: its controls are what answer.
    func makeInert() {
        GObjectProperties.set(pointer, .activatable, false)
        GObjectProperties.set(pointer, .selectable, false)
    }
}

/// A GtkStringList, and the model a grid or list view shows it through.
struct StringList {
    let pointer: OpaquePointer
    init(pointer: OpaquePointer) { self.pointer = pointer }
    init() { pointer = gtk_string_list_new(nil)! }
    init(_ strings: [String]) {
        var pointers: [UnsafePointer<CChar>?] = []
        let copies = strings.map { strdup($0) }
        pointers = copies.map { UnsafePointer($0) } + [nil]
        pointer = gtk_string_list_new(&pointers)!
        for copy in copies { free(copy) }
    }
    /// Removes `count` at `position` and puts `added` there.
    func splice(at position: Int, removing count: Int, _ added: [String]) {
        let copies = added.map { strdup($0) }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        gtk_string_list_splice(pointer, UInt32(position), UInt32(count), &pointers)
        for copy in copies { free(copy) }
    }
    var raw: gpointer { UnsafeMutableRawPointer(pointer) }
    /// Shown by `view` (a grid view), nothing selectable.
    func show(in view: Widget) {
        // The selection takes the caller's reference to the list.
        let selection = UnsafeMutableRawPointer(gtk_no_selection_new(pointer))!
        view[.model] = selection
        unref(selection)
    }
    /// Lets go of this reference.
    func release() { unref(raw) }
}

/// Whether the icon theme of the display has an icon of this name.
func iconThemeHas(_ name: String) -> Bool {
    gtk_icon_theme_has_icon(gtk_icon_theme_get_for_display(gdk_display_get_default()), name) != 0
}

/// A GSimpleAction: a name that a button, a menu item or a key runs (`win.add`).
@MainActor struct Action {
    let pointer: OpaquePointer

    /// An action named `name` that runs `body`.
    init(_ name: String, _ body: @escaping @MainActor () -> Void) {
        self.init(name)
        whenRun(body)
    }

    /// An action named `name` that runs what ``whenRun(_:)`` gives it.
    init(_ name: String) { pointer = g_simple_action_new(name, nil)! }

    func whenRun(_ body: @escaping @MainActor () -> Void) { onActivate(UnsafeMutableRawPointer(pointer), body) }

    /// Offered by `map` (a window: `win.NAME`; the application: `app.NAME`).
    func add(to map: gpointer) { Action.add(pointer, to: map) }

    private static func add(_ action: OpaquePointer, to map: gpointer) { g_action_map_add_action(OpaquePointer(map), action) }

    var isEnabled: Bool {
        get { GObjectProperties.get(UnsafeMutableRawPointer(pointer), .enabled) }
        nonmutating set { GObjectProperties.set(UnsafeMutableRawPointer(pointer), .enabled, newValue) }
    }

    /// An action that turns `object`'s boolean `property` (`search`: the search bar's mode).
    static func addProperty(_ name: String, of object: gpointer, _ property: String, to map: gpointer) {
        let action = g_property_action_new(name, object, property)!
        add(OpaquePointer(UnsafeMutableRawPointer(action)), to: map)
        unref(UnsafeMutableRawPointer(action))
    }

    /// `key` ("<Control>n") runs `action` ("win.add") in `application`'s windows.
    static func setKey(_ key: String, for action: String, in application: UnsafeMutablePointer<AdwApplication>) {
        var accels: [UnsafePointer<CChar>?] = [UnsafePointer(strdup(key)), nil]
        gtk_application_set_accels_for_action(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GtkApplication.self), action, &accels)
        free(UnsafeMutableRawPointer(mutating: accels[0]))
    }
}

/// An AdwToast: a line at the window's bottom, with a button where it offers one.
struct Toast: Equatable {
    let pointer: OpaquePointer

    /// A toast saying `markup` (escaped by the caller), held by the caller until
    /// ``release()`` (an AdwToast is not floating).
    init(markup text: String) { pointer = adw_toast_new(text)! }
    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    var title: String { GObjectProperties.get(raw, .title) ?? "" }
    func setButton(_ label: String) { GObjectProperties.set(raw, .buttonLabel, label) }
    func dismiss() { adw_toast_dismiss(pointer) }
    func retain() { ref(raw) }
    func release() { unref(raw) }
    var raw: gpointer { UnsafeMutableRawPointer(pointer) }
    /// Shown by an AdwToastOverlay, which takes the caller's reference.
    func show(in overlay: Widget) { adw_toast_overlay_add_toast(overlay.opaque, pointer) }
}

/// No animations in this program's windows: GtkSettings' `gtk-enable-animations`, set by
/// the program over the desktop's (see ``AdwaitaGeneration/toastAnimationsOverlapSafely``).
func turnOffAnimations() {
    guard let settings = gtk_settings_get_default() else { return }
    GObjectProperties.set(UnsafeMutableRawPointer(settings), .gtkEnableAnimations, false)
}

/// Style rules for the whole display, over the theme's (GTK_STYLE_PROVIDER_PRIORITY_APPLICATION).
func addStyle(_ css: String) {
    let provider = gtk_css_provider_new()!
    gtk_css_provider_load_from_data(provider, css, -1)
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), OpaquePointer(UnsafeMutableRawPointer(provider)),
                                               guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    unref(UnsafeMutableRawPointer(provider))
}
