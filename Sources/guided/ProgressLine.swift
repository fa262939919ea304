import Foundation

/// One line of a terminal rewritten in place: the end of a growing text, as much of it as fits.
struct ProgressLine {
    private let output = FileHandle.standardOutput
    private let width: Int

    /// Whether standard output is a terminal (not a pipe or a file), where progress can be shown
    /// and taken back.
    static var isAvailable: Bool { isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" }

    init() {
        var size = winsize()
        let columns = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 ? Int(size.ws_col) : 0
        width = columns > 1 ? columns : 80
    }

    /// Shows the end of `text` that fits on the line, in place of what was there.
    func show(_ text: String) {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        output.write(Data(("\r\u{1B}[K" + String(flat.suffix(width - 1))).utf8))
    }

    /// Takes the line back, leaving the cursor at its start.
    func clear() {
        output.write(Data("\r\u{1B}[K".utf8))
    }
}
