import Foundation
import Localization
import NudgeCore
import NudgeStore

/// What an add or edit form would save, in either face (`nudge ui`'s form, the window's):
/// the title and body as typed, the schedule as `nudge add`'s flags, and the options the
/// person changed. It is checked, compared with what was stored meanwhile, and saved by
/// the operations the command line runs. An edit saves only what it changed, so a change
/// made elsewhere meanwhile to anything else stays.
public struct AlertDraft: Sendable {
    /// The alert as it was when the form opened; `nil` for a new one.
    public let base: Alert?
    /// The title as typed; empty on a new form: the drink-water reminder.
    public var title: String
    /// The body as typed.
    public var body: String
    /// The schedule the form's fields make.
    public var schedule = ScheduleFlags()
    /// Whether the person changed the schedule's fields (an edit that did not keeps the
    /// stored schedule, one the form has no fields for included).
    public var scheduleChanged = false
    /// The options the person changed; the body is the draft's own.
    public var settings = AlertSettings()

    /// A new alert's draft, or `base`'s as stored.
    public init(editing base: Alert? = nil) {
        self.base = base
        (title, body) = (base?.title ?? "", base?.body ?? "")
    }

    /// Whether the title differs from the one the form opened with.
    public var titleChanged: Bool { title != (base?.title ?? "") }
    /// Whether the body differs from the one the form opened with.
    public var bodyChanged: Bool { body != (base?.body ?? "") }

    /// The alert Save would keep, checked as `nudge add` and `nudge edit` check it, with
    /// the stored alert and the default reminder time read through `feed`.
    public func check(with feed: AlertFeed, now: Date) -> Result<Alert, OperationError> {
        let world = feed.world
        do throws(OperationError) {
            // A title of spaces alone would be a row with no title. A form's new reminder
            // needs one too: `nudge add` without a title is the drink-water reminder, but a
            // form left empty is not a reminder anyone wrote (the water card adds that one).
            if title.allSatisfy(\.isWhitespace) && (base == nil || titleChanged) {
                // TRANSLATORS: a form's title is empty or only spaces.
                throw OperationError(.usage, tr("a reminder needs a title"))
            }
            var settings = settings
            if let base {
                settings.body = bodyChanged ? body : nil
                let store = try feed.store()
                // Deleted elsewhere: what the form would keep as a new reminder, which Save
                // offers (``Outcome/deletedMeanwhile``), not "no alert with id …".
                var deleted = false
                do { _ = try store.alertID(matching: base.id.hex) } catch let error as StoreError where error.kind == .notFound {
                    deleted = true
                } catch {
                    throw OperationError(StoreError(error, path: world.storePath))
                }
                if deleted { return .success(try asNew(world, now: now, defaultTime: feed.defaultTime)) }
                return .success(try Operations.change(base.id.hex, in: store, title: titleChanged ? title : nil,
                                                      schedule: scheduleChanged ? schedule : ScheduleFlags(), settings: settings, world, now: now,
                                                      defaultTime: feed.defaultTime))
            }
            settings.body = body.isEmpty ? nil : body
            return .success(try Operations.make(title: title.isEmpty ? nil : title, schedule: schedule, settings: settings, world, now: now,
                                                defaultTime: feed.defaultTime))
        } catch {
            return .failure(error)
        }
    }

    /// The edit as a new reminder, for one whose reminder was deleted elsewhere: what the
    /// form shows (the deleted reminder's schedule and options where the form left them,
    /// its own changes over them) under a new id, made now.
    func asNew(_ world: World, now: Date, defaultTime: DefaultReminderTime) throws(OperationError) -> Alert {
        guard var alert = base else { throw OperationError(.usage, tr("a reminder needs a title")) }
        alert.id = UUID()
        alert.created = now
        var settings = settings
        settings.body = bodyChanged ? body : nil
        try settings.apply(to: &alert, title: titleChanged ? title : nil)
        if scheduleChanged {
            alert.schedule = try AlertSettings.schedule(schedule, now: now, zone: alert.zone(system: world.zone), defaultTime: defaultTime)
        }
        return alert
    }

    /// What came of a Save.
    public enum Outcome {
        /// Saved, as this alert.
        case saved(Alert)
        /// Not saved: what is wrong with the form.
        case refused(OperationError)
        /// Not saved: the alert being edited was deleted elsewhere meanwhile; saving again
        /// `keepingAsNew` keeps the edit as a new reminder.
        case deletedMeanwhile
        /// Not saved: fields this form changed were changed elsewhere too since it opened,
        /// each named with what is stored now; saving again over `stored` keeps the form's.
        case changedMeanwhile([String], stored: Alert)
    }

    /// Saves the draft through `feed`'s store and tells a running daemon, unless the alert
    /// was deleted or the same fields were changed elsewhere since the form opened; a
    /// conflict the person already saw (`seen`, the stored alert it named) is saved over.
    /// `words` says a schedule in words, as the face shows them. With `keepingAsNew` (the
    /// person's answer to ``Outcome/deletedMeanwhile``) an edit of a reminder deleted
    /// elsewhere is saved as a new reminder.
    public func save(with feed: AlertFeed, over seen: Alert?, now: Date, keepingAsNew: Bool = false, words: (Alert) -> String) -> Outcome {
        let world = feed.world
        // The store refusing changes now (gone, read-only) refuses this one too.
        if let refusal = feed.refusal() { return .refused(OperationError(.ioError, refusal)) }
        if let base {
            let stored: Alert
            do {
                stored = try feed.store().alert(matching: base.id.hex)
            } catch let error as StoreError where error.kind == .notFound {
                guard keepingAsNew else { return .deletedMeanwhile }
                do throws(OperationError) {
                    let alert = try asNew(world, now: now, defaultTime: feed.defaultTime)
                    try Operations.save(alert, in: try world.store.forWriting(), world)
                    return .saved(alert)
                } catch {
                    return .refused(error)
                }
            } catch let error as OperationError {
                return .refused(error)
            } catch {
                return .refused(OperationError(StoreError(error, path: world.storePath)))
            }
            if stored != base, stored != seen {
                let changed = conflicts(with: stored, words: words)
                if !changed.isEmpty { return .changedMeanwhile(changed, stored: stored) }
            }
        }
        switch check(with: feed, now: now) {
        case .failure(let error):
            return .refused(error)
        case .success(let alert):
            do throws(OperationError) {
                try Operations.save(alert, in: try world.store.forWriting(), world)
            } catch {
                return .refused(error)
            }
            return .saved(alert)
        }
    }

    /// The fields this draft changed that were also changed in the store since the form
    /// opened (`base` then, `stored` now), each with what the store holds now.
    public func conflicts(with stored: Alert, words: (Alert) -> String) -> [String] {
        guard let base else { return [] }
        var changed: [String] = []
        // TRANSLATORS: a form's conflict: the title was changed elsewhere; %s is the new one.
        if titleChanged && stored.title != base.title { changed.append(format(tr("the title (now “%s”)"), stored.title.escapingControls)) }
        // TRANSLATORS: a form's conflict: the body was changed elsewhere.
        if bodyChanged && stored.body != base.body { changed.append(tr("the body")) }
        if scheduleChanged && stored.schedule != base.schedule {
            // TRANSLATORS: a form's conflict: the schedule was changed elsewhere; %s is the new one in words.
            changed.append(format(tr("the schedule (now %s)"), words(stored).escapingControls))
        }
        return changed
    }
}
