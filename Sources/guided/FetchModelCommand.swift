import Foundation
import LlamaInference

/// `guided fetch-model`: makes the default model available, fetching it when missing.
struct FetchModelCommand {
    init(arguments: [String]) throws(CommandError) {
        guard arguments.isEmpty else { throw .usage("fetch-model takes no arguments") }
    }

    func run() throws(CommandError) {
        do {
            let path = try ModelStore.defaultModel { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            print(path)
        } catch {
            throw .modelUnavailable(error.description)
        }
    }
}
