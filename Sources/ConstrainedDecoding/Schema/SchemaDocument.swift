import Foundation

/// A schema document with its draft and the places its references can name: the resources it
/// identifies (`$id`, or `id` in draft 4), its anchors (`$anchor`, `$dynamicAnchor`, or
/// fragment-only identifiers before 2019-09), and the base URI of each of its schemas.
struct SchemaDocument: Sendable {
    let root: SchemaValue
    let draft: SchemaDraft
    /// The `$schema` of the document when it names no draft this compiler knows: a custom
    /// metaschema, whose vocabularies cannot be read.
    let unknownMetaSchema: String?
    /// The base URI of a document that does not name itself.
    static let defaultBase = "urn:document:root"
    /// Absolute URIs (resources without a fragment, anchors with one) to the pointer of their schema.
    private(set) var locations: [String: String] = [:]
    /// The base URI in effect at each schema the walk visited, by pointer.
    private(set) var bases: [String: String] = [:]
    /// The pointers of the schemas that declare each dynamic (or recursive) anchor.
    private(set) var dynamicAnchors: [String: [String]] = [:]

    init(root: SchemaValue, defaultDraft: SchemaDraft) {
        self.root = root
        let metaSchema = root["$schema"]?.stringValue
        draft = metaSchema.flatMap(SchemaDraft.init(metaSchema:)) ?? defaultDraft
        unknownMetaSchema = metaSchema.flatMap { SchemaDraft(metaSchema: $0) == nil ? $0 : nil }
        locations[Self.defaultBase] = ""
        visit(root, at: "", base: Self.defaultBase)
    }

    /// Escapes one reference token of a JSON pointer.
    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    private mutating func visit(_ schema: SchemaValue, at pointer: String, base inherited: String) {
        guard case .object = schema else { return }
        var base = inherited
        let refIsAlone = draft <= .draft7 && schema["$ref"] != nil
        if !refIsAlone, let identifier = schema[draft.identifierKeyword]?.stringValue {
            let absolute = URIReference.resolve(identifier, against: base)
            let (resource, fragment) = URIReference.splitFragment(absolute)
            if identifier.hasPrefix("#") {
                // A fragment-only identifier is an anchor in the current resource (before 2019-09).
                if draft <= .draft7 { locations[absolute] = pointer }
            } else {
                base = resource
                locations[resource] = pointer
                if !fragment.isEmpty, draft <= .draft7 { locations[absolute] = pointer }
            }
        }
        bases[pointer] = base
        if draft >= .draft2019_09, let anchor = schema["$anchor"]?.stringValue {
            locations[base + "#" + anchor] = pointer
        }
        if draft == .draft2020_12, let anchor = schema["$dynamicAnchor"]?.stringValue {
            locations[base + "#" + anchor] = pointer
            dynamicAnchors[anchor, default: []].append(pointer)
        }
        if draft == .draft2019_09, case .bool(true)? = schema["$recursiveAnchor"] {
            dynamicAnchors["", default: []].append(pointer)
        }
        for (keyword, shape) in draft.subschemaKeywords {
            guard let value = schema[keyword] else { continue }
            let prefix = pointer + "/" + keyword
            switch (shape, value) {
            case (.single, _), (.singleOrList, .object), (.singleOrList, .bool):
                visit(value, at: prefix, base: base)
            case (.list, .array(let elements)), (.singleOrList, .array(let elements)):
                for (index, element) in elements.enumerated() { visit(element, at: prefix + "/\(index)", base: base) }
            case (.map, .object(let members)):
                for member in members { visit(member.value, at: prefix + "/" + Self.escape(member.key), base: base) }
            default:
                continue
            }
        }
    }

    /// The base URI inside `schema`: the resource its identifier names, else `base` (a
    /// fragment-only identifier names an anchor, not a resource).
    func base(inside schema: SchemaValue, from base: String) -> String {
        guard let identifier = schema[draft.identifierKeyword]?.stringValue, !identifier.hasPrefix("#") else { return base }
        return URIReference.splitFragment(URIReference.resolve(identifier, against: base)).0
    }

    /// The value at a JSON pointer (escaped tokens, `""` for the root).
    func value(at pointer: String) -> SchemaValue? {
        var current = root
        guard !pointer.isEmpty else { return current }
        guard pointer.hasPrefix("/") else { return nil }
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let member = current[key] {
                current = member
            } else if case .array(let elements) = current, let index = Int(key), String(index) == key, elements.indices.contains(index) {
                current = elements[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// The base URI in effect at `pointer`: that of the nearest schema the walk visited.
    func base(at pointer: String) -> String {
        var current = Substring(pointer)
        while true {
            if let base = bases[String(current)] { return base }
            guard let slash = current.lastIndex(of: "/") else { return bases[""] ?? Self.defaultBase }
            current = current[..<slash]
        }
    }

    /// Where a reference leads: the pointer of its target, or why it cannot be followed.
    func resolve(_ reference: String, base: String) -> Result<String, ReferenceFailure> {
        let absolute = URIReference.resolve(reference, against: base)
        let (resource, rawFragment) = URIReference.splitFragment(absolute)
        guard let resourcePointer = locations[resource] else { return .failure(.otherDocument) }
        let fragment = rawFragment.removingPercentEncoding ?? rawFragment
        let pointer: String
        if fragment.isEmpty {
            pointer = resourcePointer
        } else if fragment.hasPrefix("/") {
            pointer = resourcePointer + fragment
        } else if let anchor = locations[resource + "#" + rawFragment] ?? locations[resource + "#" + fragment] {
            pointer = anchor
        } else {
            return .failure(.missing)
        }
        return value(at: pointer) == nil ? .failure(.missing) : .success(pointer)
    }

    enum ReferenceFailure: Error {
        /// The reference names another document, which is not read.
        case otherDocument
        /// Nothing in the document has that name.
        case missing
    }
}

