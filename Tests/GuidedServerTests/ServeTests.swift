import Foundation
import GuidedGeneration
import GuidedServer
import PartialJSON
import Testing

/// `guided serve`'s endpoint over the tiny SmolLM2-135M-Instruct, on a free port, spoken to over
/// plain sockets: answers whole and streamed, tools, the limits, the key, the queue and a client
/// that leaves.
@Suite(.serialized) struct ServeTests {
    static let model = SystemLanguageModel(modelPath: "smollm2-135m-instruct")

    static func requireModel() throws -> SystemLanguageModel {
        try #require(model.isAvailable, "SmolLM2 is missing: run `swift run -c release guided fetch-model smollm2-135m-instruct` first")
        return model
    }

    static let cat = #"{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0,"maximum":20},"toys":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3}},"required":["name","age","toys"],"additionalProperties":false}"#

    static func body(stream: Bool, extra: String = "") -> String {
        #"{"model":"m","stream":\#(stream),"temperature":0,"max_tokens":200,"messages":[{"role":"system","content":"You describe cats."},{"role":"user","content":"A cat called Tom."}],"response_format":{"type":"json_schema","json_schema":{"name":"cat","schema":\#(cat)}}\#(extra)}"#
    }

    /// The body of a whole response (after the blank line).
    static func body(of response: String) -> String {
        response.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    @Test func wholeAndStreamedAnswersAreTheSameValueOfTheSchema() async throws {
        let server = try HTTPServer(port: 0, handler: OpenAIEndpoint(model: try Self.requireModel(), name: "smollm2"))
        defer { server.stop() }
        let whole = try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", Self.body(stream: false)))
        #expect(whole.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let completion = try JSONValue(parsing: Self.body(of: whole))
        #expect(completion["object"]?.stringValue == "chat.completion")
        #expect(completion["choices"]?.arrayValue?.first?["finish_reason"]?.stringValue == "stop")
        let content = try #require(completion["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue)
        let value = try JSONValue(parsing: content)
        #expect(value["name"]?.stringValue != nil && (value["toys"]?.arrayValue?.count ?? 0) >= 1)
        #expect((completion["usage"]?["completion_tokens"]?.numberValue.flatMap { try? $0.intValue() } ?? 0) > 0)

        let streamed = try await RawClient.exchange(
            port: server.port, RawClient.post("/v1/chat/completions", Self.body(stream: true, extra: #","stream_options":{"include_usage":true}"#)))
        #expect(streamed.contains("Transfer-Encoding: chunked") && streamed.contains("text/event-stream"))
        // The chunks' payloads, in order: each `data:` line's JSON.
        let events = streamed.utf8.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        #expect(events.last == "[DONE]")
        var text = ""
        var reasons: [String] = []
        var usage: JSONValue?
        for event in events.dropLast() {
            let chunk = try JSONValue(parsing: event)
            if let delta = chunk["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue { text += delta }
            if let reason = chunk["choices"]?.arrayValue?.first?["finish_reason"]?.stringValue { reasons.append(reason) }
            if let found = chunk["usage"], !found.isNull { usage = found }
        }
        #expect(events.count > 5)
        #expect(text == content)
        #expect(reasons == ["stop"])
        #expect(usage?["completion_tokens"] != nil)
    }

    /// A stop sequence ends the answer where it first appears, whole and streamed; the answer
    /// holds the text before it.
    @Test func stopSequencesEndTheAnswer() async throws {
        let server = try HTTPServer(port: 0, handler: OpenAIEndpoint(model: try Self.requireModel(), name: "smollm2"))
        defer { server.stop() }
        func body(stream: Bool, stop: String? = nil) -> String {
            let stopField = stop.map { #","stop":["zzzz",\#(JSONValue.string($0).jsonString)]"# } ?? ""
            return #"{"stream":\#(stream),"temperature":0,"max_tokens":60,"messages":[{"role":"user","content":"Tell me about cats."}]\#(stopField)}"#
        }
        func choice(_ response: String) throws -> JSONValue {
            try #require(try JSONValue(parsing: Self.body(of: response))["choices"]?.arrayValue?.first)
        }
        let free = try choice(try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", body(stream: false))))
        let text = try #require(free["message"]?["content"]?.stringValue)
        let words = text.split(separator: " ")
        try #require(words.count > 6, "\(text)")
        // A word from the middle, as the stop sequence: the answer is the text before its first use.
        let stop = String(words[words.count / 2])
        let found = try #require(text.range(of: stop))
        let expected = String(text[..<found.lowerBound])
        let stopped = try choice(try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", body(stream: false, stop: stop))))
        #expect(stopped["message"]?["content"]?.stringValue == expected)
        #expect(stopped["finish_reason"]?.stringValue == "stop")
        let streamed = try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", body(stream: true, stop: stop)))
        var deltas = ""
        for line in streamed.utf8.split(separator: 10).map({ String(decoding: $0, as: UTF8.self) }) where line.hasPrefix("data: {") {
            if let delta = try JSONValue(parsing: String(line.dropFirst(6)))["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue {
                deltas += delta
            }
        }
        #expect(deltas == expected)
    }

    @Test func toolsAreCalledWithArgumentsOfTheirSchema() async throws {
        let server = try HTTPServer(port: 0, handler: OpenAIEndpoint(model: try Self.requireModel(), name: "smollm2"))
        defer { server.stop() }
        let body = #"{"messages":[{"role":"user","content":"What is the weather in Paris?"}],"temperature":0,"tool_choice":"required","tools":[{"type":"function","function":{"name":"getWeather","description":"The weather of a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]}"#
        let response = try JSONValue(parsing: Self.body(of: try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", body))))
        let choice = try #require(response["choices"]?.arrayValue?.first)
        #expect(choice["finish_reason"]?.stringValue == "tool_calls")
        let call = try #require(choice["message"]?["tool_calls"]?.arrayValue?.first)
        #expect(call["function"]?["name"]?.stringValue == "getWeather")
        let arguments = try JSONValue(parsing: try #require(call["function"]?["arguments"]?.stringValue))
        #expect(arguments["city"]?.stringValue != nil)
    }

    /// llama-server's `grammar`, vLLM's grammar fields (GBNF or Lark) and OpenAI's
    /// `response_format` of type `grammar` hold the text answer to their grammar,
    /// whole and streamed; a grammar that does not compile gets a 400 naming its field.
    @Test func grammarFieldsHoldTheTextAnswer() async throws {
        let server = try HTTPServer(port: 0, handler: OpenAIEndpoint(model: try Self.requireModel(), name: "smollm2"))
        defer { server.stop() }
        let question = #""messages":[{"role":"user","content":"Is the sky blue? Answer yes or no."}],"temperature":0,"max_tokens":40"#
        for (field, accepts) in [
            (#""grammar":"root ::= (\"yes\" | \"no\") \".\"""#, { (text: String) in text == "yes." || text == "no." }),
            (#""guided_choice":["sky","sea"]"#, { ["sky", "sea"].contains($0) }),
            (#""structured_outputs":{"regex":"[A-Z][a-z]{2,8}"}"#, { $0.wholeMatch(of: /[A-Z][a-z]{2,8}/) != nil }),
            (#""guided_grammar":"start: ANSWER \".\"\nANSWER: \"yes\" | \"no\"""#, { (text: String) in text == "yes." || text == "no." }),
            (#""response_format":{"type":"grammar","grammar":{"syntax":"lark","definition":"start: /(Yes|No), [a-z ]{1,20}/"}}"#, { $0.wholeMatch(of: /(Yes|No), [a-z ]{1,20}/) != nil }),
        ] {
            for stream in [false, true] {
                let body = "{\(question),\(field),\"stream\":\(stream)}"
                let response = try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", body))
                #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(field): \(response.prefix(300))")
                let text: String
                if stream {
                    text = response.utf8.split(separator: 10).map { String(decoding: $0, as: UTF8.self) }
                        .filter { $0.hasPrefix("data: {") }
                        .compactMap { try? JSONValue(parsing: String($0.dropFirst(6)))["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue }
                        .joined()
                } else {
                    text = try JSONValue(parsing: Self.body(of: response))["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue ?? ""
                }
                #expect(accepts(text), "\(field), stream \(stream): \(text.debugDescription)")
            }
        }
        let refused = try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", "{\(question),\"grammar\":\"root ::= item\"}"))
        #expect(refused.hasPrefix("HTTP/1.1 400"))
        #expect(refused.contains("no rule is named 'item'") && refused.contains(#""param":"grammar""#), "\(refused)")
    }

    @Test func badRequestsGetTheirStatusAndAJSONError() async throws {
        let server = try HTTPServer(
            port: 0, handler: OpenAIEndpoint(model: try Self.requireModel(), name: "smollm2", apiKey: "secret"),
            limits: HTTPLimits(maximumHeaderBytes: 2048, maximumBodyBytes: 4096), timeouts: HTTPServer.Timeouts(request: 1, idle: 5, send: 5))
        defer { server.stop() }
        let key = "Authorization: Bearer secret\r\n"
        func status(_ request: String) async throws -> String {
            String(decoding: try await RawClient.exchange(port: server.port, request).utf8.prefix { $0 != 13 }, as: UTF8.self)
        }
        #expect(try await status("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n") == "HTTP/1.1 200 OK")
        #expect(try await status("GET /v1/models HTTP/1.1\r\nConnection: close\r\n\r\n") == "HTTP/1.1 401 Unauthorized")
        #expect(try await status("GET /v1/models HTTP/1.1\r\nConnection: close\r\n\(key)\r\n") == "HTTP/1.1 200 OK")
        #expect(try await status("GET /v1/other HTTP/1.1\r\nConnection: close\r\n\(key)\r\n") == "HTTP/1.1 404 Not Found")
        #expect(try await status("DELETE /v1/models HTTP/1.1\r\nConnection: close\r\n\(key)\r\n") == "HTTP/1.1 405 Method Not Allowed")
        #expect(try await status("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 3000))\r\n\r\n") == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(try await status(RawClient.post("/v1/chat/completions", String(repeating: " ", count: 5000), headers: key)) == "HTTP/1.1 413 Content Too Large")
        #expect(try await status(RawClient.post("/v1/chat/completions", "{\"messages\":", headers: key)) == "HTTP/1.1 400 Bad Request")
        // Fields of the wrong type or out of range are refused by name, not ignored.
        let user = #""messages":[{"role":"user","content":"x"}]"#
        for stop in ["-1", "1.5", "true", #"{"a":1}"#, "18446744073709551616", "1e308", #"["a","b","c","d","e"]"#, #"[""]"#, "[1]"] {
            let response = try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", "{\(user),\"stop\":\(stop)}", headers: key))
            #expect(response.hasPrefix("HTTP/1.1 400"), "stop \(stop)")
            #expect(Self.body(of: response).contains(#""param":"stop""#), "stop \(stop): \(response)")
        }
        for messages in [#"[{"role":"user"}]"#, #"[{"role":"user","content":null}]"#, #"[{"role":"assistant","content":null}]"#] {
            let response = try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", #"{"messages":\#(messages)}"#, headers: key))
            #expect(response.hasPrefix("HTTP/1.1 400") && response.contains("messages[0].content"), "\(messages): \(response)")
        }
        for field in [#""model":1"#, #""logprobs":"yes""#, #""logprobs":true"#, #""parallel_tool_calls":1"#, #""metadata":[]"#] {
            #expect(try await status(RawClient.post("/v1/chat/completions", "{\(user),\(field)}", headers: key)) == "HTTP/1.1 400 Bad Request", "\(field)")
        }
        // A chunked body is read: the request reaches the endpoint, which names what it lacks.
        let chunked = try await RawClient.exchange(
            port: server.port,
            "POST /v1/chat/completions HTTP/1.1\r\nConnection: close\r\n\(key)Transfer-Encoding: chunked\r\n\r\n10\r\n{\"messages\":[{\"r\r\ne\r\nole\":\"user\"}]}\r\n0\r\n\r\n")
        #expect(chunked.hasPrefix("HTTP/1.1 400") && chunked.contains("messages[0].content"), "\(chunked)")
        // A request that stops arriving.
        #expect(try await status("POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 10\r\n\r\n{") == "HTTP/1.1 408 Request Timeout")
        // A schema the engine cannot enforce is refused by name.
        let lookahead = #"{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{"type":"string","pattern":"^(?=a)b$"}}}}"#
        let refused = try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", lookahead, headers: key))
        #expect(refused.hasPrefix("HTTP/1.1 400"))
        let error = try JSONValue(parsing: Self.body(of: refused))
        #expect(error["error"]?["message"]?.stringValue?.contains("pattern") == true, "\(refused)")
        #expect(error["error"]?["type"]?.stringValue == "invalid_request_error")
    }

    /// Requests running at once are decoded together, and each gets the answer it gets alone:
    /// greedy and seeded, under a schema and in text, with prompts of different lengths. Each
    /// runs on a fresh server, alone and together, so that none reuses the cache of another (the
    /// part of a cache computed in a longer batch is rounded as llama.cpp rounds that batch).
    @Test func requestsRunningTogetherGetTheAnswersTheyGetAlone() async throws {
        let model = try Self.requireModel()
        let schema = #","response_format":{"type":"json_schema","json_schema":{"name":"cat","schema":\#(Self.cat)}}"#
        let requests = [
            #"{"temperature":0,"max_tokens":120,"messages":[{"role":"user","content":"A cat called Tom."}]\#(schema)}"#,
            #"{"seed":7,"temperature":0.8,"max_tokens":120,"messages":[{"role":"system","content":"You describe cats in detail, with their names, ages and favourite toys."},{"role":"user","content":"A shy old cat."}]\#(schema)}"#,
            #"{"temperature":0,"max_tokens":40,"messages":[{"role":"user","content":"Write a line about the sea."}]}"#,
            #"{"seed":3,"max_tokens":40,"messages":[{"role":"user","content":"Name three colours."}]}"#,
        ]
        func content(_ request: String, port: Int) async throws -> String {
            let response = try await RawClient.exchange(port: port, RawClient.post("/v1/chat/completions", request))
            let completion = try JSONValue(parsing: Self.body(of: response))
            return try #require(completion["choices"]?.arrayValue?.first?["message"]?["content"]?.stringValue, "\(response)")
        }
        var alone: [String] = []
        for request in requests {
            let server = try HTTPServer(port: 0, handler: OpenAIEndpoint(model: model, name: "smollm2"))
            defer { server.stop() }
            alone.append(try await content(request, port: server.port))
        }
        let server = try HTTPServer(port: 0, handler: OpenAIEndpoint(model: model, name: "smollm2", parallel: requests.count))
        defer { server.stop() }
        let together = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, request) in requests.enumerated() { group.addTask { (index, try await content(request, port: server.port)) } }
            var answers = [String](repeating: "", count: requests.count)
            for try await (index, answer) in group { answers[index] = answer }
            return answers
        }
        #expect(together == alone)
    }

    /// One request runs while none may wait: a second gets 503 with Retry-After; once the first
    /// client leaves mid-stream, its generation stops and the model takes requests again.
    @Test func aFullQueueRefusesAndALeavingClientFreesTheModel() async throws {
        let server = try HTTPServer(
            port: 0, handler: OpenAIEndpoint(model: try Self.requireModel(), name: "smollm2", parallel: 1, maximumWaiting: 0))
        defer { server.stop() }
        let long = #"{"stream":true,"temperature":0,"max_tokens":4000,"messages":[{"role":"user","content":"Count from one to one thousand in words, one number per line."}]}"#
        let first = try RawClient(port: server.port)
        first.send(RawClient.post("/v1/chat/completions", long))
        #expect(try await first.receive(until: "\"content\":\"", seconds: 60).contains("text/event-stream"))
        let busy = try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", Self.body(stream: false)))
        #expect(busy.hasPrefix("HTTP/1.1 503"))
        #expect(busy.contains("Retry-After: 1"))
        first.close()
        // The stream would run for 4,000 tokens (half a minute and more); the server stops it at
        // the next token, so the model is free again well within ten seconds.
        var answered = ""
        for _ in 0..<100 where !answered.hasPrefix("HTTP/1.1 200") {
            try await Task.sleep(for: .milliseconds(100))
            answered = try await RawClient.exchange(port: server.port, RawClient.post("/v1/chat/completions", Self.body(stream: false)))
        }
        #expect(answered.hasPrefix("HTTP/1.1 200"))
    }
}
