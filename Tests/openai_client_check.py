"""Checks `guided serve` with the `openai` Python package, as a client in another language
would use it: typed output (a Pydantic model as response_format), streaming, tools with
arguments of their schema, text grammars (llama-server's and vLLM's fields, OpenAI's
response_format of type grammar; Lark outputs parsed by the `lark` package, regular expressions
matched by re.fullmatch), and errors (a wrong key, a schema or grammar the engine refuses, a bad
value).

usage: python openai_client_check.py BASE_URL API_KEY
Prints one line per check and exits non-zero on the first failure.
"""
import json
import re
import sys

import lark
import openai
from pydantic import BaseModel, Field


class Cat(BaseModel):
    name: str
    age: int = Field(ge=0, le=20)
    toys: list[str] = Field(min_length=1, max_length=3)


def main(base_url, key):
    client = openai.OpenAI(base_url=base_url, api_key=key, max_retries=0, timeout=120)
    model = client.models.list().data[0].id

    parsed = client.beta.chat.completions.parse(
        model=model, temperature=0, max_tokens=200, response_format=Cat,
        messages=[{"role": "system", "content": "You describe cats."}, {"role": "user", "content": "A cat called Tom."}])
    cat = parsed.choices[0].message.parsed
    assert isinstance(cat, Cat) and 0 <= cat.age <= 20 and 1 <= len(cat.toys) <= 3, parsed
    print("typed output:", cat.model_dump_json())

    text = ""
    chunks = 0
    usage = None
    with client.chat.completions.create(
            model=model, seed=7, max_tokens=200, stream=True, stream_options={"include_usage": True},
            response_format={"type": "json_schema", "json_schema": {"name": "cat", "schema": Cat.model_json_schema()}},
            messages=[{"role": "user", "content": "A cat that loves boxes."}]) as stream:
        for chunk in stream:
            chunks += 1
            if chunk.choices and chunk.choices[0].delta.content:
                text += chunk.choices[0].delta.content
            if chunk.usage:
                usage = chunk.usage
    Cat.model_validate_json(text)
    assert chunks > 3 and usage is not None and usage.completion_tokens > 0, (chunks, usage)
    print(f"streaming: {chunks} chunks, {usage.completion_tokens} tokens:", text)

    tools = [{"type": "function", "function": {
        "name": "getWeather", "description": "The weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
    messages = [{"role": "user", "content": "What is the weather in Paris?"}]
    called = client.chat.completions.create(model=model, temperature=0, tools=tools, tool_choice="required", messages=messages)
    choice = called.choices[0]
    assert choice.finish_reason == "tool_calls", choice
    call = choice.message.tool_calls[0]
    arguments = json.loads(call.function.arguments)
    assert call.function.name == "getWeather" and isinstance(arguments.get("city"), str), call
    print("tool call:", call.function.name, call.function.arguments)
    messages += [choice.message.model_dump(exclude_none=True),
                 {"role": "tool", "tool_call_id": call.id, "content": "Sunny, 21 degrees."}]
    answer = client.chat.completions.create(model=model, temperature=0, max_tokens=60, tools=tools, messages=messages)
    assert answer.choices[0].message.content, answer
    print("answer after the tool:", answer.choices[0].message.content)

    # Grammars under the names llama-server's and vLLM's clients send them, in extra_body.
    question = [{"role": "user", "content": "Is the sky blue? Answer yes or no."}]
    for body, accepts in [
            ({"grammar": 'root ::= ("yes" | "no") "."'}, lambda text: text in ("yes.", "no.")),
            ({"guided_choice": ["sky", "sea"]}, lambda text: text in ("sky", "sea")),
            ({"structured_outputs": {"regex": "[A-Z][a-z]{2,8}"}}, lambda text: re.fullmatch("[A-Z][a-z]{2,8}", text) is not None)]:
        text = client.chat.completions.create(model=model, temperature=0, max_tokens=40, messages=question,
                                              extra_body=body).choices[0].message.content
        assert accepts(text), (body, text)
        print("grammar", next(iter(body)), "->", repr(text))

    # Lark grammars (vLLM's grammar field and OpenAI's response_format of type grammar), checked
    # by the `lark` package's own parser; regular expressions by Python's re.fullmatch.
    lists = 'start: item (", " item)*\nitem: WORD | NUMBER\n%import common.WORD\n%import common.NUMBER'
    sums = 'start: sum " = " NUMBER\nsum: sum " + " NUMBER | NUMBER\n%import common.INT -> NUMBER'
    fruit = [{"role": "user", "content": "List three fruits."}]
    addition = [{"role": "user", "content": "What is 2 + 3 + 4? Write the sum and its result."}]
    for name, grammar, messages, request in [
            ("structured_outputs.grammar", lists, fruit, {"extra_body": {"structured_outputs": {"grammar": lists}}}),
            ("response_format grammar", sums, addition, {"response_format": {"type": "grammar", "grammar": sums}}),
            ("response_format lark", lists, fruit, {"response_format": {"type": "grammar", "grammar": {"syntax": "lark", "definition": lists}}})]:
        text = client.chat.completions.create(model=model, temperature=0, max_tokens=60, messages=messages, **request).choices[0].message.content
        lark.Lark(grammar, start="start").parse(text)
        print("lark", name, "->", repr(text))
    for pattern, ask in [(r"\d{3}-\d{4}", "Make up a phone number for a bakery."),
                         (r"(red|green|blue)( and (red|green|blue))?", "Which colours does a rainbow have?"),
                         (r"[A-Z][a-z]{2,15}, [A-Z]{2} \d{5}", "In which city, state and ZIP code is the White House?")]:
        text = client.chat.completions.create(model=model, temperature=0, max_tokens=40, messages=[{"role": "user", "content": ask}],
                                              extra_body={"guided_regex": pattern}).choices[0].message.content
        assert re.fullmatch(pattern, text), (pattern, text)
        print("regex", pattern, "->", repr(text))
    try:
        client.chat.completions.create(model=model, messages=question, extra_body={"grammar": "root ::= item"})
        raise AssertionError("a grammar with an undefined rule was accepted")
    except openai.BadRequestError as error:
        assert "no rule is named 'item'" in error.message, error.message
        print("refused grammar:", error.status_code, error.message[:100])

    try:
        openai.OpenAI(base_url=base_url, api_key="wrong", max_retries=0).models.list()
        raise AssertionError("a wrong key was accepted")
    except openai.AuthenticationError as error:
        print("wrong key:", error.status_code)
    try:
        client.chat.completions.create(
            model=model, messages=[{"role": "user", "content": "x"}],
            response_format={"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "string", "pattern": "^(?=a)b$"}}})
        raise AssertionError("an unenforceable schema was accepted")
    except openai.BadRequestError as error:
        assert "pattern" in error.message, error.message
        print("refused schema:", error.status_code, error.message[:100])
    try:
        client.chat.completions.create(model=model, temperature=5, messages=[{"role": "user", "content": "x"}])
        raise AssertionError("temperature 5 was accepted")
    except openai.BadRequestError as error:
        print("bad value:", error.status_code, error.message)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
