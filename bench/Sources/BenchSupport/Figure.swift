#if canImport(Glibc)
import Glibc
#endif

/// One figure of a benchmark, printed beside its anchor: something measured in the same
/// run on the same machine that the figure should keep its distance to (notify-send,
/// Foundation, a plain SQLite read, a sleep loop). Machines here are noisy; the ratio is
/// what `make bench-check` compares with the committed baseline (bench/baseline.tsv), so
/// a figure that drifts shows whatever the machine's mood.
///
/// Written to stdout as a line a person reads, and, when `BENCH_FIGURES` names a file, as
/// a tab-separated line appended to it: name, value, anchor's name, anchor's value, unit,
/// ratio. Lower is better for every figure (times, memory, wake-ups).
public func figure(_ name: String, _ value: Double, _ unit: String, anchor: String, _ anchorValue: Double) {
    let ratio = anchorValue > 0 ? value / anchorValue : value
    let shown = { (v: Double) in String(format: v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v) }
    print("  figure: \(name): \(shown(value)) \(unit) (anchor \(anchor): \(shown(anchorValue)) \(unit); ratio \(String(format: "%.3f", ratio)))")
    guard let path = getenv("BENCH_FIGURES").map({ String(cString: $0) }), !path.isEmpty,
          let file = fopen(path, "a") else { return }
    defer { fclose(file) }
    let line = [name, String(value), anchor, String(anchorValue), unit, String(ratio)].joined(separator: "\t") + "\n"
    fputs(line, file)
}

/// Median wall seconds of running `argv` (stdout to /dev/null) `runs` times.
public func medianWall(_ argv: [String], runs: Int) -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = wallSeconds()
        runChild(argv)
        samples.append(wallSeconds() - start)
    }
    return median(samples)
}
