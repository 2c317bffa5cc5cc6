// The benches build TestSupport too, in release and without swift-testing: this file is
// for the tests alone.
#if canImport(Testing)
import Foundation
import Testing

/// Tests that wait — on a process, a bus, a window, a server — wait on threads of their own.
///
/// swift-testing runs every test on Swift's cooperative pool, which is as wide as the machine
/// has cores: on the two cores CI has, two tests at a time, each mostly asleep in `usleep` or
/// `waitpid` while its programs work. A suite with this trait runs its tests on
/// ``TestThreads/shared`` instead, a pool of `NUDGE_TEST_THREADS` threads (default 3), so that
/// up to that many waiting tests overlap. Three, not more: with ten, the load kept the live
/// suites' daemons from their seconds (a drink taken after the pop-up it should have held);
/// with four, a live Plasma session and a window's restore missed their waits once each.
///
/// A `.serialized` suite takes ``onTestThreadsAhead``: each of its tests goes ahead of the
/// tests queued meanwhile, as such a suite's chain of tests is the run's longest path (left
/// in the queue, the live desktops' chain took 1,323 s of a 1,323 s run, 948 s in the next).
public struct OnTestThreads: SuiteTrait, TestTrait, TestScoping {
    let ahead: Bool
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        guard ahead else { return try await withTaskExecutorPreference(TestThreads.shared) { try await function() } }
        // A task of a higher priority (it inherits the test's task-locals, where swift-testing
        // keeps the test and the issues it records), awaited at once.
        try await withoutActuallyEscaping(function) { function in
            try await Task(executorPreference: TestThreads.shared, priority: .high) { try await function() }.value
        }
    }
}

extension Trait where Self == OnTestThreads {
    /// Runs the suite's tests on ``TestThreads/shared``, not on the cooperative pool.
    public static var onTestThreads: Self { OnTestThreads(ahead: false) }

    /// The same, each test ahead of those waiting for a thread (for `.serialized` suites).
    public static var onTestThreadsAhead: Self { OnTestThreads(ahead: true) }
}

/// A fixed pool of threads: a job of a task above the default priority first, then the others
/// in the order they came.
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    public static let shared = TestThreads(width: {
        if let text = ProcessInfo.processInfo.environment["NUDGE_TEST_THREADS"], let width = Int(text), width > 0 { return width }
        return 3
    }())

    private let condition = NSCondition()
    private var ahead: [UnownedJob] = []
    private var jobs: [UnownedJob] = []

    init(width: Int) {
        for index in 0..<width {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "test thread \(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    public func enqueue(_ job: UnownedJob) {
        condition.lock()
        if job.priority.rawValue > JobPriority(TaskPriority.medium).rawValue { ahead.append(job) } else { jobs.append(job) }
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while ahead.isEmpty && jobs.isEmpty { condition.wait() }
            let job = ahead.isEmpty ? jobs.removeFirst() : ahead.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
#endif
