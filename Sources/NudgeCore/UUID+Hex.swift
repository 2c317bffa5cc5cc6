import Foundation

extension UUID {
    /// The id as 32 lowercase hex digits without dashes: how Nudge stores and shows ids
    /// (people see the first 8), so a prefix of it names an alert.
    public var hex: String {
        uuidString.lowercased().filter { $0 != "-" }
    }

    /// Reads 32 hex digits without dashes (any case).
    public init?(hex: String) {
        let h = Array(hex)
        guard h.count == 32 else { return nil }
        self.init(uuidString: [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(h[$0]) }.joined(separator: "-"))
    }
}
