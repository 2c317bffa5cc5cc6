import ArgumentParser
import Foundation
import NudgeCore
import NudgeKit
import Testing
@testable import nudge
import TestSupport

/// The command line's options parsed in-process (argument-parser's `parseAsRoot`): what
/// `add` and `edit` hand to the operations, and the one line a refused value gets.
@Suite(.onTestThreads)
struct CommandParsingTests {
    @Test func addHandsTheOperationsTypedSettings() throws {
        let command = try Nudge.parseAsRoot(["add", "Stand up", "--at", "15:00", "--days", "mon-fri", "--urgency", "Critical",
                                             "--tz", "Asia/Seoul", "--catch-up", "once", "--grace", "2h", "--snooze", "15m",
                                             "--when-away", "show", "--nag", "5m", "--nag-max", "3", "--sound", "none"])
        let add = try #require(command as? Add)
        #expect(add.title == "Stand up")
        #expect(add.schedule.flags == ScheduleFlags(at: ["15:00"], days: "mon-fri"))
        #expect(add.options.settings == AlertSettings(sound: .silent, urgency: .critical, zone: .pinned(TimeZone(identifier: "Asia/Seoul")!),
                                                      catchUp: .once, grace: try GraceLength(parsing: "2h"),
                                                      snooze: try SnoozeLength(parsing: "15m"), whenAway: .show,
                                                      nag: .every(seconds: 300), nagMax: try NagTimes(parsing: "3")))
    }

    @Test func editAndSnoozeTakeTheSameTypes() throws {
        let edit = try #require(try Nudge.parseAsRoot(["edit", "3f25", "--kind", "water", "--off", "--tz", "system"]) as? Edit)
        #expect(edit.options.settings == AlertSettings(zone: .system, kind: .water, off: true))
        let snooze = try #require(try Nudge.parseAsRoot(["snooze", "3f25", "1h30m"]) as? Snooze)
        #expect(snooze.duration.seconds == 5400)
    }

    /// A refused value gets its type's reason, as every other face says it, not
    /// argument-parser's generic line.
    @Test func aRefusedValueGetsItsTypesReason() {
        for (arguments, reason) in [(["add", "T", "--at", "9:00", "--urgency", "loud"], "invalid urgency 'loud': use low, normal or critical"),
                                    (["add", "T", "--at", "9:00", "--nag-max", "abc"], "invalid --nag-max 'abc': use 1 to 100"),
                                    (["snooze", "3f25", "8d"], "invalid snooze '8d': it must be between 1s and 7d (use numbers with units, the largest first, each once: 90s, 20m, 1h30m, 10 min, 1시간 30분)"),
                                    // Two refused: the one argument-parser reports, with its own reason.
                                    (["add", "T", "--at", "9:00", "--urgency", "loud", "--kind", "tea"], "invalid urgency 'loud': use low, normal or critical"),
                                    // A value that reads like the report itself.
                                    (["add", "T", "--urgency", "x' is invalid for '--kind <kind>': y"],
                                     "invalid urgency 'x' is invalid for '--kind <kind>': y': use low, normal or critical")] {
            do {
                _ = try Nudge.parseAsRoot(arguments)
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(RefusedValue.reason(for: Nudge.message(for: error))?.message == reason)
                #expect(Nudge.exitCode(for: error) == .validationFailure)
            }
        }
    }

    /// Only the value refused last has a reason of its own: argument-parser's other lines
    /// stay as they are.
    @Test func otherParserErrorsKeepTheirOwnLine() {
        do {
            _ = try Nudge.parseAsRoot(["add", "T", "--at", "9:00", "--loudness", "3"])
            Issue.record("parsed")
        } catch {
            #expect(RefusedValue.reason(for: Nudge.message(for: error)) == nil)
        }
    }
}
