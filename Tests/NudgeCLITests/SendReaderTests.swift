import ArgumentParser
import Testing
@testable import nudge
import TestSupport

/// `nudge send`'s own reading (``SendRequest/read(_:)``, taken before ArgumentParser for
/// speed) gives what ArgumentParser's gives on every invocation it accepts, and leaves to
/// ArgumentParser every one it does not: help, errors, the unusual spellings.
@Suite(.onTestThreads)
struct SendReaderTests {
    /// ArgumentParser's reading, or nil where it refuses (or prints help).
    static func parsed(_ arguments: [String]) -> SendRequest? {
        (try? Send.parseAsRoot(arguments) as? Send)?.request
    }

    /// What a script passes to notify-send, and what it gets wrong.
    static let words = [
        "-u", "--urgency", "low", "critical", "bogus", "-t", "--expire-time", "-1", "0", "500", "x", "2147483648",
        "-a", "--app-name", "App", "-i", "--icon", "dialog-warning", "-c", "--category", "email", "-h", "--hint",
        "int:x:5", "string:a:b", "-A", "--action", "y=Yes", "Later", "-w", "--wait", "-r", "--replace-id", "7", "-3",
        "-p", "--print-id", "-e", "--transient", "--sound", "bell", "--count", "3", "--literal", "--check-shown",
        "--urgency=low", "--expire-time=9", "--app-name=", "--wait=1", "--count=x", "--", "-", "-?", "--help", "-pe",
        "-ulow", "-t5", "-t-1", "-wp", "-pex", "-r0", "--nope", "", "Title", "Body", "차 마시기", "물 💧", "a=b", "--sound=", "--replace-id=4294967295",
    ]

    /// A fixed sequence, the same on every machine.
    struct Words: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func theReadingIsArgumentParsersWhereverItIsTaken() {
        var random = Words(state: 51)
        var taken = 0
        let tries = 4000
        for _ in 0..<tries {
            let arguments = (0..<Int.random(in: 1...6, using: &random)).map { _ in Self.words.randomElement(using: &random)! }
            guard let fast = SendRequest.read(arguments[...]) else { continue }
            taken += 1
            #expect(Self.parsed(arguments) == fast, "\(arguments)")
        }
        // Enough of them are taken for the comparison to mean something.
        #expect(taken > tries / 10, "only \(taken) of \(tries) taken")
    }

    @Test func flagsTogetherAreReadAsApartAndAValueInAShortOptionsWordIsLeftToArgumentParser() {
        #expect(SendRequest.read(["-wep", "T"]) == SendRequest(summary: "T", wait: true, printID: true, transient: true))
        // notify-send reads -ulow as -u -l -o -w (and refuses it): not a value here either.
        #expect(SendRequest.read(["-ulow", "T"]) == nil)
        #expect(SendRequest.read(["-t500", "T"]) == nil)
    }

    /// notify-send's own invocations, as the parity test sends them, are all read here.
    @Test(arguments: SendParityTests.invocations) func everyNotifySendInvocationIsTaken(arguments: [String]) {
        let fast = SendRequest.read(arguments[...])
        #expect(fast != nil)
        #expect(fast == Self.parsed(arguments))
    }

    @Test func whatItLeavesToArgumentParser() {
        for arguments in [["--help"], ["-?"], [], ["-u"], ["-t", "x", "T"], ["--nope", "T"], ["T", "B", "C"],
                          ["-x", "T"], ["--wait=1", "T"], ["-u", "-w", "T"], ["--generate-completion-script", "bash"]] {
            #expect(SendRequest.read(arguments[...]) == nil, "\(arguments)")
        }
    }
}
