import Foundation
import LlamaInference
import ModelFetching

/// `guided fetch-model [NAME]`: makes a known model available (the default model when no name is
/// given), fetching it when missing, and prints its path.
struct FetchModelCommand {
    let model: KnownModel

    init(arguments: [String]) throws(CommandError) {
        guard arguments.count <= 1 else { throw .usage("fetch-model takes at most one model name") }
        guard let name = arguments.first else {
            model = .default
            return
        }
        // `--gemma3-270m` reads as the name too.
        let bare = name.hasPrefix("--") ? String(name.dropFirst(2)) : name
        guard let model = KnownModel.named(bare) else {
            throw .usage("no model is named '\(name)'; known: \(KnownModel.all.map(\.name).joined(separator: ", "))")
        }
        self.model = model
    }

    func run() throws(CommandError) {
        do {
            let path = try ModelStore.path(of: model) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            print(path)
        } catch {
            throw .modelUnavailable(error.description)
        }
    }
}
