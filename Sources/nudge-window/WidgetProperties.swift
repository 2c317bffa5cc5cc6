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

    func addClass(_ name: String) { gtk_widget_add_css_class(self, name) }
    func removeClass(_ name: String) { gtk_widget_remove_css_class(self, name) }
}
