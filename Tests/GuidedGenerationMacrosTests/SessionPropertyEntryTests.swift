import Testing

/// `@SessionPropertyEntry` turns a property of an extension of `SessionPropertyValues` into one
/// read and written through a key whose default is the property's value.
@Suite struct SessionPropertyEntryTests {
    @Test func aPropertyWithADefault() {
        let (expanded, diagnostics) = MacroExpansion.expand(
            """
            extension SessionPropertyValues {
                @SessionPropertyEntry var visits: Int = 0
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("get {\n            self[__Key_visits.self]\n        }"), "\(expanded)")
        #expect(expanded.contains("set {\n            self[__Key_visits.self] = newValue\n        }"), "\(expanded)")
        #expect(expanded.contains("private enum __Key_visits: GuidedGeneration.SessionPropertyKey {\n        static var defaultValue: Int {\n            0\n        }"), "\(expanded)")
    }

    @Test func anOptionalDefaultsToNil() {
        let (expanded, diagnostics) = MacroExpansion.expand("extension SessionPropertyValues { @SessionPropertyEntry var topic: String? }")
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("static var defaultValue: String? {\n        nil\n    }"), "\(expanded)")
    }

    /// `var count = 0`: the key's type is the one Swift gives the literal.
    @Test(arguments: [
        ("0", "Int"), ("-3", "Int"), ("2.5", "Double"), ("-0.5", "Double"), ("true", "Bool"), (#""plain""#, "String"),
        (#"["a", "b"]"#, "[String]"), ("[1, 2.5]", "[Double]"), ("[[1], [2]]", "[[Int]]"),
        (#"["a": true]"#, "[String: Bool]"), (#"["a": [1, 2]]"#, "[String: [Int]]"),
    ])
    func aLiteralGivesItsType(value: String, type: String) {
        let (expanded, diagnostics) = MacroExpansion.expand("extension SessionPropertyValues { @SessionPropertyEntry var count = \(value) }")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(expanded.contains("static var defaultValue: \(type) {"), "\(expanded)")
        #expect(expanded.contains("self[__Key_count.self] = newValue"), "\(expanded)")
    }

    @Test(arguments: [
        ("extension SessionPropertyValues { @SessionPropertyEntry var count = Int.zero }", "@SessionPropertyEntry needs the type of 'count' written out (as in 'var count: Int = 0') unless its default is a literal"),
        ("extension SessionPropertyValues { @SessionPropertyEntry var names = [] }", "@SessionPropertyEntry needs the type of 'names' written out (as in 'var names: Int = 0') unless its default is a literal"),
        ("extension SessionPropertyValues { @SessionPropertyEntry var mixed = [1, \"a\"] }", "@SessionPropertyEntry needs the type of 'mixed' written out (as in 'var mixed: Int = 0') unless its default is a literal"),
        ("extension SessionPropertyValues { @SessionPropertyEntry var count: Int }", "@SessionPropertyEntry needs a default value for 'count' (as in 'var count: Int = ...')"),
        ("extension SessionPropertyValues { @SessionPropertyEntry let count: Int = 0 }", "@SessionPropertyEntry applies to one 'var' with a name, a type and a default value"),
    ])
    func reported(source: String, message: String) {
        let (_, diagnostics) = MacroExpansion.expand(source)
        #expect(diagnostics.contains(message), "\(diagnostics)")
    }
}
