/// The keywords of a schema beside one of its subschema keywords (a choice, `not`, a
/// condition), split where that keyword is written: merged around a subschema, they keep the
/// document's order of properties.
struct Siblings {
    /// The keywords written before, and after, as schemas.
    let before: SchemaValue
    let after: SchemaValue

    /// Whether there is no constraint beside the keyword.
    var isEmpty: Bool { before.constraintCount == 0 && after.constraintCount == 0 }

    /// The schemas to merge for `subschema` in the keyword's place.
    func around(_ subschema: SchemaValue) -> [SchemaValue] {
        [before, subschema, after]
    }
}

extension SchemaValue {
    /// The members of an object schema but the marker of the 2020-12 form.
    fileprivate var constraintCount: Int {
        (objectMembers ?? []).filter { $0.key != SchemaKeywords.normalizedMarker }.count
    }
}
