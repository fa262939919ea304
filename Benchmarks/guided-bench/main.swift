import Foundation

/// `guided-bench`: the project's benchmarks. Each prints ratios against a peer measured in the
/// same run.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "json":
    JSONBenchmark(arguments: Array(arguments.dropFirst())).run()
default:
    print("""
        usage: guided-bench <benchmark> [options]

        benchmarks:
          json [--scale S] [--runs N] [--shape TEXT]
              parse throughput of PartialJSON against Foundation's JSONSerialization, and the
              cost of streaming with a snapshot every 4 bytes against one-shot parsing
        """)
    exit(arguments.isEmpty || arguments.first == "--help" ? 0 : 2)
}
