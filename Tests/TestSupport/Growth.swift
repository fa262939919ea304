/// Whether a value of a later snapshot only adds to the value of an earlier one, read by
/// reflection: `nil` may become anything; a string may only grow at its end; an array may only
/// gain elements at its end, each of the earlier ones growing; a dictionary may only gain keys,
/// each earlier value growing; a structure's fields, an enumeration's case and payload, and
/// every other value keep to the same rule field by field. Identities (fields named `id`) are
/// not compared, and a field named `isComplete` may only go from `false` to `true`.
///
/// - Returns: `nil` when `later` grows from `earlier`, else where and how it does not.
public func growthFailure(from earlier: Any, to later: Any, at path: String = "") -> String? {
    let before = Mirror(reflecting: earlier)
    let after = Mirror(reflecting: later)
    switch (before.displayStyle, after.displayStyle) {
    case (.optional, .optional):
        guard let wrapped = before.children.first?.value else { return nil }
        guard let laterWrapped = after.children.first?.value else { return "\(path): a value became nil" }
        return growthFailure(from: wrapped, to: laterWrapped, at: path)
    case (.collection, .collection):
        let earlierElements = before.children.map(\.value)
        let laterElements = after.children.map(\.value)
        guard laterElements.count >= earlierElements.count else {
            return "\(path): \(earlierElements.count) elements became \(laterElements.count)"
        }
        for (index, element) in earlierElements.enumerated() {
            if let failure = growthFailure(from: element, to: laterElements[index], at: path + "[\(index)]") { return failure }
        }
        return nil
    case (.dictionary, .dictionary):
        let laterEntries = Dictionary(after.children.map(entry), uniquingKeysWith: { first, _ in first })
        for (key, value) in before.children.map(entry) {
            guard let laterValue = laterEntries[key] else { return "\(path): the key \(key) went away" }
            if let failure = growthFailure(from: value, to: laterValue, at: path + "." + key) { return failure }
        }
        return nil
    case (.enum, .enum):
        let earlierCase = before.children.first?.label ?? String(describing: earlier)
        let laterCase = after.children.first?.label ?? String(describing: later)
        guard earlierCase == laterCase else { return "\(path): the case \(earlierCase) became \(laterCase)" }
        guard let payload = before.children.first?.value, let laterPayload = after.children.first?.value else { return nil }
        return growthFailure(from: payload, to: laterPayload, at: path + "." + earlierCase)
    case (.struct, .struct), (.class, .class), (.tuple, .tuple):
        let laterFields = Array(after.children)
        for (index, field) in before.children.enumerated() {
            guard index < laterFields.count else { return "\(path): fields went away" }
            let name = field.label ?? "\(index)"
            if name == "id" { continue }
            if name == "isComplete", let flag = field.value as? Bool, let laterFlag = laterFields[index].value as? Bool {
                if flag && !laterFlag { return "\(path): complete content became incomplete" }
                continue
            }
            if let failure = growthFailure(from: field.value, to: laterFields[index].value, at: path + "." + name) { return failure }
        }
        return nil
    default:
        if let text = earlier as? String, let laterText = later as? String {
            return laterText.unicodeScalars.starts(with: text.unicodeScalars) ? nil : "\(path): \"\(text)\" became \"\(laterText)\""
        }
        let (earlierText, laterText) = (String(describing: earlier), String(describing: later))
        return earlierText == laterText ? nil : "\(path): \(earlierText) became \(laterText)"
    }
}

/// A dictionary entry seen by reflection, its key as text.
private func entry(_ child: Mirror.Child) -> (String, Any) {
    let pair = Array(Mirror(reflecting: child.value).children)
    guard pair.count == 2 else { return (String(describing: child.value), child.value) }
    return (String(describing: pair[0].value), pair[1].value)
}
