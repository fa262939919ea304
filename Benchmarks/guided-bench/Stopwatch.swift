/// Times a closure over several runs and keeps the median.
enum Stopwatch {
    /// The median wall time of `runs` runs of `body`, in seconds.
    static func median(runs: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<max(runs, 1) {
            let elapsed = clock.measure(body)
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        times.sort()
        return times[times.count / 2]
    }
}
