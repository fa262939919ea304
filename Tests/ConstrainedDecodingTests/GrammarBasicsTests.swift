@testable import ConstrainedDecoding
import Foundation
import PartialJSON
import Testing

/// Small schemas whose accepted documents are known.
@Suite struct GrammarBasicsTests {
    func accepts(_ schema: String, _ document: String, options: CompileOptions = CompileOptions()) throws -> Bool {
        let grammar = try CompiledGrammar(jsonSchema: schema, options: options)
        return GrammarMatcher(grammar: grammar).accepts(document: Array(document.utf8))
    }

    /// An object schema that names no property is any object, even when extra properties are
    /// forbidden; one that names its properties, even none, keeps to them.
    @Test func anObjectThatNamesNoPropertyIsAnyObject() throws {
        for schema in [#"{"type":"object"}"#, #"{"type":"object","minProperties":1}"#] {
            #expect(try accepts(schema, #"{"name":"Tom","age":3,"toys":["box"]}"#), "\(schema)")
        }
        #expect(try accepts(#"{"type":"object"}"#, "{}"))
        #expect(try !accepts(#"{"type":"object","minProperties":1}"#, "{}"))
        #expect(try !accepts(#"{"type":"object","properties":{}}"#, #"{"a":1}"#))
        #expect(try !accepts(#"{"type":"object","additionalProperties":false}"#, #"{"a":1}"#))
        #expect(try !accepts(#"{"type":"object","patternProperties":{"^x":{}}}"#, #"{"a":1}"#))
    }

    @Test func objectsInSchemaOrderWithOptionalProperties() throws {
        let schema = #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"},"c":{"type":"boolean"}},"required":["b"]}"#
        #expect(try accepts(schema, #"{"b":"x"}"#))
        #expect(try accepts(schema, #"{"a":1,"b":"x"}"#))
        #expect(try accepts(schema, #"{"a":1,"b":"x","c":true}"#))
        #expect(try accepts(schema, #"{"b":"x","c":false}"#))
        #expect(try !accepts(schema, #"{"b":"x","a":1}"#))
        #expect(try !accepts(schema, #"{"a":1}"#))
        #expect(try !accepts(schema, #"{}"#))
        #expect(try !accepts(schema, #"{"b":"x","d":1}"#))
        #expect(try accepts(schema, #"{"b":"x","d":1}"#, options: CompileOptions(extraProperties: .allow)))
        #expect(try !accepts(schema, #"{"b":"x","b":"y"}"#, options: CompileOptions(extraProperties: .allow)))
        // One comma between members, none before the first or after the last.
        for document in [#"{"b":"x",}"#, #"{,"b":"x"}"#, #"{"a":1,,"b":"x"}"#, #"{"a":1"b":"x"}"#] {
            #expect(try !accepts(schema, document))
            #expect(try !accepts(schema, document, options: CompileOptions(extraProperties: .allow)))
        }
        #expect(try accepts(schema, #"{"a":1,"b":"x","c":true,"d":[],"e":{}}"#, options: CompileOptions(extraProperties: .allow)))
    }

    /// Large enums: duplicates are dropped (scalars by spelling, `1` and `1.0` alike), and a
    /// list whose values exceed the state budget is refused before compiling, by its place.
    @Test func largeEnumsCompileOnceAndOversizedOnesAreRefusedByTheirPlace() throws {
        let values = (0..<20_000).map { "\"v\($0)\"" }.joined(separator: ",")
        let schema = #"{"type":"object","properties":{"pick":{"enum":[\#(values),"v7",1,1.0,[1,2],[1,2]]}},"required":["pick"]}"#
        #expect(try accepts(schema, #"{"pick":"v19999"}"#))
        #expect(try accepts(schema, #"{"pick":1}"#) && !accepts(schema, #"{"pick":1.0}"#))
        #expect(try accepts(schema, #"{"pick":[1,2]}"#) && !accepts(schema, #"{"pick":"v20000"}"#))
        let small = CompileOptions(stateBudget: 50_000)
        #expect {
            try CompiledGrammar(jsonSchema: schema, options: small)
        } throws: { error in
            guard case SchemaError.tooLarge(let reason) = error else { return false }
            return reason.contains("'enum' at '/properties/pick'") && reason.contains("more than the budget of 50000")
        }
        // A property named like the keyword is a schema, not a list of values.
        #expect(try accepts(#"{"properties":{"enum":{"type":"integer"}}}"#, #"{"enum":3}"#, options: small))
    }

    /// A member's name and value are built once for the first member and the later ones, so
    /// that nested objects take states in proportion to their depth, not to two to its power.
    @Test func nestedObjectsCompileInStatesProportionalToTheirDepth() throws {
        var schema = #"{"type":"integer"}"#
        for _ in 0..<24 {
            schema = #"{"type":"object","properties":{"size":{"type":"integer"},"next":\#(schema)}}"#
        }
        let grammar = try CompiledGrammar(jsonSchema: schema, options: CompileOptions(extraProperties: .allow, stateBudget: 100_000))
        let matcher = GrammarMatcher(grammar: grammar)
        let document = String(repeating: #"{"size":1,"next":"#, count: 24) + "2" + String(repeating: "}", count: 24)
        #expect(matcher.accepts(document: Array(document.utf8)))
        #expect(!matcher.accepts(document: Array(document.dropLast().utf8)))
    }

    @Test func draft07DependenciesBesideAnOverlappingOneOf() throws {
        let schema = #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"channel":{"type":"string"},"path":{"type":"string"}},"oneOf":[{"not":{"properties":{"path":{"type":"string"}},"required":["path"]}},{"required":["path"]}],"dependencies":{"path":{"not":{"properties":{"channel":{"type":"string"}},"required":["channel"]}}}}"#
        #expect(try accepts(schema, #"{"path":"/x"}"#))
        #expect(try accepts(schema, #"{"channel":"stable"}"#))
        #expect(try !accepts(schema, #"{"channel":"stable","path":"/x"}"#))
    }

    @Test func setsOfStatesSortAsTheStandardLibraryDoes() {
        var random = SeededRandom(seed: 3)
        for count in [0, 1, 2, 24, 25, 100, 1000, 5000] {
            for pattern in 0..<4 {
                var values: [Int32] = (0..<count).map { index in
                    switch pattern {
                    case 0: Int32(truncatingIfNeeded: random.next() % 100_000)
                    case 1: Int32(index)
                    case 2: Int32(count - index)
                    default: Int32(index % 7)
                    }
                }
                let expected = values.sorted()
                values.withUnsafeMutableBufferPointer { LazyDFA.sort($0) }
                #expect(values == expected, "\(count) values, pattern \(pattern)")
            }
        }
    }

    @Test func everyFormatCompiles() throws {
        for (name, regex) in SchemaCompiler.formats {
            #expect(throws: Never.self, "\(name)") { _ = try CodePointAutomaton(try RegexParser.wholeMatchLanguage(regex)) }
        }
    }

    /// A pattern of many alternatives, each contained anywhere: once one has matched, every
    /// continuation is accepted by one state, whatever the others had begun to match (the
    /// states had multiplied by the alternatives that matched, 22,533 for this one).
    @Test func alternativesThatMatchedShareOneState() throws {
        let pattern = "^list|date|time|string|enum|int|double|long|boolean|number$"
        let automaton = try CodePointAutomaton(try RegexParser.patternLanguage(pattern))
        #expect(automaton.transitions.count < 100, "\(automaton.transitions.count) states")
        for text in ["list", "listing", "a date", "updated_times", "enumeration", "a long boolean", "phone number"] {
            #expect(automaton.accepts(text), "\(text)")
        }
        for text in ["", "a list", "numbers", "dat", "in", "boolea", "number 1"] {
            #expect(!automaton.accepts(text), "\(text)")
        }
        let limited = try CodePointAutomaton(try RegexParser.patternLanguage(pattern), minimumLength: 6, maximumLength: 8)
        #expect(limited.accepts("intxyz") && limited.accepts("a long b") && !limited.accepts("int") && !limited.accepts("a long bool"))
    }

    @Test(arguments: [
        ("hostname", "api.example-1.com", "localhost:8080"), ("ipv4", "10.1.2.255", "256.1.1.1"),
        ("ipv6", "2001:db8::8a2e:370:7334", "2001:db8:::1"), ("uri-reference", "../a/b?c#d", "://"),
        ("uri-template", "http://example.com/{id}{?q*}", "http://example.com/resource/{"),
        ("json-pointer", "/a~1b/0", "/a~2"), ("relative-json-pointer", "1/a", "-1"), ("duration", "P1Y2M3DT4H", "P1H"),
    ])
    func formats(name: String, valid: String, invalid: String) throws {
        let schema = #"{"type":"string","format":"\#(name)"}"#
        #expect(try accepts(schema, "\"\(valid)\""))
        #expect(try !accepts(schema, "\"\(invalid)\""))
    }

    @Test func longLengthLimitsCountThroughSharedBlocks() throws {
        let schema = #"{"type":"string","minLength":40,"maxLength":4100}"#
        for length in [40, 41, 63, 64, 65, 4095, 4096, 4100] {
            #expect(try accepts(schema, "\"" + String(repeating: "é", count: length) + "\""), "\(length)")
        }
        for length in [0, 39, 4101, 5000] {
            #expect(try !accepts(schema, "\"" + String(repeating: "a", count: length) + "\""), "\(length)")
        }
        #expect(try CompiledGrammar(jsonSchema: schema).stateCount < 10_000)
    }

    @Test func oneOfAlternativesClosedByAdditionalPropertiesFalse() throws {
        let schema = #"{"oneOf":[{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false},{"type":"object","properties":{"b":{"type":"integer"}},"additionalProperties":false}]}"#
        let options = CompileOptions(extraProperties: .allow)
        #expect(try accepts(schema, #"{"a":1}"#, options: options))
        #expect(try accepts(schema, #"{"b":1}"#, options: options))
        // The empty object matches both, so neither.
        #expect(try !accepts(schema, "{}", options: options))
        #expect(try !accepts(schema, #"{"a":1,"b":2}"#, options: options))
        // The same through references, as generators write it.
        let referenced = ##"{"oneOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/b"}],"$defs":{"a":{"type":"object","properties":{"kind":{"const":"a"}},"additionalProperties":false},"b":{"type":"object","properties":{"kind":{"const":"b"}},"additionalProperties":false}}}"##
        #expect(try accepts(referenced, #"{"kind":"a"}"#, options: options))
        #expect(try !accepts(referenced, "{}", options: options))
    }

    @Test func oneOfAlternativesThatCannotOverlapNeedNoComplement() throws {
        let options = CompileOptions(extraProperties: .allow)
        // One requires a member the other forbids; a discriminator required by one side only;
        // array counts that do not meet. None of the rivals has a complement the compiler builds
        // (a nested $ref), so each compiles only when the pair is seen to be disjoint.
        let forbidden = ##"{"oneOf":[{"type":"object","additionalProperties":false,"properties":{"graph":{"$ref":"#/$defs/g"}},"required":["graph"]},{"type":"object","additionalProperties":false,"properties":{"label":{"type":"string"},"graphs":{"type":"array","items":{"$ref":"#/$defs/g"}}}}],"$defs":{"g":{"type":"object","properties":{"n":{"$ref":"#/$defs/g"}}}}}"##
        #expect(try accepts(forbidden, #"{"graph":{}}"#, options: options))
        #expect(try accepts(forbidden, #"{"label":"x"}"#, options: options))
        #expect(try accepts(forbidden, "{}", options: options))
        #expect(try !accepts(forbidden, #"{"graph":{},"label":"x"}"#, options: options))
        let discriminated = ##"{"type":"object","oneOf":[{"properties":{"kind":{"enum":["PRIMARY"]},"n":{"$ref":"#/$defs/g"}},"required":["email"]},{"properties":{"kind":{"enum":["SECONDARY"]},"n":{"$ref":"#/$defs/g"}},"required":["kind"]}],"$defs":{"g":{"type":"object","properties":{"n":{"$ref":"#/$defs/g"}}}}}"##
        #expect(try accepts(discriminated, #"{"kind":"PRIMARY","email":"a"}"#, options: options))
        #expect(try accepts(discriminated, #"{"kind":"SECONDARY","email":"a"}"#, options: options))
        #expect(try !accepts(discriminated, #"{"kind":"OTHER","email":"a"}"#, options: options))
        // A discriminator that the schema beside the choice requires.
        let contextRequired = ##"{"type":"object","required":["type"],"allOf":[{"oneOf":[{"properties":{"type":{"enum":["a"]},"n":{"$ref":"#/$defs/g"}}},{"properties":{"type":{"enum":["b"]},"n":{"$ref":"#/$defs/g"}}}]}],"$defs":{"g":{"type":"object","properties":{"n":{"$ref":"#/$defs/g"}}}}}"##
        #expect(try accepts(contextRequired, #"{"type":"a"}"#, options: options))
        #expect(try accepts(contextRequired, #"{"type":"b","n":{}}"#, options: options))
        #expect(try !accepts(contextRequired, #"{"type":"c"}"#, options: options))
        #expect(try !accepts(contextRequired, "{}", options: options))
        let counted = ##"{"type":"array","oneOf":[{"maxItems":0},{"minItems":1,"items":{"$ref":"#/$defs/g"}}],"$defs":{"g":{"type":"object","properties":{"n":{"$ref":"#/$defs/g"}}}}}"##
        #expect(try accepts(counted, "[]", options: options))
        #expect(try accepts(counted, "[{}]", options: options))
        // Without a type, every string, number or array matches both member rules, so none is
        // valid; among objects the discriminator leaves exactly one.
        let untyped = ##"{"oneOf":[{"required":["a"],"properties":{"a":{"const":1},"n":{"$ref":"#/$defs/g"}}},{"required":["a"],"properties":{"a":{"const":2},"n":{"$ref":"#/$defs/g"}}}],"$defs":{"g":{"type":"object","properties":{"n":{"$ref":"#/$defs/g"}}}}}"##
        #expect(try accepts(untyped, #"{"a":1}"#, options: options))
        #expect(try accepts(untyped, #"{"a":2}"#, options: options))
        for document in [#""x""#, "1", "[]", "null", "{}", #"{"a":3}"#] { #expect(try !accepts(untyped, document, options: options), "\(document)") }
        // Strings match all three here, numbers the first two: neither is valid.
        let typed = ##"{"oneOf":[{"required":["a"],"properties":{"a":{"const":1}}},{"required":["a"],"properties":{"a":{"const":2}}},{"type":"string"}]}"##
        #expect(try accepts(typed, #"{"a":1}"#, options: options))
        #expect(try !accepts(typed, "1", options: options))
        #expect(try !accepts(typed, #""x""#, options: options))
    }

    /// A keyword holds for the values of the types it does not apply to, so its complement has
    /// none of them: `not` of a string length keeps out every number, `not` of `required` every
    /// string.
    @Test func complementsOfKeywordsKeepOtherTypesOut() throws {
        let cases: [(schema: String, valid: [String], invalid: [String])] = [
            (#"{"not":{"minLength":3}}"#, [#""ab""#], [#""abc""#, "5", "null", "{}"]),
            (#"{"not":{"maxItems":1}}"#, ["[1,2]"], ["[1]", #""x""#]),
            (#"{"not":{"required":["a"]}}"#, ["{}"], [#"{"a":1}"#, #""x""#, "1"]),
            (#"{"not":{"minimum":3}}"#, ["2"], ["3", #""x""#, "true"]),
            (#"{"not":{"pattern":"^a"}}"#, [#""b""#], [#""ab""#, "5"]),
            (#"{"not":{"type":"string","minLength":3}}"#, [#""ab""#, "5"], [#""abc""#]),
        ]
        for (schema, valid, invalid) in cases {
            for document in valid { #expect(try accepts(schema, document), "\(schema) \(document)") }
            for document in invalid { #expect(try !accepts(schema, document), "\(schema) \(document)") }
        }
    }

    /// Complements of objects, items and choices: an object that breaks one member's rule (a
    /// listed property, or `additionalProperties` for the others), an array with an item that
    /// breaks `items`, values matching none or two of a `oneOf`.
    @Test func complementsOfMembersItemsAndChoices() throws {
        let options = CompileOptions(extraProperties: .allow)
        let cases: [(schema: String, valid: [String], invalid: [String])] = [
            (#"{"not":{"properties":{"a":{"type":"string"},"b":{"maximum":3}}}}"#,
             [#"{"a":1}"#, #"{"b":4}"#, #"{"a":"x","b":9}"#, #"{"b":5,"c":1}"#], [#"{"a":"x"}"#, #"{"b":2}"#, "{}", #"{"c":1}"#, "1"]),
            (#"{"not":{"type":"object","additionalProperties":{"type":"boolean"},"properties":{"a":{}}}}"#,
             [#"{"b":1}"#, #"{"a":1,"c":"x"}"#, "[]"], [#"{"a":1}"#, #"{"b":true}"#, "{}"]),
            (#"{"not":{"items":{"type":"string"}}}"#, ["[1]", #"["a",null]"#], ["[]", #"["a","b"]"#, "{}"]),
            (#"{"not":{"prefixItems":[{"type":"string"},{"type":"integer"}]}}"#, ["[1]", #"["a","b"]"#], ["[]", #"["a"]"#, #"["a",1,"c"]"#]),
            (#"{"not":{"oneOf":[{"type":"integer"},{"minimum":2}]}}"#, ["3", "1.5"], ["1", "2.5", #""x""#]),
            (#"{"not":{"dependentRequired":{"a":["b"]}}}"#, [#"{"a":1}"#], [#"{"a":1,"b":2}"#, "{}", #"{"b":1}"#]),
            (#"{"not":{"dependentSchemas":{"a":{"required":["c"]}}}}"#, [#"{"a":1}"#], [#"{"a":1,"c":2}"#, "{}"]),
            // References inside an allOf that a reference names are followed too.
            (##"{"not":{"$ref":"#/$defs/s"},"$defs":{"s":{"allOf":[{"$ref":"#/$defs/c"},{"required":["r"]}]},"c":{"required":["id"]}}}"##,
             [#"{"id":1}"#, #"{"r":1}"#], [#"{"id":1,"r":2}"#]),
        ]
        for (schema, valid, invalid) in cases {
            for document in valid { #expect(try accepts(schema, document, options: options), "\(schema) \(document)") }
            for document in invalid { #expect(try !accepts(schema, document, options: options), "\(schema) \(document)") }
        }
    }

    /// Overlapping `oneOf` alternatives whose rivals are told apart by a member of listed values
    /// (their complement split by that member), or whose rival has nested rules; `contains`
    /// without `maxContains` needs no complement of its schema.
    @Test func overlappingChoicesOverObjectsAndContainsWithoutMaximum() throws {
        let options = CompileOptions(extraProperties: .allow)
        let repository = ##"{"type":"array","items":{"oneOf":[{"$ref":"#/$defs/repository"},{"type":"object","additionalProperties":{"enum":[false]},"minProperties":1,"maxProperties":1}]},"$defs":{"repository":{"type":"object","oneOf":[{"required":["type","url"],"properties":{"type":{"enum":["composer"]},"url":{"type":"string"},"options":{"type":"object"}}},{"required":["type","url"],"properties":{"type":{"enum":["vcs","git"]},"url":{"type":"string"},"branch":{"type":"string"}}}]}}}"##
        #expect(try accepts(repository, #"[{"type":"git","url":"u","branch":"b"},{"packagist.org":false}]"#, options: options))
        #expect(try accepts(repository, #"[{"type":"composer","url":"u"}]"#, options: options))
        #expect(try !accepts(repository, #"[{"type":"svn","url":"u"}]"#, options: options))
        #expect(try !accepts(repository, #"[{"packagist.org":true}]"#, options: options))
        #expect(try !accepts(repository, #"[{"type":"git","url":"u","branch":1}]"#, options: options))
        let contains = #"{"type":"array","contains":{"type":"object","patternProperties":{"^x-":{"type":"string"}},"required":["id"]}}"#
        #expect(try accepts(contains, #"[1,{"id":2,"x-a":"s"}]"#, options: options))
        #expect(try !accepts(contains, #"[1,{"id":2,"x-a":3}]"#, options: options))
        #expect(try !accepts(contains, "[1,2]", options: options))
    }

    /// Merged schemas name their properties in the order a reader meets them: an `allOf` (or a
    /// choice, or a condition) written before `properties` comes first.
    @Test func mergedPropertiesKeepTheOrderOfTheSchemaText() throws {
        let options = CompileOptions(extraProperties: .allow)
        let partsFirst = #"{"allOf":[{"properties":{"b":{}}}],"properties":{"a":{}},"required":["a","b"]}"#
        #expect(try accepts(partsFirst, #"{"b":1,"a":2}"#, options: options))
        #expect(try !accepts(partsFirst, #"{"a":2,"b":1}"#, options: options))
        let propertiesFirst = #"{"properties":{"a":{}},"oneOf":[{"properties":{"b":{"type":"integer"}},"required":["b"]},{"properties":{"c":{"type":"string"}},"required":["c"]}]}"#
        #expect(try accepts(propertiesFirst, #"{"a":2,"b":1}"#, options: options))
        #expect(try accepts(propertiesFirst, #"{"c":"x"}"#, options: options))
        let choiceFirst = #"{"anyOf":[{"properties":{"kind":{"const":"k"}},"required":["kind"]}],"properties":{"a":{}},"required":["a"]}"#
        #expect(try accepts(choiceFirst, #"{"kind":"k","a":1}"#, options: options))
        #expect(try !accepts(choiceFirst, #"{"a":1,"kind":"k"}"#, options: options))
    }

    /// Listed values are checked one by one against the rest of the schema, so keywords whose
    /// complement the compiler cannot build still narrow them.
    @Test func listedValuesCheckedAgainstEverythingElse() throws {
        let schema = #"{"allOf":[{"enum":[{"a":1},{"a":2},"x"]},{"not":{"properties":{"a":{"const":1}},"additionalProperties":{"type":"boolean"}}}]}"#
        let options = CompileOptions(extraProperties: .allow)
        #expect(try accepts(schema, #"{"a":2}"#, options: options))
        #expect(try !accepts(schema, #"{"a":1}"#, options: options))
        // A string matches the negated schema (its keywords are about objects): excluded too.
        #expect(try !accepts(schema, #""x""#, options: options))
    }

    @Test func uniqueItemsOverListedValues() throws {
        let schema = #"{"type":"array","items":{"enum":["a","b",1]},"uniqueItems":true,"minItems":2}"#
        #expect(try accepts(schema, #"["a",1]"#))
        #expect(try accepts(schema, #"[1,"b","a"]"#))
        #expect(try !accepts(schema, #"["a","a"]"#))
        #expect(try !accepts(schema, #"["a"]"#))
        #expect(try accepts(#"{"type":"array","items":{"type":"boolean"},"uniqueItems":true}"#, "[true,false]"))
        #expect(try !accepts(#"{"type":"array","items":{"type":"boolean"},"uniqueItems":true}"#, "[true,true]"))
    }

    @Test func tinyNumbersInExponentNotationWithinBounds() throws {
        let schema = #"{"type":"number","minimum":-60,"maximum":60}"#
        #expect(try accepts(schema, "1.320950944952452e-108"))
        #expect(try accepts(schema, "-5E-3"))
        #expect(try !accepts(schema, "1.5e-0"))
        #expect(try !accepts(schema, "61"))
        #expect(try !accepts(#"{"type":"number","minimum":0.5,"maximum":60}"#, "1e-3"))
        #expect(try !accepts(#"{"type":"number","exclusiveMinimum":0,"maximum":60}"#, "-1e-3"))
    }

    @Test func numbersWithBounds() throws {
        let schema = #"{"type":"integer","minimum":-5,"maximum":120}"#
        for value in [-5, -1, 0, 7, 99, 100, 120] { #expect(try accepts(schema, String(value)), "\(value)") }
        for value in [-6, 121, 1000, -50] { #expect(try !accepts(schema, String(value)), "\(value)") }
        #expect(try !accepts(schema, "1.5"))
        let decimal = #"{"type":"number","exclusiveMinimum":0.5,"maximum":2.25}"#
        for text in ["0.51", "1", "2.25", "2.2", "0.5000001", "2.250"] { #expect(try accepts(decimal, text), "\(text)") }
        for text in ["0.5", "0.50", "2.26", "3", "-1", "0"] { #expect(try !accepts(decimal, text), "\(text)") }
        let multiple = #"{"type":"number","multipleOf":0.25}"#
        for text in ["0", "0.25", "1.5", "-2.75", "100"] { #expect(try accepts(multiple, text), "\(text)") }
        for text in ["0.1", "1.3", "0.255"] { #expect(try !accepts(multiple, text), "\(text)") }
    }

    @Test func stringsWithPatternsLengthsAndFormats() throws {
        let pattern = #"{"type":"string","pattern":"^[A-Z]{3}-\\d{2,4}$"}"#
        #expect(try accepts(pattern, #""ABC-12""#))
        #expect(try accepts(pattern, #""ABC-1234""#))
        #expect(try !accepts(pattern, #""ABC-1""#))
        #expect(try !accepts(pattern, #""abc-12""#))
        let unanchored = #"{"type":"string","pattern":"b+"}"#
        #expect(try accepts(unanchored, #""abbc""#))
        #expect(try !accepts(unanchored, #""ac""#))
        // Anchors inside groups at the ends of alternatives, spread out: empty, or words.
        let grouped = #"{"type":"string","pattern":"^$|(^(?:\\S+\\s+){0,3}\\S+$)|(x$)"}"#
        for text in [#""""#, #""one two""#, #""a b c d""#, #""  zx""#] { #expect(try accepts(grouped, text), "\(text)") }
        for text in [#"" a""#, #""a b c d e""#, #""a ""#] { #expect(try !accepts(grouped, text), "\(text)") }
        #expect(throws: SchemaError.self) { try accepts(#"{"type":"string","pattern":"a^b"}"#, #""ab""#) }
        #expect(throws: SchemaError.self) { try accepts(#"{"type":"string","pattern":"(^a)+"}"#, #""a""#) }
        #expect(try accepts(#"{"type":"string","pattern":"^[\\w\\_]+$"}"#, #""a_b""#))
        let lengths = #"{"type":"string","minLength":2,"maxLength":3}"#
        #expect(try accepts(lengths, #""é😀""#))
        #expect(try accepts(lengths, #""a\nb""#))
        #expect(try !accepts(lengths, #""a""#))
        #expect(try !accepts(lengths, #""abcd""#))
        let date = #"{"type":"string","format":"date"}"#
        #expect(try accepts(date, #""2024-02-29""#))
        #expect(try !accepts(date, #""2023-02-29""#))
        #expect(try !accepts(date, #""2024-04-31""#))
        #expect(try accepts(#"{"type":"string"}"#, #""quote \" backslash \\ tab \t ctrl \u0001""#))
        #expect(try !accepts(#"{"type":"string"}"#, #""\u0041""#))
    }

    @Test func arraysEnumsAndChoices() throws {
        let array = #"{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":3}"#
        #expect(try accepts(array, "[1]"))
        #expect(try accepts(array, "[1,2,3]"))
        #expect(try !accepts(array, "[]"))
        #expect(try !accepts(array, "[1,2,3,4]"))
        let tuple = #"{"type":"array","prefixItems":[{"type":"string"},{"type":"null"}],"items":false}"#
        #expect(try accepts(tuple, #"["a",null]"#))
        #expect(try accepts(tuple, #"["a"]"#))
        #expect(try !accepts(tuple, #"["a",null,1]"#))
        #expect(try accepts(#"{"enum":["red",1,null,{"a":[1]}]}"#, #"{"a":[1]}"#))
        #expect(try !accepts(#"{"enum":["red",1,null]}"#, #""blue""#))
        #expect(try accepts(#"{"anyOf":[{"type":"string"},{"type":"integer","minimum":3}]}"#, "4"))
        #expect(try !accepts(#"{"anyOf":[{"type":"string"},{"type":"integer","minimum":3}]}"#, "2"))
    }

    @Test func recursiveReferences() throws {
        let schema = ##"{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name","children"]}"##
        #expect(try accepts(schema, #"{"name":"a","children":[]}"#))
        #expect(try accepts(schema, #"{"name":"a","children":[{"name":"b","children":[{"name":"c","children":[]}]}]}"#))
        #expect(try !accepts(schema, #"{"name":"a","children":[{"name":"b"}]}"#))
    }

    @Test func unsupportedKeywordsAreNamedWithTheirPointer() {
        let schema = #"{"properties":{"a":{"unevaluatedItems":false,"x-kubernetes-kind":"A","minlength":3}}}"#
        #expect(throws: SchemaError.unsupported(keyword: "unevaluatedItems", pointer: "/properties/a/unevaluatedItems", reason: "the evaluated set is not known statically here")) {
            try CompiledGrammar(jsonSchema: schema)
        }
        let lenient = try? CompiledGrammar(jsonSchema: schema, options: CompileOptions(isLenient: true))
        #expect(lenient?.droppedKeywords == ["unevaluatedItems at /properties/a"])
        // Keywords outside the vocabulary are annotations, listed but never refused.
        #expect(lenient?.ignoredKeywords == ["x-kubernetes-kind at /properties/a", "minlength at /properties/a"])
    }

    @Test func indentedLayout() throws {
        let schema = #"""
            {"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}},"b":{"type":"object","properties":{"c":{"type":"string"}}},"d":true},"required":["a"]}
            """#
        let options = CompileOptions(whitespace: .indented(2))
        #expect(try accepts(schema, "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {\n    \"c\": \"x\"\n  }\n}", options: options))
        // Empty arrays and objects are closed at once.
        #expect(try accepts(schema, "{\n  \"a\": [],\n  \"b\": {}\n}", options: options))
        #expect(try !accepts(schema, "{\n  \"a\": [\n  ]\n}", options: options))
        // Any value laid out too, one level further in.
        #expect(try accepts(schema, "{\n  \"a\": [],\n  \"d\": {\n    \"e\": [\n      true\n    ]\n  }\n}", options: options))
        #expect(try accepts(schema, "{\n  \"a\": [],\n  \"d\": [\n    {},\n    []\n  ]\n}", options: options))
        #expect(try !accepts(schema, #"{"a":[1,2]}"#, options: options))
        #expect(try !accepts(schema, "{\n    \"a\": []\n}", options: options))
        #expect(try !accepts(schema, "{\n  \"a\":[]\n}", options: options))
    }

    @Test func indentedLayoutOfARecursiveTypeStopsIndentingPastItsDepth() throws {
        let schema = ##"{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}"##
        let options = CompileOptions(whitespace: .indented(1))
        var value = JSONValue.object(JSONObject())
        for _ in 0..<(SchemaCompiler.maximumLayoutDepth + 3) { value = .object(JSONObject([.init(key: "next", value: value)])) }
        let spelling = try #require(InstanceSpellings.all(value, indent: 1)?.first)
        #expect(spelling.contains("\n" + String(repeating: " ", count: SchemaCompiler.maximumLayoutDepth + 1) + "\"next\": {}"))
        #expect(try accepts(schema, spelling, options: options))
        #expect(try !accepts(schema, spelling.replacingOccurrences(of: "\n ", with: "\n  "), options: options))
    }

    @Test func flexibleWhitespace() throws {
        let schema = #"{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}}},"required":["a"]}"#
        let options = CompileOptions(whitespace: .flexible(maximum: 4))
        #expect(try accepts(schema, "{ \"a\" : [ 1 , 2 ] }", options: options))
        #expect(try !accepts(schema, "{ \"a\" : [ 1 , 2 ] }"))
        #expect(try !accepts(schema, "{\"a\":[1,     2]}", options: options))
    }
}
