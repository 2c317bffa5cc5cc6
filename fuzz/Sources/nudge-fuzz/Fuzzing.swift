#if FUZZING
import Foundation
import FuzzChecks
#if canImport(Glibc)
import Glibc
#endif

// The fuzzing build: `nudge-fuzz TARGET [libFuzzer's flags and corpus folders]`. The
// program's entry (SwiftPM names it nudge_fuzz_main and makes it `main`) takes the
// target's name out of the arguments, keeps it in NUDGE_FUZZ_TARGET for the processes
// libFuzzer starts itself (-merge, -fork), and hands the rest to libFuzzer's driver.

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

nonisolated(unsafe) private var target: FuzzTarget?

@_cdecl("nudge_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var (count, arguments) = (argc, argv)
    if count > 1, let first = arguments?[1], String(cString: first) == "--list" {
        for target in FuzzTargets.all { print(target.name.padding(toLength: 14, withPad: " ", startingAt: 0) + target.summary) }
        return 0
    }
    // `nudge-fuzz --scale TARGET PATH…`: the reader's growth, sanitizers and all.
    if count > 1, let first = arguments?[1], String(cString: first) == "--scale" {
        let words = (0..<Int(count)).compactMap { arguments?[$0].map { String(cString: $0) } }
        return Scaling.main(Array(words.dropFirst(2)))
    }
    if count > 1, let first = arguments?[1], let named = FuzzTargets.named(String(cString: first)) {
        setenv("NUDGE_FUZZ_TARGET", named.name, 1)
        for index in 1..<Int(count) { arguments?[index] = arguments?[index + 1] }
        count -= 1
    }
    guard let name = getenv("NUDGE_FUZZ_TARGET").map({ String(cString: $0) }), let named = FuzzTargets.named(name) else {
        say("usage: nudge-fuzz TARGET [libFuzzer flags] [CORPUS…]; TARGET is one of: \(FuzzTargets.all.map(\.name).joined(separator: ", "))")
        return 64
    }
    target = named
    return runDriver(&count, &arguments) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do throws(FuzzFailure) { try target!.check(bytes) } catch {
            say("nudge-fuzz \(target!.name): \(error)")
            abort()
        }
        return 0
    }
}

/// A line on standard error, written at once (libFuzzer's own lines go there too).
private func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
#endif
