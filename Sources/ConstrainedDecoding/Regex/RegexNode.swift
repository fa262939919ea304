/// The syntax tree of a regular expression, over Unicode scalars.
indirect enum RegexNode: Hashable, Sendable {
    case empty
    case set(CodePointSet)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// `node{minimum,maximum}`; `maximum` `nil` for unbounded.
    case repetition(RegexNode, minimum: Int, maximum: Int?)
    /// `^` and `$` while a pattern is parsed: ``RegexParser`` resolves them into the anchoring
    /// of its top-level alternatives, and no built language has them.
    case startAnchor
    case endAnchor
}
