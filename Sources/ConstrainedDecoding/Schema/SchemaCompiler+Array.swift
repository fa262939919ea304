/// Arrays.
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
}
