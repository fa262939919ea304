// Content types (`UTType`) name what data attachments and data entries hold; code that imports
// this module can name them without importing UniformTypeIdentifiers itself.
@_exported import UniformTypeIdentifiers
