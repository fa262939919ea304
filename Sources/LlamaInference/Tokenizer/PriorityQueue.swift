/// A binary max-heap: `pop` returns the largest element.
struct PriorityQueue<Element: Comparable> {
    private var elements: [Element] = []

    var isEmpty: Bool { elements.isEmpty }

    mutating func push(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[parent] < elements[child] else { break }
            elements.swapAt(parent, child)
            child = parent
        }
    }

    mutating func pop() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let top = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var largest = parent
            if left < elements.count, elements[largest] < elements[left] { largest = left }
            if right < elements.count, elements[largest] < elements[right] { largest = right }
            guard largest != parent else { break }
            elements.swapAt(parent, largest)
            parent = largest
        }
        return top
    }
}
