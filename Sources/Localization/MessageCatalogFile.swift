/// A GNU gettext message catalog (`.mo`; "The Format of GNU MO Files" in the gettext
/// manual) as its entries. glibc maps such a file and trusts every offset and count in it
/// (intl/loadmsgcat.c, `_nl_load_domain`); ``read(_:)`` is the strict check that a catalog
/// is sound before glibc may load it, and the reader a fuzzer drives: whatever the bytes, it
/// never traps, and its time and memory grow linearly with their number.
public struct MessageCatalogFile: Equatable, Sendable {
    /// One message and its translation, as the file holds them, without the terminating NUL.
    /// A plural entry keeps its NUL separators: the original is `singular NUL plural`, the
    /// translation the language's forms one after another.
    public struct Entry: Equatable, Sendable {
        /// The message as written in the source (`msgctxt EOT msgid` for one with a context).
        public var original: [UInt8]
        /// What the person sees instead.
        public var translation: [UInt8]

        /// An entry of these bytes.
        public init(original: [UInt8], translation: [UInt8]) {
            self.original = original
            self.translation = translation
        }
    }

    /// Why bytes are not a catalog glibc could load safely.
    public struct Damage: Error, Equatable, Sendable, CustomStringConvertible {
        /// One line of English, for `doctor`: "original 3 lies past the end of the file".
        public let reason: String

        /// A damage of this reason.
        public init(_ reason: String) { self.reason = reason }

        /// The reason, for string interpolation.
        public var description: String { reason }
    }

    /// The entries in the file's order. A file ``read(_:)`` accepts has them sorted by
    /// original, the header entry (original "") first.
    public var entries: [Entry]

    /// A catalog of these entries.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    static let magic: UInt32 = 0x9504_12de
    /// glibc's `struct mo_file_header`, the system-dependent fields included: glibc ignores
    /// a file shorter than that, even one whose revision never uses them.
    static let headerSize = 48

    /// The catalog in `bytes`, after checking everything glibc's loader and lookups rely on:
    /// the magic number (either byte order), major revision 0 or 1, the tables and every string
    /// inside the file and each string followed by a NUL (glibc reads them with `strcmp`), no
    /// offset arithmetic that overflows, originals strictly ascending (without a hash table
    /// glibc finds them by binary search), hash slots that name an entry (glibc indexes with
    /// them unchecked) and a hash table whose probing ends, and the header entry first.
    /// Refused, beyond glibc: system-dependent strings (revision 1's `<inttypes.h>` macros,
    /// which msgfmt writes only for C sources), and strings that overlap so much that their
    /// bytes add up to more than the file's (msgfmt never shares them; copying them out would
    /// cost more than linear time).
    public static func read(_ bytes: [UInt8]) throws(Damage) -> MessageCatalogFile {
        guard bytes.count >= headerSize else {
            throw Damage("the file is \(bytes.count) bytes, shorter than the \(headerSize)-byte header")
        }
        let bigEndian: Bool
        switch word(bytes, at: 0, bigEndian: false) {
        case magic: bigEndian = false
        case magic.byteSwapped: bigEndian = true
        default: throw Damage("the file does not start with the magic number 0x950412de")
        }
        // Every 32-bit value is taken to Int (64 bits) at once: sums of two cannot overflow,
        // and products are checked.
        func value(at offset: Int) -> Int { Int(word(bytes, at: offset, bigEndian: bigEndian)) }
        func field(_ index: Int) -> Int { value(at: 4 * index) }

        let revision = field(1)
        guard revision >> 16 <= 1 else { throw Damage("its major revision is \(revision >> 16), not 0 or 1") }
        let count = field(2), originalsAt = field(3), translationsAt = field(4)
        let hashSize = field(5), hashAt = field(6)
        if revision & 0xffff != 0 {
            // glibc refuses a minor revision 1 or later without a hash table ("invalid").
            guard hashSize > 2 else { throw Damage("its minor revision \(revision & 0xffff) needs a hash table, and it has none") }
            guard field(7) == 0, field(9) == 0 else {
                throw Damage("it has system-dependent strings (minor revision 1), which Nudge's catalogs never need")
            }
        }

        /// Checks that a table of `rows` rows of `width` bytes at `offset` lies in the file;
        /// glibc casts the offset to a pointer to 32-bit words, hence the alignment.
        func checkTable(_ name: String, at offset: Int, rows: Int, width: Int) throws(Damage) {
            guard offset % 4 == 0 else { throw Damage("the \(name) table's offset \(offset) is not a multiple of 4") }
            let (length, tooLong) = rows.multipliedReportingOverflow(by: width)
            let (end, tooFar) = offset.addingReportingOverflow(length)
            guard !tooLong, !tooFar, end <= bytes.count else {
                throw Damage("the \(name) table (\(rows) rows at offset \(offset)) lies past the end of the file")
            }
        }
        try checkTable("originals", at: originalsAt, rows: count, width: 8)
        try checkTable("translations", at: translationsAt, rows: count, width: 8)

        /// The bytes of string `index` of a table (without its NUL), once checked: inside the
        /// file, NUL after it, and within what is left of the file's bytes to hand out.
        var budget = bytes.count
        func string(_ name: String, _ index: Int, table: Int) throws(Damage) -> Range<Int> {
            let length = value(at: table + 8 * index), offset = value(at: table + 8 * index + 4)
            let end = offset + length
            guard end < bytes.count else { throw Damage("\(name) \(index) lies past the end of the file") }
            guard bytes[end] == 0 else { throw Damage("\(name) \(index) is not followed by a NUL byte") }
            budget -= length + 1
            guard budget >= 0 else { throw Damage("the strings overlap: together they are longer than the file") }
            return offset..<end
        }

        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var previousKey: Range<Int>? = nil
        for index in 0..<count {
            let original = try string("original", index, table: originalsAt)
            let translation = try string("translation", index, table: translationsAt)
            // glibc compares originals with strcmp: up to the first NUL, a plural's singular.
            let key = original.lowerBound..<(bytes[original].firstIndex(of: 0) ?? original.upperBound)
            if index > 0, key.isEmpty {
                throw Damage("original \(index) is the header entry's (empty), which must come first")
            }
            if let previousKey, !bytes[previousKey].lexicographicallyPrecedes(bytes[key]) {
                throw Damage("originals \(index - 1) and \(index) are not in ascending order")
            }
            previousKey = key
            entries.append(Entry(original: Array(bytes[original]), translation: Array(bytes[translation])))
        }

        if hashSize > 0 {
            try checkTable("hash", at: hashAt, rows: hashSize, width: 4)
            var empty = 0
            for slot in 0..<hashSize {
                let entry = value(at: hashAt + 4 * slot)
                // Slots hold index + 1; glibc takes anything past the strings for a
                // system-dependent one, from a table that is not there.
                guard entry <= count else { throw Damage("hash slot \(slot) names entry \(entry), past the \(count) entries") }
                if entry == 0 { empty += 1 }
            }
            // glibc uses the table when it has more than 2 slots, and probes by steps of
            // 1 + hash % (size - 2) until an empty slot: it must have one, and a prime size
            // (what msgfmt writes) so that every step reaches it.
            if hashSize > 2 {
                guard empty > 0 else { throw Damage("the hash table has no empty slot: glibc would look for a missing message forever") }
                guard isPrime(hashSize) else {
                    throw Damage("the hash table's size \(hashSize) is not prime: glibc could look for a missing message forever")
                }
            }
        }
        // The header's plural formula, which glibc evaluates for every message with a count.
        if let header = entries.first, header.original.isEmpty, let problem = PluralFormula.problem(header: header.translation) {
            throw Damage(problem)
        }
        return MessageCatalogFile(entries: entries)
    }

    /// The file: little-endian, revision 0, no hash table (glibc then searches the originals
    /// by bisection), the tables right after the 28-byte header and the strings after them,
    /// each followed by a NUL. The entries are written in their order, so `read(write())`
    /// gives them back exactly when they are sorted as ``read(_:)`` requires. A catalog of
    /// 4 GiB or more cannot be written (the offsets are 32-bit).
    public func write() -> [UInt8] {
        let stringsAt = 28 + 16 * entries.count
        var file: [UInt8] = []
        file.reserveCapacity(stringsAt + entries.reduce(0) { $0 + $1.original.count + $1.translation.count + 2 })
        func put(_ value: Int) {
            precondition(value <= UInt32.max, "a message catalog's offsets are 32-bit")
            withUnsafeBytes(of: UInt32(value).littleEndian) { file += $0 }
        }
        for field in [Int(Self.magic), 0, entries.count, 28, 28 + 8 * entries.count, 0, stringsAt] { put(field) }
        var offset = stringsAt
        for entry in entries {
            put(entry.original.count)
            put(offset)
            offset += entry.original.count + 1
        }
        for entry in entries {
            put(entry.translation.count)
            put(offset)
            offset += entry.translation.count + 1
        }
        for entry in entries {
            file += entry.original
            file.append(0)
        }
        for entry in entries {
            file += entry.translation
            file.append(0)
        }
        // glibc ignores a file shorter than its header struct (a catalog of one empty entry).
        if file.count < Self.headerSize { file += [UInt8](repeating: 0, count: Self.headerSize - file.count) }
        return file
    }

    /// The translation of `original` (a plural's: its forms, NUL-separated), found as glibc
    /// finds it without a hash table: by bisection over the sorted originals, comparing up to
    /// the first NUL (strcmp), so that a plural entry is found by its singular.
    public func translation(of original: [UInt8]) -> [UInt8]? {
        let key = original.prefix { $0 != 0 }
        var low = 0, high = entries.count
        while low < high {
            let middle = low + (high - low) / 2
            let other = entries[middle].original.prefix { $0 != 0 }
            if other.elementsEqual(key) { return entries[middle].translation }
            if other.lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The 32-bit word at `offset`, which the caller has checked lies inside `bytes`.
    static func word(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt32 {
        let little = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        return bigEndian ? little.byteSwapped : little
    }

    /// Trial division: a hash table inside the file has fewer than 2^30 slots, so at most
    /// 2^15 divisions.
    static func isPrime(_ n: Int) -> Bool {
        guard n >= 2 else { return false }
        var divisor = 2
        while divisor * divisor <= n {
            if n % divisor == 0 { return false }
            divisor += 1
        }
        return true
    }
}
