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

    @Test func gemmaLlama3AndPhiAreRecognizedAndRendered() throws {
        let messages = [ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: "Hi"), ChatMessage(role: .assistant, content: "Hello")]
        // Gemma 3's template puts the system message before the first user message.
        #expect(try ChatTemplate(source: "{{ bos_token }}{% for m in messages %}<start_of_turn>{{ m.role }}\n{{ m.content }}<end_of_turn>\n{% endfor %}") == .gemma)
        #expect(
            ChatTemplate.gemma.render(messages)
                == "<bos><start_of_turn>user\nBe brief.\n\nHi<end_of_turn>\n<start_of_turn>model\nHello<end_of_turn>\n<start_of_turn>model\n")
        #expect(try ChatTemplate(source: "<|start_header_id|>{{ role }}<|end_header_id|>\n\n{{ content }}<|eot_id|>") == .llama3)
        #expect(
            ChatTemplate.llama3.render(Array(messages.prefix(2)))
                == "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n")
        #expect(try ChatTemplate(source: "{{ '<|user|>\n' + content + '<|end|>\n<|assistant|>\n' }}") == .phi)
        #expect(ChatTemplate.phi.render([messages[1]]) == "<|user|>\nHi<|end|>\n<|assistant|>\n")
        #expect(ChatTemplate.gemma.endOfTurn == "<end_of_turn>" && ChatTemplate.llama3.endOfTurn == "<|eot_id|>")
        for name in ChatTemplate.names { #expect(throws: Never.self) { try ChatTemplate(named: name) } }
    }

    @Test func aFileWithoutATemplateGetsItsArchitecturesOne() throws {
        // The tiny Gemma 3 file, like Gemma 3 270M, has no template.
        let file = try GGUFFile(path: TestModel.fixtures.appendingPathComponent("tiny-gemma3.gguf").path)
        #expect(file.metadata["tokenizer.chat_template"] == nil)
        #expect(try ChatTemplate(file: file) == .gemma)
        let llama = try GGUFFile(path: TestModel.fixtures.appendingPathComponent("tiny-llama.gguf").path)
        #expect(throws: ChatTemplate.UnknownTemplateError.self) { try ChatTemplate(file: llama) }
    }
}
