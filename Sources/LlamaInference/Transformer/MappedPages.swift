import Foundation

/// Zeroed memory in pages of its own: only the pages written take memory, and all of it goes
/// back to the system when freed (an allocator may keep freed blocks for later). Memory from the
/// allocator when the system refuses a mapping.
struct MappedPages {
    let start: UnsafeMutableRawPointer
    let byteCount: Int
    private let isMapped: Bool

    init(byteCount: Int) {
        self.byteCount = max(1, byteCount)
        if let pages = mmap(nil, self.byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), pages != MAP_FAILED {
            start = pages
            isMapped = true
        } else {
            start = .allocate(byteCount: self.byteCount, alignment: 64)
            start.initializeMemory(as: UInt8.self, repeating: 0, count: self.byteCount)
            isMapped = false
        }
    }

    /// Gives the memory back.
    func free() {
        if isMapped {
            munmap(start, byteCount)
        } else {
            start.deallocate()
        }
    }
}
