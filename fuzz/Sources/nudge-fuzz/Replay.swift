#if !FUZZING
import Foundation
import FuzzChecks

/// Without the fuzzer: `nudge-fuzz TARGET PATH…` checks each file (each file of a
/// folder) once, as a crash's input is replayed; `nudge-fuzz --scale TARGET PATH…` times
/// the reader on each file grown to 1 KB and to 1 MB; `nudge-fuzz --list` names the
/// targets. `make fuzz` builds the fuzzing binary, where libFuzzer owns `main`.
@main
struct Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--help" || arguments.first == "-h" {
            print("usage: nudge-fuzz [--scale | --slowest] TARGET PATH…; nudge-fuzz --list (the fuzzing build: make fuzz; fuzz/README.md)")
            return
        }
        if arguments.first == "--list" {
            for target in FuzzTargets.all { print(target.name.padding(toLength: 14, withPad: " ", startingAt: 0) + target.summary) }
            return
        }
        if arguments.first == "--scale" { exit(Scaling.main(Array(arguments.dropFirst()))) }
        if arguments.first == "--slowest" { exit(Scaling.main(Array(arguments.dropFirst()), slowest: true)) }
        guard arguments.count >= 2, let target = FuzzTargets.named(arguments[0]) else { exit(Scaling.usage()) }
        check(target, Scaling.files(arguments.dropFirst()))
    }

    static func check(_ target: FuzzTarget, _ files: [String]) {
        var failed = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            do throws(FuzzFailure) { try target.check([UInt8](data)) } catch {
                print("\(file): \(error)")
                failed += 1
            }
        }
        print("\(target.name): \(files.count) inputs, \(failed) failed")
        if failed > 0 { exit(1) }
    }
}
#endif
