/// Why a grammar other than a JSON Schema (a regular expression, a list of choices, a GBNF or
/// Lark grammar) cannot be compiled. Lines and columns count from 1, columns in characters.
public enum GrammarError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The grammar's text breaks the syntax at `line` and `column`, in the rule being defined (`nil`
    /// before the first rule's name).
    case syntax(rule: String?, line: Int, column: Int, reason: String)
    /// Rule `rule` refers, at `line` and `column`, to `name`, which no rule defines.
    case undefinedRule(name: String, rule: String, line: Int, column: Int)
    /// Rule `name` is defined a second time at `line` and `column`.
    case duplicateRule(name: String, line: Int, column: Int)
    /// The grammar has no rule named `rule` (`root` in GBNF, `start` in Lark), where the text
    /// starts.
    case missingStart(rule: String)
    /// Terminal `name`, defined at `line` and `column`, refers to itself, directly or through
    /// other terminals: terminals are regular, so a recursive one must be a rule.
    case recursiveTerminal(name: String, line: Int, column: Int)
    /// Terminal `terminal` refers, at `line` and `column`, to `rule`, which is a rule: a
    /// terminal is made of terminals only.
    case ruleInTerminal(terminal: String, rule: String, line: Int, column: Int)
    /// The JSON Schema that rule `rule` embeds at `line` and `column` (`%json`) cannot be
    /// compiled, for `reason` (the ``SchemaError``, naming the keyword and its pointer).
    case embeddedSchema(rule: String, line: Int, column: Int, reason: String)
    /// Rule `rule`, defined at `line` and `column`, can refer to itself before reading any
    /// character (`expr ::= expr "+" term`), which no automaton can follow: write the repetition
    /// as `expr ::= term ("+" term)*`.
    case leftRecursion(rule: String, line: Int, column: Int)
    /// The regular expression cannot be read or enforced exactly (lookarounds, backreferences,
    /// word boundaries, Unicode properties, inline flags).
    case regex(String)
    /// The grammar accepts no text at all (no choices, a regular expression that matches nothing).
    case acceptsNothing(String)
    /// The grammar needs more automaton states than ``CompileOptions/stateBudget`` allows.
    case tooLarge(String)

    public var description: String {
        switch self {
        case .syntax(let rule, let line, let column, let reason):
            "line \(line), column \(column)\(rule.map { " (rule '\($0)')" } ?? ""): \(reason)"
        case .undefinedRule(let name, let rule, let line, let column):
            "line \(line), column \(column) (rule '\(rule)'): no rule is named '\(name)'"
        case .duplicateRule(let name, let line, let column):
            "line \(line), column \(column): rule '\(name)' is defined twice; join its alternatives with '|'"
        case .missingStart(let rule):
            "the grammar has no '\(rule)' rule, where the text starts: add one"
        case .recursiveTerminal(let name, let line, let column):
            "line \(line), column \(column): terminal '\(name)' refers to itself; terminals are regular, so write a recursive one as a rule (in lower case)"
        case .ruleInTerminal(let terminal, let rule, let line, let column):
            "line \(line), column \(column) (terminal '\(terminal)'): '\(rule)' is a rule; a terminal is made of terminals, strings and regular expressions only"
        case .embeddedSchema(let rule, let line, let column, let reason):
            "line \(line), column \(column) (rule '\(rule)'): the embedded JSON Schema cannot be enforced: \(reason)"
        case .leftRecursion(let rule, let line, let column):
            "line \(line), column \(column): rule '\(rule)' refers to itself before reading a character (left recursion); write it as a repetition, as in 'expr ::= term (\"+\" term)*'"
        case .regex(let reason):
            "the regular expression cannot be enforced: \(reason)"
        case .acceptsNothing(let reason):
            "the grammar accepts no text: \(reason)"
        case .tooLarge(let reason):
            "the grammar is too large to compile: \(reason)"
        }
    }

    /// The error of a state budget that ran out while building (the only error an
    /// ``NFABuilder`` throws).
    init(building error: SchemaError) {
        switch error {
        case .tooLarge(let reason): self = .tooLarge(reason)
        default: self = .tooLarge(error.description)
        }
    }
}
