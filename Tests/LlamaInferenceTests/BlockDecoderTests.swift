import Foundation
import Testing

@testable import LlamaInference

/// Every weight type decoded as the `gguf` package decodes it (`Tests/scripts/make-block-fixture.py`
/// wrote the blocks and their values), and the float products over each type against the decoded
/// values.
@Suite struct BlockDecoderTests {
    struct Case: Decodable {
        let name: String
        let type: UInt32
        let bytes: String
        let values: [Float]

        var data: [UInt8] {
            var result: [UInt8] = []
            var index = bytes.startIndex
            while index < bytes.endIndex {
                let next = bytes.index(index, offsetBy: 2)
                result.append(UInt8(bytes[index..<next], radix: 16) ?? 0)
                index = next
            }
            return result
        }
    }

    static let cases: [Case] = (try? JSONDecoder().decode([Case].self, from: Data(contentsOf: TestModel.fixtures.appendingPathComponent("blocks.json")))) ?? []

    @Test func fixtureCoversEveryComputableType() throws {
        let covered = Set(Self.cases.map(\.type))
        for type in GGMLType.allCases where type.isComputable && type != .f32 {
            #expect(covered.contains(type.rawValue), "no fixture blocks for \(type)")
        }
    }

    @Test(arguments: cases.map(\.name)) func decodesAsTheReference(_ name: String) throws {
        let item = try #require(Self.cases.first { $0.name == name })
        let type = try #require(GGMLType(rawValue: item.type))
        let bytes = item.data
        #expect(bytes.count == item.values.count / type.blockSize * type.blockBytes)
        var decoded = [Float](repeating: .nan, count: item.values.count)
        bytes.withUnsafeBytes { source in
            decoded.withUnsafeMutableBufferPointer { output in
                BlockDecoder.decode(type, source.baseAddress!, count: item.values.count, into: output.baseAddress!)
            }
        }
        for (index, expected) in item.values.enumerated() where decoded[index] != expected {
            Issue.record("\(name): element \(index) is \(decoded[index]), the reference \(expected)")
            return
        }
    }
}
