/// The help text of `guided`.
enum Usage {
    static let text = """
        usage: guided <subcommand> [options]

        subcommands:
          parse [--stream] [--chunk-size N] FILE
              Parse JSON from FILE ('-' for standard input) and print it as compact JSON.
              --stream          print one line per snapshot as the bytes arrive
              --chunk-size N    with --stream, feed the parser N bytes at a time (default 8)

          fetch-model
              Fetch the default model (SmolLM2-135M-Instruct) into $GUIDED_CACHE or ~/.cache/guided,
              if it is not there yet, and print its path.

        exit status: 0 success, 1 invalid input, 2 wrong command line, 3 unreadable input,
                     4 model unavailable
        """
}
