/// A growable array of plain values in manually managed memory.
///
/// The parser appends to it in its inner loop and snapshots read from it later; a plain pointer
/// avoids the copy-on-write copies and exclusivity checks a Swift array would bring there. Its
/// owner (``ParseStorage``) frees the memory; copies of the struct share it without owning it.
struct GrowableBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    func deallocate() {
        base.deallocate()
    }

    subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(toAtLeast: count + 1) }
        base[count] = element
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if count + elements.count > capacity { grow(toAtLeast: count + elements.count) }
        if elements.count <= 16 {
            // Short runs (a token's worth) are cheaper copied in place than through memmove.
            for offset in 0..<elements.count { (base + count + offset).initialize(to: source[offset]) }
        } else {
            (base + count).initialize(from: source, count: elements.count)
        }
        count += elements.count
    }

    func buffer(_ range: Range<Int>) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    private mutating func grow(toAtLeast needed: Int) {
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
