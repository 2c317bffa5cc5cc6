import Foundation
@testable import Localization
import Testing

struct MessageCatalogFileTests {
    typealias Entry = MessageCatalogFile.Entry

    /// The Korean catalog `make catalogs` builds from po/ko.po (msgfmt: hash table included).
    static let koreanPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/locale/ko/LC_MESSAGES/nudge.mo").path

    static func korean() throws -> [UInt8] {
        guard case .bytes(let bytes) = Catalog.fileBytes(koreanPath, limit: 1 << 24) else {
            throw Missing(reason: "no \(koreanPath): run `make catalogs`")
        }
        return bytes
    }

    struct Missing: Error { let reason: String }

    static func entry(_ original: String, _ translation: String) -> Entry {
        Entry(original: Array(original.utf8), translation: Array(translation.utf8))
    }

    /// A small catalog: header, a plural, two messages; written by `write()`, so the string
    /// offsets are known: originals from 76 on.
    static let small = MessageCatalogFile(entries: [
        entry("", "Content-Type: text/plain; charset=UTF-8\n"),
        entry("%d day\0%d days", "%d일"),
        entry("Snooze", "다시 알림"),
        entry("Today", "오늘"),
    ])

    static func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        MessageCatalogFile.word(bytes, at: offset, bigEndian: false)
    }

    static func setting(_ bytes: [UInt8], _ offset: Int, to value: UInt32) -> [UInt8] {
        var bytes = bytes
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
        return bytes
    }

    /// `bytes` with `hash` as its hash table, appended at the end, 4-aligned (revision 0,
    /// little-endian).
    static func withHashTable(_ bytes: [UInt8], _ hash: [UInt32]) -> [UInt8] {
        let padded = bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
        var bytes = setting(setting(padded, 20, to: UInt32(hash.count)), 24, to: UInt32(padded.count))
        for slot in hash { withUnsafeBytes(of: slot.littleEndian) { bytes += $0 } }
        return bytes
    }

    /// The reason `read` gives for `bytes`, or nil when it accepts them.
    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try MessageCatalogFile.read(bytes)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func theKoreanCatalogReadsWholeAndRoundTrips() throws {
        let catalog = try MessageCatalogFile.read(Self.korean())
        #expect(catalog.entries.count > 100)
        #expect(catalog.entries.first?.original == [])
        #expect(String(decoding: catalog.entries[0].translation, as: UTF8.self).contains("charset=UTF-8"))
        #expect(try MessageCatalogFile.read(catalog.write()) == catalog)
    }

    @Test func translationsAreThoseOfPoKo() throws {
        let catalog = try MessageCatalogFile.read(Self.korean())
        func korean(_ english: String) -> String? {
            catalog.translation(of: Array(english.utf8)).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(korean(" or ") == ", ")
        #expect(korean("%1$d h %2$d min") == "%1$d시간 %2$d분")
        #expect(korean("%1$s at %2$s") == "%1$s %2$s")
        // A plural entry: found by its singular, its original keeping the plural after a NUL.
        #expect(korean("%1$d unexpected argument: %2$s") == "받지 않는 인자 %1$d개: %2$s")
        let plural = catalog.entries.first { $0.original.starts(with: Array("%1$d unexpected argument: %2$s".utf8)) }
        #expect(plural?.original == Array("%1$d unexpected argument: %2$s\0%1$d unexpected arguments: %2$s".utf8))
        #expect(korean("never translated, this one") == nil)
        #expect(korean("") != nil)
    }

    @Test func aBigEndianFileReadsTheSame() throws {
        // msgfmt's layout: header, the two tables, the hash table, then the strings; every
        // word before the strings swapped gives the big-endian file.
        let little = try Self.korean()
        let count = Int(Self.word(little, 8)), hashSize = Int(Self.word(little, 20)), hashAt = Int(Self.word(little, 24))
        #expect(hashAt == 28 + 16 * count)
        var big = little
        for offset in stride(from: 0, to: hashAt + 4 * hashSize, by: 4) { big[offset..<(offset + 4)].reverse() }
        #expect(big != little)
        #expect(try MessageCatalogFile.read(big) == MessageCatalogFile.read(little))
    }

    @Test func writtenFilesRoundTrip() throws {
        #expect(try MessageCatalogFile.read(Self.small.write()) == Self.small)
        // Shorter than glibc's header struct otherwise: padded.
        for catalog in [MessageCatalogFile(), MessageCatalogFile(entries: [Self.entry("", "")])] {
            #expect(catalog.write().count == 48)
            #expect(try MessageCatalogFile.read(catalog.write()) == catalog)
        }
        #expect(try MessageCatalogFile.read(Self.withHashTable(Self.small.write(), [0, 1, 0, 4, 0, 2, 3])) == Self.small)
        #expect(Self.small.translation(of: Array("%d day".utf8)) == Array("%d일".utf8))
    }

    @Test func damageIsRefusedWithItsReason() throws {
        let good = Self.small.write()
        let originals = 28, translations = 28 + 8 * 4, hashed = Self.withHashTable(good, [0, 1, 0, 4, 0, 2, 3])
        let cases: [(String, [UInt8], String)] = [
            ("truncated header", Array(good.prefix(20)), "shorter than the 48-byte header"),
            ("bad magic", Self.setting(good, 0, to: 0x1234_5678), "magic number"),
            ("revision 2", Self.setting(good, 4, to: 0x0002_0000), "major revision is 2"),
            ("minor revision without a hash table", Self.setting(good, 4, to: 1), "needs a hash table"),
            ("system-dependent strings", Self.setting(Self.setting(hashed, 4, to: 1), 36, to: 1), "system-dependent"),
            ("string past the end", Self.setting(good, translations + 8 * 2 + 4, to: UInt32(good.count)), "translation 2 lies past the end"),
            ("missing NUL", Self.setting(good, originals + 8 * 2, to: 5), "original 2 is not followed by a NUL"),
            ("unsorted originals", MessageCatalogFile(entries: [Self.entry("b", ""), Self.entry("a", "")]).write(), "originals 0 and 1 are not in ascending order"),
            ("duplicate originals", MessageCatalogFile(entries: [Self.entry("a", "1"), Self.entry("a", "2")]).write(), "not in ascending order"),
            ("same singular", MessageCatalogFile(entries: [Self.entry("a", "1"), Self.entry("a\0b", "2")]).write(), "not in ascending order"),
            ("header not first", MessageCatalogFile(entries: [Self.entry("a", "1"), Self.entry("", "2")]).write(), "header entry"),
            ("hash slot past N", Self.withHashTable(good, [0, 5, 0]), "hash slot 1 names entry 5, past the 4 entries"),
            ("full hash table", Self.withHashTable(good, [1, 2, 3]), "no empty slot"),
            ("hash size not prime", Self.withHashTable(good, [1, 2, 0, 0]), "not prime"),
            ("N huge", Self.setting(good, 8, to: 0xffff_ffff), "lies past the end of the file"),
            ("N*8 just past the file", Self.setting(good, 8, to: UInt32(good.count / 8)), "lies past the end of the file"),
            ("table offset near UInt32.max", Self.setting(good, 12, to: 0xffff_fffc), "originals table"),
            ("table offset near Int32.max", Self.setting(good, 16, to: 0x7fff_fffc), "translations table"),
            ("misaligned table", Self.setting(good, 12, to: 29), "not a multiple of 4"),
            ("string offset at UInt32.max", Self.setting(good, originals + 4, to: 0xffff_ffff), "original 0 lies past the end"),
            ("string length at UInt32.max", Self.setting(good, originals + 8, to: 0xffff_ffff), "original 1 lies past the end"),
            ("length and offset at Int32.max", Self.setting(Self.setting(good, originals, to: 0x7fff_ffff), originals + 4, to: 0x7fff_ffff), "past the end"),
            ("hash table past the end", Self.setting(hashed, 24, to: 0xffff_fff0), "hash table"),
            ("hash size near UInt32.max", Self.setting(hashed, 20, to: 0xffff_ffff), "hash table"),
            ("overlapping strings", Self.overlapping(), "overlap"),
        ]
        for (name, bytes, reason) in cases {
            let refused = Self.refusal(bytes)
            #expect(refused?.contains(reason) == true, "\(name): \(refused ?? "accepted")")
        }
        // Big-endian damage is seen the same way.
        var big = good
        big[0..<4].reverse()
        big.replaceSubrange(4..<8, with: [0, 2, 0, 0])
        #expect(Self.refusal(big)?.contains("major revision is 2") == true)
    }

    /// 1,000 entries whose originals are all tails of the same 1,000 "a"s, "a" to "aa…a":
    /// each sound, in order, but copying them out would take 500 times the file's bytes.
    static func overlapping() -> [UInt8] {
        let count = 1000
        var bytes = MessageCatalogFile(entries: (0..<count).map { _ in Self.entry("", "") }).write()
        let stringAt = bytes.count
        bytes += [UInt8](repeating: 0x61, count: count) + [0]
        for index in 0..<count {
            bytes = setting(bytes, 28 + 8 * index, to: UInt32(index + 1))
            bytes = setting(bytes, 28 + 8 * index + 4, to: UInt32(stringAt + count - index - 1))
        }
        return bytes
    }

    @Test func bigInputsReadQuickly() throws {
        var generator = SplitMix(seed: 7)
        let junk = (0..<(1 << 20)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        #expect(Self.refusal(junk) != nil)
        #expect(Self.refusal(Self.setting(junk, 0, to: 0x9504_12de)) != nil)
        // 100,000 entries: 1.6 MB of tables and 1.4 MB of strings.
        let many = MessageCatalogFile(entries: (0..<100_000).map { Self.entry(String(format: "m%06d", $0), "t\($0)") })
        let file = many.write()
        let read = try MessageCatalogFile.read(file)
        #expect(read.entries.count == 100_000)
        #expect(read.translation(of: Array("m054321".utf8)) == Array("t54321".utf8))
    }

    /// Random damage to a small hashed catalog: never a trap, and whatever is accepted writes
    /// back to the same entries (what the fuzzer checks).
    @Test func mutationsNeverTrapAndWhatReadsRoundTrips() throws {
        let base = Self.withHashTable(Self.small.write(), [0, 1, 0, 4, 0, 2, 3])
        let edges: [UInt32] = [0, 1, 2, 3, 4, 7, 8, 28, 47, 48, 0x7fff_ffff, 0x8000_0000, 0xffff_fffc, 0xffff_ffff]
        var generator = SplitMix(seed: 42)
        var accepted = 0
        for _ in 0..<20_000 {
            var bytes = base
            for _ in 0...(generator.next() % 3) {
                let offset = Int(generator.next() % UInt64(bytes.count - 3))
                switch generator.next() % 4 {
                case 0: bytes[offset] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes = Self.setting(bytes, offset & ~3, to: edges[Int(generator.next() % UInt64(edges.count))])
                case 2: bytes = Self.setting(bytes, offset & ~3, to: Self.word(bytes, offset & ~3) &+ UInt32(truncatingIfNeeded: generator.next() % 5) &- 2)
                default: bytes.removeLast(Int(generator.next() % 8))
                }
            }
            if let catalog = try? MessageCatalogFile.read(bytes) {
                accepted += 1
                #expect(try MessageCatalogFile.read(catalog.write()) == catalog)
            }
        }
        #expect(accepted > 0)
    }

    /// The plural formulas glibc evaluates for every message with a count: the real ones
    /// pass; division by zero (SIGFPE) and a formula too long or deep for glibc's
    /// recursive evaluation (found by a hostile review) are damage; what glibc cannot
    /// parse falls back to English's rule and is left alone.
    @Test(arguments: [
        ("nplurals=1; plural=0;", nil),
        ("nplurals=2; plural=(n != 1);", nil),
        ("nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);", nil),
        ("nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;", nil),
        ("nplurals=2; plural=n % (10);", nil),
        ("nplurals=2; plural=%%%;", nil),
        ("plural=n%0;", nil),
        ("nplurals=2; plural=n%0;", "divides by zero"),
        ("nplurals=2; plural=n / (0);", "divides by zero"),
        ("nplurals=2; plural=n/(n-1);", "divides by something other than a number"),
        ("nplurals=2; plural=n%18446744073709551616;", "divides by zero"),
        ("nplurals=2; plural=" + String(repeating: "n+", count: 600) + "n;", "longer than"),
        ("nplurals=2; plural=" + String(repeating: "(", count: 100) + "n" + String(repeating: ")", count: 100) + ";", "nested"),
        ("nplurals=2; plural=" + String(repeating: "!", count: 100) + "n;", "nested"),
    ] as [(String, String?)])
    func pluralFormulas(_ formula: String, _ problem: String?) {
        let header = Array("Content-Type: text/plain; charset=UTF-8\nPlural-Forms: \(formula)\n".utf8)
        let found = PluralFormula.problem(header: header)
        if let problem { #expect(found?.contains(problem) == true, "\(formula.prefix(60)): \(found ?? "nil")") } else { #expect(found == nil, "\(formula.prefix(60)): \(found ?? "")") }
        let file = MessageCatalogFile(entries: [.init(original: [], translation: header), .init(original: Array("a".utf8), translation: Array("b".utf8))]).write()
        #expect(((try? MessageCatalogFile.read(file)) == nil) == (problem != nil))
    }

    @Test func candidatesFollowGlibcsOrder() {
        func names(_ locale: String) -> [String] {
            Catalog.catalogCandidates(folder: "/f", locale: locale).map {
                String($0.dropFirst("/f/".count).dropLast("/LC_MESSAGES/nudge.mo".count))
            }
        }
        #expect(Catalog.catalogCandidates(folder: "/f", locale: "ko_KR.UTF-8").first == "/f/ko_KR.UTF-8/LC_MESSAGES/nudge.mo")
        #expect(names("ko_KR.UTF-8") == ["ko_KR.UTF-8", "ko_KR.utf8", "ko_KR", "ko.UTF-8", "ko.utf8", "ko"])
        // What strace shows glibc 2.36 opening for LANGUAGE=sr_RS.UTF-8@latin.
        #expect(names("sr_RS.UTF-8@latin") == [
            "sr_RS.UTF-8@latin", "sr_RS.utf8@latin", "sr_RS@latin", "sr.UTF-8@latin", "sr.utf8@latin", "sr@latin",
            "sr_RS.UTF-8", "sr_RS.utf8", "sr_RS", "sr.UTF-8", "sr.utf8", "sr",
        ])
        #expect(names("ko_KR.utf8") == ["ko_KR.utf8", "ko_KR", "ko.utf8", "ko"])
        #expect(names("pl_PL.8859-2") == ["pl_PL.8859-2", "pl_PL.iso88592", "pl_PL", "pl.8859-2", "pl.iso88592", "pl"])
        #expect(names("ko") == ["ko"])
        #expect(names("ko_") == ["ko"])
        #expect(names("ko@") == ["ko"])
        #expect(names("_KR.UTF-8") == ["_KR.UTF-8"])
    }

    @Test func languagesAreGlibcs() {
        #expect(Catalog.languageNames(locale: "C", language: "ko") == [])
        #expect(Catalog.languageNames(locale: "POSIX", language: nil) == [])
        #expect(Catalog.languageNames(locale: "ko_KR.UTF-8", language: nil) == ["ko_KR.UTF-8"])
        #expect(Catalog.languageNames(locale: "ko_KR.UTF-8", language: "") == ["ko_KR.UTF-8"])
        #expect(Catalog.languageNames(locale: "en_US.UTF-8", language: ":pl::ko:C:de") == ["pl", "ko"])
        let aliases = Array("# comment\n  korean\t\tko_KR.eucKR\nko_KR ko_KR.eucKR\nbroken\n".utf8)
        #expect(Catalog.alias(of: "Korean", in: aliases) == "ko_KR.eucKR")
        #expect(Catalog.alias(of: "ko_KR", in: aliases) == "ko_KR.eucKR")
        #expect(Catalog.alias(of: "broken", in: aliases) == nil)
        #expect(Catalog.alias(of: "#", in: aliases) == nil)
        #expect(Catalog.alias(of: "ko", in: aliases) == nil)
    }

    @Test func aDamagedCatalogIsNamedWithItsReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-catalogs-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func place(_ name: String, _ bytes: [UInt8]) throws {
            try FileManager.default.createDirectory(atPath: folder + "/" + name + "/LC_MESSAGES", withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name + "/LC_MESSAGES/nudge.mo"))
        }
        try place("ko", Self.small.write())
        #expect(Catalog.damagedCatalog(folder: folder, names: ["ko_KR.UTF-8"]) == nil)
        #expect(Catalog.damagedCatalog(folder: folder, names: []) == nil)
        // Another catalog glibc could open for ko_KR.UTF-8, and tries before ko/.
        try place("ko.utf8", Array(Self.small.write().prefix(30)))
        #expect(Catalog.damagedCatalog(folder: folder, names: ["ko_KR.UTF-8"])
            == folder + "/ko.utf8/LC_MESSAGES/nudge.mo: the file is 30 bytes, shorter than the 48-byte header")
        #expect(Catalog.damagedCatalog(folder: folder, names: ["pl"]) == nil)
        try FileManager.default.createDirectory(atPath: folder + "/pl/LC_MESSAGES/nudge.mo", withIntermediateDirectories: true)
        #expect(Catalog.damagedCatalog(folder: folder, names: ["pl"]) == folder + "/pl/LC_MESSAGES/nudge.mo: is not a regular file")
    }
}

/// A small deterministic generator (SplitMix64), for junk that is the same at every run.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
