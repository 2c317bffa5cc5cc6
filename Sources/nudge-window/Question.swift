#if canImport(Glibc)
import Glibc
#endif
import CAdwaita

/// A question with answers, over a window, as GNOME's apps ask: libadwaita 1.2's
/// AdwMessageDialog (a window of its own), or from 1.5 AdwAlertDialog, inside the window as
/// current GNOME apps have it (AdwMessageDialog is deprecated from 1.6, and on 1.7 under
/// Wayland it warned as it was measured). One place for the form's Discard question, the
/// restore's and the guide's.
@MainActor struct Question {
    enum Look { case plain, suggested, destructive }

    /// An answer: its id (what `answered` is given), its words with a mnemonic, its look.
    struct Answer {
        let id: String, label: String, look: Look
        init(_ id: String, _ label: String, _ look: Look = .plain) { self.id = id; self.label = label; self.look = look }
    }

    /// Asks over `parent`'s window; `answered` gets the id of the answer taken (`close` for
    /// Escape). The dialog is returned so that a caller can tell that it is open.
    @discardableResult
    static func ask(over parent: Widget, heading: String, body: String, answers: [Answer], default defaultAnswer: String,
                    close: String, answered: @escaping @MainActor (String) -> Void) -> Widget {
        let dialog: Widget
        if AdwaitaGeneration.hasDialogs {
            let alert = Alert.shared
            dialog = UnsafeMutableRawPointer(alert.new(heading, body)!).assumingMemoryBound(to: GtkWidget.self)
            for answer in answers {
                alert.add(dialog.raw, answer.id, answer.label)
                if answer.look != .plain { alert.appearance(dialog.raw, answer.id, appearance(answer.look)) }
            }
            alert.setDefault(dialog.raw, defaultAnswer)
            alert.setClose(dialog.raw, close)
        } else {
            let window = UnsafeMutableRawPointer(gtk_widget_get_root(parent)).map { $0.assumingMemoryBound(to: GtkWindow.self) }
            dialog = adw_message_dialog_new(window, heading, body)
            let question = dialog.as(AdwMessageDialog.self)
            for answer in answers {
                adw_message_dialog_add_response(question, answer.id, answer.label)
                if answer.look != .plain { adw_message_dialog_set_response_appearance(question, answer.id, appearance(answer.look)) }
            }
            adw_message_dialog_set_default_response(question, defaultAnswer)
            adw_message_dialog_set_close_response(question, close)
        }
        on(dialog.raw, "response", argument: { response in
            answered(response.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? close)
        })
        // Its buttons by their words: libadwaita 1.2 names them "_Keep Editing Keep Editing".
        AccessibleNames.nameButtons(in: dialog)
        if AdwaitaGeneration.hasDialogs {
            AdwaitaGeneration.present(dialog, over: parent)
        } else {
            dialog.present()
        }
        return dialog
    }

    private static func appearance(_ look: Look) -> AdwResponseAppearance {
        switch look {
        case .plain: ADW_RESPONSE_DEFAULT
        case .suggested: ADW_RESPONSE_SUGGESTED
        case .destructive: ADW_RESPONSE_DESTRUCTIVE
        }
    }

    /// AdwAlertDialog's functions (1.5), found by name in the libadwaita already loaded, as
    /// ``AdwaitaGeneration`` finds AdwDialog's: absent from the 1.2 headers this is built against.
    private struct Alert {
        typealias New = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> OpaquePointer?
        typealias Add = @convention(c) (gpointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void
        typealias Appearance = @convention(c) (gpointer?, UnsafePointer<CChar>?, AdwResponseAppearance) -> Void
        typealias Set = @convention(c) (gpointer?, UnsafePointer<CChar>?) -> Void
        let new: New, add: Add, appearance: Appearance, setDefault: Set, setClose: Set

        @MainActor static let shared = Alert()

        private init() {
            func function<T>(_ name: String, as type: T.Type) -> T {
                guard let symbol = dlsym(nil, name) else { fatalError("libadwaita 1.\(AdwaitaGeneration.minor) has no \(name)") }
                return unsafeBitCast(symbol, to: type)
            }
            new = function("adw_alert_dialog_new", as: New.self)
            add = function("adw_alert_dialog_add_response", as: Add.self)
            appearance = function("adw_alert_dialog_set_response_appearance", as: Appearance.self)
            setDefault = function("adw_alert_dialog_set_default_response", as: Set.self)
            setClose = function("adw_alert_dialog_set_close_response", as: Set.self)
        }
    }
}
