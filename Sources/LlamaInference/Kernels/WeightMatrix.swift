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

    /// `output[row] = dot(row of the matrix, input)` for `rows` in `range`.
    func multiply(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, rows range: Range<Int>) {
        for row in range {
            output[row] = dot(row: row, input)
        }
    }

    /// `output[row] = dot(row of the matrix, input)` with the input quantized per block of 32:
    /// integer products, in AVX2 byte instructions where the package is compiled for them, else in
    /// loops that the compiler vectorizes.
    func multiply(_ input: QuantizedVector, into output: UnsafeMutablePointer<Float>, rows range: Range<Int>) {
        let blocks = columns / 32
        #if GUIDED_AVX2 && arch(x86_64)
        if hasIntegerKernel {
            // A constant type per loop, so that each inlined kernel reads only its block layout.
            @inline(__always) func products(_ type: GGMLType) {
                for row in range {
                    output[row] = AVX2BlockProducts.product(base + row * rowBytes, type: type, blocks: blocks, input)
                }
            }
            switch type {
            case .q8_0: products(.q8_0)
            case .q4_1: products(.q4_1)
            default: products(.q4_0)
            }
            return
        }
        #endif
        switch type {
        case .q4_0, .q4_1:
            let hasMinimum = type == .q4_1
            let blockBytes = type.blockBytes
            let quantOffset = hasMinimum ? 4 : 2
            for row in range {
                let pointer = base + row * rowBytes
                var total: Float = 0
                for block in 0..<blocks {
                    let blockPointer = pointer + block * blockBytes
                    let quants = (blockPointer + quantOffset).assumingMemoryBound(to: UInt8.self)
                    let x = input.values + block * 32
                    var product: Int32 = 0
                    for index in 0..<16 {
                        let packed = quants[index]
                        product &+= Int32(packed & 0x0F) &* Int32(x[index]) &+ Int32(packed &>> 4) &* Int32(x[index + 16])
                    }
                    let scale = HalfFloat.float(blockPointer.loadUnaligned(as: UInt16.self))
                    let inputScale = input.scales[block]
                    if hasMinimum {
                        let minimum = HalfFloat.float(blockPointer.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
                        total += scale * inputScale * Float(product) + minimum * input.sums[block]
                    } else {
                        total += scale * (inputScale * Float(product) - 8 * input.sums[block])
                    }
                }
                output[row] = total
            }
        case .q8_0:
            for row in range {
                let pointer = base + row * rowBytes
                var total: Float = 0
                for block in 0..<blocks {
                    let blockPointer = pointer + block * 34
                    let quants = (blockPointer + 2).assumingMemoryBound(to: Int8.self)
                    let x = input.values + block * 32
                    var product: Int32 = 0
                    for index in 0..<32 { product &+= Int32(quants[index]) &* Int32(x[index]) }
                    total += HalfFloat.float(blockPointer.loadUnaligned(as: UInt16.self)) * input.scales[block] * Float(product)
                }
                output[row] = total
            }
        default:
            multiply(input.original, into: output, rows: range)
        }
    }

    /// Whether the AVX2 integer kernels cover this type; then several vectors are best multiplied
    /// quantized, with ``multiply(batch:count:into:outputStride:rows:)``.
    var hasIntegerKernel: Bool {
        #if GUIDED_AVX2 && arch(x86_64)
        return type == .q4_0 || type == .q4_1 || type == .q8_0
        #else
        return false
        #endif
    }

    /// `outputs[t][row] = dot(row, inputs[t])` for `count` vectors quantized together (each of
    /// ``columns`` elements), the rows in `range`. With ``hasIntegerKernel`` a row is read
    /// from memory once for all of them, its blocks widened once per four vectors; otherwise the
    /// vectors go one by one.
    func multiply(batch inputs: QuantizedVector, count: Int, into outputs: UnsafeMutablePointer<Float>, outputStride: Int, rows range: Range<Int>) {
        #if GUIDED_AVX2 && arch(x86_64)
        if hasIntegerKernel {
            multiplyInFours(inputs, count: count, into: outputs, outputStride: outputStride, rows: range)
            return
        }
        #endif
        for vector in 0..<count {
            multiply(inputs.suffix(from: vector * columns), into: outputs + vector * outputStride, rows: range)
        }
    }

    #if GUIDED_AVX2 && arch(x86_64)
    private func multiplyInFours(_ inputs: QuantizedVector, count: Int, into outputs: UnsafeMutablePointer<Float>, outputStride: Int, rows range: Range<Int>) {
        let blocks = columns / 32
        for row in range {
            let pointer = base + row * rowBytes
            var vector = 0
            while vector + 4 <= count {
                let results = AVX2BlockProducts.products(
                    pointer, type: type, blocks: blocks, inputs.suffix(from: vector * columns),
                    inputs.suffix(from: (vector + 1) * columns), inputs.suffix(from: (vector + 2) * columns),
                    inputs.suffix(from: (vector + 3) * columns))
                for lane in 0..<4 { outputs[(vector + lane) * outputStride + row] = results[lane] }
                vector += 4
            }
            while vector < count {
                outputs[vector * outputStride + row] = AVX2BlockProducts.product(pointer, type: type, blocks: blocks, inputs.suffix(from: vector * columns))
                vector += 1
            }
        }
    }
    #endif

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
