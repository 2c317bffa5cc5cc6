import NudgeCore

/// The store's schedule column (a store can come from a sync tool or a newer Nudge):
/// whatever reads as a schedule writes the text that reads back as the same schedule.
enum StorageTextFuzz {
    static let target = FuzzTarget("storage-text", "the store's schedule text (Schedule(storageText:))") { bytes throws(FuzzFailure) in
        let text = FuzzTargets.text(bytes)
        guard let schedule = Schedule(storageText: text) else { return }
        let written = schedule.storageText
        guard let again = Schedule(storageText: written) else { throw FuzzFailure("\(text.shown) read, but its text \(written.shown) does not") }
        try expect(again == schedule, "\(text.shown) read as \(schedule), written \(written.shown), read back as \(again)")
        try expect(again.storageText == written, "\(written.shown) is written again as \(again.storageText.shown)")
    }
}
