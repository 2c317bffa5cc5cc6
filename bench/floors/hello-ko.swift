import Foundation

// The floor for a command that writes a time for a Korean reader: Foundation and ICU's data.
let formatter = DateFormatter()
formatter.locale = Locale(identifier: "ko_KR")
formatter.setLocalizedDateFormatFromTemplate("EEEMMMdjmm")
print(formatter.string(from: Date(timeIntervalSince1970: 1_795_000_000)))
