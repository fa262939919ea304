import LlamaInference
import Testing

/// Chat templates: chosen from the model's template, rendered as the template renders.
@Suite struct ChatTemplateTests {
    @Test func theModelsTemplateIsChatMLWithItsDefaultSystemMessage() throws {
        let template = try ChatTemplate(file: try TestModel.require())
        #expect(template == .chatML(defaultSystem: "You are a helpful AI assistant named SmolLM, trained by Hugging Face"))
        #expect(
            template.render([ChatMessage(role: .user, content: "Hi")])
                == "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
        #expect(
            template.render([ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: "Hi")], addingGenerationPrompt: false)
                == "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n")
    }

    @Test func unknownTemplatesAreAClearError() throws {
        #expect(throws: ChatTemplate.UnknownTemplateError.self) { try ChatTemplate(source: "{{ bos_token }}[INST] {{ content }} [/INST]") }
        #expect(throws: ChatTemplate.UnknownTemplateError.self) { try ChatTemplate(named: "alpaca") }
        #expect(try ChatTemplate(named: "ChatML") == .chatML(defaultSystem: nil))
    }
}
