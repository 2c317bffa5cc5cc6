
import BenchSupport
import Foundation
import FuzzChecks

/// How a reader's time grows with its input: each input as it is (the slowest is named),
/// then grown to 1 KB and to 1 MB. The 1 KB time ×1024 is the anchor: a reader that is
/// linear takes about that long on the 1 MB input (ratio ≈ 1); one that is quadratic, a
/// thousand times more.
enum Scaling {
    /// `--scale TARGET PATH…`; with `slowest`, only the slowest input as it is (a fuzzer's
    /// whole corpus: growing thousands of inputs to 1 MB takes long).
    static func main(_ arguments: [String], slowest: Bool = false) -> Int32 {
        guard arguments.count >= 2, let target = FuzzTargets.named(arguments[0]) else { return usage() }
        run(target, files(arguments.dropFirst()), grow: !slowest)
        return 0
    }

    static func usage() -> Int32 {
        FileHandle.standardError.write(Data("usage: nudge-fuzz [--scale | --slowest] TARGET PATH…; nudge-fuzz --list; TARGET is one of: \(FuzzTargets.all.map(\.name).joined(separator: ", "))\n".utf8))
        return 64
    }

    /// The files named, and those of the folders named, in order; a path that is neither
    /// ends the program (66, no input).
    static func files(_ paths: ArraySlice<String>) -> [String] {
        var files: [String] = []
        for path in paths {
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &folder) else {
                FileHandle.standardError.write(Data("nudge-fuzz: \(path): no such file or folder\n".utf8))
                exit(66)
            }
            if folder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                // A corpus is flat, as libFuzzer keeps one: files only, not what is in folders.
                files += names.sorted().filter { !$0.hasPrefix(".") }.map { path + "/" + $0 }.filter { name in
                    var inner: ObjCBool = false
                    return FileManager.default.fileExists(atPath: name, isDirectory: &inner) && !inner.boolValue
                }
            } else {
                files.append(path)
            }
        }
        return files
    }

    static func run(_ target: FuzzTarget, _ files: [String], grow: Bool = true) {
        var slowest = (time: 0.0, file: "", size: 0)
        var worst = (ratio: 0.0, file: "", big: 0.0, anchor: 0.0, seed: [UInt8]())
        var slowestBig = 0.0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let seed = [UInt8](data)
            let time = best(of: 3) { target.read(seed) }
            if time > slowest.time { slowest = (time, file, seed.count) }
            guard grow else { continue }
            let small = target.grow(seed, 1 << 10), big = target.grow(seed, 1 << 20)
            let anchor = best(of: 3) { for _ in 0..<32 { target.read(small) } } / 32 * 1024
            let taken = best(of: 2) { target.read(big) }
            slowestBig = max(slowestBig, taken)
            let ratio = taken / max(anchor, 1e-9)
            if ratio > worst.ratio { worst = (ratio, file, taken, anchor, seed) }
        }
        // The worst of many noisy ratios is as often the noisiest as the worst: the input
        // found worst is timed again, longer, and that is its figure (ratios of 1.1 to 2.1
        // for the same code over runs before).
        if grow, !worst.seed.isEmpty {
            let small = target.grow(worst.seed, 1 << 10), big = target.grow(worst.seed, 1 << 20)
            worst.anchor = best(of: 7) { for _ in 0..<32 { target.read(small) } } / 32 * 1024
            worst.big = best(of: 5) { target.read(big) }
            worst.ratio = worst.big / max(worst.anchor, 1e-9)
        }
        func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
        print("\(target.name): \(files.count) inputs; slowest as found \(ms(slowest.time)) (\(slowest.size) B, \((slowest.file as NSString).lastPathComponent))")
        guard grow else { return }
        // The figure `make bench-check` keeps: the worst growth, against its own anchor.
        figure("reader growth to 1 MB: \(target.name), worst input", worst.big * 1000, "ms", anchor: "its 1 KB time x1024", worst.anchor * 1000)
        print("\(target.name): grown to 1 MB: slowest \(ms(slowestBig)); worst growth \(String(format: "%.2f", worst.ratio))x linear (\(ms(worst.big)) against \(ms(worst.anchor)) = its 1 KB time x1024, \((worst.file as NSString).lastPathComponent))")
    }

    /// The shortest of `runs` timings of `body`, in seconds.
    static func best(of runs: Int, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }
}

