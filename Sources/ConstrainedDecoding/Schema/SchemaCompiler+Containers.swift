/// Arrays and objects.
extension SchemaCompiler {
    mutating func compileArray(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        if case .bool(true)? = schema["uniqueItems"] {
            try refuse("uniqueItems", at: pointer, "uniqueness cannot be enforced while generating")
        }
        let prefix = schema["prefixItems"]?.arrayValue ?? []
        let rest = schema["items"] ?? .bool(true)
        let minimum = try count("minItems", of: schema, at: pointer) ?? 0
        var maximum = try count("maxItems", of: schema, at: pointer)
        if case .bool(false) = rest { maximum = min(maximum ?? prefix.count, prefix.count) }
        // A `false` prefix element ends the array before it.
        if let impossible = prefix.firstIndex(of: .bool(false)) { maximum = min(maximum ?? impossible, impossible) }
        guard minimum <= 1000, (maximum ?? 0) <= 1000 else {
            throw unsupported(maximum ?? 0 > 1000 ? "maxItems" : "minItems", at: pointer, "counts above 1000 are not supported")
        }
        if let maximum, maximum < minimum { return nil }

        func elementSchema(_ index: Int) -> (SchemaValue, String) {
            index < prefix.count ? (prefix[index], pointer + "/prefixItems/\(index)") : (rest, pointer + "/items")
        }

        // Built from the end: after `index` elements, either close, or ", element" and go on.
        func tail(_ index: Int, _ compiler: inout SchemaCompiler) throws(SchemaError) -> Fragment? {
            let canStop = index >= minimum
            let canGo = maximum.map { index < $0 } ?? true
            var options: [Fragment] = []
            if canStop { options.append(try compiler.builder.empty()) }
            if canGo {
                if maximum == nil, index >= minimum, index >= prefix.count {
                    // From here on the same element repeats: a loop.
                    let (element, elementPointer) = elementSchema(index)
                    if let value = try compiler.compile(element, at: elementPointer) {
                        let item = try compiler.builder.sequence([try compiler.token(","), value])
                        return try compiler.builder.star(item)
                    }
                } else {
                    let (element, elementPointer) = elementSchema(index)
                    if let value = try compiler.compile(element, at: elementPointer), let after = try tail(index + 1, &compiler) {
                        options.append(try compiler.builder.sequence([try compiler.token(","), value, after]))
                    }
                }
            }
            return options.isEmpty ? nil : try compiler.builder.alternation(options)
        }

        var contents: Fragment?
        let canBeEmpty = minimum == 0
        let (first, firstPointer) = elementSchema(0)
        var nonEmpty: Fragment?
        if maximum.map({ $0 > 0 }) ?? true, let value = try compile(first, at: firstPointer), let after = try tail(1, &self) {
            nonEmpty = try builder.sequence([value, after])
        }
        switch (canBeEmpty, nonEmpty) {
        case (true, let some?): contents = try builder.optional(some)
        case (true, nil): contents = try builder.empty()
        case (false, let some?): contents = some
        case (false, nil): contents = nil
        }
        guard let contents else { return nil }
        return try builder.sequence([try builder.literal("[".utf8), try whitespace(), contents, try whitespace(), try builder.literal("]".utf8)])
    }

    mutating func compileObject(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        var properties = schema["properties"]?.objectMembers ?? []
        if let order = schema["x-order"]?.arrayValue?.compactMap(\.stringValue) {
            properties.sort { (order.firstIndex(of: $0.key) ?? .max) < (order.firstIndex(of: $1.key) ?? .max) }
        }
        let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let names = Set(properties.map(\.key))
        // What may follow the named properties.
        let extra: SchemaValue?
        switch schema["additionalProperties"] {
        case .bool(false)?: extra = nil
        case let value?: extra = value
        case nil: extra = options.extraProperties == .allow ? .bool(true) : nil
        }
        // A required property not listed, where no other property may be, makes the object impossible.
        let requiredExtra = schema["additionalProperties"] ?? .bool(true)
        // Required names that `properties` does not list are properties too, at the end, with
        // the schema of additional properties.
        for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where !names.contains(name) {
            if case .bool(false) = requiredExtra { return nil }
            properties.append((name, requiredExtra))
        }
        let listed = Set(properties.map(\.key))
        let open = try builder.sequence([try builder.literal("{".utf8), try whitespace()])
        // Two lanes: nothing written yet, or some member written (the next one needs a comma).
        var empty: Int32? = open.end
        var some: Int32?
        for (name, propertySchema) in properties {
            let propertyPointer = pointer + "/properties/" + name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            let isRequired = required.contains(name)
            guard let value = try compile(propertySchema, at: propertyPointer) else {
                if isRequired { return nil }
                continue
            }
            let key = try builder.sequence([try builder.literal(SchemaValue.quoted(name).utf8), try token(":")])
            builder.epsilon(key.end, value.start)
            let after = try builder.newState()
            builder.epsilon(value.end, after)
            if let empty { builder.epsilon(empty, key.start) }
            if let some {
                let comma = try token(",")
                builder.epsilon(some, comma.start)
                builder.epsilon(comma.end, key.start)
            }
            if !isRequired, let some { builder.epsilon(some, after) }
            // Skipping an optional property keeps the lane where it was.
            if isRequired { empty = nil }
            some = after
        }
        if let extra {
            // Further members, each a name not listed in properties.
            let extraValue = try compile(extra, at: pointer + "/additionalProperties")
            if let extraValue {
                let member = try builder.sequence([try extraName(excluding: listed), try token(":")])
                builder.epsilon(member.end, extraValue.start)
                let written: Int32
                if let some { written = some } else { written = try builder.newState() }
                builder.epsilon(extraValue.end, written)
                if let empty { builder.epsilon(empty, member.start) }
                let comma = try token(",")
                builder.epsilon(written, comma.start)
                builder.epsilon(comma.end, member.start)
                some = written
            }
        }
        let close = try builder.sequence([try whitespace(), try builder.literal("}".utf8)])
        guard empty != nil || some != nil else { return nil }
        if let empty { builder.epsilon(empty, close.start) }
        if let some { builder.epsilon(some, close.start) }
        return Fragment(start: open.start, end: close.end)
    }

    /// A quoted member name that is none of `names`.
    private mutating func extraName(excluding names: Set<String>) throws(SchemaError) -> Fragment {
        let automaton = CodePointAutomaton.excluding(names.sorted())
        let quote = UInt8(ascii: "\"")
        let contents = try JSONStringSpelling.fragment(of: automaton, spelling: .jsonString, in: &builder)
        return try builder.sequence([try builder.literal([quote]), contents, try builder.literal([quote])])
    }
}
