/// The spellings of the JSON numbers a schema allows, as an explicit automaton over bytes.
///
/// Unbounded numbers take the full JSON number syntax. With bounds or `multipleOf`, numbers are
/// written in plain decimal notation (no exponent) and the automaton enforces the constraints
/// exactly, digit by digit: it compares the digits read with each bound, and keeps the remainder
/// of the value (scaled to an integer) modulo the divisor. States that cannot lead to an allowed
/// number are removed, so every prefix the automaton accepts can be completed.
struct NumberLanguage {
    var minimum: DecimalNumber?
    var exclusiveMinimum = false
    var maximum: DecimalNumber?
    var exclusiveMaximum = false
    var multipleOf: DecimalNumber?
    var integerOnly: Bool
    /// Only numbers that are not integers: a fraction with a nonzero digit (the complement of
    /// `integer` among numbers).
    var notInteger = false

    /// The largest scaled divisor `multipleOf` may have.
    static let maximumDivisor = 1_000_000

    var isUnconstrained: Bool { minimum == nil && maximum == nil && multipleOf == nil && !notInteger }

    /// Adds the automaton to `builder` and returns its fragment.
    func fragment(in builder: inout NFABuilder, pointer: String) throws(SchemaError) -> Fragment {
        if isUnconstrained { return try syntaxFragment(in: &builder) }
        let divisor = try scaledDivisor(pointer: pointer)
        let explored = explore(divisor: divisor)
        guard let start = explored.start else {
            throw .invalid(keyword: "minimum", pointer: pointer, reason: "no number satisfies the bounds and multipleOf together")
        }
        var states: [Int32] = []
        for _ in explored.transitions.indices { states.append(try builder.newState()) }
        let end = try builder.newState()
        for (state, moves) in explored.transitions.enumerated() {
            for (byte, target) in moves { builder.transition(states[state], byte, byte, states[target]) }
            if explored.accepting[state] { builder.epsilon(states[state], end) }
        }
        let plain = Fragment(start: states[start], end: end)
        guard let small = try smallExponentFragment(in: &builder) else { return plain }
        return try builder.alternation([plain, small])
    }

    /// Numbers written with a negative exponent and one integer digit (`1.32e-108`), whose
    /// magnitude is below 1, where the bounds hold every such number of that sign: the spelling
    /// that models and serializers use for tiny values. `nil` when the bounds do not allow it.
    private func smallExponentFragment(in builder: inout NFABuilder) throws(SchemaError) -> Fragment? {
        guard !integerOnly, !notInteger, multipleOf == nil else { return nil }
        let zero = DecimalNumber(0)
        let one = DecimalNumber(1)
        // [0, 1) and (-1, 0] within the bounds.
        let positive = minimum.map { $0 < zero || ($0 == zero && !exclusiveMinimum) } ?? true
            && maximum.map { $0 >= one } ?? true
        let negative = minimum.map { $0 <= DecimalNumber(-1) } ?? true
            && maximum.map { $0 > zero || ($0 == zero && !exclusiveMaximum) } ?? true
        guard positive || negative else { return nil }
        let start = try builder.newState()
        let mantissa = try builder.newState()
        let integer = try builder.newState()
        let sign = try builder.newState()
        let zeros = try builder.newState()
        let digits = try builder.newState()
        if positive { builder.epsilon(start, mantissa) }
        if negative { builder.transition(start, UInt8(ascii: "-"), UInt8(ascii: "-"), mantissa) }
        builder.transition(mantissa, UInt8(ascii: "0"), UInt8(ascii: "9"), integer)
        let (_, mark) = try Self.fractionAndExponentMark(after: integer, in: &builder)
        builder.transition(mark, UInt8(ascii: "-"), UInt8(ascii: "-"), sign)
        // The exponent is at least 1 in magnitude: leading zeros, then a nonzero digit.
        builder.epsilon(sign, zeros)
        builder.transition(zeros, UInt8(ascii: "0"), UInt8(ascii: "0"), zeros)
        builder.transition(zeros, UInt8(ascii: "1"), UInt8(ascii: "9"), digits)
        builder.transition(digits, UInt8(ascii: "0"), UInt8(ascii: "9"), digits)
        return Fragment(start: start, end: digits)
    }

    /// The JSON number syntax, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` (integers stop
    /// before the fraction), built directly.
    private func syntaxFragment(in builder: inout NFABuilder) throws(SchemaError) -> Fragment {
        let start = try builder.newState()
        let afterSign = try builder.newState()
        let integer = try builder.newState()  // after the integer part
        let digits = try builder.newState()  // inside [1-9][0-9]*
        let end = try builder.newState()
        builder.transition(start, UInt8(ascii: "-"), UInt8(ascii: "-"), afterSign)
        builder.epsilon(start, afterSign)
        builder.transition(afterSign, UInt8(ascii: "0"), UInt8(ascii: "0"), integer)
        builder.transition(afterSign, UInt8(ascii: "1"), UInt8(ascii: "9"), digits)
        builder.transition(digits, UInt8(ascii: "0"), UInt8(ascii: "9"), digits)
        builder.epsilon(digits, integer)
        builder.epsilon(integer, end)
        guard !integerOnly else { return Fragment(start: start, end: end) }
        let exponentSign = try builder.newState()
        let exponent = try builder.newState()
        let (fraction, mark) = try Self.fractionAndExponentMark(after: integer, in: &builder)
        builder.epsilon(fraction, end)
        builder.transition(mark, UInt8(ascii: "+"), UInt8(ascii: "+"), exponentSign)
        builder.transition(mark, UInt8(ascii: "-"), UInt8(ascii: "-"), exponentSign)
        builder.epsilon(mark, exponentSign)
        builder.transition(exponentSign, UInt8(ascii: "0"), UInt8(ascii: "9"), exponent)
        builder.transition(exponent, UInt8(ascii: "0"), UInt8(ascii: "9"), exponent)
        builder.epsilon(exponent, end)
        return Fragment(start: start, end: end)
    }

    /// `(\.[0-9]+)?[eE]` after the integer part: the state inside the fraction digits, and the
    /// state after the exponent mark.
    private static func fractionAndExponentMark(after integer: Int32, in builder: inout NFABuilder) throws(SchemaError) -> (fraction: Int32, mark: Int32) {
        let dot = try builder.newState()
        let fraction = try builder.newState()
        let mark = try builder.newState()
        builder.transition(integer, UInt8(ascii: "."), UInt8(ascii: "."), dot)
        builder.transition(dot, UInt8(ascii: "0"), UInt8(ascii: "9"), fraction)
        builder.transition(fraction, UInt8(ascii: "0"), UInt8(ascii: "9"), fraction)
        for source in [integer, fraction] {
            builder.transition(source, UInt8(ascii: "e"), UInt8(ascii: "e"), mark)
            builder.transition(source, UInt8(ascii: "E"), UInt8(ascii: "E"), mark)
        }
        return (fraction, mark)
    }

    /// `multipleOf` as an integer divisor of the value times 10^scale.
    private func scaledDivisor(pointer: String) throws(SchemaError) -> (divisor: Int, scale: Int)? {
        guard let multipleOf else { return nil }
        let scale = max(0, -multipleOf.exponent)
        guard multipleOf.digits.count + max(0, multipleOf.exponent) <= 7 else {
            throw .unsupported(keyword: "multipleOf", pointer: pointer, reason: "a divisor this large cannot be enforced exactly")
        }
        var divisor = 0
        for digit in multipleOf.digits { divisor = divisor * 10 + Int(digit) }
        for _ in 0..<max(0, multipleOf.exponent) { divisor *= 10 }
        guard divisor > 0, divisor <= Self.maximumDivisor, scale <= 12 else {
            throw .unsupported(keyword: "multipleOf", pointer: pointer, reason: "a divisor this large or this precise cannot be enforced exactly")
        }
        return (divisor, scale)
    }

    /// Where the digits read so far stand against a bound's absolute value.
    private enum Order: UInt8, Hashable { case equal, less, greater }

    private struct State: Hashable {
        /// 0 start, 1 after '-', 2 integer part "0", 3 integer digits, 4 after '.', 5 fraction digits.
        var phase: UInt8 = 0
        var negative = false
        var nonzero = false
        var integerDigits = 0
        var fractionDigits = 0
        var low = Order.equal
        var high = Order.equal
        var remainder = 0
        var fractionNonzero = false
    }

    private func explore(divisor: (divisor: Int, scale: Int)?) -> (transitions: [[(UInt8, Int)]], accepting: [Bool], start: Int?) {
        let lowParts = minimum?.plainParts
        let highParts = maximum?.plainParts
        let integerCap = max(lowParts?.integer.count ?? 0, highParts?.integer.count ?? 0) + 1
        let fractionCap = max(lowParts?.fraction.count ?? 0, highParts?.fraction.count ?? 0, divisor?.scale ?? 0) + 1

        func order(_ current: Order, digit: UInt8, state: State, bound: (integer: [UInt8], fraction: [UInt8])?) -> Order {
            guard let bound, current == .equal else { return current }
            let boundDigit: UInt8
            if state.phase <= 3 {
                // Integer digits are compared by position; a longer integer part decides at its end.
                let index = state.integerDigits
                guard index < bound.integer.count else { return .equal }
                boundDigit = bound.integer[index]
            } else {
                boundDigit = state.fractionDigits < bound.fraction.count ? bound.fraction[state.fractionDigits] : 0
            }
            return digit < boundDigit ? .less : digit > boundDigit ? .greater : .equal
        }

        /// The order of the absolute value once the integer part is complete.
        func integerOrder(_ current: Order, length: Int, bound: (integer: [UInt8], fraction: [UInt8])?) -> Order {
            guard let bound else { return current }
            if length != bound.integer.count { return length < bound.integer.count ? .less : .greater }
            return current
        }

        func step(_ state: State, _ byte: UInt8) -> State? {
            var next = state
            let isDigit = byte &- 0x30 < 10
            let digit = byte &- 0x30
            switch state.phase {
            case 0 where byte == UInt8(ascii: "-"):
                next.phase = 1
                next.negative = true
                return next
            case 0, 1:
                guard isDigit else { return nil }
                next.phase = digit == 0 ? 2 : 3
            case 2:
                guard byte == UInt8(ascii: "."), !integerOnly else { return nil }
                next.low = integerOrder(state.low, length: 1, bound: lowParts)
                next.high = integerOrder(state.high, length: 1, bound: highParts)
                next.phase = 4
                return next
            case 3:
                if byte == UInt8(ascii: "."), !integerOnly {
                    next.low = integerOrder(state.low, length: state.integerDigits, bound: lowParts)
                    next.high = integerOrder(state.high, length: state.integerDigits, bound: highParts)
                    next.phase = 4
                    return next
                }
                guard isDigit else { return nil }
            case 4, 5:
                guard isDigit else { return nil }
                if let divisor, state.fractionDigits >= divisor.scale, digit != 0 { return nil }
                next.phase = 5
            default:
                return nil
            }
            // A digit.
            next.low = order(state.low, digit: digit, state: state, bound: lowParts)
            next.high = order(state.high, digit: digit, state: state, bound: highParts)
            if digit != 0 {
                next.nonzero = true
                if state.phase >= 4 { next.fractionNonzero = true }
            }
            if let divisor, state.phase < 4 || state.fractionDigits < divisor.scale {
                next.remainder = (state.remainder * 10 + Int(digit)) % divisor.divisor
            }
            if state.phase >= 4 {
                next.fractionDigits = min(state.fractionDigits + 1, fractionCap)
            } else {
                next.integerDigits = min(state.integerDigits + 1, integerCap)
            }
            return next
        }

        func accepts(_ state: State) -> Bool {
            guard state.phase == 2 || state.phase == 3 || state.phase == 5 else { return false }
            if notInteger && !state.fractionNonzero { return false }
            var low = state.low
            var high = state.high
            if state.phase <= 3 {
                low = integerOrder(low, length: state.integerDigits == 0 ? 1 : state.integerDigits, bound: lowParts)
                high = integerOrder(high, length: state.integerDigits == 0 ? 1 : state.integerDigits, bound: highParts)
            }
            // A fraction that stopped early is less than a bound with more fraction digits.
            func settled(_ order: Order, _ bound: (integer: [UInt8], fraction: [UInt8])?) -> Order {
                guard let bound, order == .equal else { return order }
                let read = state.phase <= 3 ? 0 : state.fractionDigits
                return bound.fraction.count > read ? .less : .equal
            }
            low = settled(low, lowParts)
            high = settled(high, highParts)
            let negative = state.negative && state.nonzero
            if let minimum {
                let comparison = signed(low, negative: negative, boundNegative: minimum.isNegative, boundZero: minimum.isZero, valueZero: !state.nonzero)
                if comparison == .less || (comparison == .equal && exclusiveMinimum) { return false }
            }
            if let maximum {
                let comparison = signed(high, negative: negative, boundNegative: maximum.isNegative, boundZero: maximum.isZero, valueZero: !state.nonzero)
                if comparison == .greater || (comparison == .equal && exclusiveMaximum) { return false }
            }
            if let divisor {
                var remainder = state.remainder
                let read = state.phase <= 3 ? 0 : min(state.fractionDigits, divisor.scale)
                for _ in read..<divisor.scale { remainder = remainder * 10 % divisor.divisor }
                if remainder != 0 { return false }
            }
            return true
        }

        // Breadth-first exploration of the reachable states.
        var states: [State] = [State()]
        var ids: [State: Int] = [State(): 0]
        var transitions: [[(UInt8, Int)]] = [[]]
        var index = 0
        let alphabet = Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + [UInt8(ascii: "-"), UInt8(ascii: ".")]
        while index < states.count {
            for byte in alphabet {
                guard let next = step(states[index], byte) else { continue }
                let id: Int
                if let existing = ids[next] {
                    id = existing
                } else {
                    id = states.count
                    states.append(next)
                    ids[next] = id
                    transitions.append([])
                }
                transitions[index].append((byte, id))
            }
            index += 1
        }
        let accepting = states.map(accepts)
        // Keep the states from which an accepting state can be reached.
        var live = accepting
        var changed = true
        while changed {
            changed = false
            for state in transitions.indices where !live[state] && transitions[state].contains(where: { live[$0.1] }) {
                live[state] = true
                changed = true
            }
        }
        guard live[0] else { return ([], [], nil) }
        let kept = transitions.map { $0.filter { live[$0.1] } }
        return (kept, accepting, 0)
    }

    /// The order of the value against a bound, from the order of their absolute values.
    private func signed(_ absolute: Order, negative: Bool, boundNegative: Bool, boundZero: Bool, valueZero: Bool) -> Order {
        if valueZero { return boundZero ? .equal : boundNegative ? .greater : .less }
        if negative != boundNegative || boundZero { return negative ? .less : .greater }
        if !negative { return absolute }
        return absolute == .less ? .greater : absolute == .greater ? .less : .equal
    }
}
