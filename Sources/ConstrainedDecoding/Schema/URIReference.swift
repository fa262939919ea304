/// Resolution of URI references against a base URI (RFC 3986, section 5.2), enough for the
/// `$id`, `$ref` and `$anchor` values of schema documents.
enum URIReference {
    /// The absolute form of `reference` against `base`.
    static func resolve(_ reference: String, against base: String) -> String {
        if hasScheme(reference) { return removingDotSegments(reference) }
        let (baseWithoutFragment, _) = splitFragment(base)
        if reference.isEmpty { return baseWithoutFragment }
        if reference.hasPrefix("#") { return baseWithoutFragment + reference }
        let schemeEnd = baseWithoutFragment.firstIndex(of: ":").map { baseWithoutFragment.index(after: $0) } ?? baseWithoutFragment.startIndex
        let scheme = String(baseWithoutFragment[..<schemeEnd])
        let rest = baseWithoutFragment[schemeEnd...]
        if reference.hasPrefix("//") { return removingDotSegments(scheme + reference) }
        // The authority, when the base has one.
        var authority = ""
        var path = Substring(rest)
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let authorityEnd = afterSlashes.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterSlashes.endIndex
            authority = "//" + afterSlashes[..<authorityEnd]
            path = afterSlashes[authorityEnd...]
        }
        if let query = path.firstIndex(of: "?") { path = path[..<query] }
        if reference.hasPrefix("?") { return scheme + authority + path + reference }
        if reference.hasPrefix("/") { return removingDotSegments(scheme + authority + reference) }
        // A relative path: merged with the base's directory. A base without a hierarchical path
        // (a URN) has no directory, and the reference stays relative, so it names nothing here.
        guard !authority.isEmpty || path.hasPrefix("/") else { return reference }
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
        return removingDotSegments(scheme + authority + directory + reference)
    }

    /// The URI and its fragment (without `#`; empty when there is none).
    static func splitFragment(_ uri: String) -> (String, String) {
        guard let hash = uri.firstIndex(of: "#") else { return (uri, "") }
        return (String(uri[..<hash]), String(uri[uri.index(after: hash)...]))
    }

    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// The URI with `.` and `..` path segments applied.
    private static func removingDotSegments(_ uri: String) -> String {
        guard uri.contains("/.") else { return uri }
        let (withoutFragment, fragment) = splitFragment(uri)
        guard let schemeEnd = withoutFragment.range(of: "://") else { return uri }
        let afterAuthority = withoutFragment[schemeEnd.upperBound...].firstIndex(of: "/") ?? withoutFragment.endIndex
        let prefix = withoutFragment[..<afterAuthority]
        var output: [Substring] = []
        let segments = withoutFragment[afterAuthority...].split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".": if isLast { output.append("") }
            case "..":
                _ = output.popLast()
                if isLast { output.append("") }
            default: output.append(segment)
            }
        }
        let path = output.isEmpty ? "" : "/" + output.joined(separator: "/")
        return prefix + path + (uri.contains("#") ? "#" + fragment : "")
    }
}
