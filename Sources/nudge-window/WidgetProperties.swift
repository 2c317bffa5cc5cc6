import CAdwaita

/// The few properties and calls the window's code uses on every page, in Swift's words:
/// `row.isVisible = false`, not `gtk_widget_set_visible(row, 0)`. Each is GTK's own call,
/// unchecked as GTK's casting macros are: the widget is of the type the name says.
extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// Shown (GtkWidget:visible).
    var isVisible: Bool {
        get { gtk_widget_get_visible(self) != 0 }
        nonmutating set { gtk_widget_set_visible(self, newValue ? 1 : 0) }
    }

    /// A GtkSwitch's state (GtkSwitch:active).
    var isOn: Bool {
        get { gtk_switch_get_active(opaque) != 0 }
        nonmutating set { gtk_switch_set_active(opaque, newValue ? 1 : 0) }
    }

    /// A toggle button's or a check button's state.
    var isPressed: Bool {
        get { gtk_toggle_button_get_active(self.as(GtkToggleButton.self)) != 0 }
        nonmutating set { gtk_toggle_button_set_active(self.as(GtkToggleButton.self), newValue ? 1 : 0) }
    }

    /// A GtkEditable's text (an entry, an entry row, a spin button).
    var text: String {
        get { String(cString: gtk_editable_get_text(opaque)) }
        nonmutating set { gtk_editable_set_text(opaque, newValue) }
    }

    /// A GtkSpinButton's value, whole.
    var number: Int {
        get { Int(gtk_spin_button_get_value_as_int(opaque)) }
        nonmutating set { gtk_spin_button_set_value(opaque, Double(newValue)) }
    }

    /// The widget's children, first to last.
    var children: UnfoldSequence<Widget, Widget?> {
        sequence(state: gtk_widget_get_first_child(self)) { next in
            defer { next = next.flatMap { gtk_widget_get_next_sibling($0) } }
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
    func release() { g_object_unref(raw) }

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
    var hasFocus: Bool { gtk_widget_has_focus(self) != 0 }
    var isFocusable: Bool {
        get { gtk_widget_get_focusable(self) != 0 && gtk_widget_get_can_focus(self) != 0 }
        nonmutating set { gtk_widget_set_focusable(self, newValue ? 1 : 0) }
    }
    /// Moves the focus into it, as Tab (or Shift+Tab) would; false where nothing takes it.
    func focusChild(forward: Bool) -> Bool { gtk_widget_child_focus(self, forward ? GTK_DIR_TAB_FORWARD : GTK_DIR_TAB_BACKWARD) != 0 }
    /// Answers clicks and keys (GtkWidget:sensitive).
    var isSensitive: Bool {
        get { gtk_widget_is_sensitive(self) != 0 }
        nonmutating set { gtk_widget_set_sensitive(self, newValue ? 1 : 0) }
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
        if let across { gtk_widget_set_halign(self, across) }
        if let down { gtk_widget_set_valign(self, down) }
    }
    var expandsAcross: Bool {
        get { gtk_widget_get_hexpand(self) != 0 }
        nonmutating set { gtk_widget_set_hexpand(self, newValue ? 1 : 0) }
    }
    func margins(start: Int32? = nil, end: Int32? = nil, top: Int32? = nil, bottom: Int32? = nil) {
        if let start { gtk_widget_set_margin_start(self, start) }
        if let end { gtk_widget_set_margin_end(self, end) }
        if let top { gtk_widget_set_margin_top(self, top) }
        if let bottom { gtk_widget_set_margin_bottom(self, bottom) }
    }
    var minimumHeight: Int32 {
        get { var height: Int32 = 0; gtk_widget_get_size_request(self, nil, &height); return height }
        nonmutating set { gtk_widget_set_size_request(self, -1, newValue) }
    }
    /// A box's (or any GtkOrientable's) direction.
    var isVertical: Bool {
        get { gtk_orientable_get_orientation(opaque) == GTK_ORIENTATION_VERTICAL }
        nonmutating set { gtk_orientable_set_orientation(opaque, newValue ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL) }
    }
    /// Adds `child` at a GtkBox's end.
    func append(_ child: Widget) { gtk_box_append(self.as(GtkBox.self), child) }
    /// Moves a GtkBox's `child` to after `sibling` (first: nil).
    func reorder(_ child: Widget, after sibling: Widget?) { gtk_box_reorder_child_after(self.as(GtkBox.self), child, sibling) }

    /// A GtkLabel's lines: `wraps` between words (and inside a word too long for a line,
    /// `insideWords`) up to `lines`, and cut with "…" when `ellipsizes`.
    func setLines(wraps: Bool, insideWords: Bool = false, lines: Int32 = -1, ellipsizes: Bool) {
        gtk_label_set_wrap(opaque, wraps ? 1 : 0)
        gtk_label_set_wrap_mode(opaque, insideWords ? PANGO_WRAP_WORD_CHAR : PANGO_WRAP_WORD)
        gtk_label_set_lines(opaque, lines)
        gtk_label_set_ellipsize(opaque, ellipsizes ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE)
    }

    // MARK: Scrolling and frames

    /// A scrollable's vertical adjustment (a list view's).
    var verticalAdjustment: Adjustment { Adjustment(pointer: gtk_scrollable_get_vadjustment(opaque)) }

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
    var ellipsizes: Bool { gtk_label_get_ellipsize(opaque) != PANGO_ELLIPSIZE_NONE }
    /// A GtkLabel's lines centred, one line asked for: wrapped only where it cannot have one.
    func centreLinesAskingOne() {
        gtk_label_set_justify(opaque, GTK_JUSTIFY_CENTER)
        gtk_label_set_natural_wrap_mode(opaque, GTK_NATURAL_WRAP_NONE)
    }

    /// A GtkLabel's text (GtkLabel:label, without markup).
    var labelText: String {
        get { String(cString: gtk_label_get_text(opaque)) }
        nonmutating set { gtk_label_set_text(opaque, newValue) }
    }
    var tooltipText: String? { gtk_widget_get_tooltip_text(self).map { String(cString: $0) } }
    /// A button's own words (GtkButton:label), nil for one that has none.
    var buttonLabel: String? {
        get {
            guard let label = gtk_button_get_label(self.as(GtkButton.self)), label.pointee != 0 else { return nil }
            return String(cString: label)
        }
        nonmutating set { gtk_button_set_label(self.as(GtkButton.self), newValue) }
    }
    /// A GtkLevelBar's value.
    var level: Double {
        get { gtk_level_bar_get_value(opaque) }
        nonmutating set { gtk_level_bar_set_value(opaque, newValue) }
    }
    var menuButtonLabel: String? { gtk_menu_button_get_label(opaque).map { String(cString: $0) } }
    /// A GtkImage's icon, by its name in the icon theme.
    var iconName: String? {
        get { gtk_image_get_icon_name(opaque).map { String(cString: $0) } }
        nonmutating set { gtk_image_set_from_icon_name(opaque, newValue) }
    }
    /// An AdwPreferencesRow's title.
    var rowTitle: String {
        get { adw_preferences_row_get_title(self.as(AdwPreferencesRow.self)).map { String(cString: $0) } ?? "" }
        nonmutating set { adw_preferences_row_set_title(self.as(AdwPreferencesRow.self), newValue) }
    }
    /// An AdwActionRow's subtitle.
    var subtitle: String {
        get { adw_action_row_get_subtitle(self.as(AdwActionRow.self)).map { String(cString: $0) } ?? "" }
        nonmutating set { adw_action_row_set_subtitle(self.as(AdwActionRow.self), newValue) }
    }
    /// An AdwWindowTitle's subtitle.
    var headingSubtitle: String {
        get { adw_window_title_get_subtitle(opaque).map { String(cString: $0) } ?? "" }
        nonmutating set { adw_window_title_set_subtitle(opaque, newValue) }
    }
    /// Adds `widget` at an AdwActionRow's end.
    func addSuffix(_ widget: Widget) { adw_action_row_add_suffix(self.as(AdwActionRow.self), widget) }
    /// A GtkMenuButton's popover.
    var menuPopover: Widget? { gtk_menu_button_get_popover(opaque).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) } }
    var groupTitle: String { adw_preferences_group_get_title(self.as(AdwPreferencesGroup.self)).map { String(cString: $0) } ?? "" }
    /// An AdwWindowTitle's title.
    var headingTitle: String {
        get { adw_window_title_get_title(opaque).map { String(cString: $0) } ?? "" }
        nonmutating set { adw_window_title_set_title(opaque, newValue) }
    }
    /// An AdwComboRow's chosen position.
    var chosen: Int {
        get { Int(adw_combo_row_get_selected(self.as(AdwComboRow.self))) }
        nonmutating set { adw_combo_row_set_selected(self.as(AdwComboRow.self), UInt32(newValue)) }
    }
    /// A screen reader names it by the name it is given alone, not by the labels inside it too
    /// (GTK 4.8 joins them: "Undo Undo").
    func forgetLabelledBy() { gtk_accessible_reset_relation(opaque, GTK_ACCESSIBLE_RELATION_LABELLED_BY) }
    /// The most characters an entry-like widget takes (its GtkText's max-length).
    func limitLength(_ characters: Int) {
        if let text = gtk_editable_get_delegate(opaque) { gtk_text_set_max_length(UnsafeMutableRawPointer(text).assumingMemoryBound(to: GtkText.self), Int32(characters)) }
    }

    // MARK: Windows

    func present() { gtk_window_present(self.as(GtkWindow.self)) }
    func close() { gtk_window_close(self.as(GtkWindow.self)) }
    func destroy() { gtk_window_destroy(self.as(GtkWindow.self)) }
    var windowTitle: String {
        get { gtk_window_get_title(self.as(GtkWindow.self)).map { String(cString: $0) } ?? "" }
        nonmutating set { gtk_window_set_title(self.as(GtkWindow.self), newValue) }
    }
    var isActiveWindow: Bool { gtk_window_is_active(self.as(GtkWindow.self)) != 0 }
    /// A window's icon, by name (the window manager's and the task switcher's).
    var iconNameOfWindow: String {
        get { gtk_window_get_icon_name(self.as(GtkWindow.self)).map { String(cString: $0) } ?? "" }
        nonmutating set { gtk_window_set_icon_name(self.as(GtkWindow.self), newValue) }
    }
    /// An AdwToastOverlay's content.
    var toastOverlayChild: Widget? {
        get { adw_toast_overlay_get_child(opaque) }
        nonmutating set { adw_toast_overlay_set_child(opaque, newValue) }
    }
    /// The cursor after an editable's last character.
    func moveCursorToEnd() { gtk_editable_set_position(opaque, -1) }
    /// Kept above `parent` and closed with it (GtkWindow:transient-for).
    func keepAbove(_ parent: Widget) { gtk_window_set_transient_for(self.as(GtkWindow.self), parent.as(GtkWindow.self)) }

    /// A label's words with a mnemonic ("_Add": Alt+A).
    func setMnemonicText(_ text: String) { gtk_label_set_text_with_mnemonic(opaque, text) }

    // MARK: Choices

    /// A GtkFlowBox's child at `index` (its cell around what was appended).
    func flowBoxCell(_ index: Int) -> Widget? {
        gtk_flow_box_get_child_at_index(opaque, Int32(index)).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }
    }
    func appendToFlowBox(_ child: Widget) { gtk_flow_box_append(opaque, child) }
    /// Makes a toggle button one of `first`'s group: one of them down at a time.
    func joinGroup(of first: Widget) { gtk_toggle_button_set_group(self.as(GtkToggleButton.self), first.as(GtkToggleButton.self)) }
    /// An AdwComboRow's choices, in words.
    func setChoices(_ words: [String]) {
        let list = StringList(words)
        adw_combo_row_set_model(self.as(AdwComboRow.self), list.pointer)
        list.release()
    }
    /// A GtkSpinButton's value.
    var value: Double {
        get { gtk_spin_button_get_value(opaque) }
        nonmutating set { gtk_spin_button_set_value(opaque, newValue) }
    }
    func setRange(_ range: ClosedRange<Double>) { gtk_spin_button_set_range(opaque, range.lowerBound, range.upperBound) }

    /// A GtkCalendar's day picked.
    var pickedDay: (year: Int, month: Int, day: Int)? {
        guard let date = gtk_calendar_get_date(opaque) else { return nil }
        defer { g_date_time_unref(date) }
        return (Int(g_date_time_get_year(date)), Int(g_date_time_get_month(date)), Int(g_date_time_get_day_of_month(date)))
    }
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
        get { gtk_switch_get_state(opaque) != 0 }
        nonmutating set { gtk_switch_set_state(opaque, newValue ? 1 : 0) }
    }

    // MARK: Kinds

    /// The kinds of widget the window's code asks about, each GTK's or libadwaita's type.
    enum Kind {
        case button, menuButton, image, label, entry, searchEntry, textView, popover, listBox, listView, scrolledWindow,
             scrollbar, flowBoxChild, stack, preferencesGroup, preferencesRow, windowTitle

        var type: GType {
            switch self {
            case .button: gtk_button_get_type()
            case .menuButton: gtk_menu_button_get_type()
            case .image: gtk_image_get_type()
            case .label: gtk_label_get_type()
            case .entry: gtk_entry_get_type()
            case .searchEntry: gtk_search_entry_get_type()
            case .textView: gtk_text_view_get_type()
            case .popover: gtk_popover_get_type()
            case .listBox: gtk_list_box_get_type()
            case .listView: gtk_list_view_get_type()
            case .scrolledWindow: gtk_scrolled_window_get_type()
            case .scrollbar: gtk_scrollbar_get_type()
            case .flowBoxChild: gtk_flow_box_child_get_type()
            case .stack: gtk_stack_get_type()
            case .preferencesGroup: adw_preferences_group_get_type()
            case .preferencesRow: adw_preferences_row_get_type()
            case .windowTitle: adw_window_title_get_type()
            }
        }
    }

    func `is`(_ kind: Kind) -> Bool { self.is(kind.type) }

    /// A GtkStack's pages (each an accessible node of its own) with their titles.
    var stackPages: [(page: gpointer, title: String)] {
        children.compactMap { child in
            gtk_stack_get_page(opaque, child).map { (UnsafeMutableRawPointer($0), gtk_stack_page_get_title($0).map { String(cString: $0) } ?? "") }
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
        gtk_label_set_xalign(label.opaque, 0)
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

/// `query-tooltip` on a label: the whole words, only when the label cut them (asked when
/// the pointer or the keyboard rests on it, so nothing is set for each label shown).
func showsWholeTitleWhenCut(_ label: Widget) {
    gtk_widget_set_has_tooltip(label, 1)
    _ = nudge_signal_connect(label.raw, "query-tooltip", unsafeBitCast(wholeTitleWhenCut, to: UnsafeRawPointer.self), nil, nil)
}

private let wholeTitleWhenCut: @convention(c) (UnsafeMutablePointer<GtkWidget>?, Int32, Int32, gboolean, OpaquePointer?, gpointer?) -> gboolean = {
    widget, _, _, _, tooltip, _ in
    guard let widget, let tooltip, let layout = gtk_label_get_layout(widget.opaque), pango_layout_is_ellipsized(layout) != 0,
          let text = gtk_label_get_text(widget.opaque) else { return 0 }
    let title = String(cString: text)
    // Words other than ASCII kept whole, as ``setTooltip(_:_:)`` does.
    if title.utf8.allSatisfy({ $0 < 0x80 }) { gtk_tooltip_set_text(tooltip, text) } else {
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
    let pointer: UnsafeMutablePointer<GtkAdjustment>?
    init(pointer: UnsafeMutablePointer<GtkAdjustment>?) { self.pointer = pointer }
    init(_ raw: gpointer) { pointer = raw.assumingMemoryBound(to: GtkAdjustment.self) }
    var value: Double {
        get { gtk_adjustment_get_value(pointer) }
        nonmutating set { gtk_adjustment_set_value(pointer, newValue) }
    }
    var pageSize: Double { gtk_adjustment_get_page_size(pointer) }
    var upper: Double { gtk_adjustment_get_upper(pointer) }
}

/// A list view's GtkListItem: the place on screen a factory fills.
struct ListItem {
    let pointer: OpaquePointer
    init(_ raw: gpointer) { pointer = OpaquePointer(raw) }
    var child: Widget? {
        get { gtk_list_item_get_child(pointer) }
        nonmutating set { gtk_list_item_set_child(pointer, newValue) }
    }
    /// The GtkStringObject it shows, as its string; nil while it shows none.
    var string: String? { gtk_list_item_get_item(pointer).map { String(cString: gtk_string_object_get_string(OpaquePointer($0))) } }
    var holdsItem: Bool { gtk_list_item_get_item(pointer) != nil }
    var position: Int { Int(gtk_list_item_get_position(pointer)) }
    /// Neither activated nor selected: its controls are what answer.
    func makeInert() {
        gtk_list_item_set_activatable(pointer, 0)
        gtk_list_item_set_selectable(pointer, 0)
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
    /// Shown by `view` (a grid view), nothing selectable.
    func show(in view: Widget) {
        let selection = gtk_no_selection_new(pointer)
        gtk_grid_view_set_model(view.opaque, selection)
        g_object_unref(UnsafeMutableRawPointer(selection))
    }
    /// Lets go of this reference.
    func release() { g_object_unref(UnsafeMutableRawPointer(pointer)) }
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
    func add(to map: gpointer) { g_action_map_add_action(OpaquePointer(map), pointer) }

    var isEnabled: Bool {
        get { g_action_get_enabled(pointer) != 0 }
        nonmutating set { g_simple_action_set_enabled(pointer, newValue ? 1 : 0) }
    }

    /// An action that turns `object`'s boolean `property` (`search`: the search bar's mode).
    static func addProperty(_ name: String, of object: gpointer, _ property: String, to map: gpointer) {
        let action = g_property_action_new(name, object, property)!
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
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

    var title: String { adw_toast_get_title(pointer).map { String(cString: $0) } ?? "" }
    func setButton(_ label: String) { adw_toast_set_button_label(pointer, label) }
    /// Shown at once, over a toast on show (which comes back after).
    func showFirst() { adw_toast_set_priority(pointer, ADW_TOAST_PRIORITY_HIGH) }
    func dismiss() { adw_toast_dismiss(pointer) }
    func retain() { g_object_ref(UnsafeMutableRawPointer(pointer)) }
    func release() { g_object_unref(UnsafeMutableRawPointer(pointer)) }
    var raw: gpointer { UnsafeMutableRawPointer(pointer) }
    /// Shown by an AdwToastOverlay, which takes the caller's reference.
    func show(in overlay: Widget) { adw_toast_overlay_add_toast(overlay.opaque, pointer) }
}

/// Style rules for the whole display, over the theme's (GTK_STYLE_PROVIDER_PRIORITY_APPLICATION).
func addStyle(_ css: String) {
    let provider = gtk_css_provider_new()!
    gtk_css_provider_load_from_data(provider, css, -1)
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), OpaquePointer(UnsafeMutableRawPointer(provider)),
                                               guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    g_object_unref(UnsafeMutableRawPointer(provider))
}
