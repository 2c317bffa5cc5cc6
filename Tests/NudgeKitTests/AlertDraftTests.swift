import Foundation
import NudgeKit
import NudgeStore
import Testing
import TestSupport

/// The draft both forms save through: checked, compared with what was stored meanwhile,
/// saved; in a store of the test's own, at a fixed time, with no daemon.
@Suite(.onTestThreads)
struct AlertDraftTests {
    /// 2026-03-10 14:20 in Seoul.
    let now = Date(timeIntervalSince1970: 1_773_120_000)
    let feed: AlertFeed

    init() throws {
        feed = AlertFeed(world: try .withOwnStore(zone: TimeZone(identifier: "Asia/Seoul")!, now: now), loop: EventLoop(), bus: nil)
    }

    private func saved(_ draft: AlertDraft, over seen: Alert? = nil) -> AlertDraft.Outcome {
        draft.save(with: feed, over: seen, now: now) { $0.schedule.summary(in: TimeZone(identifier: "Asia/Seoul")!, language: .english) }
    }

    private func add(_ title: String) throws -> Alert {
        var draft = AlertDraft()
        draft.title = title
        (draft.schedule, draft.scheduleChanged) = (ScheduleFlags(at: ["09:00"]), true)
        guard case .saved(let alert) = saved(draft) else { throw OperationError(.ioError, "not saved") }
        return alert
    }

    @Test func aTitleOfSpacesIsRefusedInANewFormAndAnEditAlike() throws {
        var draft = AlertDraft()
        draft.title = "   "
        draft.schedule = ScheduleFlags(at: ["09:00"])
        guard case .refused(let error) = saved(draft) else { Issue.record("saved"); return }
        #expect(error.message == "a reminder needs a title")
        var edit = AlertDraft(editing: try add("Tea"))
        edit.title = " "
        guard case .refused(let again) = saved(edit) else { Issue.record("saved"); return }
        #expect(again.message == error.message)
        // Nothing typed at all: not the drink-water reminder `nudge add` makes without a title.
        var empty = AlertDraft()
        (empty.schedule, empty.scheduleChanged) = (ScheduleFlags(at: ["09:00"]), true)
        guard case .refused(let untitled) = saved(empty) else { Issue.record("an empty form saved"); return }
        #expect(untitled.message == error.message)
    }

    @Test func aFieldChangedOnBothSidesIsAConflictUntilSavedOverAndOtherFieldsStay() throws {
        let base = try add("Tea")
        var elsewhere = base
        (elsewhere.title, elsewhere.body) = ("Green tea", "hot")
        try Operations.save(elsewhere, feed.world)
        var draft = AlertDraft(editing: base)
        draft.body = ""
        // The body left as it was: nothing of the draft's meets the change.
        #expect(draft.conflicts(with: elsewhere) { _ in "" }.isEmpty)
        draft.title = "Tea!"
        guard case .changedMeanwhile(let changed, let stored) = saved(draft) else { Issue.record("saved"); return }
        #expect(changed == ["the title (now “Green tea”)"] && stored == elsewhere)
        // Saved over what was named: the title is the draft's, the body the other's.
        guard case .saved(let alert) = saved(draft, over: stored) else { Issue.record("not saved"); return }
        #expect(alert.title == "Tea!" && alert.body == "hot")
        #expect(try AppDatabase.open(path: feed.world.storePath).alerts() == [alert])
    }

    @Test func anAlertDeletedMeanwhileIsNotMadeAgain() throws {
        let base = try add("Tea")
        _ = try Operations.remove([base.id.hex], feed.world)
        var draft = AlertDraft(editing: base)
        draft.title = "Tea!"
        guard case .deletedMeanwhile = saved(draft) else { Issue.record("not refused"); return }
        #expect(try AppDatabase.open(path: feed.world.storePath).alerts().isEmpty)
    }
}
