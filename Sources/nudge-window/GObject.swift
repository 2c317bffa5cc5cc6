import CAdwaita
import NudgeKit
import Foundation

/// A widget as GTK hands it out. GTK's other types are reached from it with ``as(_:)``.
typealias Widget = UnsafeMutablePointer<GtkWidget>

extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// The same object as another of GTK's types (GTK's own casting macros, unchecked).
    func `as`<T>(_: T.Type) -> UnsafeMutablePointer<T> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: T.self) }
    /// The same object where GTK declares the type opaque (GtkSwitch, GtkLabel…).
    var opaque: OpaquePointer { OpaquePointer(self) }
    var raw: gpointer { UnsafeMutableRawPointer(self) }
}

/// A Swift closure GLib owns: retained when connected, released by GLib's destroy notify
/// when the handler or the object goes, so neither side can outlive the other.
private final class Closure: @unchecked Sendable {
    let action: @MainActor () -> Void
    init(_ action: @escaping @MainActor () -> Void) { self.action = action }
}

private let runClosure: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
    guard let data else { return }
    let closure = Unmanaged<Closure>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { closure.action() }
}

/// For `notify::property` (object, GParamSpec, data).
private let runNotify: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
    guard let data else { return }
    let closure = Unmanaged<Closure>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { closure.action() }
}

/// For signals that return a gboolean (`close-request`): handled, nothing else runs.
private let runStopping: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
    guard let data else { return 0 }
    let closure = Unmanaged<Closure>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { closure.action() }
    return 1
}

/// A Swift closure taking the signal's one argument (a list item factory's list item).
private final class ArgumentClosure: @unchecked Sendable {
    let action: @MainActor (gpointer?) -> Void
    init(_ action: @escaping @MainActor (gpointer?) -> Void) { self.action = action }
}

/// For signals whose handler takes (instance, argument, data): `setup`, `bind`.
private let runWithArgument: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
    guard let data else { return }
    let closure = Unmanaged<ArgumentClosure>.fromOpaque(data).takeUnretainedValue()
    let address = Int(bitPattern: argument)
    MainActor.assumeIsolated { closure.action(UnsafeMutableRawPointer(bitPattern: address)) }
}

private let releaseArgumentClosure: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    guard let data else { return }
    Unmanaged<ArgumentClosure>.fromOpaque(data).release()
}

/// Calls `action` with the signal's argument, on a signal whose handler takes
/// (instance, argument, data).
@MainActor func on(_ instance: gpointer, _ signal: String, argument action: @escaping @MainActor (gpointer?) -> Void) {
    let data = Unmanaged.passRetained(ArgumentClosure(action)).toOpaque()
    _ = nudge_signal_connect(instance, signal, unsafeBitCast(runWithArgument, to: UnsafeRawPointer.self), data, releaseArgumentClosure)
}

/// A key handler: (key value, modifiers) → whether it handled the key.
private final class KeyClosure: @unchecked Sendable {
    let action: @MainActor (UInt32, UInt32) -> Bool
    init(_ action: @escaping @MainActor (UInt32, UInt32) -> Bool) { self.action = action }
}

/// For `key-pressed` (controller, keyval, keycode, state, data) → gboolean.
private let runKey: @convention(c) (gpointer?, guint, guint, guint, gpointer?) -> gboolean = { _, keyval, _, state, data in
    guard let data else { return 0 }
    let closure = Unmanaged<KeyClosure>.fromOpaque(data).takeUnretainedValue()
    return MainActor.assumeIsolated { closure.action(keyval, state) } ? 1 : 0
}

private let releaseKeyClosure: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    guard let data else { return }
    Unmanaged<KeyClosure>.fromOpaque(data).release()
}

/// Calls `action` for each key pressed in `widget` before its children see it (the capture
/// phase); a key it handles goes no further.
@MainActor func onKeyPressed(_ widget: Widget, _ action: @escaping @MainActor (_ keyval: UInt32, _ state: UInt32) -> Bool) {
    let controller = gtk_event_controller_key_new()!
    let data = Unmanaged.passRetained(KeyClosure(action)).toOpaque()
    _ = nudge_signal_connect(UnsafeMutableRawPointer(controller), "key-pressed", unsafeBitCast(runKey, to: UnsafeRawPointer.self), data,
                             releaseKeyClosure)
    addCapturing(controller, to: widget)
}

/// Gives `widget` an event controller that sees events before its children do.
private func addCapturing(_ controller: OpaquePointer, to widget: Widget) {
    gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
    gtk_widget_add_controller(widget, controller)
}

/// For `scroll` (controller, dx, dy, data) → gboolean: taken, nothing else runs.
private let takeScroll: @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean = { _, _, _, _ in 1 }

/// A spin button the mouse wheel does not turn: scrolling a page over one changed a
/// setting (and a shorter log deletes history) without the person meaning to.
func ignoreScroll(_ widget: Widget) {
    let controller = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)!
    _ = nudge_signal_connect(UnsafeMutableRawPointer(controller), "scroll", unsafeBitCast(takeScroll, to: UnsafeRawPointer.self), nil, nil)
    addCapturing(controller, to: widget)
}

private let releaseClosure: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    guard let data else { return }
    Unmanaged<Closure>.fromOpaque(data).release()
}

private func connect(_ instance: gpointer, _ signal: String, _ thunk: UnsafeRawPointer, _ action: @escaping @MainActor () -> Void) {
    let data = Unmanaged.passRetained(Closure(action)).toOpaque()
    _ = nudge_signal_connect(instance, signal, thunk, data, releaseClosure)
}

/// Calls `action` on `signal` of a signal whose handler takes (instance, data): `clicked`,
/// `activate`, `changed`, `value-changed`, `toggled`.
@MainActor func on(_ instance: gpointer, _ signal: String, _ action: @escaping @MainActor () -> Void) {
    connect(instance, signal, unsafeBitCast(runClosure, to: UnsafeRawPointer.self), action)
}

/// Calls `body` when a `GSimpleAction` is activated (action, parameter, data).
@MainActor func onActivate(_ action: gpointer, _ body: @escaping @MainActor () -> Void) {
    connect(action, "activate", unsafeBitCast(runNotify, to: UnsafeRawPointer.self), body)
}

/// Calls `action` when `property` of `instance` changes.
@MainActor func onNotify(_ instance: gpointer, _ property: String, _ action: @escaping @MainActor () -> Void) {
    connect(instance, "notify::" + property, unsafeBitCast(runNotify, to: UnsafeRawPointer.self), action)
}

/// Calls `action` on a signal that asks whether it was handled (`close-request`), saying yes.
@MainActor func onStopping(_ instance: gpointer, _ signal: String, _ action: @escaping @MainActor () -> Void) {
    connect(instance, signal, unsafeBitCast(runStopping, to: UnsafeRawPointer.self), action)
}

/// Gives an accessible name to a control whose visible text does not say what it acts on
/// (a switch: which reminder it switches).
func setAccessibleName(_ widget: Widget, _ name: String) {
    nudge_accessible_set_label(widget.raw, name)
}

/// Sets a widget's tooltip, hidden for the moment: GTK 4.8 asks the display where the
/// pointer is (two X round trips) for each tooltip set on a shown widget, and the rows'
/// forty took 3 ms of a start. Words other than ASCII are kept whole (``wordsKept(_:)``):
/// GTK 4.8 gave a Korean tooltip the width of a syllable ("설/정" on two lines). ASCII is
/// set as it is (Pango breaks it between words; the markup cost a start 2 ms).
func setTooltip(_ widget: Widget, _ text: String) {
    let shown = widget.isVisible
    if shown { widget.isVisible = false }
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
        widget[.tooltipText] = text
    } else {
        widget[.tooltipMarkup] = wordsKept(text)
    }
    if shown { widget.isVisible = true }
}

func setAccessibleDescription(_ widget: Widget, _ description: String) {
    nudge_accessible_set_description(widget.raw, description)
}

func setText(_ label: Widget, _ text: String) {
    // Setting the same text again would still queue a resize.
    if label.labelText != text { label.labelText = text }
}

/// The text of a button whose child is a label (its name said apart, as in alert-answers.ui).
func setButtonText(_ button: Widget, _ text: String) {
    if let content = button[.child] { setText(content, text) }
}

/// Text where GTK reads Pango markup (a toast's title): `<`, `&` and quotes escaped.
func markup(_ text: String) -> String {
    guard let escaped = g_markup_escape_text(text, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
}


/// Whether Shift is held on the keyboard now (a focus that came with Shift+Tab).
func shiftHeld() -> Bool {
    guard let display = gdk_display_get_default(), let seat = gdk_display_get_default_seat(display),
          let keyboard = gdk_seat_get_keyboard(seat) else { return false }
    return gdk_device_get_modifier_state(keyboard).rawValue & GDK_SHIFT_MASK.rawValue != 0
}

/// Work for when GTK is done with the event at hand (a handler's change to the widget that
/// emitted the signal would be undone by the rest of its emission).
private final class IdleClosure: @unchecked Sendable {
    let action: @MainActor () -> Void
    init(_ action: @escaping @MainActor () -> Void) { self.action = action }
}

/// Runs `action` once, at GTK's next idle moment, before redrawing.
@MainActor func afterThisEvent(_ action: @escaping @MainActor () -> Void) {
    let data = Unmanaged.passRetained(IdleClosure(action)).toOpaque()
    g_idle_add_full(G_PRIORITY_HIGH_IDLE, { data in
        MainActor.assumeIsolated { Unmanaged<IdleClosure>.fromOpaque(data!).takeUnretainedValue().action() }
        return 0
    }, data, { data in Unmanaged<IdleClosure>.fromOpaque(data!).release() })
}

/// Gives `first` the focus again once the window it is in is on screen, unless the person
/// has moved on: a focus given before a window is shown tells a screen reader nothing (GTK
/// 4.8 says it only of a shown widget), and one GTK gives while showing it came before the
/// window was showing, which Orca then took for a window not shown and said nothing in it.
/// Called after the window's first present, with `first` focused before it. GTK 4.10 and
/// later say the first focus themselves (given again, Debian 13's said the title twice).
@MainActor func sayFocusOnceShown(_ first: Widget) {
    guard !AdwaitaGeneration.gtkSaysFirstFocus else { return }
    afterThisEvent {
        guard let root = gtk_widget_get_root(first), let focus = first.focusInWindow, focus.isInside(first) else { return }
        gtk_root_set_focus(root, nil)
        first.grabFocus()
    }
}

/// Runs `action` once on the main loop after `milliseconds`.
@MainActor func after(milliseconds: UInt32, _ action: @escaping @MainActor () -> Void) {
    let data = Unmanaged.passRetained(IdleClosure(action)).toOpaque()
    g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
        MainActor.assumeIsolated { Unmanaged<IdleClosure>.fromOpaque(data!).takeUnretainedValue().action() }
        return 0
    }, data, { data in Unmanaged<IdleClosure>.fromOpaque(data!).release() })
}

/// Space, Enter and the keypad's Enter toggle `toggle`, a GtkSwitch, while it has the focus.
@MainActor func togglesByKeys(_ toggle: Widget) {
    onKeyPressed(toggle) { key, state in
        let space: UInt32 = 0x20, enter: UInt32 = 0xff0d, keypadEnter: UInt32 = 0xff8d, kpSpace: UInt32 = 0xff80
        let modifiers: UInt32 = 0x4 | 0x8  // Control, Alt
        guard [space, enter, keypadEnter, kpSpace].contains(key), state & modifiers == 0 else { return false }
        toggle.isOn = !toggle.isOn
        return true
    }
}

/// Shows `text` in a label that wraps, broken between words only: Pango breaks Korean
/// between any two syllables, so each word is kept whole (`allow_breaks`), as Korean is
/// written ("다음: 3월 10일 (화) 오전 9:30", never "오\n전").
func setWordsKept(_ label: Widget, _ text: String) {
    gtk_label_set_markup(label.opaque, wordsKept(text))
}

/// `text` as Pango markup that breaks lines between words only (see ``setWordsKept(_:_:)``).
func wordsKept(_ text: String) -> String {
    text.split(separator: " ", omittingEmptySubsequences: false).map { word in
        word.isEmpty ? "" : "<span allow_breaks=\"false\">" + markup(String(word)) + "</span>"
    }.joined(separator: " ")
}

/// The subtitles of the action rows under `root` as its .ui gave them (plain words), broken
/// between words only: Korean broke "시각입/니다" inside a word at 360 px.
@MainActor func keepWordsInSubtitles(under root: Widget) {
    if root.is(.actionRow), !root[.useMarkup], case let subtitle = root.subtitle, !subtitle.isEmpty {
        setSubtitleWordsKept(root, subtitle)
    }
    for current in root.children {
        keepWordsInSubtitles(under: current)
    }
}

/// An action row's subtitle, broken between words only.
func setSubtitleWordsKept(_ row: Widget, _ text: String) {
    row[.useMarkup] = true
    row.subtitle = wordsKept(text)
}
