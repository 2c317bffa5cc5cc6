import Foundation

/// One reader of outside input, as a fuzzer drives it: a function of bytes that returns
/// when every property holds and throws ``FuzzFailure`` naming the one that did not. A
/// crash or a sanitizer's report is a failure too; libFuzzer sees those by itself.
public struct FuzzTarget: Sendable {
    /// The target's name: `nudge-fuzz NAME`, `fuzz/corpus/NAME`, `fuzz/regressions/NAME`.
    public let name: String
    /// What it reads, for `nudge-fuzz --list`.
    public let summary: String
    /// Checks one input.
    public let check: @Sendable ([UInt8]) throws(FuzzFailure) -> Void
    /// The reader alone, without the checks' writing and reading again: what
    /// `nudge-fuzz --scale` times.
    public let read: @Sendable ([UInt8]) -> Void
    /// A large input made from a small one (`nudge-fuzz --scale`): the reader's time on it
    /// must grow no faster than its size.
    public let grow: @Sendable ([UInt8], Int) -> [UInt8]

    init(_ name: String, _ summary: String, grow: @escaping @Sendable ([UInt8], Int) -> [UInt8] = FuzzTarget.repeating,
         read: (@Sendable ([UInt8]) -> Void)? = nil, check: @escaping @Sendable ([UInt8]) throws(FuzzFailure) -> Void) {
        (self.name, self.summary, self.grow, self.check) = (name, summary, grow, check)
        self.read = read ?? { try? check($0) }
    }

    /// The input said again and again until it is `size` bytes long.
    public static let repeating: @Sendable ([UInt8], Int) -> [UInt8] = { seed, size in
        guard !seed.isEmpty else { return [UInt8](repeating: 0x20, count: size) }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        while out.count < size { out.append(contentsOf: seed.prefix(size - out.count)) }
        return out
    }
}

/// A property that did not hold, said in one line.
public struct FuzzFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Fails with `message` unless `condition` holds.
@inline(__always)
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFailure) {
    if !condition { throw FuzzFailure(message()) }
}

/// Every target, by name; the slowest first (autostart takes 40 s of make test's check, the
/// others 1–12 s each), as `scripts/fuzz --runs` starts them two at a time on two cores.
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        AutostartFuzz.target, CalendarFuzz.target, PhraseFuzz.target, ZoneFuzz.target, CatalogFuzz.target,
        MultistatusFuzz.target, StorageTextFuzz.target, CronFuzz.target, TypedFuzz.target, BusFuzz.target,
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// The fixed world every target reads in: no reader's outcome may depend on the day,
    /// the machine's zone or its locale. 2026-03-29 00:30 UTC, hours before Warsaw's
    /// clocks go forward.
    static let now = Date(timeIntervalSince1970: 1_774_744_200)
    static let zone = TimeZone(identifier: "Europe/Warsaw")!

    /// Bytes as text the way the reader's edge makes them: invalid UTF-8 repaired.
    static func text(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}

extension String {
    /// Quoted for a failure's one line: controls escaped, at most 200 characters.
    var shown: String {
        let cut = count > 200 ? String(prefix(200)) + "…" : self
        return "\"" + cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "\""
    }
}
