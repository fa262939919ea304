/// The syntax tree of a regular expression, over Unicode scalars.
indirect enum RegexNode: Sendable {
    case empty
    case set(CodePointSet)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// `node{minimum,maximum}`; `maximum` `nil` for unbounded.
    case repetition(RegexNode, minimum: Int, maximum: Int?)
}
