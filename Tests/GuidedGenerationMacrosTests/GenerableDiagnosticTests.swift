import Testing

/// What cannot be generated is reported at compile time, at the declaration.
@Suite struct GenerableDiagnosticTests {
    @Test(arguments: [
        ("@Generable class A { var x: Int }", "@Generable applies to structures and enumerations, not to classes"),
        ("@Generable actor B { var x: Int }", "@Generable applies to structures and enumerations, not to actors"),
        ("@Generable protocol P {}", "@Generable applies to structures and enumerations, not to protocols"),
        ("@Generable struct C { var x = 1 }", "@Generable needs the type of 'x' written out (as in 'var x: String')"),
        (
            "@Generable struct C { var when: Date }",
            "'when' has type 'Date', which is not Generable; use String, Bool, Int, Float, Double, Decimal, arrays, optionals or @Generable types"
        ),
        (
            "@Generable struct C { var scores: [String: Int] }",
            "'scores' has type '[String: Int]', which is not Generable; use String, Bool, Int, Float, Double, Decimal, arrays, optionals or @Generable types"
        ),
        (
            "@Generable struct C { var ids: [UUID]? }",
            "'ids' has type 'UUID', which is not Generable; use String, Bool, Int, Float, Double, Decimal, arrays, optionals or @Generable types"
        ),
        ("@Generable struct C { var i: Int! }", "'i' is implicitly unwrapped; declare it optional ('?') instead"),
        ("@Generable struct C { @Guide(.range(1...2)) var s: String }", "the guide .range applies to Int, Float, Double and Decimal, but 's' has type 'String'"),
        ("@Generable struct C { @Guide(.count(2)) var n: Int? }", "the guide .count applies to arrays, but 'n' has type 'Int?'"),
        ("@Generable struct C { @Guide(.anyOf([\"a\"])) var n: [String] }", "the guide .anyOf applies to String, but 'n' has type '[String]'"),
        ("@Generable struct C { @Guide(/a+/) var n: Int }", "the guide .pattern applies to String, but 'n' has type 'Int'"),
        ("@Generable enum E {}", "'E' has no cases, so no value can be generated"),
    ])
    func reported(source: String, message: String) {
        let (_, diagnostics) = MacroExpansion.expand(source)
        #expect(diagnostics == [message])
    }

    @Test func guidesOnTypesThatCannotBeSeenAreLeftToTheCompiler() {
        let (_, diagnostics) = MacroExpansion.expand("@Generable struct C { @Guide(.count(2)) var names: Names }")
        #expect(diagnostics.isEmpty)
    }
}
