import Presentation
import TerminalFace
import Foundation
import NudgeCore
import Testing

/// The add/edit form's editing, and the `nudge add` flags it makes.
struct AlertFormTests {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    /// 2026-11-23 00:00 UTC, a Monday.
    let now = Date(timeIntervalSince1970: 1_795_392_000)

    /// Types text into the focused field, as keys.
    func type(_ text: String, into form: inout AlertForm) {
        for character in text { form.insert(character) }
    }

    func focus(_ field: AlertForm.Field, in form: inout AlertForm) {
        while form.focusedField != field { form.focus(1) }
    }

    @Test func aNewFormIsDailyAtHalfPastNine() throws {
        let form = AlertForm()
        #expect(form.fields == [.title, .body, .kind, .times, .days])
        #expect(form.focusedField == .title && form.cursor == 0)
        #expect(form.flags == ScheduleFlags(at: ["09:30"]))
    }

    @Test func typingEditsAtTheCursor() {
        var form = AlertForm()
        type("물 마시기", into: &form)
        #expect(form[.title] == "물 마시기" && form.cursor == 5)
        form.move(-2)
        form.backspace()
        #expect(form[.title] == "물 시기" && form.cursor == 2)
        form.insert("마")
        form.moveToEnd(false)
        form.delete()
        #expect(form[.title] == " 마시기")
        form.moveToEnd(true)
        form.move(5)
        #expect(form.cursor == 4)
        form.clear()
        #expect(form[.title] == "" && form.cursor == 0)
    }

    @Test func theKindIsAChoiceTheArrowsTurn() {
        var form = AlertForm()
        focus(.kind, in: &form)
        form.insert("x")
        #expect(form.kind == .time && form.fields.last == .days)
        form.move(1)
        #expect(form.fields == [.title, .body, .kind, .every, .from, .until, .days, .counting])
        form.move(1)
        #expect(form.kind == .date && form.fields.last == .when)
        form.move(1)
        #expect(form.kind == .delay && form.fields.last == .delay)
        form.move(-4)
        #expect(form.kind == .words && form.fields.last == .phrase)
        form.move(-1)
        #expect(form.kind == .cron)
        form.move(2)
        #expect(form.kind == .time)
    }

    @Test func tabWrapsAroundTheFieldsWithTheCursorAtTheEnd() {
        var form = AlertForm()
        form.focus(-2)
        #expect(form.focusedField == .times && form.cursor == 5)
        form.focus(2)
        #expect(form.focusedField == .title)
    }

    @Test func theFlagsAreWhatTheCommandLineWouldBe() {
        var form = AlertForm()
        focus(.days, in: &form)
        type("weekdays", into: &form)
        #expect(form.flags == ScheduleFlags(at: ["09:30"], days: "weekdays"))
        focus(.kind, in: &form)
        form.move(1)
        #expect(form.flags == ScheduleFlags(days: "weekdays", every: "30m", from: "09:30", until: "21:30"))
        focus(.counting, in: &form)
        form.move(1)
        #expect(form.flags.afterAnswer)
        focus(.kind, in: &form)
        form.move(1)
        focus(.when, in: &form)
        type("2026-12-01 09:00", into: &form)
        #expect(form.flags == ScheduleFlags(on: "2026-12-01 09:00"))
        focus(.kind, in: &form)
        form.move(1)
        #expect(form.flags == ScheduleFlags(in: "20m"))
        form.move(1)
        #expect(form.flags == ScheduleFlags(cron: "0 9 * * mon-fri"))
    }

    @Test func severalTimesAreSplitOnCommasAndSpaces() {
        var form = AlertForm()
        focus(.times, in: &form)
        form.clear()
        type("09:30, 13:00 18:00", into: &form)
        #expect(form.flags.at == ["09:30", "13:00", "18:00"])
    }

    /// A stored schedule opens as the flags that make it, and those flags make it again.
    @Test(arguments: [
        ScheduleFlags(at: ["09:30"]),
        ScheduleFlags(at: ["09:30", "18:00"], days: "weekdays"),
        ScheduleFlags(at: ["10:00"], days: "sat,sun"),
        ScheduleFlags(at: ["07:00"], days: "mon,wed,fri"),
        ScheduleFlags(days: "weekdays", every: "30m", from: "09:30", until: "21:30"),
        ScheduleFlags(every: "1h30m"),
        ScheduleFlags(days: "weekends", every: "45m", from: "10:00", until: "20:00", afterAnswer: true),
        ScheduleFlags(on: "2026-12-01 09:00"),
        ScheduleFlags(cron: "0 9 1 * mon"),
    ])
    func aStoredScheduleRoundTrips(flags: ScheduleFlags) throws {
        let schedule = try ScheduleParser.schedule(flags, now: now, zone: seoul)
        let form = AlertForm(editing: "abc", title: "t", body: "", schedule: schedule, zone: seoul)
        #expect(!form.scheduleChanged)
        #expect(try ScheduleParser.schedule(form.flags, now: now, zone: seoul) == schedule)
    }

    @Test func anEditThatLeavesTheScheduleAloneSaysSo() throws {
        let schedule = try ScheduleParser.schedule(ScheduleFlags(at: ["09:30"]), now: now, zone: seoul)
        var form = AlertForm(editing: "abc", title: "t", body: "", schedule: schedule, zone: seoul)
        type(" more", into: &form)
        #expect(!form.scheduleChanged)
        focus(.times, in: &form)
        form.backspace()
        #expect(form.scheduleChanged)
        form.insert("0")
        #expect(!form.scheduleChanged)
    }
}
