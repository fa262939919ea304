extension KeyedDecodingContainer {
    /// Content a transcript stores as JSON text: a JSON document keeps the order of properties,
    /// which decoders do not report for nested objects.
    func decodeJSONText(forKey key: Key) throws -> GeneratedContent {
        let text = try decode(String.self, forKey: key)
        do {
            return try GeneratedContent(json: text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "Not a JSON document: \(error)")
        }
    }
}
