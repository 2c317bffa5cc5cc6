/// The conflicts kept for one object, as the store holds them (``SyncObject/conflict``):
/// each what both sides changed on its first line, then Nudge's version of the object,
/// the later after the earlier, apart by a line of the ASCII record separator.
public enum SyncConflicts {
    static let separator = "\n\u{1E}\n"

    /// `kept` with `conflict` after it.
    public static func adding(_ conflict: String, to kept: String?) -> String {
        guard let kept, !kept.isEmpty else { return conflict }
        return kept + separator + conflict
    }

    /// Each conflict kept: what both sides changed (`VEVENT/SUMMARY`, `deleted here`) and
    /// Nudge's version then.
    public static func entries(_ kept: String?) -> [(what: String, version: String)] {
        guard let kept, !kept.isEmpty else { return [] }
        return kept.components(separatedBy: separator).map { entry in
            let parts = entry.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : "")
        }
    }
}
