/// A growable list of plain values in manually managed memory, for the scratch lists that
/// building automaton states refills many times per mask: appending checks only the capacity,
/// reading checks nothing, and nothing is reference counted or checked for uniqueness.
struct ScratchBuffer<Element: BitwiseCopyable>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The elements, valid until the next change of the buffer.
    var elements: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    @inline(__always)
    subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { reserve(count + 1) }
        base[count] = element
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        reserve(count + elements.count)
        if let source = elements.baseAddress { (base + count).update(from: source, count: elements.count) }
        count += elements.count
    }

    /// Grows the list to `newCount` elements, the new ones set to `value`.
    mutating func extend(to newCount: Int, with value: Element) {
        guard newCount > count else { return }
        reserve(newCount)
        (base + count).update(repeating: value, count: newCount - count)
        count = newCount
    }

    @inline(__always)
    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return base[count]
    }

    mutating func removeAll() {
        count = 0
    }

    /// Keeps the elements for which `keep` holds, in order.
    mutating func retain(where keep: (Element) -> Bool) {
        var kept = 0
        for index in 0..<count where keep(base[index]) {
            base[kept] = base[index]
            kept += 1
        }
        count = kept
    }

    private mutating func reserve(_ minimum: Int) {
        guard minimum > capacity else { return }
        let newCapacity = max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}

extension ScratchBuffer where Element: Equatable {
    func contains(_ element: Element) -> Bool {
        for index in 0..<count where base[index] == element { return true }
        return false
    }

    /// Whether both hold the same elements in the same order.
    func elementsEqual(_ other: borrowing ScratchBuffer<Element>) -> Bool {
        guard count == other.count else { return false }
        for index in 0..<count where base[index] != other.base[index] { return false }
        return true
    }
}
