import Foundation
import Testing
import TestSupport

@testable import LlamaInference

/// GELU through 16 bits, as llama.cpp computes it, against the same in doubles.
@Suite struct GELUTests {
    /// GELU, tanh approximation, in doubles.
    static func gelu(_ x: Double) -> Double { 0.5 * x * (1 + tanh((2 / Double.pi).squareRoot() * (x + 0.044715 * x * x * x))) }

    @Test func gateGoesThroughSixteenBits() {
        var generator = SeededGenerator(seed: 13)
        var inputs = (0..<4_000).map { _ in Float.random(in: -12...12, using: &generator) }
        inputs += [-10, -10.5, 10, 11, 0, -0.0001, 9.99, -9.99]
        let ups = inputs.indices.map { Float($0 % 7) - 3 }
        var gates = inputs
        GELU.gateThroughHalves(&gates, ups, count: gates.count)
        for (index, x) in inputs.enumerated() {
            let up = ups[index]
            if x <= -10 {
                #expect(gates[index] == 0, "GELU(\(x))")
            } else if x >= 10 {
                #expect(gates[index] == x * up, "GELU(\(x))")
            } else {
                // The input rounded to 16 bits, the value computed in doubles, rounded to 16 bits:
                // the table's may be the 16-bit neighbour where the value lies near a midpoint,
                // and lies within 4e-7 where `1 + tanh` cancels in floats (x below about -5).
                let value = Float16(Float(Self.gelu(Double(Float(Float16(x))))))
                let step = max(abs(Float(value.nextUp) - Float(value)), abs(Float(value) - Float(value.nextDown)), 4e-7)
                #expect(abs(gates[index] - Float(value) * up) <= step * abs(up), "GELU(\(x)) × \(up): \(gates[index])")
            }
        }
        // Between -10 and 10 the values themselves are 16-bit numbers.
        var ones = inputs.filter { abs($0) < 10 }
        GELU.gateThroughHalves(&ones, [Float](repeating: 1, count: ones.count), count: ones.count)
        for value in ones { #expect(Float(Float16(value)) == value, "\(value) is not a 16-bit number") }
    }
}
