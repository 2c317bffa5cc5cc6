import Presentation
import TerminalFace
import Foundation
import NudgeCore
import NudgeKit
import Testing
import TestSupport

/// The list's model with plain values: fixed instants, UTC, English and ISO times.
@Suite(.onTestThreads)
struct ListModelTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// 2027-01-04T08:00:00Z, a Monday.
    static let now = Date(timeIntervalSince1970: 1_799_049_600)
    static let world = World(storePath: "/nonexistent/nudge.sqlite", zone: utc, language: .english, busAddress: nil, clock: { now })

    static func alert(_ title: String, at time: String, enabled: Bool = true) -> Alert {
        var alert = Alert(title: title, schedule: .daily(times: [try! ScheduleParser.time(time)], days: Schedule.everyDay),
                          timeZone: "UTC", created: now)
        alert.enabled = enabled
        return alert
    }

    /// A list over alerts in the order given (as Operations.order would put these).
    static func list(_ alerts: [Alert]) -> AlertList {
        var list = AlertList(timeStyle: .iso, language: .english)
        list.set(alerts, showings: alerts.map { NextShowing.of($0, state: nil, system: utc, now: now) }, order: Array(alerts.indices))
        return list
    }

    @Test func rowsSayEachAlertAndTheFilterNarrowsThem() {
        let alerts = [Self.alert("Stretch", at: "09:00"), Self.alert("Tea", at: "10:00"), Self.alert("Stretch again", at: "11:00", enabled: false)]
        var list = Self.list(alerts)
        let rows = list.rows(filter: nil, system: Self.utc)
        #expect(rows.map(\.title) == ["Stretch", "Tea", "Stretch again"])
        #expect(rows[0].next == "2027-01-04T09:00:00Z" && rows[0].schedule == "daily at 09:00" && rows[0].on)
        #expect(rows[2].next == "—" && !rows[2].on)
        #expect(!list.isFiltered && Chrome.heading(shown: list.shown.count, total: list.alerts.count) == "Nudge — 3 reminders")

        let filtered = list.rows(filter: "STRETCH", system: Self.utc)
        #expect(filtered.map(\.title) == ["Stretch", "Stretch again"])
        #expect(list.isFiltered && Chrome.heading(shown: list.shown.count, total: list.alerts.count) == "Nudge — 2 of 3 reminders")
        #expect(list.rows(filter: "coffee", system: Self.utc).isEmpty)
        #expect(Chrome.empty(hasAlerts: true) == "Nothing matches the filter.")
    }

    /// Under a filter the rows are not the list's order: an alert is found on its row by
    /// its id (the row a saved alert is selected on), and a row gives its own alert.
    @Test func underAFilterARowIsFoundByItsAlertAndGivesItsOwnAlert() {
        let alerts = [Self.alert("A tea", at: "09:00"), Self.alert("Walk", at: "10:00"), Self.alert("B tea", at: "11:00")]
        var list = Self.list(alerts)
        _ = list.rows(filter: "tea", system: Self.utc)
        #expect(list.row(of: alerts[2].id.hex) == 1)
        #expect(list.alert(atRow: 1)?.title == "B tea")
        #expect(list.row(of: alerts[1].id.hex) == nil)
        #expect(list.alert(atRow: 2) == nil)
        // Read again in another order (one moved): the same alert, on its new row.
        list.set([alerts[2], alerts[0], alerts[1]], showings: [alerts[2], alerts[0], alerts[1]].map {
            NextShowing.of($0, state: nil, system: Self.utc, now: Self.now)
        }, order: [0, 1, 2])
        _ = list.rows(filter: "tea", system: Self.utc)
        #expect(list.row(of: alerts[2].id.hex) == 0)
    }

    @Test func theNextShowingIsTheFirstInOrderWhateverTheFilter() {
        var list = Self.list([Self.alert("Tea", at: "09:00"), Self.alert("Walk", at: "10:00")])
        _ = list.rows(filter: "walk", system: Self.utc)
        #expect(list.next?.alert.title == "Tea")
        #expect(list.next?.instant == Self.now.addingTimeInterval(3600))
    }

    @Test func theCountdownWakesOnceASecondNearAndOnceAMinuteFar() {
        let near = Countdown.line(title: "Tea", next: Self.now.addingTimeInterval(42.3), now: Self.now)
        #expect(near.text == "Next: Tea, in 43 s" && near.changesIn == 301 && !near.due)
        // In the second minute the words stay "in 2 min": the next change is at 60 s, not
        // in a second (it woke every second there, for nothing).
        let second = Countdown.line(title: "Tea", next: Self.now.addingTimeInterval(100.3), now: Self.now)
        #expect(second.text == "Next: Tea, in 2 min" && second.changesIn == 40_301)
        let far = Countdown.line(title: "Tea", next: Self.now.addingTimeInterval(150.5), now: Self.now)
        #expect(far.text == "Next: Tea, in 3 min" && far.changesIn == 30_501)
        let due = Countdown.line(title: "Tea", next: Self.now, now: Self.now)
        #expect(due.text == "Next: Tea, now" && due.due)
        #expect([59, 60, 61, 3599, 3600, 86_399, 86_400, 200_000].map(Countdown.words)
                == ["in 59 s", "in 1 min", "in 2 min", "in 1 h 0 min", "in 1 h 0 min", "in 1 day", "in 1 day", "in 2 days"])
    }

    @Test func theBarSaysTheDaemonWhatWaitsAndTheWater() {
        #expect(StatusLine.text(daemonRunning: false, awayReason: nil, unanswered: 0, water: nil, hasWaterReminder: false, language: .english)
                == "daemon not running")
        let water = WaterProgress(goal: 2000, cup: 250, dayStart: 0, intake: 750, lastDrink: nil, now: Self.now, zone: Self.utc)
        #expect(StatusLine.text(daemonRunning: true, awayReason: "screen locked", unanswered: 2, water: water, hasWaterReminder: false,
                              language: .english) == "daemon running · holding: screen locked · 2 unanswered · 750 of 2,000 ml today")
        #expect(Chrome.listKeys.count == 18 && Chrome.help.first == "↑↓         move")
    }

    @Test func theFormSaysWhatIsWrongWhatItWouldDoAndWhatIsKept() {
        var form = AlertForm()
        _ = form.insert("T")
        let error = OperationError(.usage, "invalid time '25:00'")
        let refused = FormView(form, checked: .failure(error), preview: [], kept: nil, world: Self.world, timeStyle: .iso)
        #expect(refused.heading == "Add a reminder" && refused.error == "invalid time '25:00'" && refused.preview.isEmpty)
        let alert = Self.alert("T", at: "09:00")
        #expect(FormView(form, checked: .success(alert), preview: [], kept: nil, world: Self.world, timeStyle: .iso).preview == ["never"])
        let editing = AlertForm(editing: alert.id.hex, title: "T", body: "", schedule: alert.schedule, zone: Self.utc)
        let kept = FormView(editing, checked: .success(alert), preview: ["2027-01-04T09:00:00Z"], kept: "daily at 09:00, every 2 weeks", world: Self.world, timeStyle: .iso)
        #expect(kept.heading == "Edit the reminder" && kept.preview == ["2027-01-04T09:00:00Z"])
        #expect(kept.fields.last?.hint == "kept as is: daily at 09:00, every 2 weeks")
        #expect(kept.fields.first?.hint == "empty: the drink-water reminder")
    }
}

extension ListModelTests {
    /// A next showing in another year than the list's now says its year; one this year does not.
    @Test func aNextShowingInAnotherYearSaysItsYear() {
        let style = TimeStyle.style(locale: "en_US.UTF-8")
        // 2026-12-31 20:00 UTC: 21:00 is this year, 09:00 tomorrow is next year's.
        let now = Date(timeIntervalSince1970: 1_798_747_200)
        let alerts = [Self.alert("Late", at: "21:00"), Self.alert("Morning", at: "09:00")]
        var list = AlertList(timeStyle: style, language: .english)
        list.set(alerts, showings: alerts.map { NextShowing.of($0, state: nil, system: Self.utc, now: now) }, order: [0, 1], now: now)
        let rows = list.rows(filter: nil, system: Self.utc)
        #expect(!rows[0].next.contains("2026") && rows[0].next.contains("Dec 31"), "\(rows[0].next)")
        #expect(rows[1].next.contains("2027") && rows[1].next.contains("Jan 1"), "\(rows[1].next)")
    }
}

extension ListModelTests {
    /// Words said with a day and no time are echoed with the default reminder time the
    /// form was given ("tomorrow" at 09:00, said over the showings), as the check read them.
    @Test func theFormSaysTheDefaultTimeItTook() {
        var form = AlertForm()
        _ = form.insert("T")
        form.focus(2)
        form.move(-1)
        form.focus(1)
        for character in "tomorrow" { _ = form.insert(character) }
        #expect(form.kind == .words && form[.phrase] == "tomorrow")
        let alert = Alert(title: "T", schedule: .once(Date(timeIntervalSince1970: 1_799_139_600)), timeZone: "UTC", created: Self.now)
        let view = FormView(form, checked: .success(alert), preview: ["2027-01-05T09:00:00Z"], kept: nil, world: Self.world, timeStyle: .iso,
                            defaultTime: .known(LocalTime(hour: 9, minute: 0)))
        #expect(view.preview == ["at 09:00, your default reminder time; say a time to choose another", "2027-01-05T09:00:00Z"])
        #expect(view.fields.last?.hint == "→ --on '2027-01-05 09:00'")
    }
}
