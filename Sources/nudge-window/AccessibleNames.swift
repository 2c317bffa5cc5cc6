import CAdwaita
import NudgeKit

/// Names for the containers GTK 4.8 and libadwaita 1.2 build inside their widgets and
/// leave named by their class: a screen reader would say "GtkListBox". Each gets the name
/// of what holds it: a preferences group's list its group's title, a combo row's list and
/// items the row's title and their own words, a scrolled page the window's title.
@MainActor enum AccessibleNames {
    /// Names what needs a name under `root`; `fallback` where nothing around says one;
    /// `search` for a search field (the settings' by default).
    static func fill(in root: Widget, fallback: String, search: String? = nil) {
        // TRANSLATORS: the accessible name of the settings' search field.
        walk(root, fallback: fallback, search: search ?? tr("Search settings"), group: nil, row: nil, inButton: false, inSwitcher: false)
    }

    /// Names the insides of a window GTK or libadwaita builds whole (the primary menu's
    /// popover, the keyboard shortcuts, About): as ``fill(in:fallback:search:)`` does, and
    /// their buttons by their words or icons (``nameButtons(in:)``), their menu buttons and
    /// texts by what holds them. Never for Nudge's own widgets, named by what they act on.
    static func fillBuiltWhole(_ root: Widget, fallback: String, search: String? = nil) {
        fill(in: root, fallback: fallback, search: search)
        nameButtons(in: root)
        nameMenusAndTexts(in: root, fallback: fallback)
    }

    private static func nameMenusAndTexts(in widget: Widget, fallback: String) {
        if isA(widget, gtk_menu_button_get_type()) {
            let label = gtk_menu_button_get_label(widget.opaque).map { String(cString: $0) } ?? firstLabel(in: widget) ?? ""
            setAccessibleName(widget, label.isEmpty ? fallback : label.replacingOccurrences(of: "_", with: ""))
        } else if isA(widget, gtk_text_view_get_type()) || isA(widget, gtk_popover_get_type()) {
            setAccessibleName(widget, fallback)
        }
        for current in widget.children {
            nameMenusAndTexts(in: current, fallback: fallback)
        }
    }

    /// Names the buttons of widgets libadwaita and GTK make themselves (a toast's close
    /// and action buttons, a calendar's arrows): by their words, or by what their icon
    /// means. Never for the window's own buttons, which are named by what they act on.
    /// `saying`: the words a labelled button is named after (a toast's: "Deleted “Tea”. Undo",
    /// so that a screen reader landing on it hears what happened).
    static func nameButtons(in root: Widget, saying context: String? = nil) {
        if isA(root, gtk_button_get_type()) {
            // Its words: its label, or the label inside it (a toast's button said "Undo Undo").
            if let label = gtk_button_get_label(root.as(GtkButton.self)).map({ String(cString: $0) }) ?? firstLabel(in: root), !label.isEmpty {
                // GTK 4.8 joins the name given and the labels the button is labelled by: the
                // label inside it goes from that list, or it is said twice.
                gtk_accessible_reset_relation(OpaquePointer(root.raw), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
                let words = label.replacingOccurrences(of: "_", with: "")
                // TRANSLATORS: a toast's button as a screen reader names it: %1$s the toast's words (Deleted “Tea”), %2$s the button's (Undo).
                setAccessibleName(root, context.flatMap { $0 == words ? nil : format(tr("%1$s. %2$s"), $0, words) } ?? words)
            } else if let icon = iconName(under: root) {
                switch icon {
                // TRANSLATORS: the accessible name of a close button (a toast's ×).
                case "window-close-symbolic": setAccessibleName(root, tr("Close"))
                // TRANSLATORS: the accessible names of a calendar's arrows: the month or year before / after.
                case "pan-start-symbolic": setAccessibleName(root, tr("Previous"))
                case "pan-end-symbolic", "go-next-symbolic": setAccessibleName(root, tr("Next"))
                // TRANSLATORS: the accessible name of the back arrow of a page inside a window (About's credits, legal).
                case "go-previous-symbolic": setAccessibleName(root, tr("Back"))
                // TRANSLATORS: the accessible name of the magnifier button that opens a search (the keyboard shortcuts').
                case "edit-find-symbolic", "system-search-symbolic": setAccessibleName(root, tr("Search"))
                default: break
                }
            }
        }
        for current in root.children {
            nameButtons(in: current, saying: context)
        }
    }

    /// The first button under `root` that has words of its own (a toast's action button).
    static func labelledButton(in root: Widget) -> Widget? {
        if isA(root, gtk_button_get_type()), let label = gtk_button_get_label(root.as(GtkButton.self)) ?? nil, label.pointee != 0 { return root }
        for current in root.children {
            if let found = labelledButton(in: current) { return found }
        }
        return nil
    }

    /// The words of the first label under `root` (a toast's title).
    static func words(in root: Widget) -> String? { firstLabel(in: root) }

    private static func iconName(under widget: Widget) -> String? {
        if isA(widget, gtk_image_get_type()) { return gtk_image_get_icon_name(widget.opaque).map { String(cString: $0) } }
        for current in widget.children {
            if let name = iconName(under: current) { return name }
        }
        return nil
    }

    /// Names the boxes under `root` (not `root`) that would be named by their class, `name`:
    /// a toast's title box (AdwBin), whose toast is left as libadwaita made it.
    static func nameInnerBoxes(under root: Widget, as name: String) {
        for current in root.children {
            if classNamed.contains(typeName(current)) { setAccessibleName(current, name) }
            nameInnerBoxes(under: current, as: name)
        }
    }

    /// The inner widgets a screen reader met named by their class (issue 52).
    private static let classNamed: Set<String> = ["AdwGizmo", "AdwClamp", "AdwClampScrollable", "AdwClampLayout", "GtkRange",
                                                    "AdwViewSwitcherBar", "GtkBuiltinIcon", "AdwBin", "AdwLeaflet",
                                                    "AdwViewSwitcherTitle", "AdwSqueezer", "GtkPopoverContent", "GtkActionBar",
                                                    "GtkShortcutLabel"]

    private static func isA(_ widget: Widget, _ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }

    private static func typeName(_ widget: Widget) -> String {
        String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)))
    }

    private static func walk(_ widget: Widget, fallback: String, search: String, group: String?, row: String?, inButton: Bool, inSwitcher: Bool) {
        var group = group, row = row
        // A preferences window's page switcher (one page: hidden, but there): its buttons,
        // labels and icons are the page's.
        let inSwitcher = inSwitcher || typeName(widget) == "AdwViewSwitcher"
        if inSwitcher {
            setAccessibleName(widget, fallback)
        } else if isA(widget, gtk_search_entry_get_type()) {
            setAccessibleName(widget, search)
        }
        // A button's icon is part of the button's name: left alone. A button that is only an
        // icon is named by its tooltip alone: GTK 4.8 labels it by the icon too, which has no
        // name of its own, and Orca said "GtkImage Settings push button".
        let inButton = inButton || isA(widget, gtk_button_get_type())
        if isA(widget, gtk_button_get_type()), let icon = gtk_widget_get_first_child(widget), isA(icon, gtk_image_get_type()),
           gtk_widget_get_next_sibling(icon) == nil, let tip = gtk_widget_get_tooltip_text(widget) {
            gtk_accessible_reset_relation(OpaquePointer(widget.raw), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
            setAccessibleName(widget, String(cString: tip))
        }
        if isA(widget, adw_preferences_group_get_type()) {
            let title = adw_preferences_group_get_title(widget.as(AdwPreferencesGroup.self)).map { String(cString: $0) } ?? ""
            group = title.isEmpty ? nil : title
        } else if isA(widget, adw_preferences_row_get_type()) {
            let title = adw_preferences_row_get_title(widget.as(AdwPreferencesRow.self)).map { String(cString: $0) } ?? ""
            row = title.isEmpty ? nil : title
        } else if isA(widget, gtk_list_box_get_type()) {
            // Named once: GTK 4.8 adds the group's title label it is labelled by ("Water Water").
            if group != nil { gtk_accessible_reset_relation(OpaquePointer(widget.raw), GTK_ACCESSIBLE_RELATION_LABELLED_BY) }
            setAccessibleName(widget, group ?? fallback)
        } else if isA(widget, gtk_scrolled_window_get_type()) {
            setAccessibleName(widget, fallback)
        } else if isA(widget, gtk_list_view_get_type()), let row {
            setAccessibleName(widget, row)
        } else if typeName(widget) == "GtkListItemWidget", row != nil, let words = firstLabel(in: widget) {
            setAccessibleName(widget, words)
        } else if isA(widget, gtk_flow_box_child_get_type()) {
            // A flow box's cell: its control's words ("Done", "Mon").
            if let words = firstLabel(in: widget) { setAccessibleName(widget, words) }
        } else if isA(widget, gtk_stack_get_type()) {
            // A stack's pages are nodes of their own (GtkStackPage), which Orca said by their
            // class on the way into Settings ("GtkStackPage panel"): each its title, or what
            // holds the stack.
            for current in widget.children {
                if let page = gtk_stack_get_page(widget.opaque, current) {
                    let title = gtk_stack_page_get_title(page).map { String(cString: $0) } ?? ""
                    nudge_accessible_set_label(UnsafeMutableRawPointer(page), title.isEmpty ? fallback : title)
                }
            }
        } else if isA(widget, gtk_scrollbar_get_type()) {
            setAccessibleName(widget, fallback)
        } else if isA(widget, gtk_popover_get_type()) {
            // A popover of the form's (the date's calendar): the row it belongs to.
            setAccessibleName(widget, row ?? fallback)
        } else if isA(widget, adw_window_title_get_type()) {
            // A header's title: its words (Debian 12 said "AdwWindowTitle").
            let title = adw_window_title_get_title(widget.opaque).map { String(cString: $0) } ?? ""
            setAccessibleName(widget, title.isEmpty ? fallback : title)
        } else if Self.classNamed.contains(typeName(widget)) {
            // Boxes GTK 4.8 and libadwaita 1.2 make inside their widgets (a header bar's ends,
            // a clamp, a scroll bar's range), which Debian 12 named by their class.
            setAccessibleName(widget, fallback)
        } else if isA(widget, gtk_image_get_type()), !inButton {
            setAccessibleName(widget, imageName(widget, row: row ?? group ?? fallback))
        }
        for current in widget.children {
            walk(current, fallback: fallback, search: search, group: group, row: row, inButton: inButton, inSwitcher: inSwitcher)
        }
    }

    /// An icon said by what it means: the ones libadwaita's rows draw, else the row's title.
    private static func imageName(_ image: Widget, row: String) -> String {
        let icon = gtk_image_get_icon_name(image.opaque).map { String(cString: $0) } ?? ""
        switch icon {
        // TRANSLATORS: the accessible name of the pencil icon of a text field in the window's form.
        case "document-edit-symbolic": return format(tr("%s, editable"), row)
        // TRANSLATORS: the accessible name of the arrow icon of a list of choices in the window's form.
        case "pan-down-symbolic": return format(tr("%s, choices"), row)
        // TRANSLATORS: the accessible name of the tick by the chosen item of a list of choices.
        case "object-select-symbolic": return tr("Chosen")
        default: return row
        }
    }

    private static func firstLabel(in widget: Widget) -> String? {
        if isA(widget, gtk_label_get_type()) {
            let text = String(cString: gtk_label_get_text(widget.opaque))
            return text.isEmpty ? nil : text
        }
        for current in widget.children {
            if let text = firstLabel(in: current) { return text }
        }
        return nil
    }
}
