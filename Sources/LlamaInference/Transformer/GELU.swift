import Foundation
import GuidedKernels

/// GELU, tanh approximation: `x/2 (1 + tanh(√(2/π) (x + 0.044715 x³)))`.
enum GELU {
    /// GELU of `x` in floats, in llama.cpp's order of operations (`1 + 0.044715 x · x` fused, as
    /// its compilers fuse it).
    static func value(_ x: Float) -> Float {
        0.5 * x * (1 + tanhf(Float(0.797_884_560_802_865_4) * x * Float(1).addingProduct(0.044715 * x, x)))
    }

    /// llama.cpp's table: the value at each 16-bit input, indexed by the input's bits, rounded to
    /// 16 bits (256 KB, made on first use).
    static let halfPrecisionTable: [Float] = {
        let halves = Array(0...UInt16.max)
        var inputs = [Float](repeating: 0, count: halves.count)
        guided_floats_from_halves(halves, halves.count, &inputs)
        let values = inputs.map(value)
        var rounded = [UInt16](repeating: 0, count: values.count)
        guided_halves_from_floats(values, values.count, &rounded)
        var table = [Float](repeating: 0, count: values.count)
        guided_floats_from_halves(rounded, rounded.count, &table)
        return table
    }()

    /// `gate[i] = GELU(gate[i]) × up[i]` for `count` elements, as llama.cpp computes GELU: from
    /// ``halfPrecisionTable`` for the input rounded to 16 bits, 0 from -10 down and the input
    /// itself from 10 up.
    static func gateThroughHalves(_ gate: UnsafeMutablePointer<Float>, _ up: UnsafePointer<Float>, count: Int) {
        halfPrecisionTable.withUnsafeBufferPointer { table in
            guard let base = table.baseAddress else { return }
            guided_gelu_gate(base, gate, up, count)
        }
    }
}
