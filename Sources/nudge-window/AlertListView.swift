import CAdwaita
import NudgeKit
import Presentation
import Foundation

/// The window's scrolling content (alert-list.ui): the pieces on top (the service, the water, the
/// heading) and then the reminders, in a GtkGridView of one column, so only the items
/// around the view have widgets: a place per such item, filled with whichever item scrolls
/// there. GTK 4.8 keeps 30 places whatever is visible: a thousand reminders cost 30 rows,
/// not a thousand.
///
/// The items are ids in a GtkStringList: a reminder's id, or a piece's name (`#service`).
/// A change replaces only the ids that changed, and the places on screen are shown anew.
@MainActor final class AlertListView {
    /// The scrolled window that holds the list.
    let widget: Widget
    private var strings: StringList
    private var ids: [String] = []
    /// A reminder's row, worded when it comes on screen.
    private var model: @MainActor (String) -> AlertRow? = { _ in nil }
    private var snoozeMinutes: @MainActor (String) -> Int = { _ in 10 }
    /// The pieces on top, by name, and the place that holds each now.
    private var pieces: [String: Widget] = [:]
    /// What a screen reader calls each piece's place in the list.
    private var pieceNames: [String: String] = [:]
    private var holders: [String: Place] = [:]
    /// Every place the list made, by its list item, and the reminders on screen by id.
    private var places: [UnsafeMutableRawPointer: Place] = [:]
    private var onScreen: [String: AlertRowWidget] = [:]
    private let actions: AlertRowWidget.Actions
    /// The reminder to focus once it is on screen.
    private var focusing: String?
    /// Every place showing an item now, by the item's id.
    private var bound: [String: Place] = [:]
    /// Tab's next stop, once the item scrolled to is on screen: its index and direction.
    private var tabbing: (index: Int, forward: Bool)?
    /// Frames since the list last changed, and the frame callback that then looks at
    /// what covers the view (see checkCover()).
    private var coverFrames = 0
    private var coverTick: UInt32 = 0
    private var resyncing = false, resyncs = 0, lateLookPending = false
    /// Frames waited for the item Tab scrolled to (GTK focuses a place only once it has
    /// laid it out, a frame after the scroll); and the frame callback while it waits.
    private var tabbingFrames = 0
    private var tabbingTick: UInt32 = 0
    /// The way Tab came into the list (see focusOnScreen).
    private var enteringForward = true
    /// Set while the window handles a Tab key (see ``followTab(in:)``), and its direction.
    private var tabKeyPending = false, tabKeyForward = true
    /// Whether the focus was in the list when the window's focus last moved.
    private var focusWasInList = false
    /// Below this width the rows put their controls under their words (libadwaita 1.2 has
    /// no AdwBreakpoint: the list's own width, as its adjustment says it, decides).
    static let narrowBelow = 500.0
    private var narrow = false

    /// One place on screen: a list item holding a piece or a reminder's row.
    private final class Place {
        let item: ListItem
        var row: AlertRowWidget?
        var id: String?
        init(item: ListItem) { self.item = item }
        var child: Widget? { item.child }
        /// What the place is named to a screen reader: GTK names a list's cell by its class.
        var name = ""
        @MainActor func show(_ widget: Widget?, named name: String) {
            if child != widget { item.child = widget }
            if let cell = widget?.parent, self.name != name {
                self.name = name
                setAccessibleName(cell, name)
            }
        }
        /// Moves the focus on from where it is in the child to its next (previous) control;
        /// false past its last (first).
        @MainActor func focus(forward: Bool) -> Bool {
            guard let child else { return false }
            return child.focusChild(forward: forward)
        }

        /// The focus into the child's first (last) control, from wherever it was; false when
        /// it has none.
        @MainActor func focusFirst(forward: Bool) -> Bool {
            guard let child, let control = Self.firstControl(in: child, forward: forward) else { return false }
            return control.grabFocus()
        }

        /// The first (last) control in `widget`, in the order Tab takes: what can take the
        /// focus, shown and sensitive, and holds no such control itself (a list box, a row
        /// whose one control is its button or switch, hands it to that control). Found by
        /// walking the widgets, not by GtkListBox's focus, which starts from the row it last
        /// focused: the service's row one time, its Start the next.
        @MainActor static func firstControl(in widget: Widget, forward: Bool) -> Widget? {
            guard widget.isVisible, widget.isSensitive else { return nil }
            var child = forward ? widget.firstChild : widget.lastChild
            while let current = child {
                if let found = firstControl(in: current, forward: forward) { return found }
                child = forward ? current.nextSibling : current.previousSibling
            }
            return widget.isFocusable ? widget : nil
        }
    }

    /// The pieces the list holds itself: the heading over the alerts, and how to add one
    /// when there is none.
    static let heading = "#heading", empty = "#empty", due = "#due", noMatch = "#no-match"
    /// The pieces with no control (Tab passes them by).
    private static let headings: Set<String> = [heading, due, noMatch]

    init(actions: AlertRowWidget.Actions) {
        self.actions = actions
        // What the list's signals do is named in alert-list.ui.
        let owner = Owner<AlertListView>()
        let ui = Builder("alert-list", handlers: [
            "setup": owner.handler(values: { $0.setUp($1.object(1)) }),
            "bind": owner.handler(values: { $0.bind($1.object(1)) }),
            "unbind": owner.handler(values: { $0.unbind($1.object(1)) }),
            "teardown": owner.handler(values: { $0.tearDown($1.object(1)) }),
            "width-changed": owner.handler(values: { $0.widthChanged($1.object(0)) }),
            "scrolled": owner.handler { if !$0.resyncing { $0.checkCoverSoon() } },
            "focus-entered": owner.handler(values: { $0.focusEntered($1.object(0)) }),
            "key": owner.answer { $0.keyPressed($1.uint(1), state: $1.flags(3)) },
        ])
        defer { ui.release() }
        widget = ui.keep("scroller")
        // A grid view of one column, not a list view: GTK 4.8's list view keeps 200 items
        // with widgets whatever is on screen, its grid view 30 rows (1,000 reminders
        // started in 473 ms, now 309; Clocks 281). A screen reader meets it as a table of
        // one column, named "Reminders".
        view = ui("view")
        strings = StringList(pointer: OpaquePointer(ui.object("strings")))
        // The list's own look would draw every item as a selectable line.
        view.removeClass("view")
        emptyIcon = ui("empty-icon")
        count = ui("count")
        noMatchLabel = ui.keep("no-match")
        owner.object = self
        // TRANSLATORS: the accessible name of the list's heading's place ("Reminders").
        add(piece: ui.keep("heading"), named: Self.heading, label: tr("Reminders"))
        // TRANSLATORS: the accessible name of the place that says a search found nothing.
        add(piece: noMatchLabel, named: Self.noMatch, label: tr("No match"))
        // TRANSLATORS: the accessible name of the heading's place over the reminders waiting for an answer.
        add(piece: ui.keep("due-heading"), named: Self.due, label: tr("Waiting for an Answer"))
        // TRANSLATORS: the accessible name of the place that says there is no reminder.
        add(piece: ui.keep("empty"), named: Self.empty, label: tr("No reminders yet"))
        // Broken between words only, as Korean is written.
        for id in ["empty-title", "empty-hint"] {
            let label = ui(id)
            setWordsKept(label, label.labelText)
        }
    }

    /// The list's width changed: the rows take the narrow shape below ``narrowBelow``.
    private func widthChanged(_ adjustment: gpointer?) {
        guard let adjustment else { return }
        let width = Adjustment(adjustment).pageSize
        guard width > 0, (width < Self.narrowBelow) != narrow else { return }
        narrow = width < Self.narrowBelow
        // After this layout: a row that changes its shape while the list lays it out
        // kept the height it had, its controls over the next row.
        afterThisEvent { [weak self] in
            guard let self else { return }
            for place in places.values { place.row?.setNarrow(narrow) }
        }
    }

    /// GTK 4.8's list view lets Tab leave the list at the end of the item that has the
    /// focus (tab-behavior came in 4.12): Tab and Shift+Tab go on to the next item's
    /// controls here, scrolling it into view, and leave the list only past its ends.
    /// Home and End go to the first and the last control of the list; Page Down and Page
    /// Up a page of rows on (GTK 4.8's grid view pages only a selection, and these items
    /// have none).
    private func keyPressed(_ key: UInt32, state: UInt32) -> Bool {
        let tabKey: UInt32 = 0xff09, leftTab: UInt32 = 0xfe20, home: UInt32 = 0xff50, end: UInt32 = 0xff57, shift: UInt32 = 1
        let pageUp: UInt32 = 0xff55, pageDown: UInt32 = 0xff56, keypadPageUp: UInt32 = 0xff9a, keypadPageDown: UInt32 = 0xff9b
        let keypadHome: UInt32 = 0xff95, keypadEnd: UInt32 = 0xff9c
        switch key {
        case tabKey, leftTab: return tabPressed(forward: key == tabKey && state & shift == 0)
        case home, keypadHome: return tab(from: -1, forward: true)
        case end, keypadEnd: return tab(from: ids.count, forward: false)
        case pageDown, keypadPageDown: return page(forward: true)
        case pageUp, keypadPageUp: return page(forward: false)
        default: return false
        }
    }

    /// Tab into the list from the header bar: GTK 4.8 would go to the item the list last
    /// had the focus on, and when that has scrolled away, to the list or the scrolled
    /// window itself and back out. The first (Shift+Tab: last) control on screen takes it.
    private func focusEntered(_ holder: gpointer?) {
        // Moved on once GTK is done moving the focus there.
        guard let holder, holder.assumingMemoryBound(to: GtkWidget.self).hasFocus else { return }
        enteringForward = !shiftHeld()
        settleEntry { [unowned self] in
            guard widget.hasFocus || view.hasFocus else { return }
            focusOnScreen(forward: enteringForward)
        }
    }

    /// Where the focus that came into the list goes, placed once GTK is done moving it there
    /// (after this event), or before the next key, whichever comes first.
    private var pendingEntry: (@MainActor () -> Void)?

    private func settleEntry(_ place: @escaping @MainActor () -> Void) {
        let first = pendingEntry == nil
        pendingEntry = place
        guard first else { return }
        afterThisEvent { [weak self] in self?.settlePendingEntry() }
    }

    private func settlePendingEntry() {
        guard let place = pendingEntry else { return }
        pendingEntry = nil
        place()
    }

    // MARK: The places (the factory's signals)

    private func setUp(_ item: gpointer?) {
        guard let item else { return }
        ListItem(item).makeInert()
        // No Tab stop of its own: the focus goes to its controls, the same way forward and
        // back. GTK 4.12 made list items focusable (GtkListItem:focusable, 4.8 has none),
        // and Shift+Tab out of the service's Start stopped on its item, Tab never did.
        if AdwaitaGeneration.listItemsFocusable { nudge_object_set_int(item, "focusable", 0) }
        places[item] = Place(item: ListItem(item))
    }

    private func bind(_ item: gpointer?) {
        guard let item, let place = places[item], let id = place.item.string else { return }
        bind(place, to: id)
    }

    private func unbind(_ item: gpointer?) {
        guard let item, let place = places[item], let id = place.id else { return }
        if onScreen[id] === place.row { onScreen[id] = nil }
        if bound[id] === place { bound[id] = nil }
        place.id = nil
    }

    private func tearDown(_ item: gpointer?) {
        guard let item, let place = places[item] else { return }
        if let row = place.row {
            if onScreen[row.id] === row { onScreen[row.id] = nil }
            row.widget.release()
        }
        // The list item goes: a piece it held is taken from nothing when next shown.
        for (name, holder) in holders where holder === place { holders[name] = nil }
        if let id = place.id, bound[id] === place { bound[id] = nil }
        places[item] = nil
    }

    private let view: Widget
    private var count: Widget!, noMatchLabel: Widget!
    /// The empty list's icon, until its first showing chooses it.
    private var emptyIcon: Widget?

    /// How many reminders there are, beside the heading; and what a search that found none says.
    func show(count text: String, noMatch: String) {
        setText(count, text)
        setText(noMatchLabel, noMatch)
    }

    /// A piece shown above the alerts while it is in ``show(items:model:snoozeMinutes:)``'s list,
    /// with a reference of its own (``Builder/keep(_:)``) for the window's life: a place that
    /// takes another item drops its child.
    func add(piece widget: Widget, named name: String, label: String) {
        pieceNames[name] = label
        widget.margins(start: 18, end: 18, top: 12, bottom: 6)
        pieces[name] = widget
    }

    private func bind(_ place: Place, to id: String) {
        place.id = id
        bound[id] = place
        defer {
            // Focused now if GTK takes it; else at a frame (tabbingFrame()).
            if let next = tabbing, next.index < ids.count, ids[next.index] == id, place.focusFirst(forward: next.forward) {
                tabbing = nil
            }
        }
        if id == Self.empty, let icon = emptyIcon {
            // Nudge's icon where it is installed; a stock alarm where it is not (a build
            // tree). Asked the first time it shows: asked at start, the icon theme was read
            // before GTK needed it, and the first frame came 3 ms later.
            emptyIcon = nil
            if iconThemeHas(Notification.appID) { icon.iconName = Notification.appID }
        }
        if let piece = pieces[id] {
            // A piece has one parent: taken from the place that held it.
            if let holder = holders[id], holder !== place { holder.show(nil, named: "") }
            holders[id] = place
            place.show(piece, named: pieceNames[id] ?? "")
            if focusing == id, place.focusFirst(forward: true) { focusing = nil }
            return
        }
        guard let model = model(id) else { return }
        let minutes = snoozeMinutes(id)
        if let row = place.row {
            row.bind(model, snoozeMinutes: minutes)
        } else {
            let row = AlertRowWidget(model, snoozeMinutes: minutes, actions: actions)
            row.setNarrow(narrow)
            // The place's own while it lives (the row's reference, let go at teardown): a
            // piece shown there in between would drop it.
            place.row = row
        }
        for (name, holder) in holders where holder === place { holders[name] = nil }
        place.show(place.row!.widget, named: model.title)
        onScreen[id] = place.row
        if focusing == id {
            focusing = nil
            // Once GTK is done laying out: focused while it binds, in the middle of its layout,
            // the grid view did not track the focus as its own, let the place go on a later
            // layout, and left the focus on a switch in no window (issue 52's hostile pass).
            after(milliseconds: 0) { [weak self, weak place] in
                guard let self, let place, place.id == id, bound[id] === place else { return }
                place.row?.focus()
            }
        }
    }

    /// The items in order: pieces by name (`#water`) and reminders by id; only the ids that
    /// changed are replaced, and what is on screen among `changed` (`nil`: all of it) shows
    /// its new words.
    func show(items new: [String], model: @escaping @MainActor (String) -> AlertRow?,
              snoozeMinutes: @escaping @MainActor (String) -> Int, changed: Set<String>? = nil) {
        self.model = model
        self.snoozeMinutes = snoozeMinutes
        if new != ids {
            // The focus on a reminder that moves (it fired and went up to what waits, or was
            // switched off and went last) follows it: GTK lets a focus whose item goes fall
            // to nothing, and then Tab reached nothing (issue 52).
            // The focus on a piece that goes (the store's card when the store is back, the
            // empty list's invitation when the first reminder comes) goes to the first
            // reminder, or with none to the invitation: GTK left it on the hidden card, then
            // moved it to whatever control came next, and told a screen reader nothing.
            let focused = focusedPlace().flatMap { $0.place.id }
            let followed = focused.flatMap { !$0.hasPrefix("#") && new.contains($0) ? $0 : nil }
            let landing = focused.flatMap { focused in
                focused.hasPrefix("#") && !new.contains(focused) ? new.first { !$0.hasPrefix("#") } ?? new.first { $0 == Self.empty } : nil
            }
            defer {
                // Where the place focused still says the target but shows the item taken out
                // (the target came back as a new item elsewhere: switched on from the end of
                // the list), GTK gives that place another reminder at its next layout, and
                // the focus went with it (issue 52's hostile pass).
                if let target = followed ?? landing,
                   !(focusedPlace().map { $0.place.id == target && $0.place.item.shows(strings, at: $0.index) } ?? false) {
                    _ = focus(target)
                }
            }
            // The changed middle: what the old and new lists share at both ends stays.
            var start = 0
            while start < min(ids.count, new.count), ids[start] == new[start] { start += 1 }
            var end = 0
            while end < min(ids.count, new.count) - start, ids[ids.count - 1 - end] == new[new.count - 1 - end] { end += 1 }
            let before = ids[start..<(ids.count - end)], after = new[start..<(new.count - end)]
            // The few splices that make the change (a reminder switched off goes last, on goes
            // back: one out, one in), not the whole stretch between again: told that thousands
            // of items changed, GTK 4.8's grid view drops every row it laid out, loses its place
            // and was left blank while scrolled (issue 52). Past 64 items, the stretch.
            for edit in ListEdits.splices(from: before, to: after) ?? [.init(position: 0, removing: before.count, added: Array(after))] {
                splice(at: start + edit.position, removing: edit.removing, edit.added)
            }
            ids = new
            renewIfStale()
            checkCoverSoon()
        }
        for (id, row) in onScreen where changed?.contains(id) ?? true {
            guard let model = model(id) else { continue }
            row.bind(model, snoozeMinutes: snoozeMinutes(id))
            bound[id]?.show(row.widget, named: model.title)
        }
    }

    /// The place holding the focus (the place whose child is an ancestor of it), and its index.
    private func focusedPlace() -> (place: Place, index: Int)? {
        guard let focused = view.focusInWindow else { return nil }
        var widget: Widget? = focused
        var place: Place?
        while let current = widget, place == nil {
            place = bound.values.first { $0.child == current }
            widget = current.parent
        }
        guard let place, let id = place.id, let index = ids.firstIndex(of: id) else { return nil }
        return (place, index)
    }

    private func tabPressed(forward: Bool) -> Bool {
        guard let (place, index) = focusedPlace() else { return false }
        if place.focus(forward: forward) { return true }
        return tab(from: index, forward: forward)
    }

    /// Page Down (Up): the focus to the item a page of rows after (before) the focused one,
    /// scrolled into view; at most to the list's last (first) item. A reminder's switch
    /// takes it, as Tab and a row's own keys leave it; a piece, its first control.
    private func page(forward: Bool) -> Bool {
        guard let (_, index) = focusedPlace() else { return false }
        // A page: the items wholly on screen now, less one, so the item paged from stays in sight.
        let height = widget.height
        var whole = 0
        for place in bound.values {
            // Only what is drawn: GTK keeps places it laid out away from the view, unmapped,
            // with bounds that said the view was covered while it was blank.
            guard let child = place.child, child.isMapped else { continue }
            if let bounds = child.bounds(in: widget), bounds.origin.y >= 0,
               bounds.origin.y + bounds.size.height <= height { whole += 1 }
        }
        let step = max(1, whole - 1)
        let target = forward ? min(index + step, ids.count - 1) : max(index - step, 0)
        // At an end already: done, unless the focus is on the list's own item and not on a
        // control in it (where a page pressed while the last one waited for its item leaves it).
        if target == index, let child = bound[ids[index]]?.child, let focus = view.focusInWindow, focus != child, focus.isInside(child) {
            return true
        }
        if pieces[ids[target]] == nil, !Self.headings.contains(ids[target]), model(ids[target]) != nil {
            return focus(ids[target]) || true
        }
        // A piece: its first control; a heading: the first control after it.
        return tab(from: target - 1, forward: true) || true
    }

    /// Focus to the first (or, backward, last) control of the items after (before) `index`;
    /// one not on screen is scrolled to and focused when it is. False past the list's end.
    private func tab(from index: Int, forward: Bool) -> Bool {
        var next = index + (forward ? 1 : -1)
        while ids.indices.contains(next) {
            view.scrollToItem(next)
            if let place = bound[ids[next]], place.focusFirst(forward: forward) { return true }
            // A reminder, the service or the water has controls: not on screen yet, or
            // not laid out, it is focused at a frame. The heading and the empty page have none.
            if !Self.headings.contains(ids[next]) {
                tabbing = (next, forward)
                tabbingFrames = 0
                if tabbingTick == 0 { tabbingTick = view.eachFrame { [unowned self] in tabbingFrame() } }
                return true
            }
            next += forward ? 1 : -1
        }
        return false
    }

    /// A frame while Tab waits for its item: focused once GTK lays it out; after a few
    /// frames without, Tab goes on past it. False when the wait is over.
    private func tabbingFrame() -> Bool {
        guard let next = tabbing, ids.indices.contains(next.index) else { return stopTabbing() }
        if let place = bound[ids[next.index]], place.focusFirst(forward: next.forward) {
            tabbing = nil
            return stopTabbing()
        }
        tabbingFrames += 1
        // An item not laid out yet is waited for longer (a second at 60 frames a second: a
        // busy machine lays a scrolled-to item out late); one laid out without a control
        // is passed after a few frames.
        guard tabbingFrames > (bound[ids[next.index]] == nil ? 60 : 5) else { return true }
        // Still not focusable: on past it (this callback goes on waiting if Tab waits again).
        tabbing = nil
        _ = tab(from: next.index, forward: next.forward)
        return tabbing != nil || stopTabbing()
    }

    private func stopTabbing() -> Bool {
        tabbingTick = 0
        return false
    }

    /// Focus to the first (last) control of the items on screen, top down (bottom up).
    private func focusOnScreen(forward: Bool) {
        let height = widget.height
        var shown: [(y: Float, place: Place)] = []
        for place in bound.values {
            // Only what is drawn: GTK keeps places it laid out away from the view, unmapped,
            // with bounds that said the view was covered while it was blank.
            guard let child = place.child, child.isMapped else { continue }
            guard let bounds = child.bounds(in: widget),
                  bounds.origin.y + bounds.size.height > 0, bounds.origin.y < height else { continue }
            shown.append((bounds.origin.y, place))
        }
        shown.sort { forward ? $0.y < $1.y : $0.y > $1.y }
        for (_, place) in shown where place.focusFirst(forward: forward) { return }
    }

    /// GTK 4.8's grid view, when the items around the view are removed (every reminder
    /// deleted while the end of the list is shown), keeps two of their places, still
    /// showing the removed reminders, where the items before them should be, and never
    /// shows those. Such places say a position past the list's end: the model is then
    /// made anew, and every place with it.
    private func renewIfStale() {
        let count = UInt32(ids.count)
        guard places.values.contains(where: { $0.item.holdsItem && $0.item.position >= count }) else { return }
        strings = StringList()
        splice(at: 0, removing: 0, ids)
        // The view's model takes this reference.
        strings.show(in: view)
    }

    /// Looks at what covers the view once GTK has laid out a change (two frames on).
    private func checkCoverSoon() {
        coverFrames = 0
        guard coverTick == 0 else { return }
        coverTick = view.eachFrame { [unowned self] in checkCover() }
    }

    /// GTK 4.8's grid view, its items changed while it is scrolled (a change from the
    /// command line, the reminders on screen not touched), can lay its places out away from
    /// where it is scrolled to: the list stays blank, or blank in part, until it is scrolled
    /// again (issue 43). Seen a few frames after such a change, the view is put back where
    /// its scroll position says, as a scroll would: its places laid out there anew. False
    /// when done looking.
    private func checkCover() -> Bool {
        coverFrames += 1
        guard coverFrames >= 2 else { return true }
        coverTick = 0
        guard viewIsBlank() else {
            resyncs = 0
            // Covered now, looked at once more a third of a second later: GTK had laid the
            // view out away from its position after a first look found it covered.
            if !lateLookPending {
                lateLookPending = true
                after(milliseconds: 300) { [weak self] in
                    guard let self else { return }
                    lateLookPending = false
                    if viewIsBlank() { checkCoverSoon() }
                }
            }
            return false
        }
        // As a scroll does: the view follows the scroll position, and lays out its places there.
        let adjustment = view.verticalAdjustment
        let (value, page) = (adjustment.value, adjustment.pageSize)
        let away = value > page ? -page : page
        resyncing = true
        adjustment.value = value + away
        adjustment.value = value
        resyncing = false
        // Looked at again, a few times at most: GTK may need more than one.
        resyncs += 1
        if resyncs < 3 { checkCoverSoon() }
        return false
    }

    /// Whether a stretch of the view taller than a row is drawn with no item, while the
    /// list is longer than the view.
    private func viewIsBlank() -> Bool {
        let adjustment = view.verticalAdjustment
        // Shorter than the view: nothing to cover below its end.
        guard adjustment.upper > adjustment.pageSize + 1 else { return false }
        let height = widget.height
        var spans: [(Float, Float)] = []
        for place in bound.values {
            // Only what is drawn: GTK keeps places it laid out away from the view, unmapped,
            // with bounds that said the view was covered while it was blank.
            guard let child = place.child, child.isMapped else { continue }
            guard let bounds = child.bounds(in: widget) else { continue }
            let (top, bottom) = (max(bounds.origin.y, 0), min(bounds.origin.y + bounds.size.height, height))
            if bottom > top { spans.append((top, bottom)) }
        }
        // The widest stretch of the view no item covers (the gaps between rows are a few pixels).
        var reached: Float = 0, widest: Float = 0
        for (top, bottom) in spans.sorted(by: { $0.0 < $1.0 }) {
            widest = max(widest, top - reached)
            reached = max(reached, bottom)
        }
        return max(widest, height - reached) > 120
    }

    private func splice(at position: Int, removing count: Int, _ added: [String]) {
        strings.splice(at: position, removing: count, added)
    }

    /// Tab and Shift+Tab into the list from the rest of `window` land on the first (last)
    /// control on screen, every time: GTK 4.8's list remembers the item it last had the
    /// focus on and goes back there, so after one round Tab went from the header straight
    /// to the last row, and Shift+Tab came in at the top.
    func followTab(in window: Widget) {
        onKeyPressed(window) { [unowned self] key, state in
            let tabKey: UInt32 = 0xff09, leftTab: UInt32 = 0xfe20, shift: UInt32 = 1
            // A key that comes before the focus that came into the list was placed (keys
            // typed faster than the window runs its idle work) acts from where it is placed:
            // the next Shift+Tab went from GTK's place, or was taken back a stop after.
            settlePendingEntry()
            guard key == tabKey || key == leftTab else { return false }
            (tabKeyPending, tabKeyForward) = (true, key == tabKey && state & shift == 0)
            afterThisEvent { [weak self] in self?.tabKeyPending = false }
            return false
        }
        onNotify(window.raw, "focus-widget") { [unowned self] in
            let inList = window.focusInWindow?.isInside(view) ?? false
            defer { focusWasInList = inList }
            guard inList, !focusWasInList, tabKeyPending else { return }
            let forward = tabKeyForward
            settleEntry { [unowned self] in
                guard window.focusInWindow?.isInside(view) ?? false else { return }
                focusOnScreen(forward: forward)
            }
        }
    }

    /// Scrolls to a reminder and moves the focus to its switch (a piece: to its first control).
    func focus(_ id: String) -> Bool {
        guard let position = ids.firstIndex(of: id) else { return false }
        // A row that shows the item now: one moved by a splice (switched on, back from the end)
        // is a new item, its old place rebound to another reminder on the next layout, where
        // the focus given it went (issue 52's hostile pass: onto the row before it).
        if let row = onScreen[id], bound[id]?.item.shows(strings, at: position) ?? false {
            row.focus()
        } else if pieces[id] != nil, let place = bound[id], place.focusFirst(forward: true) {
        } else {
            focusing = id
        }
        view.scrollToItem(position)
        return true
    }
}
