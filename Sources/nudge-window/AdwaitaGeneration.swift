#if canImport(Glibc)
import Glibc
#endif
import CAdwaita

/// The libadwaita the window runs on, read once at start (`adw_get_minor_version`): one
/// program for both generations. Where it finds 1.4 or newer it uses what current GNOME apps
/// use (AdwToolbarView's flat header; from 1.5 AdwPreferencesDialog and AdwAboutDialog);
/// otherwise the 1.2 widgets Debian 12 has. GtkBuilder creates a type by its name, so each
/// generation has its own `.ui` where the widgets differ (same ids, one wiring), and the
/// program links only 1.2's functions: a newer widget is filled through GtkBuildable
/// (``addChild(_:to:type:)``) and set through properties; the two functions of AdwDialog that
/// have no such way (present, add a toast) are looked up in the loaded libadwaita.
enum AdwaitaGeneration {
    /// libadwaita 1's minor version, as loaded (not as built against).
    static let minor = Int(adw_get_minor_version())
    /// AdwToolbarView (1.4): the header as a flat top bar.
    static var hasToolbarView: Bool { minor >= 4 }
    /// AdwDialog, AdwPreferencesDialog, AdwAboutDialog (1.5), shown over the window.
    static var hasDialogs: Bool { minor >= 5 }
    /// An AdwEntryRow whose text says to a screen reader that it has the focus. 1.2's never
    /// does (its text reports no focus, only an inner box of no name does; later versions pass
    /// the text's focus on, which GTK 4.10 made possible), so on 1.2 each entry row of a `.ui`
    /// is built as an action row holding a GtkEntry (``Builder``).
    static var entryRowsReportFocus: Bool { minor >= 4 }

    /// A toast's showing and hiding may overlap (1.3). 1.2 frees a toast's data when its
    /// hiding ends while its showing still plays (one shown over another's hiding, for 500 ms,
    /// and dismissed within 200 ms), and the showing's end then reads it: 1.3's "Prevent
    /// show_done from firing after hide_done". The window crashed so on two deletes, or a
    /// delete and Ctrl+Z, in quick succession; on 1.2 its animations are off
    /// (``turnOffAnimations()``): each toast shows and goes at once.
    static var toastAnimationsOverlapSafely: Bool { minor >= 3 }
    /// The toast overlay announces its toasts to a screen reader itself (1.6).
    static var toastsAnnounce: Bool { minor >= 6 }
    /// GTK 4's minor version, as loaded.
    static let gtkMinor = Int(gtk_get_minor_version())
    /// GTK says a window's first focus to a screen reader itself (4.10); 4.8 says it only
    /// of a widget already shown (``sayFocusOnceShown(_:)``).
    static var gtkSaysFirstFocus: Bool { gtkMinor >= 10 }
    /// A list item is a focus stop of its own unless told not to be (GtkListItem:focusable, 4.12).
    static var listItemsFocusable: Bool { gtkMinor >= 12 }

    /// The `.ui` of the window: a box under the header (1.2) or an AdwToolbarView.
    static var mainWindow: String { hasToolbarView ? "main-window-1.4" : "main-window" }
    /// The settings' frame: AdwPreferencesWindow (1.2) or AdwPreferencesDialog.
    static var settings: String { hasDialogs ? "settings-dialog-1.5" : "settings-window" }
    /// About Nudge: AdwAboutWindow (1.2) or AdwAboutDialog.
    static var about: String { hasDialogs ? "about-dialog-1.5" : "about-window" }

    /// Adds `child` to `parent` as a `.ui` file's `<child type="…">` would: AdwToolbarView's
    /// `top` bar, an AdwPreferencesWindow's or AdwPreferencesDialog's page (no type).
    @MainActor static func addChild(_ child: Widget, to parent: Widget, type: String? = nil) {
        nudge_buildable_add_child(parent.raw, child.raw, type)
    }

    /// A bar at the top of the window's page: an AdwToolbarView's top bar (1.4), or the
    /// page box's next child, after `sibling` (the first without one).
    @MainActor static func addTopBar(_ bar: Widget, to page: Widget, after sibling: Widget?) {
        if hasToolbarView {
            addChild(bar, to: page, type: "top")
        } else if let sibling {
            gtk_box_insert_child_after(page.as(GtkBox.self), bar, sibling)
        } else {
            gtk_box_prepend(page.as(GtkBox.self), bar)
        }
    }

    /// The top of a `.ui` of either generation: a dialog is a widget, the builder's until it
    /// has a parent, so the caller holds it (let go by ``dismiss(_:)`` or once presented); a
    /// window is its own.
    @MainActor static func top(_ ui: Builder, _ id: String) -> Widget { hasDialogs ? ui.keep(id) : ui(id) }

    /// What ``top(_:_:)`` held let go, once something else holds it (a presented dialog).
    @MainActor static func letGo(_ top: Widget) {
        if hasDialogs { top.release() }
    }

    /// A window of either generation gone for good once closed: a dialog, held by the code
    /// since it was built (``Builder/keep(_:)``), let go; a window destroyed.
    @MainActor static func dismiss(_ window: Widget) {
        if hasDialogs { window.release() } else { window.destroy() }
    }

    /// Shows a window of either generation over `parent`: an AdwDialog inside it (1.5), a
    /// GtkWindow transient for it.
    @MainActor static func present(_ window: Widget, over parent: Widget) {
        if hasDialogs {
            // Already over the window: presenting it again would move it.
            if window.parent == nil { Dialogs.shared.present(window.raw, parent.raw) }
        } else {
            window.keepAbove(parent)
            window.present()
        }
    }

    /// Shows a toast in the settings (AdwPreferencesWindow or AdwPreferencesDialog).
    @MainActor static func addToast(_ toast: Toast, toSettings settings: Widget) {
        if hasDialogs {
            Dialogs.shared.addToast(settings.raw, toast.raw)
        } else {
            adw_preferences_window_add_toast(settings.as(AdwPreferencesWindow.self), toast.pointer)
        }
    }

    /// AdwDialog's functions (1.5) that no property or signal reaches, found by name in the
    /// libadwaita already loaded (the program's own dependency): absent from the 1.2 headers
    /// this is built against, so not linked.
    private struct Dialogs {
        typealias Present = @convention(c) (gpointer?, gpointer?) -> Void
        let present: Present, addToast: Present

        @MainActor static let shared = Dialogs()

        private init() {
            func function(_ name: String) -> Present {
                // RTLD_DEFAULT: the program's global scope, libadwaita among it. Only asked for
                // when adw_get_minor_version said 1.5 or newer, where these are there.
                guard let symbol = dlsym(nil, name) else { fatalError("libadwaita 1.\(AdwaitaGeneration.minor) has no \(name)") }
                return unsafeBitCast(symbol, to: Present.self)
            }
            present = function("adw_dialog_present")
            addToast = function("adw_preferences_dialog_add_toast")
        }
    }
}
