import Foundation

/// `guided-bench`: the project's benchmarks. Each prints ratios against a peer measured in the
/// same run.
let arguments = Array(CommandLine.arguments.dropFirst())

/// Runs a benchmark; an error ends the program with its message.
func runOrExit(_ body: () async throws -> Void) async {
    do {
        try await body()
    } catch {
        FileHandle.standardError.write(Data("guided-bench: \(error)\n".utf8))
        exit(1)
    }
}

switch arguments.first {
case "json":
    JSONBenchmark(arguments: Array(arguments.dropFirst())).run()
case "decode":
    await runOrExit { try DecodeBenchmark(arguments: Array(arguments.dropFirst())).run() }
case "logits":
    await runOrExit { try LogitsCommand(arguments: Array(arguments.dropFirst())).run() }
case "generate":
    await runOrExit { try await GenerateBenchmark(arguments: Array(arguments.dropFirst())).run() }
case "tools":
    await runOrExit { try await ToolBenchmark(arguments: Array(arguments.dropFirst())).run() }
case "quality":
    await runOrExit { try await QualityBenchmark(arguments: Array(arguments.dropFirst())).run() }
case "masks":
    await runOrExit { try MaskBenchmark(arguments: Array(arguments.dropFirst())).run() }
case "tool-session":
    await runOrExit { try await ToolSessionCommand(arguments: Array(arguments.dropFirst())).run() }
case "forced-runs":
    await runOrExit { try ForcedRunsBenchmark(arguments: Array(arguments.dropFirst())).run() }
default:
    print("""
        usage: guided-bench <benchmark> [options]

        benchmarks:
          json [--scale S] [--runs N] [--shape TEXT]
              parse throughput of PartialJSON against Foundation's JSONSerialization, and the
              cost of streaming with a snapshot every 4 bytes against one-shot parsing
          masks --vocab VOCAB.json --cases CASES.jsonl --out OUT.jsonl
                [--whitespace compact|flexible] [--extra-properties forbid|allow] [--lenient]
                [--compile-each] [--lazy-masks]
              schema or grammar compile time and per-token mask time over a tokenizer's
              vocabulary; a case is a JSON Schema and an instance (make-cases.py) or a GBNF or
              Lark grammar and a sample text (make-grammar-cases.py); consecutive cases of one
              schema or grammar share its compile unless --compile-each; the compile includes
              precomputing the slow masks unless --lazy-masks
          forced-runs --model PATH [--model PATH ...] [--corpus DIR] [--layout indented|compact]
                [--schemas-per-file N]
              fast-forward against the tokenizer: each valid JSONSchemaBench instance tokenized
              whole, then followed through its grammar; the share of tokens forced and of forced
              runs that are not the whole tokenization's, with the back-off and without it
          decode [--model PATH] [--threads N] [--prompt-tokens 128] [--generate 128] [--runs 3]
              prefill and decode speed of the local model, and peak memory
          generate [--model PATH] [--schemas FOLDER] [--max-tokens N]
              the decode loop on each schema of schemas/: tokens per second with the schema
              (forced text fast-forwarded) against free text of the same length, the share of
              forced tokens, and the time to the first snapshot
          tools [--model PATH] [--verbose]
              tool calling: of 20 questions whose instructions demand a lookup, how many the model
              answers with a tool call and how many answers use the output; then a follow-up
              turn timed against the first turn and against a fresh session (nothing cached)
          quality [--model PATH] [--prompts FILE] [--seeds 3] [--max-tokens 1024] [--preset NAME] [--out FILE]
                  [--layout compact|indented|free] [--fast-forward yes|no] [--free-text yes|no] [--threads N]
              answers to the prompts of Benchmarks/cases/quality-prompts.jsonl, greedy and with
              each seed at default sampling, one JSON record each (a case without a schema is
              asked for text; with --free-text, cases with one too, from the same messages, the
              output being the JSON in the text); Benchmarks/peers/quality.py
              asks llama-server the same and checks both (Benchmarks/compare-quality.sh)
          tool-session [--model PATH]
              chat-completion requests with tools, one JSON body a line on standard input,
              answered through the Swift API (a session with a Tool value per function, which
              records its call instead of running); one {"status", "body"} line each on standard
              output, for Benchmarks/peers/bfcl.py --swift-session
          logits --model PATH --text TEXT [--threads N]
              tokenizes TEXT (no template), runs it, and prints {"tokens": [...], "top": [[id, logit], ...]}
              with the 20 largest last-position logits
        """)
    exit(arguments.isEmpty || arguments.first == "--help" ? 0 : 2)
}
