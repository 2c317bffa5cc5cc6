import Foundation
import Platform
import Testing

/// The one way to the environment and the kernel.
struct EnvironmentTests {
    @Test func xdgFoldersIgnoreRelativeValues() {
        let relative: Environment = ["HOME": "/h", "XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": "./config",
                                     "XDG_DATA_DIRS": "share:/opt/share", "XDG_CONFIG_DIRS": "etc"]
        #expect(relative.dataHome == "/h/.local/share")
        #expect(relative.configHome == "/h/.config")
        #expect(relative.dataDirs == ["/opt/share"])
        #expect(relative.configDirs == ["/etc/xdg"])
        let absolute: Environment = ["HOME": "/h", "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c", "XDG_DATA_DIRS": ""]
        #expect(absolute.dataHome == "/d")
        #expect(absolute.configHome == "/c")
        #expect(absolute.dataDirs == ["/usr/local/share", "/usr/share"])
    }

    @Test func theSessionBusIsTheStarterThenTheVariableThenTheRuntimeSocket() throws {
        let starter: Environment = ["DBUS_STARTER_BUS_TYPE": "session", "DBUS_STARTER_ADDRESS": "unix:path=/starter",
                                    "DBUS_SESSION_BUS_ADDRESS": "unix:path=/session"]
        #expect(starter.sessionBusAddress == "unix:path=/starter")
        let systemStarter: Environment = ["DBUS_STARTER_BUS_TYPE": "system", "DBUS_STARTER_ADDRESS": "unix:path=/system",
                                          "DBUS_SESSION_BUS_ADDRESS": "unix:path=/session"]
        #expect(systemStarter.sessionBusAddress == "unix:path=/session")
        // A runtime folder counts only when it holds a socket named bus.
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-runtime-\(UUID())").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        #expect(Environment(["XDG_RUNTIME_DIR": runtime]).sessionBusAddress == nil)
        _ = FileManager.default.createFile(atPath: runtime + "/bus", contents: Data())
        #expect(Environment(["XDG_RUNTIME_DIR": runtime]).sessionBusAddress == nil, "a plain file is not a bus")
        try FileManager.default.removeItem(atPath: runtime + "/bus")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in (runtime + "/bus").utf8.enumerated() { buffer[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        #expect(Environment(["XDG_RUNTIME_DIR": runtime]).sessionBusAddress == "unix:path=\(runtime)/bus")
        #expect(Environment([:]).sessionBusAddress == nil)
    }

    @Test func localeFollowsPosixOrder() {
        #expect(Environment(["LC_ALL": "ko_KR.UTF-8", "LC_TIME": "de_DE", "LANG": "en_US"]).locale("LC_TIME") == "ko_KR")
        #expect(Environment(["LC_ALL": "", "LC_TIME": "de_DE.UTF-8@euro", "LANG": "en_US"]).locale("LC_TIME") == "de_DE")
        // Only what the C library has: never a locale that exists nowhere.
        #expect(Environment(["LANG": "xx_YY.UTF-8"]).locale("LC_TIME") == "xx_YY")
        #expect(Environment(["LANG": "xx_YY.UTF-8"]).installedLocale("LC_TIME") == nil)
        #expect(Environment(["LANG": "C", "LC_TIME": "xx_YY.UTF-8"]).installedLocale("LC_TIME") == nil)
        #expect(Environment(["LANG": "C.UTF-8"]).installedLocale("LC_TIME") == nil)
        #expect(Environment(["LANG": "POSIX"]).installedLocale("LC_MESSAGES") == nil)
        #expect(Environment(["LANG": "en_US.UTF-8"]).locale("LC_TIME") == "en_US")
        #expect(Environment(["LANG": "C.UTF-8"]).locale("LC_TIME") == nil)
        #expect(Environment(["LANG": "POSIX"]).locale("LC_TIME") == nil)
        #expect(Environment([:]).locale("LC_TIME") == nil)
    }

    @Test func colourAndZone() {
        #expect(Environment(["TERM": "xterm"]).allowsColour)
        #expect(!Environment(["TERM": "xterm", "NO_COLOR": "1"]).allowsColour)
        #expect(Environment(["TERM": "xterm", "NO_COLOR": ""]).allowsColour, "an empty NO_COLOR is unset (no-color.org)")
        #expect(!Environment(["TERM": "dumb"]).allowsColour)
        #expect(Environment(["TZ": ""]).timeZone == "", "an empty TZ is UTC to the C library, not unset")
        #expect(Environment([:]).timeZone == nil)
        #expect(Environment(["TZDIR": "zoneinfo"]).zoneFolder == "/usr/share/zoneinfo")
        #expect(Environment(["TZDIR": "/opt/zoneinfo"]).zoneFolder == "/opt/zoneinfo")
    }

    @Test func theProcessEnvironmentIsRead() {
        setenv("NUDGE_PLATFORM_TEST", "a=b", 1)
        defer { unsetenv("NUDGE_PLATFORM_TEST") }
        #expect(Environment.current["NUDGE_PLATFORM_TEST"] == "a=b")
    }
}

struct SystemCallTests {
    @Test func errnoIsTheCallsOwn() {
        #expect(throws: SystemError(call: "open(/nonexistent/x)", code: ENOENT)) {
            try systemCall("open(/nonexistent/x)") { open("/nonexistent/x", O_RDONLY) }
        }
        let error = SystemError(call: "mkdir(/x)", code: EACCES)
        #expect(error.description == "mkdir(/x): Permission denied")
    }

    @Test func readsWritesAndFolders() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-platform-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        try makeFolders(base + "/a/b/c", mode: 0o700)
        try makeFolders(base + "/a/b/c", mode: 0o700)
        let mode = try FileManager.default.attributesOfItem(atPath: base + "/a/b/c")[.posixPermissions] as? Int
        #expect(mode == 0o700)
        _ = FileManager.default.createFile(atPath: base + "/file", contents: Data())
        #expect(throws: SystemError.self) { try makeFolders(base + "/file/sub", mode: 0o700) }

        var pipeFDs: [Int32] = [0, 0]
        try #require(pipe(&pipeFDs) == 0)
        defer { close(pipeFDs[0]); close(pipeFDs[1]) }
        _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try readAvailable(pipeFDs[0], into: &buffer, count: 16) == nil, "nothing yet: EAGAIN is not an error")
        try writeAll(pipeFDs[1], Array("hello".utf8))
        #expect(try readAvailable(pipeFDs[0], into: &buffer, count: 16) == 5)
        #expect(String(decoding: buffer.prefix(5), as: UTF8.self) == "hello")
        try syncFile(base + "/file")
        #expect(throws: SystemError.self) { try syncFile(base + "/missing") }
    }
}
