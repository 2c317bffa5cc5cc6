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
        if widget.is(.menuButton) {
            let label = widget.menuButtonLabel ?? firstLabel(in: widget) ?? ""
            setAccessibleName(widget, label.isEmpty ? fallback : label.replacingOccurrences(of: "_", with: ""))
        } else if widget.is(.textView) || widget.is(.popover) {
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
        if root.is(.button) {
            // Its words: its label, or the label inside it (a toast's button said "Undo Undo").
            if let label = root.buttonLabel ?? firstLabel(in: root), !label.isEmpty {
                // GTK 4.8 joins the name given and the labels the button is labelled by: the
                // label inside it goes from that list, or it is said twice.
                root.forgetLabelledBy()
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
        if root.is(.button), root.buttonLabel != nil { return root }
        for current in root.children {
            if let found = labelledButton(in: current) { return found }
        }
        return nil
    }

    /// The words of the first label under `root` (a toast's title).
    static func words(in root: Widget) -> String? { firstLabel(in: root) }

    private static func iconName(under widget: Widget) -> String? {
        if widget.is(.image) { return widget.iconName }
        for current in widget.children {
            if let name = iconName(under: current) { return name }
        }
        return nil
    }

    /// Names the boxes under `root` (not `root`) that would be named by their class, `name`:
    /// a toast's title box (AdwBin), whose toast is left as libadwaita made it.
    static func nameInnerBoxes(under root: Widget, as name: String) {
        for current in root.children {
            if classNamed.contains(current.typeName) { setAccessibleName(current, name) }
            nameInnerBoxes(under: current, as: name)
        }
    }

    /// The inner widgets a screen reader met named by their class (issue 52).
    private static let classNamed: Set<String> = ["AdwGizmo", "AdwClamp", "AdwClampScrollable", "AdwClampLayout", "GtkRange",
                                                    "AdwViewSwitcherBar", "GtkBuiltinIcon", "AdwBin", "AdwLeaflet",
                                                    "AdwViewSwitcherTitle", "AdwSqueezer", "GtkPopoverContent", "GtkActionBar",
                                                    "GtkShortcutLabel"]

    private static func walk(_ widget: Widget, fallback: String, search: String, group: String?, row: String?, inButton: Bool, inSwitcher: Bool) {
        var group = group, row = row
        // A preferences window's page switcher (one page: hidden, but there): its buttons,
        // labels and icons are the page's.
        let inSwitcher = inSwitcher || widget.typeName == "AdwViewSwitcher"
        if inSwitcher {
            setAccessibleName(widget, fallback)
        } else if widget.is(.searchEntry) {
            setAccessibleName(widget, search)
        }
        // A button's icon is part of the button's name: left alone. A button that is only an
        // icon is named by its tooltip alone: GTK 4.8 labels it by the icon too, which has no
        // name of its own, and Orca said "GtkImage Settings push button".
        let inButton = inButton || widget.is(.button)
        if widget.is(.button), let icon = widget.firstChild, icon.is(.image), icon.nextSibling == nil, let tip = widget.tooltipText {
            widget.forgetLabelledBy()
            setAccessibleName(widget, tip)
        }
        if widget.is(.preferencesGroup) {
            let title = widget.groupTitle
            group = title.isEmpty ? nil : title
        } else if widget.is(.preferencesRow) {
            let title = widget.rowTitle
            row = title.isEmpty ? nil : title
        } else if widget.is(.listBox) {
            // Named once: GTK 4.8 adds the group's title label it is labelled by ("Water Water").
            if group != nil { widget.forgetLabelledBy() }
            setAccessibleName(widget, group ?? fallback)
        } else if widget.is(.scrolledWindow) {
            setAccessibleName(widget, fallback)
        } else if widget.is(.listView), let row {
            setAccessibleName(widget, row)
        } else if widget.typeName == "GtkListItemWidget", row != nil, let words = firstLabel(in: widget) {
            setAccessibleName(widget, words)
        } else if widget.is(.flowBoxChild) {
            // A flow box's cell: its control's words ("Done", "Mon").
            if let words = firstLabel(in: widget) { setAccessibleName(widget, words) }
        } else if widget.is(.stack) {
            // A stack's pages are nodes of their own (GtkStackPage), which Orca said by their
            // class on the way into Settings ("GtkStackPage panel"): each its title, or what
            // holds the stack.
            for (page, title) in widget.stackPages {
                nudge_accessible_set_label(page, title.isEmpty ? fallback : title)
            }
        } else if widget.is(.scrollbar) {
            setAccessibleName(widget, fallback)
        } else if widget.is(.popover) {
            // A popover of the form's (the date's calendar): the row it belongs to.
            setAccessibleName(widget, row ?? fallback)
        } else if widget.is(.windowTitle) {
            // A header's title: its words (Debian 12 said "AdwWindowTitle").
            let title = widget.headingTitle
            setAccessibleName(widget, title.isEmpty ? fallback : title)
        } else if Self.classNamed.contains(widget.typeName) {
            // Boxes GTK 4.8 and libadwaita 1.2 make inside their widgets (a header bar's ends,
            // a clamp, a scroll bar's range), which Debian 12 named by their class.
            setAccessibleName(widget, fallback)
        } else if widget.is(.image), !inButton {
            setAccessibleName(widget, imageName(widget, row: row ?? group ?? fallback))
        }
        for current in widget.children {
            walk(current, fallback: fallback, search: search, group: group, row: row, inButton: inButton, inSwitcher: inSwitcher)
        }
    }

    /// An icon said by what it means: the ones libadwaita's rows draw, else the row's title.
    private static func imageName(_ image: Widget, row: String) -> String {
        let icon = image.iconName ?? ""
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
        if widget.is(.label) {
            let text = widget.labelText
            return text.isEmpty ? nil : text
        }
        for current in widget.children {
            if let text = firstLabel(in: current) { return text }
        }
        return nil
    }
}
