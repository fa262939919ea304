import Foundation
import PartialJSON

/// An independent check of a JSON value against the JSON Schema keywords the `schemas/` files
/// use, written directly from the specification (patterns through Swift's own `Regex`).
struct SchemaOracle {
    let root: JSONValue

    func validate(_ value: JSONValue) -> String? {
        validate(value, against: root, at: "")
    }

    private func resolve(_ reference: String) -> JSONValue? {
        guard reference != "#" else { return root }
        guard reference.hasPrefix("#/$defs/") else { return nil }
        return root["$defs"]?[String(reference.dropFirst("#/$defs/".count))]
    }

    private func validate(_ value: JSONValue, against schema: JSONValue, at path: String) -> String? {
        if let reference = schema["$ref"]?.stringValue {
            guard let target = resolve(reference) else { return "\(path): unresolved \(reference)" }
            return validate(value, against: target, at: path)
        }
        if let choices = schema["enum"]?.arrayValue, !choices.contains(value) { return "\(path): not in enum" }
        if let constant = schema["const"], constant != value { return "\(path): not the constant" }
        switch schema["type"]?.stringValue {
        case "object"?:
            guard let object = value.objectValue else { return "\(path): not an object" }
            let properties = schema["properties"]?.objectValue
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
                return "\(path): missing \(name)"
            }
            for member in object.members {
                guard let propertySchema = properties?[member.key] else {
                    if schema["additionalProperties"] == .bool(false) { return "\(path): extra property \(member.key)" }
                    continue
                }
                if let problem = validate(member.value, against: propertySchema, at: path + "/" + member.key) { return problem }
            }
        case "array"?:
            guard let elements = value.arrayValue else { return "\(path): not an array" }
            if let minimum = schema["minItems"]?.numberValue.flatMap({ try? $0.intValue() }), elements.count < minimum { return "\(path): too few" }
            if let maximum = schema["maxItems"]?.numberValue.flatMap({ try? $0.intValue() }), elements.count > maximum { return "\(path): too many" }
            if let items = schema["items"] {
                for (index, element) in elements.enumerated() {
                    if let problem = validate(element, against: items, at: path + "/\(index)") { return problem }
                }
            }
        case "string"?:
            guard let text = value.stringValue else { return "\(path): not a string" }
            let length = text.unicodeScalars.count
            if let minimum = schema["minLength"]?.numberValue.flatMap({ try? $0.intValue() }), length < minimum { return "\(path): too short" }
            if let maximum = schema["maxLength"]?.numberValue.flatMap({ try? $0.intValue() }), length > maximum { return "\(path): too long" }
            if let pattern = schema["pattern"]?.stringValue {
                guard let regex = try? Regex(pattern), (try? regex.firstMatch(in: text)) != nil else { return "\(path): pattern" }
            }
        case "integer"?, "number"?:
            guard let number = value.numberValue, let double = try? number.doubleValue() else { return "\(path): not a number" }
            if schema["type"]?.stringValue == "integer", !number.isIntegerLiteral { return "\(path): not an integer" }
            if let minimum = schema["minimum"]?.numberValue.flatMap({ try? $0.doubleValue() }), double < minimum { return "\(path): below minimum" }
            if let maximum = schema["maximum"]?.numberValue.flatMap({ try? $0.doubleValue() }), double > maximum { return "\(path): above maximum" }
        case "boolean"?:
            if value.boolValue == nil { return "\(path): not a Boolean" }
        case "null"?:
            if !value.isNull { return "\(path): not null" }
        default:
            break
        }
        return nil
    }
}
