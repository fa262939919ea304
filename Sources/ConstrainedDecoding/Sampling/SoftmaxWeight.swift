/// The weights of the softmax, `exp(x)` for `x` at most 0 (a logit less the highest, divided by
/// the temperature), to within about one unit in the last place of a float, eight at a time over
/// a vocabulary's worth of logits: summing them with the library's `exp` took longer than the
/// rest of a draw. A single weight is a vector's lane.
enum SoftmaxWeight {
    /// Below this, the weight is 0 (a float would be denormal).
    private static let lowest: Float = -87.3

    /// `exp(x)`, for `x` at most 0.
    static func weight(_ x: Float) -> Float {
        weights(SIMD8(repeating: x))[0]
    }

    /// The sum of `exp((logit - top) * inverseTemperature)` over `logits`, all at most `top`.
    static func total(_ logits: UnsafeBufferPointer<Float>, top: Float, inverseTemperature: Float) -> Double {
        var total = 0.0
        var index = 0
        let count = logits.count
        let chunk = 128
        while index + 8 <= count {
            var sums = SIMD8<Float>()
            let end = min(count, index + chunk)
            while index + 8 <= end {
                let values = SIMD8<Float>(
                    logits[index], logits[index + 1], logits[index + 2], logits[index + 3], logits[index + 4], logits[index + 5],
                    logits[index + 6], logits[index + 7])
                sums += weights((values - top) * inverseTemperature)
                index += 8
            }
            total += Double(sums.sum())
        }
        while index < count {
            total += Double(weight((logits[index] - top) * inverseTemperature))
            index += 1
        }
        return total
    }

    /// `exp` of each lane, as ``weight(_:)`` gives it.
    private static func weights(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let clamped = x.replacing(with: lowest, where: x .< lowest)
        let rounder = clamped * 1.442_695_04 + 12_582_912
        let n = rounder - 12_582_912
        let r = clamped - n * 0.693_359_375 + n * 2.121_944_4e-4
        let exponent = (unsafeBitCast(rounder, to: SIMD8<Int32>.self) &- 0x4B40_0000 &+ 127) &<< 23
        let result = polynomial(r) * unsafeBitCast(exponent, to: SIMD8<Float>.self)
        return result.replacing(with: 0, where: x .< lowest)
    }

    /// `exp(r)` for `r` within half of ln 2 of 0 (Cephes' coefficients).
    @inline(__always)
    private static func polynomial(_ r: SIMD8<Float>) -> SIMD8<Float> {
        var p = SIMD8<Float>(repeating: 1.987_569_15e-4)
        p = p * r + 1.398_199_950_7e-3
        p = p * r + 8.333_451_907_3e-3
        p = p * r + 4.166_579_589_4e-2
        p = p * r + 1.666_666_545_9e-1
        p = p * r + 5.000_000_120_1e-1
        return p * r * r + r + 1
    }
}
