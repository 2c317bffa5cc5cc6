import CalendarSync
import Foundation
import Testing

/// Ids as the store keeps them (32 lowercase hex digits), read and written without
/// Foundation's scanner: every sync reads one per object.
struct StoreIdTests {
    @Test func anIdGoesToHexAndBack() {
        for _ in 0..<200 {
            let id = UUID()
            #expect(id.hexString == id.uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
            #expect(UUID(hexString: id.hexString) == id)
            #expect(UUID(hexString: id.hexString.uppercased()) == id)
        }
    }

    @Test(arguments: ["", "0", String(repeating: "a", count: 31), String(repeating: "a", count: 33), String(repeating: "a", count: 34),
                      "g" + String(repeating: "a", count: 31), "3f25a1b0-0000-0000-0000-000000000000", " " + String(repeating: "a", count: 31),
                      String(repeating: "é", count: 16)])
    func anythingElseIsNoId(_ text: String) {
        #expect(UUID(hexString: text) == nil, "\(text)")
    }
}
