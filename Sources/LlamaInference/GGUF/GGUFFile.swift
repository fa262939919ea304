import Foundation

/// A GGUF model file (version 2 or 3), memory-mapped: its metadata and the place of every tensor.
///
/// Reading checks every offset, count and size against the file, so that a truncated, corrupted
/// or hostile file gives a ``GGUFError`` instead of a crash or a huge allocation.
public final class GGUFFile: @unchecked Sendable {
    /// The GGUF version.
    public let version: UInt32
    /// The metadata, by key.
    public let metadata: [String: GGUFValue]
    /// The tensors, in file order.
    public let tensors: [GGUFTensorInfo]
    /// The tensors by name.
    public let tensorsByName: [String: GGUFTensorInfo]
    /// The alignment of the tensor data.
    public let alignment: Int

    /// The mapped bytes; immutable for the object's lifetime, which makes sharing them safe.
    public let bytes: UnsafeRawBufferPointer
    private let unmap: (() -> Void)?

    /// Opens and maps a file.
    public convenience init(path: String) throws(GGUFError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        let size = Int(status.st_size)
        guard size > 0 else { throw .notGGUF }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        try self.init(bytes: UnsafeRawBufferPointer(start: mapped, count: size)) { munmap(mapped, size) }
    }

    /// Reads a GGUF image from memory; `release` is called when the file is no longer used.
    public init(bytes: UnsafeRawBufferPointer, release: (() -> Void)? = nil) throws(GGUFError) {
        self.bytes = bytes
        unmap = release
        var reader = GGUFReader(bytes: bytes)
        do {
            guard try reader.read(UInt32.self, "the magic") == 0x4655_4747 else { throw GGUFError.notGGUF }
            version = try reader.read(UInt32.self, "the version")
            guard version == 2 || version == 3 else { throw GGUFError.unsupportedVersion(version) }
            let tensorCount = try reader.count("the tensor count", minimumBytesEach: 24)
            let keyCount = try reader.count("the metadata count", minimumBytesEach: 12)
            var metadata: [String: GGUFValue] = [:]
            for _ in 0..<keyCount {
                let key = try reader.string("a metadata key")
                let type = try reader.read(UInt32.self, "the type of '\(key)'")
                let value = try reader.value(type: type, key: key, depth: 0)
                guard metadata.updateValue(value, forKey: key) == nil else { throw GGUFError.duplicateKey(key) }
            }
            self.metadata = metadata
            let alignmentValue = metadata["general.alignment"]?.integer ?? 32
            guard alignmentValue > 0, alignmentValue <= 1 << 20, alignmentValue & (alignmentValue - 1) == 0 else {
                throw GGUFError.wrongType(key: "general.alignment", expected: "a power of two")
            }
            alignment = alignmentValue
            var infos: [(String, [Int], UInt32, UInt64)] = []
            for _ in 0..<tensorCount {
                let name = try reader.string("a tensor name")
                let dimensionCount = try reader.read(UInt32.self, "the dimensions of '\(name)'")
                guard dimensionCount >= 1, dimensionCount <= 4 else {
                    throw GGUFError.invalidTensor(name: name, reason: "\(dimensionCount) dimensions (1 to 4 are valid)")
                }
                var dimensions: [Int] = []
                for _ in 0..<dimensionCount {
                    let dimension = try reader.read(UInt64.self, "a dimension of '\(name)'")
                    guard dimension > 0, dimension <= UInt64(bytes.count) * 8 else {
                        throw GGUFError.invalidTensor(name: name, reason: "dimension \(dimension)")
                    }
                    dimensions.append(Int(dimension))
                }
                let type = try reader.read(UInt32.self, "the type of '\(name)'")
                let offset = try reader.read(UInt64.self, "the offset of '\(name)'")
                infos.append((name, dimensions, type, offset))
            }
            let dataStart = (reader.offset + alignment - 1) / alignment * alignment
            var tensors: [GGUFTensorInfo] = []
            var byName: [String: GGUFTensorInfo] = [:]
            for (name, dimensions, rawType, offset) in infos {
                guard let type = GGMLType(rawValue: rawType) else { throw GGUFError.unsupportedTensorType(name: name, type: rawType) }
                var elements = 1
                for dimension in dimensions {
                    let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
                    guard !overflow, product <= bytes.count * 8 else { throw GGUFError.invalidTensor(name: name, reason: "too many elements") }
                    elements = product
                }
                guard dimensions[0] % type.blockSize == 0 else {
                    throw GGUFError.invalidTensor(name: name, reason: "rows of \(dimensions[0]) do not fill blocks of \(type.blockSize)")
                }
                let byteCount = elements / type.blockSize * type.blockBytes
                guard offset <= UInt64(bytes.count), offset % UInt64(alignment) == 0 else {
                    throw GGUFError.invalidTensor(name: name, reason: "offset \(offset) is out of the file or unaligned")
                }
                let start = dataStart + Int(offset)
                guard start <= bytes.count, byteCount <= bytes.count - start else {
                    throw GGUFError.truncated(what: "the data of tensor '\(name)'", offset: start)
                }
                let info = GGUFTensorInfo(name: name, dimensions: dimensions, type: type, offset: start, byteCount: byteCount)
                guard byName.updateValue(info, forKey: name) == nil else {
                    throw GGUFError.invalidTensor(name: name, reason: "the name appears twice")
                }
                tensors.append(info)
            }
            self.tensors = tensors
            tensorsByName = byName
        } catch let error as GGUFError {
            release?()
            throw error
        } catch {
            release?()
            throw GGUFError.notGGUF
        }
    }

    deinit {
        unmap?()
    }

    /// The raw bytes of a tensor's data.
    public func data(of tensor: GGUFTensorInfo) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[tensor.offset..<tensor.offset + tensor.byteCount])
    }

    // MARK: Typed metadata

    public func integer(_ key: String) throws(GGUFError) -> Int {
        guard let value = metadata[key] else { throw .missingKey(key) }
        guard let integer = value.integer else { throw .wrongType(key: key, expected: "an integer") }
        return integer
    }

    public func number(_ key: String) throws(GGUFError) -> Double {
        guard let value = metadata[key] else { throw .missingKey(key) }
        guard let number = value.double else { throw .wrongType(key: key, expected: "a number") }
        return number
    }

    public func string(_ key: String) throws(GGUFError) -> String {
        guard let value = metadata[key] else { throw .missingKey(key) }
        guard let string = value.string else { throw .wrongType(key: key, expected: "a string") }
        return string
    }

    public func strings(_ key: String) throws(GGUFError) -> [String] {
        try array(key, expected: "an array of strings", \.string)
    }

    public func integers(_ key: String) throws(GGUFError) -> [Int] {
        try array(key, expected: "an array of integers", \.integer)
    }

    public func numbers(_ key: String) throws(GGUFError) -> [Double] {
        try array(key, expected: "an array of numbers", \.double)
    }

    private func array<Element>(_ key: String, expected: String, _ element: (GGUFValue) -> Element?) throws(GGUFError) -> [Element] {
        guard let value = metadata[key] else { throw .missingKey(key) }
        guard let values = value.array else { throw .wrongType(key: key, expected: expected) }
        var result: [Element] = []
        result.reserveCapacity(values.count)
        for item in values {
            guard let converted = element(item) else { throw .wrongType(key: key, expected: expected) }
            result.append(converted)
        }
        return result
    }
}

/// Reads the header of a GGUF file, checking every size against what remains.
struct GGUFReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    mutating func read<T: FixedWidthInteger>(_ type: T.Type, _ what: String) throws(GGUFError) -> T {
        guard bytes.count - offset >= MemoryLayout<T>.size else { throw .truncated(what: what, offset: offset) }
        let value = T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        offset += MemoryLayout<T>.size
        return value
    }

    /// A count of things of at least `minimumBytesEach` bytes, checked against what remains.
    mutating func count(_ what: String, minimumBytesEach: Int) throws(GGUFError) -> Int {
        let value = try read(UInt64.self, what)
        guard value <= UInt64((bytes.count - offset) / max(minimumBytesEach, 1)) else { throw .implausibleSize(what: what, value: value) }
        return Int(value)
    }

    mutating func string(_ what: String) throws(GGUFError) -> String {
        let length = try read(UInt64.self, "the length of \(what)")
        guard length <= UInt64(bytes.count - offset) else { throw .truncated(what: what, offset: offset) }
        let start = offset
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(length)])
        offset += Int(length)
        guard let text = String(validating: slice, as: UTF8.self) else { throw .invalidString(offset: start) }
        return text
    }

    mutating func value(type: UInt32, key: String, depth: Int) throws(GGUFError) -> GGUFValue {
        switch type {
        case 0: return .uint8(try read(UInt8.self, key))
        case 1: return .int8(try read(Int8.self, key))
        case 2: return .uint16(try read(UInt16.self, key))
        case 3: return .int16(try read(Int16.self, key))
        case 4: return .uint32(try read(UInt32.self, key))
        case 5: return .int32(try read(Int32.self, key))
        case 6: return .float32(Float(bitPattern: try read(UInt32.self, key)))
        case 7: return .bool(try read(UInt8.self, key) != 0)
        case 8: return .string(try string(key))
        case 9:
            guard depth < 2 else { throw .invalidValueType(type, key: key) }
            let elementType = try read(UInt32.self, "the element type of '\(key)'")
            let minimum: Int
            switch elementType {
            case 0, 1, 7: minimum = 1
            case 2, 3: minimum = 2
            case 4, 5, 6: minimum = 4
            default: minimum = 8
            }
            let count = try self.count("the length of '\(key)'", minimumBytesEach: minimum)
            var values: [GGUFValue] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try value(type: elementType, key: key, depth: depth + 1)) }
            return .array(values)
        case 10: return .uint64(try read(UInt64.self, key))
        case 11: return .int64(try read(Int64.self, key))
        case 12: return .float64(Double(bitPattern: try read(UInt64.self, key)))
        default: throw .invalidValueType(type, key: key)
        }
    }
}
