import GuidedGeneration
import Testing

/// Instructions and prompts from strings, generable values and builder closures.
@Suite struct PromptBuilderTests {
    @Test func buildersTakeConditionalsOptionalsAndLoops() {
        let formal = true
        let extra: String? = nil
        let topics = ["cats", "dogs"]
        let instructions = Instructions {
            "You are a helpful assistant."
            if formal {
                "Answer formally."
            } else {
                "Answer casually."
            }
            if let extra {
                extra
            }
            for topic in topics {
                "You know about \(topic)."
            }
            CatProfile(name: "Tom", age: 3, profile: "Calm.")
        }
        #expect(
            instructions.description
                == "You are a helpful assistant.\nAnswer formally.\nYou know about cats.\nYou know about dogs.\n{\"name\":\"Tom\",\"age\":3,\"profile\":\"Calm.\"}")
    }

    @Test func promptsComeFromStringsValuesAndArrays() {
        #expect(Prompt("Hello").description == "Hello")
        #expect(Prompt(["a", "b"]).description == "a\nb")
        #expect(Prompt(CatProfile(name: "Tom", age: 3, profile: "Calm.")).description == #"{"name":"Tom","age":3,"profile":"Calm."}"#)
        let prompt = Prompt {
            "Write a story about:"
            if Bool.random() || true {
                "a dragon"
            }
        }
        #expect(prompt.description == "Write a story about:\na dragon")
        #expect(Instructions(Instructions("nested")).description == "nested")
    }
}
