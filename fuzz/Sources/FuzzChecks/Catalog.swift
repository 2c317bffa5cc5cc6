import Localization

/// A `.mo` message catalog, which Nudge checks before glibc may load it: whatever reads
/// as a catalog is written as one that reads back the same, and every message of it is
/// found by its original.
enum CatalogFuzz {
    static let target = FuzzTarget("mo", "gettext .mo catalogs (the translations)") { bytes throws(FuzzFailure) in
        guard let catalog = try? MessageCatalogFile.read(bytes) else { return }
        let written = catalog.write()
        let again: MessageCatalogFile
        do throws(MessageCatalogFile.Damage) { again = try MessageCatalogFile.read(written) } catch {
            throw FuzzFailure("a catalog of \(catalog.entries.count) messages is written as one that does not read: \(error.reason)")
        }
        try expect(again == catalog, "a catalog of \(catalog.entries.count) messages reads back otherwise")
        for entry in catalog.entries.prefix(64) {
            try expect(catalog.translation(of: entry.original) == entry.translation, "a message is not found by its original")
        }
    }
}
