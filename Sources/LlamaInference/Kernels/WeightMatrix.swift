import GuidedKernels

/// A weight matrix of a GGUF file, read in place: `rows` rows of `columns` elements, each row a
/// run of blocks of its type. Products with a vector work on the blocks directly; no dequantized
/// copy of the matrix is ever made.
struct WeightMatrix: @unchecked Sendable {
    let type: GGMLType
    let rows: Int
    let columns: Int
    /// The matrix's bytes, inside the memory-mapped file (which outlives the model).
    let base: UnsafeRawPointer
    let rowBytes: Int

    init(file: GGUFFile, tensor: GGUFTensorInfo) throws(GGUFError) {
        guard tensor.type.isComputable else { throw .unsupportedTensorType(name: tensor.name, type: tensor.type.rawValue) }
        guard tensor.dimensions.count <= 2 else { throw .invalidTensor(name: tensor.name, reason: "a matrix has at most 2 dimensions") }
        type = tensor.type
        columns = tensor.dimensions[0]
        rows = tensor.dimensions.count == 2 ? tensor.dimensions[1] : 1
        rowBytes = columns / type.blockSize * type.blockBytes
        guard let pointer = file.data(of: tensor).baseAddress else {
            throw .invalidTensor(name: tensor.name, reason: "no data")
        }
        base = pointer
    }

    /// Whether the integer kernels cover this type; then the matrix is multiplied by vectors
    /// quantized to 8 bits with ``multiply(_:count:into:outputStride:rows:kernels:)``.
    var hasIntegerKernel: Bool {
        type == .q4_0 || type == .q4_1 || type == .q8_0
    }

    /// `outputs[t][row] = dot(row, inputs[t])` for `count` vectors quantized together (each of
    /// ``columns`` elements) and the rows in `range`, in integer products by `kernels` where the
    /// type has them (a row is read once for all the vectors), else (or when `kernels` is `nil`)
    /// in floats from the vectors the quantized ones were made from.
    func multiply(
        _ inputs: QuantizedVector, count: Int, into outputs: UnsafeMutablePointer<Float>, outputStride: Int, rows range: Range<Int>,
        kernels: UnsafePointer<GuidedKernelTable>?
    ) {
        guard hasIntegerKernel, let kernels else {
            for vector in 0..<count {
                let input = inputs.original + vector * columns
                let output = outputs + vector * outputStride
                for row in range { output[row] = dot(row: row, input) }
            }
            return
        }
        kernels.pointee.multiply(
            Int32(type.rawValue), base, rowBytes, columns / 32, range.lowerBound, range.upperBound, inputs.vectors, count,
            outputs, outputStride)
    }

    /// `outputs[t][row] = dot(row, inputs[t])` for `count` vectors (rows of `inputStride` and
    /// `outputStride` floats) and the rows in `range`: each row is decoded once for all vectors.
    func multiply(
        batch inputs: UnsafePointer<Float>, inputStride: Int, count: Int, into outputs: UnsafeMutablePointer<Float>,
        outputStride: Int, rows range: Range<Int>, scratch: UnsafeMutablePointer<Float>
    ) {
        for row in range {
            self.row(row, into: scratch)
            for vector in 0..<count {
                let input = inputs + vector * inputStride
                var sum = SIMD16<Float>()
                var index = 0
                while index + 16 <= columns {
                    sum += SIMD16<Float>(scratch + index) * SIMD16<Float>(input + index)
                    index += 16
                }
                var total = sum.sum()
                while index < columns {
                    total += scratch[index] * input[index]
                    index += 1
                }
                outputs[vector * outputStride + row] = total
            }
        }
    }

    /// Copies row `row`, dequantized, into `output` (for embeddings).
    func row(_ row: Int, into output: UnsafeMutablePointer<Float>) {
        let pointer = base + row * rowBytes
        switch type {
        case .f32:
            output.update(from: pointer.assumingMemoryBound(to: Float.self), count: columns)
        case .f16:
            for index in 0..<columns { output[index] = HalfFloat.float(pointer.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)) }
        case .q8_0:
            for block in 0..<columns / 32 {
                let blockPointer = pointer + block * 34
                let scale = HalfFloat.float(blockPointer.loadUnaligned(as: UInt16.self))
                let quants = (blockPointer + 2).assumingMemoryBound(to: Int8.self)
                for index in 0..<32 { output[block * 32 + index] = Float(quants[index]) * scale }
            }
        case .q4_0, .q4_1:
            let blockBytes = type.blockBytes
            for block in 0..<columns / 32 {
                let blockPointer = pointer + block * blockBytes
                let scale = HalfFloat.float(blockPointer.loadUnaligned(as: UInt16.self))
                let minimum = type == .q4_1 ? HalfFloat.float(blockPointer.loadUnaligned(fromByteOffset: 2, as: UInt16.self)) : -8 * scale
                let quants = (blockPointer + (type == .q4_1 ? 4 : 2)).assumingMemoryBound(to: UInt8.self)
                for index in 0..<16 {
                    output[block * 32 + index] = Float(quants[index] & 0x0F) * scale + minimum
                    output[block * 32 + index + 16] = Float(quants[index] >> 4) * scale + minimum
                }
            }
        default:
            break
        }
    }

    /// The dot product of row `row` with `input`.
    @inline(__always)
    func dot(row: Int, _ input: UnsafePointer<Float>) -> Float {
        let pointer = base + row * rowBytes
        switch type {
        case .q4_1: return Self.dotQ4(pointer, input, blocks: columns / 32, hasMinimum: true)
        case .q4_0: return Self.dotQ4(pointer, input, blocks: columns / 32, hasMinimum: false)
        case .q8_0: return Self.dotQ8(pointer, input, blocks: columns / 32)
        case .f32:
            let values = pointer.assumingMemoryBound(to: Float.self)
            var sum: Float = 0
            for index in 0..<columns { sum += values[index] * input[index] }
            return sum
        case .f16:
            var sum: Float = 0
            for index in 0..<columns { sum += HalfFloat.float(pointer.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)) * input[index] }
            return sum
        default:
            return 0
        }
    }

    @inline(__always)
    private static func dotQ4(_ pointer: UnsafeRawPointer, _ input: UnsafePointer<Float>, blocks: Int, hasMinimum: Bool) -> Float {
        let blockBytes = hasMinimum ? 20 : 18
        let quantOffset = hasMinimum ? 4 : 2
        var total: Float = 0
        for block in 0..<blocks {
            let blockPointer = pointer + block * blockBytes
            let scale = HalfFloat.float(blockPointer.loadUnaligned(as: UInt16.self))
            let x = input + block * 32
            let quants = (blockPointer + quantOffset).assumingMemoryBound(to: UInt8.self)
            // Plain loops over 16 bytes, which the compiler vectorizes.
            var quantDot: Float = 0
            var inputSum: Float = 0
            for index in 0..<16 {
                let packed = quants[index]
                quantDot += Float(packed & 0x0F) * x[index] + Float(packed >> 4) * x[index + 16]
                inputSum += x[index] + x[index + 16]
            }
            let minimum = hasMinimum ? HalfFloat.float(blockPointer.loadUnaligned(fromByteOffset: 2, as: UInt16.self)) : -8 * scale
            total += scale * quantDot + minimum * inputSum
        }
        return total
    }

    @inline(__always)
    private static func dotQ8(_ pointer: UnsafeRawPointer, _ input: UnsafePointer<Float>, blocks: Int) -> Float {
        var total: Float = 0
        for block in 0..<blocks {
            let blockPointer = pointer + block * 34
            let scale = HalfFloat.float(blockPointer.loadUnaligned(as: UInt16.self))
            let x = input + block * 32
            let quants = (blockPointer + 2).assumingMemoryBound(to: Int8.self)
            var sum: Float = 0
            for index in 0..<32 { sum += Float(quants[index]) * x[index] }
            total += scale * sum
        }
        return total
    }
}

extension SIMD16 where Scalar == Float {
    /// The 16 floats from `values` on.
    init(_ values: UnsafePointer<Float>) {
        self = UnsafeRawPointer(values).loadUnaligned(as: SIMD16<Float>.self)
    }
}
