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
        guard tensor.dimensions[0] % tensor.type.blockSize == 0 else {
            throw .invalidTensor(name: tensor.name, reason: "rows of \(tensor.dimensions[0]) elements are not whole blocks of \(tensor.type.blockSize)")
        }
        type = tensor.type
        columns = tensor.dimensions[0]
        rows = tensor.dimensions.count == 2 ? tensor.dimensions[1] : 1
        rowBytes = columns / type.blockSize * type.blockBytes
        guard let pointer = file.data(of: tensor).baseAddress else {
            throw .invalidTensor(name: tensor.name, reason: "no data")
        }
        base = pointer
    }

    /// Rows `range` of this matrix, as a matrix of their own (for the parts of a fused tensor).
    func rows(_ range: Range<Int>) -> WeightMatrix {
        WeightMatrix(type: type, rows: range.count, columns: columns, base: base + range.lowerBound * rowBytes, rowBytes: rowBytes)
    }

    private init(type: GGMLType, rows: Int, columns: Int, base: UnsafeRawPointer, rowBytes: Int) {
        self.type = type
        self.rows = rows
        self.columns = columns
        self.base = base
        self.rowBytes = rowBytes
    }

    /// Whether the integer kernels cover this type; then the matrix is multiplied by vectors
    /// quantized to 8 bits with ``multiply(_:count:into:outputStride:rows:kernels:)``.
    var hasIntegerKernel: Bool { ActivationFormat(weights: type).isQuantized }

    /// `outputs[t][row] = dot(row, inputs[t])` for `count` vectors quantized together (each of
    /// ``columns`` elements) and the rows in `range`, in integer products by `kernels` where the
    /// type has them (a row is read once for all the vectors), else (or when `kernels` is `nil`)
    /// in floats from the vectors the quantized ones were made from, each row decoded once.
    func multiply(
        _ inputs: QuantizedVector, count: Int, into outputs: UnsafeMutablePointer<Float>, outputStride: Int, rows range: Range<Int>,
        kernels: UnsafePointer<GuidedKernelTable>?
    ) {
        guard hasIntegerKernel, let kernels else {
            withUnsafeTemporaryAllocation(of: Float.self, capacity: columns) { scratch in
                guard let scratch = scratch.baseAddress else { return }
                multiply(
                    batch: inputs.original, inputStride: columns, count: count, into: outputs, outputStride: outputStride, rows: range,
                    scratch: scratch)
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
                outputs[vector * outputStride + row] = Self.dot(scratch, inputs + vector * inputStride, count: columns)
            }
        }
    }

    /// Copies row `row`, decoded, into `output`.
    func row(_ row: Int, into output: UnsafeMutablePointer<Float>) {
        BlockDecoder.decode(type, base + row * rowBytes, count: columns, into: output)
    }

    /// The dot product of `count` floats from `values` and from `input`.
    @inline(__always)
    static func dot(_ values: UnsafePointer<Float>, _ input: UnsafePointer<Float>, count: Int) -> Float {
        var sum = SIMD16<Float>()
        var index = 0
        while index + 16 <= count {
            sum += SIMD16<Float>(values + index) * SIMD16<Float>(input + index)
            index += 16
        }
        var total = sum.sum()
        while index < count {
            total += values[index] * input[index]
            index += 1
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
