import ChatTemplates
import LlamaInference
import Testing

/// Chat templates: chosen from the model's template, rendered as the template renders.
@Suite struct ChatTemplateTests {
    @Test func theModelsOwnTemplateWritesChatMLWithItsDefaultSystemMessage() throws {
        let template = try ChatTemplate(file: try TestModel.require())
        guard case .jinja(let jinja) = template else {
            Issue.record("the model's template is not run as Jinja: \(template)")
            return
        }
        #expect(jinja.endOfTurn == "<|im_end|>" && template.endOfTurn == "<|im_end|>")
        #expect(
            try template.render([ChatMessage(role: .user, content: "Hi")])
                == "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
        #expect(
            try template.render([ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: "Hi")], addingGenerationPrompt: false)
                == "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n")
    }

    /// A GGUF image with a chat template, a vocabulary and its special tokens.
    static func file(template: String) throws -> GGUFFile {
        let bytes = GGUFWriter.file(
            metadata: [
                ("general.architecture", "llama"), ("tokenizer.chat_template", template),
                ("tokenizer.ggml.tokens", ["<unk>", "<s>", "</s>", "a"]), ("tokenizer.ggml.bos_token_id", UInt32(1)),
                ("tokenizer.ggml.eos_token_id", UInt32(2)),
            ], tensors: [])
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 64)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
        return try GGUFFile(bytes: UnsafeRawBufferPointer(copy)) { copy.deallocate() }
    }

    @Test func aFilesTemplateRunsWithItsSpecialTokens() throws {
        let mistral = "{{ bos_token }}{% for m in messages %}{% if m.role == 'user' %}[INST] {{ m.content }} [/INST]"
            + "{% elif m.role == 'assistant' %}{{ m.content }}{{ eos_token }}{% endif %}{% endfor %}"
        let template = try ChatTemplate(file: try Self.file(template: mistral))
        guard case .jinja(let jinja) = template else {
            Issue.record("the file's template is not run as Jinja: \(template)")
            return
        }
        #expect(jinja.beginningOfSequence == "<s>" && jinja.endOfSequence == "</s>")
        // No known marker: the turn ends with the end of the sequence.
        #expect(template.endOfTurn == "</s>")
        let messages = [ChatMessage(role: .user, content: "Hi"), ChatMessage(role: .assistant, content: "Hello"), ChatMessage(role: .user, content: "Bye")]
        #expect(try template.render(messages) == "<s>[INST] Hi [/INST]Hello</s>[INST] Bye [/INST]")
        #expect(template == (try ChatTemplate(file: try Self.file(template: mistral))))
        #expect(template != .chatML(defaultSystem: nil))
    }

    @Test func aFilesTemplateThatRefusesSystemMessagesGetsThemBeforeTheFirstUserMessage() throws {
        let gemma2 = "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}"
            + "{% for message in messages %}<start_of_turn>{{ message['role'] }}\n{{ message['content'] | trim }}<end_of_turn>\n{% endfor %}"
        let template = try ChatTemplate(file: try Self.file(template: gemma2))
        #expect(template.endOfTurn == "<end_of_turn>")
        #expect(try template.render([ChatMessage(role: .user, content: " Hi ")], addingGenerationPrompt: false) == "<s><start_of_turn>user\nHi<end_of_turn>\n")
        #expect(
            try template.render([ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: "Hi")], addingGenerationPrompt: false)
                == "<s><start_of_turn>user\nBe brief.\n\nHi<end_of_turn>\n")
        // An exception the conversation's system message does not cause is the template's error.
        let alternating = "{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
            + "{{ raise_exception('Roles must alternate') }}{% endif %}{{ message['content'] }}{% endfor %}"
        let strict = try ChatTemplate(file: try Self.file(template: alternating))
        #expect {
            try strict.render([ChatMessage(role: .user, content: "Hi"), ChatMessage(role: .user, content: "Again")])
        } throws: { error in
            (error as? JinjaError)?.message == "Roles must alternate" && "\(error)".contains("raised")
        }
    }

    @Test func aFilesTemplateWithAnUnsupportedConstructFailsAtLoadNamingIt() throws {
        for (source, construct) in [
            ("{% for m in messages %}{{ m.content | wordwrap(10) }}{% endfor %}", "unsupported filter 'wordwrap' at 1:39"),
            ("{% include 'header.jinja' %}{{ messages[0].content }}", "unsupported statement 'include' at 1:4"),
            ("{{ messages[0].content.zfill(3) }}{{ messages[0].content.expandtabs() }}", "unsupported method 'str.expandtabs' at 1:38"),
        ] {
            #expect {
                try ChatTemplate(file: try Self.file(template: source))
            } throws: { error in
                "\(error)".contains(construct)
            }
        }
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
            try ChatTemplate.gemma.render(messages)
                == "<bos><start_of_turn>user\nBe brief.\n\nHi<end_of_turn>\n<start_of_turn>model\nHello<end_of_turn>\n<start_of_turn>model\n")
        #expect(try ChatTemplate(source: "<|start_header_id|>{{ role }}<|end_header_id|>\n\n{{ content }}<|eot_id|>") == .llama3)
        #expect(
            try ChatTemplate.llama3.render(Array(messages.prefix(2)))
                == "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n")
        #expect(try ChatTemplate(source: "{{ '<|user|>\n' + content + '<|end|>\n<|assistant|>\n' }}") == .phi)
        #expect(try ChatTemplate.phi.render([messages[1]]) == "<|user|>\nHi<|end|>\n<|assistant|>\n")
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
