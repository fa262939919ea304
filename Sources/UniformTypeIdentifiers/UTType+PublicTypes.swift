extension UTType.Declaration {
    /// A declaration of the table.
    private static func type(
        _ identifier: String, _ parents: [String], mime: [String] = [], extensions: [String] = [], _ description: String
    ) -> UTType.Declaration {
        UTType.Declaration(
            identifier: identifier, parents: parents, mimeTypes: mime, filenameExtensions: extensions, description: description, origin: .builtIn)
    }

    /// The common public types, each after its supertypes; a tag belongs to the first type that
    /// lists it.
    static let table: [UTType.Declaration] = [
        type("public.item", [], "item"),
        type("public.content", [], "content"),
        type("public.composite-content", ["public.content"], "composite content"),
        type("public.data", ["public.item"], mime: ["application/octet-stream"], extensions: ["bin"], "data"),
        type("public.directory", ["public.item"], "directory"),
        type("public.folder", ["public.directory"], "folder"),
        type("public.executable", ["public.item"], "executable"),
        type("public.url", ["public.data"], "URL"),
        type("public.file-url", ["public.url"], "file URL"),
        type("public.text", ["public.data", "public.content"], "text"),
        type("public.plain-text", ["public.text"], mime: ["text/plain"], extensions: ["txt", "text"], "plain text"),
        type("public.utf8-plain-text", ["public.plain-text"], "Unicode text (UTF-8)"),
        type("public.utf16-plain-text", ["public.plain-text"], "Unicode text (UTF-16)"),
        type("public.delimited-values-text", ["public.text"], "delimited text"),
        type("public.comma-separated-values-text", ["public.delimited-values-text"], mime: ["text/csv"], extensions: ["csv"], "comma-separated values"),
        type(
            "public.tab-separated-values-text", ["public.delimited-values-text"], mime: ["text/tab-separated-values"], extensions: ["tsv"],
            "tab-separated values"),
        type("public.json", ["public.text"], mime: ["application/json"], extensions: ["json"], "JSON"),
        type("public.xml", ["public.text"], mime: ["application/xml", "text/xml"], extensions: ["xml"], "XML"),
        type("public.yaml", ["public.text"], mime: ["application/x-yaml", "application/yaml", "text/yaml"], extensions: ["yaml", "yml"], "YAML"),
        type("public.html", ["public.text"], mime: ["text/html"], extensions: ["html", "htm"], "HTML"),
        type("public.rtf", ["public.text"], mime: ["text/rtf", "application/rtf"], extensions: ["rtf"], "rich text"),
        type("public.log", ["public.plain-text"], extensions: ["log"], "log"),
        type("public.source-code", ["public.plain-text"], "source code"),
        type("public.swift-source", ["public.source-code"], extensions: ["swift"], "Swift source"),
        type("public.script", ["public.source-code"], "script"),
        type("public.shell-script", ["public.script"], mime: ["application/x-sh"], extensions: ["sh"], "shell script"),
        type("public.python-script", ["public.script"], mime: ["text/x-python"], extensions: ["py"], "Python script"),
        type(
            "com.netscape.javascript-source", ["public.source-code", "public.executable"], mime: ["text/javascript", "application/javascript"],
            extensions: ["js", "mjs"], "JavaScript source"),
        type("public.image", ["public.data", "public.content"], "image"),
        type("public.png", ["public.image"], mime: ["image/png"], extensions: ["png"], "PNG image"),
        type("public.jpeg", ["public.image"], mime: ["image/jpeg", "image/jpg"], extensions: ["jpeg", "jpg", "jpe"], "JPEG image"),
        type("com.compuserve.gif", ["public.image"], mime: ["image/gif"], extensions: ["gif"], "GIF image"),
        type("org.webmproject.webp", ["public.image"], mime: ["image/webp"], extensions: ["webp"], "WebP image"),
        type("public.heif-standard", ["public.image"], "HEIF image"),
        type("public.heic", ["public.heif-standard"], mime: ["image/heic"], extensions: ["heic"], "HEIC image"),
        type("public.heif", ["public.heif-standard"], mime: ["image/heif"], extensions: ["heif"], "HEIF image"),
        type("public.tiff", ["public.image"], mime: ["image/tiff"], extensions: ["tiff", "tif"], "TIFF image"),
        type("com.microsoft.bmp", ["public.image"], mime: ["image/bmp"], extensions: ["bmp"], "BMP image"),
        type("public.svg-image", ["public.image"], mime: ["image/svg+xml"], extensions: ["svg"], "SVG image"),
        type("com.adobe.pdf", ["public.data", "public.composite-content"], mime: ["application/pdf"], extensions: ["pdf"], "PDF document"),
        type("public.audiovisual-content", ["public.data", "public.content"], "audiovisual content"),
        type("public.audio", ["public.audiovisual-content"], "audio"),
        type("public.mp3", ["public.audio"], mime: ["audio/mpeg", "audio/mp3"], extensions: ["mp3"], "MP3 audio"),
        type("com.microsoft.waveform-audio", ["public.audio"], mime: ["audio/wav", "audio/x-wav", "audio/wave"], extensions: ["wav"], "WAVE audio"),
        type("public.aiff-audio", ["public.audio"], mime: ["audio/aiff", "audio/x-aiff"], extensions: ["aiff", "aif"], "AIFF audio"),
        type("public.mpeg-4-audio", ["public.audio"], mime: ["audio/mp4", "audio/m4a"], extensions: ["m4a"], "MPEG-4 audio"),
        type("public.movie", ["public.audiovisual-content"], "movie"),
        type("public.video", ["public.movie"], "video"),
        type("public.mpeg-4", ["public.movie"], mime: ["video/mp4"], extensions: ["mp4"], "MPEG-4 movie"),
        type("com.apple.quicktime-movie", ["public.movie"], mime: ["video/quicktime"], extensions: ["mov", "qt"], "QuickTime movie"),
        type("public.archive", ["public.data"], "archive"),
        type("public.zip-archive", ["public.archive"], mime: ["application/zip"], extensions: ["zip"], "ZIP archive"),
        type("org.gnu.gnu-zip-archive", ["public.archive"], mime: ["application/gzip", "application/x-gzip"], extensions: ["gz", "gzip"], "gzip archive"),
        type("com.apple.property-list", ["public.data"], extensions: ["plist"], "property list"),
        type("public.vcard", ["public.text"], mime: ["text/vcard", "text/x-vcard"], extensions: ["vcf", "vcard"], "vCard"),
        type("public.font", ["public.data"], "font"),
    ]

    /// The table by identifier.
    static let builtIn: [String: UTType.Declaration] = Dictionary(table.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })

    /// The declaration of a public type of the table.
    static func publicType(_ identifier: String) -> UTType.Declaration {
        builtIn[identifier] ?? undeclared(identifier)
    }
}

extension UTType {
    /// Any item: the root of files, folders and data.
    public static let item = UTType(declaration: .publicType("public.item"))
    /// Anything a person reads, looks at or listens to.
    public static let content = UTType(declaration: .publicType("public.content"))
    /// Content made of several kinds (a PDF document).
    public static let compositeContent = UTType(declaration: .publicType("public.composite-content"))
    /// Bytes of any kind.
    public static let data = UTType(declaration: .publicType("public.data"))
    /// A directory.
    public static let directory = UTType(declaration: .publicType("public.directory"))
    /// A folder.
    public static let folder = UTType(declaration: .publicType("public.folder"))
    /// A program that can be run.
    public static let executable = UTType(declaration: .publicType("public.executable"))
    /// A URL.
    public static let url = UTType(declaration: .publicType("public.url"))
    /// A `file:` URL.
    public static let fileURL = UTType(declaration: .publicType("public.file-url"))
    /// Text of any kind.
    public static let text = UTType(declaration: .publicType("public.text"))
    /// Text without markup (`text/plain`).
    public static let plainText = UTType(declaration: .publicType("public.plain-text"))
    /// Plain text in UTF-8.
    public static let utf8PlainText = UTType(declaration: .publicType("public.utf8-plain-text"))
    /// Plain text in UTF-16.
    public static let utf16PlainText = UTType(declaration: .publicType("public.utf16-plain-text"))
    /// Text of values separated by a delimiter.
    public static let delimitedText = UTType(declaration: .publicType("public.delimited-values-text"))
    /// Comma-separated values (`text/csv`).
    public static let commaSeparatedText = UTType(declaration: .publicType("public.comma-separated-values-text"))
    /// Tab-separated values.
    public static let tabSeparatedText = UTType(declaration: .publicType("public.tab-separated-values-text"))
    /// JSON (`application/json`).
    public static let json = UTType(declaration: .publicType("public.json"))
    /// XML.
    public static let xml = UTType(declaration: .publicType("public.xml"))
    /// YAML.
    public static let yaml = UTType(declaration: .publicType("public.yaml"))
    /// HTML.
    public static let html = UTType(declaration: .publicType("public.html"))
    /// Rich text (RTF).
    public static let rtf = UTType(declaration: .publicType("public.rtf"))
    /// A log file.
    public static let log = UTType(declaration: .publicType("public.log"))
    /// Source code of any language.
    public static let sourceCode = UTType(declaration: .publicType("public.source-code"))
    /// Swift source.
    public static let swiftSource = UTType(declaration: .publicType("public.swift-source"))
    /// A script of any language.
    public static let script = UTType(declaration: .publicType("public.script"))
    /// A shell script.
    public static let shellScript = UTType(declaration: .publicType("public.shell-script"))
    /// A Python script.
    public static let pythonScript = UTType(declaration: .publicType("public.python-script"))
    /// JavaScript source.
    public static let javaScript = UTType(declaration: .publicType("com.netscape.javascript-source"))
    /// An image of any format.
    public static let image = UTType(declaration: .publicType("public.image"))
    /// A PNG image (`image/png`).
    public static let png = UTType(declaration: .publicType("public.png"))
    /// A JPEG image (`image/jpeg`).
    public static let jpeg = UTType(declaration: .publicType("public.jpeg"))
    /// A GIF image.
    public static let gif = UTType(declaration: .publicType("com.compuserve.gif"))
    /// A WebP image.
    public static let webP = UTType(declaration: .publicType("org.webmproject.webp"))
    /// A HEIC image.
    public static let heic = UTType(declaration: .publicType("public.heic"))
    /// A HEIF image.
    public static let heif = UTType(declaration: .publicType("public.heif"))
    /// A TIFF image.
    public static let tiff = UTType(declaration: .publicType("public.tiff"))
    /// A BMP image.
    public static let bmp = UTType(declaration: .publicType("com.microsoft.bmp"))
    /// An SVG image.
    public static let svg = UTType(declaration: .publicType("public.svg-image"))
    /// A PDF document.
    public static let pdf = UTType(declaration: .publicType("com.adobe.pdf"))
    /// Audio, video or both.
    public static let audiovisualContent = UTType(declaration: .publicType("public.audiovisual-content"))
    /// Audio of any format.
    public static let audio = UTType(declaration: .publicType("public.audio"))
    /// MP3 audio.
    public static let mp3 = UTType(declaration: .publicType("public.mp3"))
    /// WAVE audio.
    public static let wav = UTType(declaration: .publicType("com.microsoft.waveform-audio"))
    /// AIFF audio.
    public static let aiff = UTType(declaration: .publicType("public.aiff-audio"))
    /// MPEG-4 audio.
    public static let mpeg4Audio = UTType(declaration: .publicType("public.mpeg-4-audio"))
    /// A movie: video with or without sound.
    public static let movie = UTType(declaration: .publicType("public.movie"))
    /// Video without sound.
    public static let video = UTType(declaration: .publicType("public.video"))
    /// An MPEG-4 movie.
    public static let mpeg4Movie = UTType(declaration: .publicType("public.mpeg-4"))
    /// A QuickTime movie.
    public static let quickTimeMovie = UTType(declaration: .publicType("com.apple.quicktime-movie"))
    /// An archive of any format.
    public static let archive = UTType(declaration: .publicType("public.archive"))
    /// A ZIP archive.
    public static let zip = UTType(declaration: .publicType("public.zip-archive"))
    /// A gzip archive.
    public static let gzip = UTType(declaration: .publicType("org.gnu.gnu-zip-archive"))
    /// A property list.
    public static let propertyList = UTType(declaration: .publicType("com.apple.property-list"))
    /// A vCard.
    public static let vCard = UTType(declaration: .publicType("public.vcard"))
    /// A font.
    public static let font = UTType(declaration: .publicType("public.font"))
}
