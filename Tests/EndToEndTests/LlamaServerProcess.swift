import Foundation
import ModelFetching
import PartialJSON

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// llama.cpp's `llama-server` on a GGUF (the default model unless told), on a free port, as the
/// README's test command builds it into the cache folder (`scripts/build-llama-server.sh`), or
/// `GUIDED_LLAMA_SERVER`, with any further arguments.
struct LlamaServerProcess {
    let process: Process
    /// The API root, `http://127.0.0.1:PORT/v1`.
    let base: URL

    /// Starts the server and waits until it answers; `nil` when the server or the model is not
    /// there (nothing to run).
    static func start(model: String? = nil, extraArguments: [String] = []) async throws -> LlamaServerProcess? {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["GUIDED_CACHE"] ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/guided"
        let server = environment["GUIDED_LLAMA_SERVER"] ?? cache + "/llama-server-0.3.36/llama-server"
        let model = model ?? ModelStore.defaultModelPath
        guard FileManager.default.isExecutableFile(atPath: server), FileManager.default.fileExists(atPath: model) else { return nil }
        let port = 18_000 + Int.random(in: 0..<2000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: server)
        // One thread: its threads wait for each other by spinning, and tests running beside it
        // on every core (as they do) could stall each step of its for seconds, its answers
        // for minutes. Its results are the same at any thread count.
        process.arguments = ["-m", model, "--port", String(port), "-t", "1", "-c", "4096", "--jinja"] + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard let base = URL(string: "http://127.0.0.1:\(port)/v1") else { return nil }
        let started = LlamaServerProcess(process: process, base: base)
        let health = URLRequest(url: base.deletingLastPathComponent().appendingPathComponent("health"))
        for _ in 0..<240 {
            if (try? await URLSession.shared.data(for: health)).map({ ($0.1 as? HTTPURLResponse)?.statusCode == 200 }) == true { return started }
            try await Task.sleep(for: .milliseconds(250))
        }
        started.stop()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "llama-server did not become ready"])
    }

    /// Asks the server to stop, then kills it: llama-server can hang in its shutdown (a `SIGTERM`
    /// or two leave it running), and would outlive the tests.
    func stop() {
        process.terminate()
        for _ in 0..<20 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Posts `body` to the server's `/completion` and returns the JSON answer.
    func completion(_ body: JSONValue) async throws -> JSONValue {
        var request = URLRequest(url: base.deletingLastPathComponent().appendingPathComponent("completion"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.jsonString.utf8)
        request.timeoutInterval = 600
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONValue(parsing: [UInt8](data))
    }
}
