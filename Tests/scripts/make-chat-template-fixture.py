#!/usr/bin/env python3
"""Writes the chat template fixture: real chat templates of the model families people download
(from llama.cpp's models/templates) and a few written here to exercise Jinja's constructs,
rendered by jinja2 set up as Hugging Face transformers sets it up for chat templates, for several
conversations. The Swift interpreter must render every case to the same text, or fail where
jinja2 fails (with the same message when the template calls raise_exception).

usage: make-chat-template-fixture.py TEMPLATES_FOLDER OUT.json   (needs `pip install jinja2`)

TEMPLATES_FOLDER is llama.cpp's models/templates folder, for example from the source
distribution of llama-cpp-python:
    pip download --no-deps --no-binary :all: llama-cpp-python==0.3.36
    tar xzf llama_cpp_python-0.3.36.tar.gz
    # then: llama_cpp_python-0.3.36/vendor/llama.cpp/models/templates
"""
import json
import os
import sys
from datetime import datetime

import jinja2
import jinja2.ext
from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

# The date strftime_now writes, in the fixture and in the Swift test.
FIXED_NOW = datetime(2024, 7, 26, 12, 0, 0)


class Generation(jinja2.ext.Extension):
    """transformers' AssistantTracker tag, `{% generation %}...{% endgeneration %}`, which
    renders its body."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_render"), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def compile_template(source):
    """As transformers' _compile_jinja_template does, with strftime_now at FIXED_NOW."""

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(format):
        return FIXED_NOW.strftime(format)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[Generation, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env.from_string(source)


class Raised(Exception):
    pass


# The real templates, by file name, with the special tokens of their models.
REAL = [
    ("Qwen-Qwen2.5-7B-Instruct.jinja", "<|endoftext|>", "<|im_end|>"),
    ("Qwen-Qwen3-0.6B.jinja", "<|endoftext|>", "<|im_end|>"),
    ("meta-llama-Llama-3.1-8B-Instruct.jinja", "<|begin_of_text|>", "<|eot_id|>"),  # Llama 3.3 70B's is the same
    ("meta-llama-Llama-3.2-3B-Instruct.jinja", "<|begin_of_text|>", "<|eot_id|>"),
    ("mistralai-Mistral-Nemo-Instruct-2407.jinja", "<s>", "</s>"),
    ("Mistral-Small-3.2-24B-Instruct-2506.jinja", "<s>", "</s>"),
    ("microsoft-Phi-3.5-mini-instruct.jinja", "<s>", "<|endoftext|>"),
    ("google-gemma-2-2b-it.jinja", "<bos>", "<eos>"),
    ("HuggingFaceTB-SmolLM3-3B.jinja", "<|im_start|>", "<|im_end|>"),
    ("deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja", "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"),
    ("deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja", "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"),
    ("ibm-granite-granite-3.3-2B-Instruct.jinja", "<|end_of_text|>", "<|end_of_text|>"),
    ("NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja", "<|begin_of_text|>", "<|im_end|>"),  # Hermes 3's is the same
    ("openai-gpt-oss-120b.jinja", "<|startoftext|>", "<|return|>"),
    ("LFM2-8B-A1B.jinja", "<|startoftext|>", "<|im_end|>"),
]

# SmolLM2-135M-Instruct's template (its tokenizer_config.json), the library's default model.
SMOLLM2 = (
    "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}"
    "{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)

HANDWRITTEN = {
    "smollm2-135m-instruct": SMOLLM2,
    # The same with the escapes written in the Jinja strings, as some conversions keep them.
    "smollm2-escaped-newlines": SMOLLM2.replace("\n", "\\n"),
    "constructs-macros-namespace-loops": r"""{#- Macros, namespaces, loop variables and filters. -#}
{%- macro turn(role, text, suffix='<|end|>', upper=false) -%}
<|{{ role | upper if upper else role }}|>{{ text | trim }}{{ suffix }}
{%- endmacro -%}
{%- macro count_down(n) -%}{{ n }}{% if n > 0 %},{{ count_down(n - 1) }}{% endif %}{%- endmacro -%}
{%- set ns = namespace(system='', turns=0, roles=[]) -%}
{%- for message in messages if message.role != 'system' -%}
    {%- set ns.turns = ns.turns + 1 -%}
    {%- set ns.roles = ns.roles + [message.role] -%}
{%- else -%}
    no turns
{%- endfor -%}
{%- if messages[0]['role'] == 'system' %}{% set ns.system = messages[0].content %}{% endif -%}
[{{ ns.turns }} turns: {{ ns.roles | join(',') }}; system={{ ns.system | default('none', true) }}]
{% for message in messages %}
{{ loop.index }}/{{ loop.length }} {{ loop.index0 }} rev={{ loop.revindex }},{{ loop.revindex0 }} first={{ loop.first }} last={{ loop.last }} {{ loop.cycle('odd', 'even') }}
prev={{ loop.previtem.role if loop.previtem is defined else '-' }} next={{ loop.nextitem['role'] if loop.nextitem is defined else '-' }}
{{ turn(message.role, message.content, upper=loop.first) }}
{% endfor %}
{%- for key, value in {'b': 2, 'a': 1, 'c': [1, 2]}.items() %}{{ key }}={{ value }};{% endfor %}
{% for k, v in {'z': 1, 'y': 2} | dictsort %}{{ k }}{{ v }}{% endfor %} {{ count_down(3) }}
{% for i in range(10) %}{% if i is even %}{% continue %}{% endif %}{% if i > 6 %}{% break %}{% endif %}{{ i }}{% endfor %}
{% set shout %}{{ messages | length }} messages{% endset %}{{ shout | upper }}
{% filter upper %}filtered {{ messages[-1].role }}{% endfilter %}
{% with greeting = 'hi' %}{{ greeting ~ '!' }}{% endwith %}
{{ messages | map(attribute='role') | list }} {{ messages | selectattr('role', 'equalto', 'user') | list | length }}
{{ messages | rejectattr('role', 'eq', 'user') | map(attribute='role') | join('|') }} {{ [3, 1, 2] | sort }} {{ ['b', 'A', 'a', 'B'] | unique | list }}
{{ ['b', 'A', 'c'] | sort(reverse=true) }} {{ [{'n': 2}, {'n': 1}] | sort(attribute='n') | map(attribute='n') | list }} {{ [1, 2, 3] | sum }} {{ [4, 7, 1] | max }} {{ [4, 7, 1] | min }}
{{ messages | map(attribute='missing', default='?') | list }} {{ [1, 0, 2, none] | select | list }} {{ [1, 2, 3, 4] | reject('odd') | list }}
{{ 'a\nb\n\nc' | indent(2) }}|{{ 'x\ny' | indent(4, true) }}|{{ 'p\n\nq' | indent('> ', blank=true) }}
{% if add_generation_prompt %}<|assistant|>{% endif %}""",
    "constructs-expressions": r"""{%- set text = '  Hello, World  ' -%}
{{ text.strip() }}|{{ text.lstrip() }}|{{ text.rstrip() }}|{{ text | trim }}|{{ 'xxhixx'.strip('x') }}
{{ 'a,b,,c'.split(',') }} {{ ' a  b '.split() }} {{ 'a b c'.split(' ', 1) }} {{ 'a-b-c'.rsplit('-', 1) }}
{{ 'Hello'.startswith('He') }} {{ 'Hello'.endswith(('x', 'lo')) }} {{ 'aaa'.replace('a', 'b', 2) }} {{ 'hello world'.title() }} {{ 'hELLO'.capitalize() }}
{{ 'hello world-foo(bar' | title }} {{ 'MiXeD' | lower }} {{ 'MiXeD' | upper }} {{ 'x' | capitalize }} {{ 'abc' | replace('b', 'B') }} {{ 'abc' | reverse }}
{{ '{} and {}'.format('this', 'that') }} {{ '{0}-{name}'.format(1, name='n') }} {{ ', '.join(['a', 'b']) }} {{ 'banana'.count('a') }} {{ 'banana'.find('n') }} {{ 'banana'.rfind('n') }}
{{ 7 + 3 }} {{ 7 - 10 }} {{ 7 * 3 }} {{ 7 / 2 }} {{ 8 / 2 }} {{ 7 // 2 }} {{ -7 // 2 }} {{ 7 % 3 }} {{ -7 % 3 }} {{ 2 ** 10 }} {{ 2 ** -1 }} {{ -2 ** 2 }} {{ 7.5 // 2 }} {{ 1.5 + 1 }}
{{ 0.1 + 0.2 }} {{ 1e16 }} {{ 1e15 }} {{ 1.0 }} {{ 1e-5 }} {{ 0.0001 }} {{ 3.14159 | round(2) }} {{ 2.5 | round }} {{ 2.1 | round(method='ceil') }} {{ -3 | abs }}
{{ true }} {{ false }} {{ none }} {{ True and 1 }} {{ 0 or 'x' }} {{ none or [] }} {{ not none }} {{ 'a' ~ 1 ~ none ~ 2.0 ~ true }}
{{ [1, 'two', 3.0, none, true, {'k': "it's"}, ['n']] }} {{ {'a': 1, 'b': 'x'} }} {{ (1, 2) | list }} {{ 'quote"s' }} {{ ['quote"s', "it's", 'both\'"', 'tab\there'] }}
{{ 1 < 2 < 3 }} {{ 3 > 2 > 2 }} {{ 1 == 1.0 }} {{ true == 1 }} {{ 'a' < 'b' }} {{ [1, 2] < [1, 3] }} {{ 'ell' in 'hello' }} {{ 2 not in [1, 3] }} {{ 'k' in {'k': 1} }}
{{ 'yes' if messages else 'no' }} {{ 'x' if false }}|{{ messages[0].role if messages | length > 0 else 'empty' }}
{{ messages[-1]['role'] }} {{ messages[1:] | length }} {{ messages[::-1] | map(attribute='role') | join(',') }} {{ 'abcdef'[1:4] }} {{ 'abcdef'[::2] }} {{ 'abcdef'[-2:] }} {{ [1, 2, 3, 4][::-1] }} {{ 'abc'[10] }}|{{ [1, 2][5] is undefined }}
{{ x is defined }} {{ x is undefined }} {{ none is none }} {{ 'a' is string }} {{ 1 is number }} {{ true is number }} {{ 1 is integer }} {{ true is integer }} {{ 1.5 is float }} {{ {} is mapping }}
{{ [] is iterable }} {{ 'a' is iterable }} {{ 1 is iterable }} {{ x is iterable }} {{ [] is sequence }} {{ true is boolean }} {{ false is false }} {{ 1 is true }} {{ 3 is odd }} {{ 4 is even }} {{ 9 is divisibleby 3 }}
{{ 'x' is eq 'x' }} {{ 2 is gt 1 }} {{ 2 is lessthan 1 }} {{ 'a' is in 'abc' }} {{ 'abc' is lower }} {{ 'ABC' is upper }} {{ none is sameas none }} {{ 'upper' is filter }} {{ 'odd' is test }}
{{ x | default('dflt') }} {{ '' | default('empty', true) }} {{ none | default('n') }} {{ x | d('d') }} {{ x | length }} {{ x | list }} {{ x }}|{{ x | string }}|
{{ '42' | int }} {{ '4.7' | int }} {{ 'x' | int(-1) }} {{ 3.9 | int }} {{ '3.5' | float }} {{ 'x' | float }} {{ 12 | string }} {{ [1, 2] | string }} {{ 'abc' | list }} {{ {'a': 1, 'b': 2} | list }}
{{ [1, 2, 3] | first }} {{ [1, 2, 3] | last }} {{ 'abc' | first }} {{ [] | first is undefined }} {% for k, v in {'b': 1, 'a': 2} | items %}{{ k }}{{ v }}{% endfor %} {{ 'a b  c' | wordcount }} {{ [1, 2, 3, 4, 5] | batch(2) | list }}
{{ '<a href="x">&\'</a>' | e }} {{ '<b>' | safe }} {{ 'ab' | center(6) }}|{{ {'a': [1, 2.5, none, true], 'é': '<ü>'} | tojson }} {{ {'a': {'b': []}, 'c': {}} | tojson(indent=2) }}
{{ {'b': 1, 'a': 2} | tojson(sort_keys=true) }} {{ 'π' | tojson(ensure_ascii=true) }} {{ [1, 2] | tojson(separators=(',', ':')) }} {{ "line\nbreak\t\"q\" \\ \u0001" | tojson }}
{{ {'a': 1}.get('a') }} {{ {'a': 1}.get('b') }} {{ {'a': 1}.get('b', 'd') }} {{ {'a': 1}.keys() | list }} {{ {'a': 1}.values() | list }} {{ [1, 2, 1].count(1) }} {{ [5, 6].index(6) }}
{{ messages[0].content.pop is defined }} {{ messages.append }}|{{ {'items': 3}['items'] }} {{ {'a': 1}['items'] is defined }} {{ 'a' * 3 }} {{ [0] * 3 }} {{ [1] + [2] }} {{ 'a' + 'b' }}
  {%+ if true %}kept indentation{% endif +%}
  {% raw %}{{ not rendered }} {% if %}{% endraw %}
{{ "\x41\u00e9\101\\\d" }} {{ 'con' 'cat' "enated" }}
{{- ' tight ' -}}
  {{ 'end' }}""",
    "constructs-whitespace": "Line one\n    {% if true %}\n    indented block line\n    {% endif %}\nafter if\n  {# a comment #}\nafter comment\n{%- if true %} dash-left{% endif %}\n{% if true -%}\n    dash-right\n{%- endif %}\n\t{%+ if true %}plus keeps tab{% endif %}\n{% for m in messages %}\n  - {{ m.role }}\n{% endfor %}\n{{ 'var' }}   \n{{- 'trimmed left' }}\ntext {% if true %}inline{% endif %} text\n{%- for m in messages -%}\n  [{{ m.role }}]\n{%- endfor %}\nend\n",
    "constructs-raise-exception": r"""{%- for message in messages %}
{%- if message.role == 'system' and not loop.first %}{{ raise_exception('The system message must come first, found at ' ~ loop.index0) }}{% endif %}
{%- if message.role not in ['system', 'user', 'assistant'] %}{{ raise_exception('Unknown role: ' + message.role) }}{% endif %}
{{- message.role[0] | upper }}: {{ message.content }}
{% endfor %}
{%- if messages | selectattr('role', 'eq', 'assistant') | list | length > 1 %}{{ raise_exception("At most one assistant turn, got " ~ (messages | selectattr('role', 'eq', 'assistant') | list | length)) }}{% endif %}
{%- if add_generation_prompt %}A:{% endif %}""",
    "constructs-undefined-attribute": "{{ messages[0].content }}{% if not add_generation_prompt %}{{ missing.attribute }}{% endif %}",
}

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather in a given location",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {"type": "string", "description": "The city and country, e.g. Paris, France"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "The unit of temperature"},
                    "days": {"type": "integer", "description": "How many days to forecast"},
                },
                "required": ["location"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Search the web",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string", "description": "What to look for"}},
                "required": ["query"],
            },
        },
    },
]

SYSTEM = {"role": "system", "content": "You are a concise assistant. Answer in one sentence."}
USER = {"role": "user", "content": "What is the capital of France?"}
ASSISTANT = {"role": "assistant", "content": "The capital of France is Paris."}
USER2 = {"role": "user", "content": "And of Italy? Answer with \"quotes\", <tags> & unicode: é, 日本, 🙂.\n  Two lines.  "}
THINKING = {"role": "assistant", "content": "<think>\nThe user asks about France.\n</think>\n\nParis."}
TOOL_CALL = {
    "role": "assistant",
    "content": "",
    "tool_calls": [
        {"id": "call12345", "type": "function", "function": {"name": "get_weather", "arguments": {"location": "Paris, France", "unit": "celsius"}}}
    ],
}
TOOL_RESULT = {"role": "tool", "tool_call_id": "call12345", "content": "{\"temperature\": 22, \"condition\": \"sunny\"}"}

CONVERSATIONS = [
    ("user", [USER], None),
    ("system-user", [SYSTEM, USER], None),
    ("multi-turn", [SYSTEM, USER, ASSISTANT, USER2], None),
    ("no-system-multi-turn", [USER, ASSISTANT, USER2], None),
    ("thinking", [USER, THINKING, USER2], None),
    ("tools", [SYSTEM, USER], TOOLS),
    ("tool-call", [USER, TOOL_CALL, TOOL_RESULT], TOOLS),
    ("system-late", [USER, ASSISTANT, SYSTEM, USER2], None),
]


def render(source, messages, tools, add_generation_prompt, bos, eos):
    template = compile_template(source)
    try:
        return {"expected": template.render(
            messages=messages, tools=tools, documents=None, add_generation_prompt=add_generation_prompt, bos_token=bos, eos_token=eos
        )}
    except jinja2.exceptions.TemplateSyntaxError:
        raise
    except jinja2.exceptions.TemplateError as error:
        kind = "raise_exception" if type(error) is jinja2.exceptions.TemplateError else "jinja2"
        return {"error": {"kind": kind, "message": str(error)}}
    except Exception as error:
        return {"error": {"kind": "python", "message": f"{type(error).__name__}: {error}"}}


def main():
    folder, out = sys.argv[1], sys.argv[2]
    templates = []
    sources = {}
    for file_name, bos, eos in REAL:
        with open(os.path.join(folder, file_name), encoding="utf-8") as f:
            sources[file_name] = (f.read(), bos, eos)
    for name, source in HANDWRITTEN.items():
        sources[name] = (source, "<s>", "</s>")
    cases = []
    for name, (source, bos, eos) in sources.items():
        templates.append({"name": name, "source": source})
        takes_tools = "tools" in source
        for conversation, messages, tools in CONVERSATIONS:
            if conversation == "tools" and not takes_tools:
                continue
            if conversation == "tool-call" and not takes_tools:
                tools = None
            for add_generation_prompt in (True, False):
                case = {
                    "template": name,
                    "conversation": conversation,
                    "messages": messages,
                    "add_generation_prompt": add_generation_prompt,
                    "bos_token": bos,
                    "eos_token": eos,
                }
                if tools is not None:
                    case["tools"] = tools
                case.update(render(source, messages, tools, add_generation_prompt, bos, eos))
                cases.append(case)
    with open(out, "w", encoding="utf-8") as f:
        f.write('{"templates": [\n')
        f.write(",\n".join(json.dumps(t, ensure_ascii=False) for t in templates))
        f.write('\n], "cases": [\n')
        f.write(",\n".join(json.dumps(c, ensure_ascii=False) for c in cases))
        f.write("\n]}\n")
    failing = sum(1 for c in cases if "error" in c)
    print(f"{len(templates)} templates, {len(cases)} cases ({failing} expect an error) -> {out}")


if __name__ == "__main__":
    main()
