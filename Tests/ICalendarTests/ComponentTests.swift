import Foundation
@testable import ICalendar
import Testing

/// The wire form of iCalendar: folding, unfolding, escaping, parameters, bad input.
struct ComponentTests {
    @Test func aCalendarReadsWithCRLFOrLFAndFoldedLines() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:Drink\r\n  water\\, 250 ml\r\nDTSTART;TZID=Asia/Seoul:20261123T093000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        for variant in [text, text.replacingOccurrences(of: "\r\n", with: "\n")] {
            let calendars = try Component.read(variant)
            #expect(calendars.count == 1 && calendars.first?.name == "VCALENDAR")
            let event = try #require(calendars[0].components.first)
            #expect(event.name == "VEVENT")
            #expect(event["SUMMARY"]?.text == "Drink water, 250 ml")
            #expect(event["DTSTART"]?.parameter("tzid") == "Asia/Seoul")
            #expect(event["DTSTART"]?.value == "20261123T093000")
        }
    }

    @Test func writingFoldsAtSeventyFiveOctetsNeverInsideACharacter() throws {
        let title = String(repeating: "물 마시기 💧 ", count: 20) + "\n두 번째 줄; 쉼표, 역슬래시 \\"
        let event = Component("VEVENT", properties: [.text("SUMMARY", title), Property("UID", "x@nudge")])
        let text = event.text
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75, "\(line)") }
        #expect(text.hasSuffix("END:VEVENT\r\n"))
        let back = try Component.read("BEGIN:VCALENDAR\r\n" + text + "END:VCALENDAR\r\n")
        #expect(back[0].components[0]["SUMMARY"]?.text == title)
        #expect(back[0].components[0] == event)
    }

    @Test func parametersMayBeQuotedAndListed() throws {
        let property = try Component.parse(#"ATTENDEE;ROLE=REQ-PARTICIPANT;DELEGATED-FROM="mailto:a@x.org","mailto:b@x.org";CN=Ann:mailto:c@x.org"#)
        #expect(property.name == "ATTENDEE")
        #expect(property.parameters.map(\.name) == ["ROLE", "DELEGATED-FROM", "CN"])
        #expect(property.parameters[1].values == ["mailto:a@x.org", "mailto:b@x.org"])
        #expect(property.value == "mailto:c@x.org")
        let written = Property("X", "v", parameters: [("P", ["a:b", "c"])])
        #expect(try Component.parse(written.line) == written)
    }

    @Test func aListSplitsAtUnescapedCommas() {
        #expect(Property("EXDATE", "20261124T093000,20261125T093000").list == ["20261124T093000", "20261125T093000"])
        #expect(Property("CATEGORIES", #"a\,b,c"#).list == [#"a\,b"#, "c"])
    }

    @Test(arguments: [
        ("", "empty"),
        ("hello world\n", "not iCalendar"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:x\n", "never closed"),
        ("BEGIN:VCALENDAR\nEND:VEVENT\n", "closes BEGIN:VCALENDAR"),
        ("BEGIN:VCALENDAR\nSUMMARY\nEND:VCALENDAR\n", "no ':'"),
        ("BEGIN:VCALENDAR\nX;P=\"open:v\nEND:VCALENDAR\n", "unclosed quote"),
        ("BEGIN:VCALENDAR\nEND:VCALENDAR\nEND:VCALENDAR\n", "without its BEGIN"),
        (String(repeating: "BEGIN:X\n", count: 9), "deeper than 8"),
    ])
    func badInputIsNamedWithItsLine(text: String, reason: String) {
        #expect(throws: SyntaxError.self) { try Component.read(text) }
        do {
            _ = try Component.read(text)
        } catch {
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test func oldMacLineEndsAByteOrderMarkAndAFoldInsideACharacterRead() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:물 마시기\r\n  250 ml\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let expected = try Component.read(text)
        #expect(expected.first?.components.first?["SUMMARY"]?.text == "물 마시기 250 ml")
        #expect(try Component.read(text.replacingOccurrences(of: "\r\n", with: "\r")) == expected)
        #expect(try Component.read(bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8)) == expected)
        // "물" is EB AC BC: a fold after its first byte and one after its second.
        for cut in 1...2 {
            var bytes = Array(text.utf8)
            bytes.insert(contentsOf: Array("\r\n ".utf8), at: bytes.firstIndex(of: 0xEB)! + cut)
            #expect(try Component.read(bytes: bytes) == expected)
        }
    }

    /// Bytes in ways a file can be broken, the line each is named on and how.
    static let badBytes: [([UInt8], Int, SyntaxError.Kind)] = {
        let utf16: [UInt8] = Array("BEGIN:VCALENDAR\r\n".utf16).flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), 0] }
        let nul: [UInt8] = Array("BEGIN:VCALENDAR\nX:a\u{0}b\nEND:VCALENDAR\n".utf8)
        let folded: [UInt8] = Array("BEGIN:VCALENDAR\nX:a\n b".utf8) + [0xFF] + Array("\nEND:VCALENDAR\n".utf8)
        return [(nul, 2, .nul), (folded, 2, .notUTF8), (utf16, 1, .nul), ([0xFF, 0xFE] + utf16, 1, .notUTF8), ([0x01, 0xFF, 0x42, 0x45], 1, .structure)]
    }()

    @Test(arguments: badBytes)
    func aNULAndBytesThatAreNotUTF8AreNamedWithTheirLine(bytes: [UInt8], line: Int, kind: SyntaxError.Kind) {
        do {
            _ = try Component.read(bytes: bytes)
            Issue.record("read")
        } catch {
            #expect(error.line == line && error.kind == kind, "\(error)")
        }
    }

    @Test func messagesQuoteAShortPrefixOfTheFile() {
        let long = String(repeating: "X", count: 1 << 20)
        for text in ["BEGIN:VCALENDAR\nEND:\(long)\n", "BEGIN:\(long)\n", "BEGIN:VCALENDAR\nEND:VCALENDAR\n\(long):v\n",
                     "BEGIN:VCALENDAR\nX;\(long)\n", "BEGIN:VCALENDAR\n\(long)\n", "BEGIN:VCALENDAR\rX:\(long)\r"] {
            do {
                _ = try Component.read(text)
                Issue.record("read")
            } catch {
                #expect(error.reason.utf8.count < 200, "\(error.reason.prefix(100))")
            }
        }
    }
}
