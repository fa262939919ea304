/// A piece of a template's source, as the lexer cuts it.
struct JinjaToken: Sendable, Equatable {
    /// What the piece is.
    enum Kind: Sendable, Equatable {
        /// Text outside tags, after whitespace control.
        case text(String)
        /// `{{`, which opens an expression to print.
        case variableBegin
        /// `}}`.
        case variableEnd
        /// `{%`, which opens a statement.
        case blockBegin
        /// `%}`.
        case blockEnd
        /// A name: a variable, a keyword (`for`, `in`, `and`) or a literal (`true`, `none`).
        case name(String)
        /// A string literal, its escapes resolved.
        case string(String)
        /// An integer literal.
        case integer(Int)
        /// A floating-point literal.
        case float(Double)
        /// An operator or punctuation: `+`, `//`, `==`, `(`, `.`, `|`.
        case symbol(String)
        /// The end of the source.
        case endOfSource
    }

    let kind: Kind
    let location: JinjaSourceLocation

    /// Whether the token is the name `name`.
    func isName(_ name: String) -> Bool {
        kind == .name(name)
    }

    /// Whether the token is the operator or punctuation `symbol`.
    func isSymbol(_ symbol: String) -> Bool {
        kind == .symbol(symbol)
    }

    /// How error messages show the token.
    var display: String {
        switch kind {
        case .text: "text"
        case .variableBegin: "'{{'"
        case .variableEnd: "'}}'"
        case .blockBegin: "'{%'"
        case .blockEnd: "'%}'"
        case .name(let name): "'\(name)'"
        case .string: "string literal"
        case .integer(let value): "'\(value)'"
        case .float(let value): "'\(value)'"
        case .symbol(let symbol): "'\(symbol)'"
        case .endOfSource: "end of template"
        }
    }
}
