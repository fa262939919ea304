/// A partition of the 256 byte values into runs that every transition of a grammar treats alike:
/// a byte's class is the run it falls in. An automaton row then needs one entry per class rather
/// than per byte (a JSON grammar has a few dozen), so rows are smaller to build and to read.
struct ByteClasses: Sendable {
    /// The class of each byte; classes are numbered from 0 in byte order.
    let classes: [UInt8]
    /// How many classes there are (1 to 256).
    let count: Int

    /// The coarsest partition where every transition of `templates` covers whole classes.
    init(templates: [GrammarTemplate]) {
        var starts = [Bool](repeating: false, count: 257)
        starts[0] = true
        for template in templates {
            for transition in template.nfa.transitions {
                starts[Int(transition.low)] = true
                starts[Int(transition.high) + 1] = true
            }
        }
        var classes = [UInt8](repeating: 0, count: 256)
        var current = -1
        for byte in 0..<256 {
            if starts[byte] { current += 1 }
            classes[byte] = UInt8(current)
        }
        self.classes = classes
        count = current + 1
    }
}
