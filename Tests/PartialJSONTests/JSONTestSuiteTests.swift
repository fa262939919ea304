import Foundation
import PartialJSON
import Testing
import TestSupport

/// The JSONTestSuite parsing cases: `y_` must be accepted, `n_` rejected, and each `i_` case's
/// outcome is the one written down here.
@Suite struct JSONTestSuiteTests {
    /// Implementation-defined cases and what this parser does with them.
    static let implementationDefined: [String: Bool] = [
        // Numbers are kept exactly as text, so any size is accepted; converting reports range errors.
        "i_number_double_huge_neg_exp.json": true,
        "i_number_huge_exp.json": true,
        "i_number_neg_int_huge_exp.json": true,
        "i_number_pos_double_huge_exp.json": true,
        "i_number_real_neg_overflow.json": true,
        "i_number_real_pos_overflow.json": true,
        "i_number_real_underflow.json": true,
        "i_number_too_big_neg_int.json": true,
        "i_number_too_big_pos_int.json": true,
        "i_number_very_big_negative_int.json": true,
        // Lone or mismatched surrogate escapes cannot be held by a Swift String: rejected.
        "i_object_key_lone_2nd_surrogate.json": false,
        "i_string_1st_surrogate_but_2nd_missing.json": false,
        "i_string_1st_valid_surrogate_2nd_invalid.json": false,
        "i_string_incomplete_surrogate_and_escape_valid.json": false,
        "i_string_incomplete_surrogate_pair.json": false,
        "i_string_incomplete_surrogates_escape_valid.json": false,
        "i_string_invalid_lonely_surrogate.json": false,
        "i_string_invalid_surrogate.json": false,
        "i_string_inverted_surrogates_U+1D11E.json": false,
        "i_string_lone_second_surrogate.json": false,
        // Only well-formed UTF-8 is accepted: no other encodings, no byte order mark.
        "i_string_UTF-16LE_with_BOM.json": false,
        "i_string_UTF-8_invalid_sequence.json": false,
        "i_string_UTF8_surrogate_U+D800.json": false,
        "i_string_invalid_utf-8.json": false,
        "i_string_iso_latin_1.json": false,
        "i_string_lone_utf8_continuation_byte.json": false,
        "i_string_not_in_unicode_range.json": false,
        "i_string_overlong_sequence_2_bytes.json": false,
        "i_string_overlong_sequence_6_bytes.json": false,
        "i_string_overlong_sequence_6_bytes_null.json": false,
        "i_string_truncated-utf-8.json": false,
        "i_string_utf16BE_no_BOM.json": false,
        "i_string_utf16LE_no_BOM.json": false,
        "i_structure_UTF-8_BOM_empty_object.json": false,
        // 500 levels are within the default limit of 512.
        "i_structure_500_nested_arrays.json": true,
    ]

    @Test func corpusIsPresent() {
        #expect(Corpus.cases(prefix: "y_").count == 95)
        #expect(Corpus.cases(prefix: "n_").count == 188)
        #expect(Corpus.cases(prefix: "i_").count == 35)
    }

    @Test func everyAcceptCaseParses() {
        for (name, bytes) in Corpus.cases(prefix: "y_") {
            if case .error(let error) = StreamingCheck.parseAtOnce(bytes) {
                Issue.record("\(name) rejected: \(error)")
            }
        }
    }

    @Test func everyRejectCaseFailsWithAPosition() {
        for (name, bytes) in Corpus.cases(prefix: "n_") {
            switch StreamingCheck.parseAtOnce(bytes) {
            case .value(let value):
                Issue.record("\(name) accepted as \(value.jsonString)")
            case .error(let error):
                #expect(error.offset >= 0 && error.offset <= bytes.count, "\(name)")
                #expect(error.line >= 1 && error.column >= 1, "\(name)")
            }
        }
    }

    @Test func implementationDefinedOutcomesAreAsDocumented() {
        let cases = Corpus.cases(prefix: "i_")
        #expect(Set(cases.map(\.name)) == Set(Self.implementationDefined.keys))
        for (name, bytes) in cases {
            let accepted = if case .value = StreamingCheck.parseAtOnce(bytes) { true } else { false }
            #expect(accepted == Self.implementationDefined[name], "\(name)")
        }
    }

    /// Every accepted document, fed byte by byte with a snapshot after each byte: the snapshots
    /// are monotone and the result equals the one-shot parse and `JSONSerialization`'s.
    @Test func acceptedDocumentsStreamByteByByte() throws {
        var compared = 0
        for (name, bytes) in Corpus.cases where !name.hasPrefix("n_") {
            let atOnce = StreamingCheck.parseAtOnce(bytes)
            guard case .value(let value) = atOnce else { continue }
            let (streamed, snapshots) = StreamingCheck.byteByByte(bytes)
            #expect(streamed == atOnce, "\(name)")
            #expect(StreamingCheck.firstNonMonotoneStep(snapshots) == nil, "\(name)")
            #expect(snapshots.last??.isComplete == true, "\(name)")
            #expect(snapshots.last??.value == value, "\(name)")
            if let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) {
                #expect(StreamingCheck.matchesFoundation(value, theirs), "\(name): \(value.jsonString)")
                compared += 1
            }
        }
        #expect(compared > 80)
    }

    /// Rejected documents fail at the same place whatever the chunking.
    @Test func rejectedDocumentsFailAlikeInEveryChunking() {
        var generator = SeededGenerator(seed: 7)
        for (name, bytes) in Corpus.cases where bytes.count < 20_000 {
            let atOnce = StreamingCheck.parseAtOnce(bytes)
            guard case .error = atOnce else { continue }
            #expect(StreamingCheck.byteByByte(bytes).outcome == atOnce, "\(name)")
            let cuts = StreamingCheck.randomCuts(count: bytes.count, using: &generator)
            #expect(StreamingCheck.parse(bytes, cuts: cuts).outcome == atOnce, "\(name)")
        }
    }
}
