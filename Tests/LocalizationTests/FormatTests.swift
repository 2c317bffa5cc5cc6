@testable import Localization
import NudgeCore
import Testing

struct FormatTests {
    @Test func placeholdersInOrderAndByPosition() {
        #expect(format("Snooze %d min", 10) == "Snooze 10 min")
        #expect(format("Missed %1$d reminders since %2$s", 3, "09:30") == "Missed 3 reminders since 09:30")
        #expect(format("%2$s 이후 알림 %1$d개를 놓쳤어요", 3, "오전 9:30") == "오전 9:30 이후 알림 3개를 놓쳤어요")
        #expect(format("100%% done, %s", "ok") == "100% done, ok")
    }

    @Test func aBrokenTemplateIsLeftAsItIs() {
        #expect(format("%q %d", 1) == "%q 1")
        #expect(format("%5$s", "a") == "")
        #expect(format("end %", 1) == "end %")
        #expect(format("%d %d", 1) == "1 ")
    }

    @Test func catalogsAreFoundBesideTheBinary() {
        #expect(Catalog.catalogFolder(executable: "/nonexistent/bin/nudge") == nil)
        #expect(Catalog.catalogFolder(executable: "nudge") == nil)
        #expect(Catalog.catalogFolder(executable: "/usr/bin/nudge") == "/usr/bin/../share/locale")
    }
}
