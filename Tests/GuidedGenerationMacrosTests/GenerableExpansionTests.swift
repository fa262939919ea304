import Testing

/// The text the macros expand to, for each kind of declaration they accept.
@Suite struct GenerableExpansionTests {
    /// A structure: schema in declaration order, guides copied as written, nil optionals left out.
    @Test func aStructWithGuidesAndAnOptional() {
        let (expanded, diagnostics) = MacroExpansion.expand(#"""
            @Generable(description: "Basic profile information about a cat")
            struct CatProfile {
                var name: String
                @Guide(description: "The age of the cat", .range(0...20))
                var age: Int
                var nickname: String?
            }
            """#)
        #expect(diagnostics.isEmpty)
        #expect(expanded == #"""

            struct CatProfile {
                var name: String
                var age: Int
                var nickname: String?

                nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {
                    GuidedGeneration.GenerationSchema(
                        type: Self.self, description: "Basic profile information about a cat",
                        properties: [
                            GuidedGeneration.GenerationSchema.Property(name: "name", type: String.self),
                            GuidedGeneration.GenerationSchema.Property(name: "age", description: "The age of the cat", type: Int.self, guides: [.range(0 ... 20)]),
                            GuidedGeneration.GenerationSchema.Property(name: "nickname", type: String?.self)
                        ]
                    )
                }

                nonisolated var generatedContent: GuidedGeneration.GeneratedContent {
                    var _generableProperties: [(String, any GuidedGeneration.ConvertibleToGeneratedContent)] = []
                    _generableProperties.append(("name", self.name))
                    _generableProperties.append(("age", self.age))
                    if let _generableValue = self.nickname {
                        _generableProperties.append(("nickname", _generableValue))
                    }
                    return GuidedGeneration.GeneratedContent(properties: _generableProperties, uniquingKeysWith: { _, last in
                            last
                        })
                }

                nonisolated struct PartiallyGenerated: Identifiable, GuidedGeneration.ConvertibleFromGeneratedContent {
                    var id: GuidedGeneration.GenerationID
                    var name: String.PartiallyGenerated?
                    var age: Int.PartiallyGenerated?
                    var nickname: String.PartiallyGenerated?
                    nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                        self.id = content.id ?? GuidedGeneration.GenerationID()
                        self.name = try content.value(forProperty: "name")
                        self.age = try content.value(forProperty: "age")
                        self.nickname = try content.value(forProperty: "nickname")
                    }
                }
            }

            extension CatProfile: GuidedGeneration.Generable {
                nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                    self.name = try content.value(forProperty: "name")
                    self.age = try content.value(forProperty: "age")
                    self.nickname = try content.value(forProperty: "nickname")
                }
            }
            """#)
    }

    /// Arrays of nested types, and stacked @Guide attributes merged.
    @Test func aNestedStructWithStackedGuides() {
        let (expanded, diagnostics) = MacroExpansion.expand(#"""
            @Generable
            struct Itinerary {
                @Guide(.anyOf(ModelData.landmarkNames))
                let destinationName: String
                @Guide(description: "A list of day-by-day plans.")
                @Guide(.count(3))
                let days: [DayPlan]
            }
            """#)
        #expect(diagnostics.isEmpty)
        #expect(expanded == #"""

            struct Itinerary {
                let destinationName: String
                let days: [DayPlan]

                nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {
                    GuidedGeneration.GenerationSchema(
                        type: Self.self,
                        properties: [
                            GuidedGeneration.GenerationSchema.Property(name: "destinationName", type: String.self, guides: [.anyOf(ModelData.landmarkNames)]),
                            GuidedGeneration.GenerationSchema.Property(name: "days", description: "A list of day-by-day plans.", type: [DayPlan].self, guides: [.count(3)])
                        ]
                    )
                }

                nonisolated var generatedContent: GuidedGeneration.GeneratedContent {
                    var _generableProperties: [(String, any GuidedGeneration.ConvertibleToGeneratedContent)] = []
                    _generableProperties.append(("destinationName", self.destinationName))
                    _generableProperties.append(("days", self.days))
                    return GuidedGeneration.GeneratedContent(properties: _generableProperties, uniquingKeysWith: { _, last in
                            last
                        })
                }

                nonisolated struct PartiallyGenerated: Identifiable, GuidedGeneration.ConvertibleFromGeneratedContent {
                    var id: GuidedGeneration.GenerationID
                    var destinationName: String.PartiallyGenerated?
                    var days: [DayPlan].PartiallyGenerated?
                    nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                        self.id = content.id ?? GuidedGeneration.GenerationID()
                        self.destinationName = try content.value(forProperty: "destinationName")
                        self.days = try content.value(forProperty: "days")
                    }
                }
            }

            extension Itinerary: GuidedGeneration.Generable {
                nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                    self.destinationName = try content.value(forProperty: "destinationName")
                    self.days = try content.value(forProperty: "days")
                }
            }
            """#)
    }

    /// An enumeration without payloads is a choice among raw values or case names.
    @Test func anEnumerationOfStringChoices() {
        let (expanded, diagnostics) = MacroExpansion.expand(#"""
            @Generable
            enum Category: String {
                case hotel = "Hotel"
                case restaurant
            }
            """#)
        #expect(diagnostics.isEmpty)
        #expect(expanded == #"""

            enum Category: String {
                case hotel = "Hotel"
                case restaurant

                nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {
                    GuidedGeneration.GenerationSchema(type: Self.self, anyOf: ["Hotel", "restaurant"])
                }

                nonisolated var generatedContent: GuidedGeneration.GeneratedContent {
                    switch self {
                    case .hotel:
                        return GuidedGeneration.GeneratedContent("Hotel")
                    case .restaurant:
                        return GuidedGeneration.GeneratedContent("restaurant")
                    }
                }
            }

            extension Category: GuidedGeneration.Generable {
                nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                    let value = try content.value(String.self)
                    guard content.isComplete else {
                        throw Swift.DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The Category value \"\(value)\" is still being written"))
                    }
                    switch value {
                    case "Hotel":
                        self = .hotel
                    case "restaurant":
                        self = .restaurant
                    default:
                        throw Swift.DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Expected one of Hotel, restaurant for Category but found \"\(value)\""))
                    }
                }
            }
            """#)
    }

    /// An enumeration with payloads is an object discriminated by `type`.
    @Test func anEnumerationWithPayloads() {
        let (expanded, diagnostics) = MacroExpansion.expand(#"""
            @Generable
            enum Shape {
                case circle(radius: Double)
                case label(String, note: String?)
                case point
            }
            """#)
        #expect(diagnostics.isEmpty)
        #expect(expanded == #"""

            enum Shape {
                case circle(radius: Double)
                case label(String, note: String?)
                case point

                nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {
                    GuidedGeneration.GenerationSchema(type: Self.self, anyOf: [DiscriminatedCircle.self, DiscriminatedLabel.self, DiscriminatedPoint.self])
                }

                nonisolated var generatedContent: GuidedGeneration.GeneratedContent {
                    switch self {
                    case .circle(let radius):
                        var _generableProperties: [(String, any GuidedGeneration.ConvertibleToGeneratedContent)] = []
                        _generableProperties.append(("type", "circle"))
                        _generableProperties.append(("radius", radius))
                        return GuidedGeneration.GeneratedContent(properties: _generableProperties, uniquingKeysWith: { _, last in
                                last
                            })
                    case .label(let value, let note):
                        var _generableProperties: [(String, any GuidedGeneration.ConvertibleToGeneratedContent)] = []
                        _generableProperties.append(("type", "label"))
                        _generableProperties.append(("value", value))
                        if let _generableValue = note {
                            _generableProperties.append(("note", _generableValue))
                        }
                        return GuidedGeneration.GeneratedContent(properties: _generableProperties, uniquingKeysWith: { _, last in
                                last
                            })
                    case .point:
                        var _generableProperties: [(String, any GuidedGeneration.ConvertibleToGeneratedContent)] = []
                        _generableProperties.append(("type", "point"))
                        return GuidedGeneration.GeneratedContent(properties: _generableProperties, uniquingKeysWith: { _, last in
                                last
                            })
                    }
                }

                nonisolated struct DiscriminatedCircle: GuidedGeneration.Generable {
                    nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {
                        GuidedGeneration.GenerationSchema(type: Self.self, properties: [
                            GuidedGeneration.GenerationSchema.Property(name: "type", type: String.self, guides: [.constant("circle")]),
                            GuidedGeneration.GenerationSchema.Property(name: "radius", type: Double.self)
                        ])
                    }
                    let generatedContent: GuidedGeneration.GeneratedContent
                    nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                        generatedContent = content
                    }
                }

                nonisolated struct DiscriminatedLabel: GuidedGeneration.Generable {
                    nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {
                        GuidedGeneration.GenerationSchema(type: Self.self, properties: [
                            GuidedGeneration.GenerationSchema.Property(name: "type", type: String.self, guides: [.constant("label")]),
                            GuidedGeneration.GenerationSchema.Property(name: "value", type: String.self),
                            GuidedGeneration.GenerationSchema.Property(name: "note", type: String?.self)
                        ])
                    }
                    let generatedContent: GuidedGeneration.GeneratedContent
                    nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                        generatedContent = content
                    }
                }

                nonisolated struct DiscriminatedPoint: GuidedGeneration.Generable {
                    nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {
                        GuidedGeneration.GenerationSchema(type: Self.self, properties: [
                            GuidedGeneration.GenerationSchema.Property(name: "type", type: String.self, guides: [.constant("point")])
                        ])
                    }
                    let generatedContent: GuidedGeneration.GeneratedContent
                    nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                        generatedContent = content
                    }
                }

                nonisolated enum PartiallyGenerated: GuidedGeneration.ConvertibleFromGeneratedContent {
                    case circle(radius: Double.PartiallyGenerated?)
                    case label(String.PartiallyGenerated?, note: String.PartiallyGenerated?)
                    case point
                    nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                        let typeContent = try content.value(GuidedGeneration.GeneratedContent.self, forProperty: "type")
                        let type = try typeContent.value(String.self)
                        guard typeContent.isComplete else {
                            throw Swift.DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The Shape type \"\(type)\" is still being written"))
                        }
                        switch type {
                        case "circle":
                            self = .circle(radius: try content.value(forProperty: "radius"))
                        case "label":
                            self = .label(try content.value(forProperty: "value"), note: try content.value(forProperty: "note"))
                        case "point":
                            self = .point
                        default:
                            throw Swift.DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Expected a type among circle, label, point for Shape but found \"\(type)\""))
                        }
                    }
                }
            }

            extension Shape: GuidedGeneration.Generable {
                nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                    let typeContent = try content.value(GuidedGeneration.GeneratedContent.self, forProperty: "type")
                    let type = try typeContent.value(String.self)
                    guard typeContent.isComplete else {
                        throw Swift.DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The Shape type \"\(type)\" is still being written"))
                    }
                    switch type {
                    case "circle":
                        self = .circle(radius: try content.value(forProperty: "radius"))
                    case "label":
                        self = .label(try content.value(forProperty: "value"), note: try content.value(forProperty: "note"))
                    case "point":
                        self = .point
                    default:
                        throw Swift.DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Expected a type among circle, label, point for Shape but found \"\(type)\""))
                    }
                }
            }
            """#)
    }

    /// A public type gets public members; static, computed and initialized constants are skipped; a regex becomes a pattern guide; a type with its own `id` keeps it.
    @Test func aPublicStructWithARegexAndSkippedProperties() {
        let (expanded, diagnostics) = MacroExpansion.expand(#"""
            @Generable
            public struct Ticket {
                @Guide(/[A-Z]{3}-\d{4}/)
                public var code: String
                public var id: String
                static let shared = 1
                var summary: String { code }
                let version = 2
            }
            """#)
        #expect(diagnostics.isEmpty)
        #expect(expanded == #"""

            public struct Ticket {
                public var code: String
                public var id: String
                static let shared = 1
                var summary: String { code }
                let version = 2

                public nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {
                    GuidedGeneration.GenerationSchema(
                        type: Self.self,
                        properties: [
                            GuidedGeneration.GenerationSchema.Property(name: "code", type: String.self, guides: [GuidedGeneration.GenerationGuide<String>.pattern(/[A-Z]{3}-\d{4}/)]),
                            GuidedGeneration.GenerationSchema.Property(name: "id", type: String.self)
                        ]
                    )
                }

                public nonisolated var generatedContent: GuidedGeneration.GeneratedContent {
                    var _generableProperties: [(String, any GuidedGeneration.ConvertibleToGeneratedContent)] = []
                    _generableProperties.append(("code", self.code))
                    _generableProperties.append(("id", self.id))
                    return GuidedGeneration.GeneratedContent(properties: _generableProperties, uniquingKeysWith: { _, last in
                            last
                        })
                }

                public nonisolated struct PartiallyGenerated: GuidedGeneration.ConvertibleFromGeneratedContent {
                    public var code: String.PartiallyGenerated?
                    public var id: String.PartiallyGenerated?
                    public nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                        self.code = try content.value(forProperty: "code")
                        self.id = try content.value(forProperty: "id")
                    }
                }
            }

            extension Ticket: GuidedGeneration.Generable {
                public nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                    self.code = try content.value(forProperty: "code")
                    self.id = try content.value(forProperty: "id")
                }
            }
            """#)
    }

    /// A PartiallyGenerated the type declares is not generated again.
    @Test func aUserDeclaredPartiallyGeneratedIsKept() {
        let (expanded, diagnostics) = MacroExpansion.expand(#"""
            @Generable
            struct Custom {
                var value: Int
                struct PartiallyGenerated: ConvertibleFromGeneratedContent {
                    init(_ content: GeneratedContent) throws {}
                }
            }

            """#)
        #expect(diagnostics.isEmpty)
        #expect(expanded == #"""

            struct Custom {
                var value: Int
                struct PartiallyGenerated: ConvertibleFromGeneratedContent {
                    init(_ content: GeneratedContent) throws {}
                }

                nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {
                    GuidedGeneration.GenerationSchema(
                        type: Self.self,
                        properties: [
                            GuidedGeneration.GenerationSchema.Property(name: "value", type: Int.self)
                        ]
                    )
                }

                nonisolated var generatedContent: GuidedGeneration.GeneratedContent {
                    var _generableProperties: [(String, any GuidedGeneration.ConvertibleToGeneratedContent)] = []
                    _generableProperties.append(("value", self.value))
                    return GuidedGeneration.GeneratedContent(properties: _generableProperties, uniquingKeysWith: { _, last in
                            last
                        })
                }
            }

            extension Custom: GuidedGeneration.Generable {
                nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                    self.value = try content.value(forProperty: "value")
                }
            }

            """#)
    }
}
