/// The help text of `guided`.
enum Usage {
    static let text = """
        usage: guided <subcommand> [options]

        subcommands:
          generate --schema FILE [options] PROMPT
              Answer PROMPT with a value of the JSON Schema in FILE (draft 4, 6, 7, 2019-09 or
              2020-12, as its $schema says), printed as compact JSON. On a terminal the value
              is shown as it grows, then replaced by that line; --stream prints every snapshot
              on a line of its own, --stats the speed and the time to the first snapshot.
              --lenient         leave out of the grammar what cannot be enforced while generating
                                and check the final value against the whole schema instead
          generate --regex R | --choice A [--choice B ...] | --grammar FILE | --lark FILE [options] PROMPT
              Answer PROMPT with text that the whole regular expression R matches (the subset
              JSON Schema patterns use), that is one of the choices, or that the grammar in FILE
              accepts: GBNF (llama.cpp's format, from its root rule), or Lark (llguidance's, from
              its start rule) for a .lark file or with --lark; on the local model only.
          respond [options] PROMPT
              Answer PROMPT with text (on a terminal, as it is written).
          options: --instructions TEXT, --model GGUF|NAME (a file, or a model fetch-model knows),
                   --chat-template chatml|gemma|llama3|phi,
                   --greedy | --top-k K [--top-p P] | --top-p P, --seed N, --temperature T, --max-tokens N,
                   --stream, --stats,
                   \(SamplingArguments.usage)
                   --endpoint URL --model NAME   run on an OpenAI-compatible server (vLLM,
                                llama-server, Ollama, guided serve) at URL (its /v1 root), the
                                key from $GUIDED_API_KEY; the value is still checked here

          parse [--stream] [--chunk-size N] FILE
              Parse JSON from FILE ('-' for standard input) and print it as compact JSON.
              --stream          print one line per snapshot as the bytes arrive
              --chunk-size N    with --stream, feed the parser N bytes at a time (default 8)

          serve [--model GGUF|NAME] [--chat-template NAME] [--host HOST] [--port PORT] [--api-key KEY]
                [--name NAME] [--parallel N] [--max-waiting N] [--tool-format json|template]
              Serve the model over the OpenAI chat-completions API (POST /v1/chat/completions,
              GET /v1/models, GET /health) on HOST (127.0.0.1) and PORT (8080), schemas and tool
              arguments enforced while generating. With --api-key (or $GUIDED_API_KEY) requests
              must bear it; --parallel requests (4) run at once, decoded together, and
              --max-waiting requests (32) wait while they run; more get 503. --tool-format
              template has the model call tools in its chat template's own format
              (<tool_call> tags, Qwen2.5's) rather than the engine's JSON turn (json, the default).

          fetch-model [NAME]
              Fetch a model into $GUIDED_CACHE or ~/.cache/guided, if it is not there yet, and
              print its path, checked by size and SHA-256: the default model,
              qwen2.5-coder-1.5b (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, Apache-2.0, 1.1 GB);
              qwen2.5-coder-0.5b (Qwen2.5-Coder-0.5B-Instruct, Q4_K_M, Apache-2.0, 491 MB,
              twice as fast);
              smollm2-135m-instruct (SmolLM2-135M-Instruct, Q4_1, Apache-2.0, 98 MB, tiny and
              fast, with the small-model preset); gemma3-270m (Gemma 3 270M, Q4_K_M, the
              pretrained model).

        exit status: 0 success, 1 invalid input, 2 wrong command line, 3 unreadable input,
                     4 model unavailable, 5 unsupported schema, 6 generation failed
        """

    /// The usage of one subcommand: its part of ``text`` (for `generate` and `respond`, with the
    /// options they share) and the exit statuses; `nil` when there is no such subcommand.
    static func text(of subcommand: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  \(subcommand) ") || $0 == "  \(subcommand)" }) else { return nil }
        let end = lines[start...].firstIndex(where: \.isEmpty) ?? lines.endIndex
        let exitStatus = lines.drop { !$0.hasPrefix("exit status") }
        return (["usage: guided \(subcommand) [options]", ""] + lines[start..<end] + [""] + exitStatus).joined(separator: "\n")
    }
}
