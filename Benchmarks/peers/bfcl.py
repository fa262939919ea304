#!/usr/bin/env python3
"""Tool calls on the Berkeley Function Calling Leaderboard's AST categories, through any
OpenAI-compatible chat-completions server (`guided serve`, llama-server, vLLM, a hosted API).

usage: bfcl.py --gorilla PATH --endpoint http://127.0.0.1:8091/v1 --model NAME
               [--categories simple,multiple,parallel,parallel_multiple,irrelevance]
               [--count N] [--seed S] [--max-tokens 512] [--tool-choice auto|required]
               [--out FILE.jsonl] [--resume]
       bfcl.py --gorilla PATH --swift-session "COMMAND" [...]   (the Swift API, below)
       bfcl.py --summarize FILE.jsonl [FILE.jsonl ...] [--text-calls --gorilla PATH]

PATH is a checkout of https://github.com/ShishirPatil/gorilla (the repository root, or its
`berkeley-function-call-leaderboard` folder). Nothing of it is copied here: the cases and their
possible answers are read from it at run time.

What it follows, in berkeley-function-call-leaderboard/bfcl_eval/ of that repository:

- the cases, `data/BFCL_v4_{simple_python,multiple,parallel,parallel_multiple,irrelevance}.json`,
  and the possible answers, `data/possible_answer/BFCL_v4_<category>.json` (no file for
  irrelevance). "simple" stands for `simple_python`; the `live_*` Python categories work too.
- the function documents as the leaderboard hands them to a model, `utils.py`
  (`_func_doc_language_specific_pre_processing`): " Note that the provided function is in
  Python 3 syntax." appended to each function's description.
- the documents as OpenAI tools, `model_handler/utils.py` (`convert_to_tool`,
  `_cast_to_openai_type`, for the OpenAI chat-completions style) with the type names of
  `constants/type_mappings.py` (`GORILLA_TO_OPENAPI`): '.' in a function's name becomes '_';
  the parameters' type becomes "object"; each property's type is renamed ("dict" -> "object",
  "float" -> "number" with `format` "float" and " This is a float type value." appended to its
  description, "tuple" -> "array", "any" -> "string", an unknown or missing type -> "string"),
  then the same one or two levels down (`properties` of objects, `items` of arrays).
- the request and the reading of its answer, `model_handler/api_inference/openai_completion.py`
  (`OpenAICompletionsHandler`): the question's messages and the tools, each tool call decoded as
  {name: json.loads(arguments)}; an answer without tool calls is its text, which does not decode.
  Here the request also names `tool_choice` "auto" (the default when tools are given; --tool-choice
  required asks for a call instead, which is not the leaderboard's protocol) and a
  `max_tokens` budget, and `temperature` is 0.
- the verdict, `eval_checker/eval_runner.py` (`_evaluate_single_ast_entry`,
  `_evaluate_single_relevance_entry`), `utils.py` (`is_function_calling_format_output`,
  `is_empty_output`) and `eval_checker/ast_eval/ast_checker.py` (`ast_checker` and the checkers
  it calls), for Python:
  - simple: exactly one call; multiple: exactly one call, checked against the expected function;
    parallel and parallel_multiple: as many calls as expected, each expected call matched by a
    different call, in any order.
  - a call matches when its name is the expected one (with '.' written '_', as for the models
    whose tool names the leaderboard rewrites this way), every required parameter is present,
    every argument is a parameter of the function and of the possible answer, of the documented
    type (an integer stands for a float; a value of the possible answers' own type is allowed),
    and among the possible answers: strings (also inside lists and objects) compared after
    removing spaces and ",./-_*^", lowercased, with ' as "; objects and lists of objects key by
    key; every parameter of the possible answer without "" among its values given.
  - irrelevance: right when the answer holds no call (no tool calls, an empty list, or calls
    whose arguments are not JSON, which do not decode).

With --swift-session, the same requests go, one JSON line each, to the standard input of COMMAND
(`.build/release/guided-bench tool-session [--model PATH]`), which answers them through the
Swift API, a `LanguageModelSession` with a `Tool` value per function (see
`Benchmarks/guided-bench/ToolSessionCommand.swift`), and writes one `{"status", "body"}` line
each; the answers are read and judged as a server's.

Every case's request, the server's raw answer and the verdict go to --out, one JSON object a
line. A case whose request fails (a connection error, a status other than 200, a body that is
not a chat completion) counts as wrong and its error is recorded; with --resume the cases already
in --out without such an error are kept and the others asked again. The table of right/total per
category is printed at the end, and --summarize prints it again from saved files. With
--text-calls, --summarize judges the saved answers again, reading an answer without tool calls
whose text holds JSON objects with "name" and "arguments" (in a code fence or not) as those
calls: not the leaderboard's rule, a measure of how much a server's parser leaves in the text.
"""
import argparse
import copy
import json
import os
import random
import re
import sys
import time
import urllib.error
import urllib.request

CATEGORIES = ["simple", "multiple", "parallel", "parallel_multiple", "irrelevance"]
FILE_NAMES = {"simple": "simple_python"}

# constants/type_mappings.py, GORILLA_TO_OPENAPI (the Python names and the others it also maps).
OPENAPI_TYPES = {
    "integer": "integer", "number": "number", "float": "number", "string": "string",
    "boolean": "boolean", "bool": "boolean", "array": "array", "list": "array",
    "dict": "object", "object": "object", "tuple": "array", "any": "string",
    "byte": "integer", "short": "integer", "long": "integer", "double": "number",
    "char": "string", "ArrayList": "array", "Array": "array", "HashMap": "object",
    "Hashtable": "object", "Queue": "array", "Stack": "array", "Any": "string",
    "String": "string", "Bigint": "integer",
}

# eval_checker/ast_eval/ast_checker.py: the Python type each documented type must have.
PYTHON_TYPES = {
    "string": str, "integer": int, "float": float, "boolean": bool,
    "array": list, "tuple": list, "dict": dict, "any": str,
}
NESTED_CHECKED = ("array", "tuple")


# ---------------------------------------------------------------- data


def data_folder(gorilla):
    for candidate in (os.path.join(gorilla, "berkeley-function-call-leaderboard", "bfcl_eval", "data"),
                      os.path.join(gorilla, "bfcl_eval", "data"), os.path.join(gorilla, "data"), gorilla):
        if os.path.isdir(os.path.join(candidate, "possible_answer")):
            return candidate
    sys.exit(f"No bfcl_eval/data folder with possible_answer/ under {gorilla}.")


def read_lines(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def load_category(folder, category):
    name = FILE_NAMES.get(category, category)
    files = sorted(f for f in os.listdir(folder) if re.fullmatch(rf"BFCL_v\d+_{re.escape(name)}\.json", f))
    if not files:
        sys.exit(f"No BFCL_v*_{name}.json in {folder}.")
    cases = read_lines(os.path.join(folder, files[-1]))
    answers = {}
    answer_path = os.path.join(folder, "possible_answer", files[-1])
    if "irrelevance" not in category:
        if not os.path.exists(answer_path):
            sys.exit(f"No possible answers for {category}: {answer_path}.")
        answers = {row["id"]: row["ground_truth"] for row in read_lines(answer_path)}
    return files[-1], cases, answers


def with_python_hint(functions):
    """The function documents as the leaderboard shows them for a Python category."""
    functions = copy.deepcopy(functions)
    for function in functions:
        function["description"] = function.get("description", "") + " Note that the provided function is in Python 3 syntax."
    return functions


# ---------------------------------------------------------------- tools


def openai_type(name):
    return OPENAPI_TYPES.get(name, "string")


def cast_properties(properties):
    for value in properties.values():
        if "type" not in value:
            value["type"] = "string"
        else:
            if value["type"] == "float":
                value["format"] = "float"
                value["description"] = value.get("description", "") + " This is a float type value."
            value["type"] = openai_type(value["type"])
        if value["type"] in ("array", "object"):
            if "properties" in value:
                value["properties"] = cast_properties(value["properties"])
            elif "items" in value:
                items = value["items"]
                items["type"] = openai_type(items.get("type"))
                if items["type"] == "array" and "items" in items:
                    items["items"]["type"] = openai_type(items["items"].get("type"))
                elif items["type"] == "object" and "properties" in items:
                    items["properties"] = cast_properties(items["properties"])
    return properties


def tools_for(functions):
    tools = []
    for function in copy.deepcopy(functions):
        function["name"] = function["name"].replace(".", "_")
        function["parameters"]["type"] = "object"
        function["parameters"]["properties"] = cast_properties(function["parameters"].get("properties", {}))
        tools.append({"type": "function", "function": function})
    return tools


# ---------------------------------------------------------------- decoding


class DecodeError(Exception):
    pass


def decode_calls(message):
    """The answer's calls as [{name: arguments}], or DecodeError when it holds none in that form."""
    calls = message.get("tool_calls")
    if not isinstance(calls, list):
        raise DecodeError("no tool calls; the answer is text: " + repr(message.get("content")))
    decoded = []
    for call in calls:
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "")
        except (TypeError, ValueError) as error:
            raise DecodeError(f"the arguments of {function.get('name')!r} are not JSON: {error}")
        decoded.append({function.get("name"): arguments})
    return decoded


def text_calls(content):
    """The {"name", "arguments"} objects written in a text, as tool calls (for --text-calls)."""
    decoder, calls, start = json.JSONDecoder(), [], 0
    content = content or ""
    while (start := content.find("{", start)) >= 0:
        try:
            value, end = decoder.raw_decode(content, start)
        except ValueError:
            start += 1
            continue
        if isinstance(value, dict) and "name" in value and "arguments" in value:
            calls.append({"type": "function", "function": {"name": value["name"], "arguments": json.dumps(value["arguments"])}})
        start = end
    return calls


def is_call_list(decoded):
    return isinstance(decoded, list) and len(decoded) > 0 and all(isinstance(item, dict) for item in decoded)


def is_empty(decoded):
    return not is_call_list(decoded) or (len(decoded) == 1 and len(decoded[0]) == 0)


# ---------------------------------------------------------------- checking


def wrong(kind, message):
    return {"valid": False, "error_type": kind, "error": message}


RIGHT = {"valid": True}


def normalized(text):
    return re.sub(r"[ ,./\-_*^]", "", text).lower().replace("'", '"')


def answer_type(options):
    for option in options:
        if option != "":
            return type(option)
    return None


def check_type(value, options, expected, nested):
    """Returns (error or None, is_variable). A value of the possible answers' own type stands
    for a variable and is compared as it is."""
    own = answer_type(options)
    is_variable = own is not None and own != expected
    if type(value) == expected:
        if nested is None:
            return None, is_variable
        for option in options:
            if not isinstance(option, list):
                return None, is_variable
            if all(check_type(item, option, nested, None)[0] is None for item in value):
                return None, is_variable
    if own is not None and type(value) == own:
        # A nested mismatch stays wrong even when the value has the answers' type.
        if type(value) == expected and nested is not None:
            return f"items of {value!r} are not all {nested.__name__}", True
        return None, True
    return f"expected {expected.__name__}, got {type(value).__name__}: {value!r}", is_variable


def check_string(value, options):
    return normalized(value) in [normalized(option) for option in options if isinstance(option, str)]


def check_list(value, options):
    value = [normalized(item) if isinstance(item, str) else item for item in value]
    candidates = [[normalized(item) if isinstance(item, str) else item for item in option] for option in options]
    return value in candidates


def check_dict(value, options):
    for option in options:
        if option == "":
            continue
        fits = True
        for key, item in value.items():
            if key not in option:
                fits = False
                break
            allowed = [normalized(x) if isinstance(x, str) else x for x in option[key]]
            if (normalized(item) if isinstance(item, str) else item) not in allowed:
                fits = False
                break
        if fits and all(key in value or "" in allowed for key, allowed in option.items()):
            return True
    return False


def check_dict_list(value, options):
    for option in options:
        if isinstance(option, list) and len(option) == len(value) and all(
                isinstance(item, dict) and check_dict(item, [expected]) for item, expected in zip(value, option)):
            return True
    return False


def check_call(function, call, expected):
    """One call against one expected call ({name: {parameter: [possible values]}})."""
    name = function["name"].replace(".", "_")
    options_by_parameter = next(iter(expected.values()))
    if name not in call:
        return wrong("wrong_function", f"expected {name!r}, got {list(call)}")
    arguments = call[name]
    if not isinstance(arguments, dict):
        return wrong("arguments_not_object", f"arguments of {name!r} are {type(arguments).__name__}")
    properties = function["parameters"].get("properties", {})
    for parameter in function["parameters"].get("required", []):
        if parameter not in arguments:
            return wrong("missing_required", f"{name}: missing required {parameter!r}")
    for parameter, value in arguments.items():
        if parameter not in properties or parameter not in options_by_parameter:
            return wrong("unexpected_parameter", f"{name}: unexpected parameter {parameter!r}")
        options = options_by_parameter[parameter]
        documented = properties[parameter].get("type")
        expected_type = PYTHON_TYPES.get(documented, str)
        nested = None
        if documented in NESTED_CHECKED:
            nested = PYTHON_TYPES.get((properties[parameter].get("items") or {}).get("type"), str)
        if documented == "float" and type(value) == int:
            value = float(value)
        error, is_variable = check_type(value, options, expected_type, nested)
        if error:
            return wrong("wrong_type", f"{name}.{parameter}: {error}")
        if not is_variable:
            if expected_type == dict:
                if not check_dict(value, options):
                    return wrong("wrong_value", f"{name}.{parameter}: {value!r} not among {options!r}")
                continue
            if expected_type == list and nested == dict:
                if not check_dict_list(value, options):
                    return wrong("wrong_value", f"{name}.{parameter}: {value!r} not among {options!r}")
                continue
            if expected_type == str:
                if not check_string(value, options):
                    return wrong("wrong_value", f"{name}.{parameter}: {value!r} not among {options!r}")
                continue
            if expected_type == list:
                if not check_list(value, options):
                    return wrong("wrong_value", f"{name}.{parameter}: {value!r} not among {options!r}")
                continue
        if value not in options:
            return wrong("wrong_value", f"{name}.{parameter}: {value!r} not among {options!r}")
    for parameter, options in options_by_parameter.items():
        if parameter not in arguments and "" not in options:
            return wrong("missing_expected", f"{name}: {parameter!r} not given, and the answer needs it")
    return RIGHT


def find_function(functions, name):
    return next((function for function in functions if function["name"] == name), None)


def check_case(category, functions, calls, expected):
    if "parallel" in category:
        if len(calls) != len(expected):
            return wrong("wrong_count", f"{len(calls)} calls for {len(expected)} expected")
        used = set()
        for number, answer in enumerate(expected):
            function = find_function(functions, next(iter(answer)))
            last = None
            for index, call in enumerate(calls):
                if index in used:
                    continue
                last = check_call(function, call, answer)
                if last["valid"]:
                    used.add(index)
                    break
            if last is None or not last["valid"]:
                return wrong("no_match", f"expected call {number} matches no remaining call; last: {last and last['error']}")
        return RIGHT
    if len(calls) != 1 or len(expected) != 1:
        return wrong("wrong_count", f"{len(calls)} calls for {len(expected)} expected")
    if "multiple" in category:
        return check_call(find_function(functions, next(iter(expected[0]))), calls[0], expected[0])
    return check_call(functions[0], calls[0], expected[0])


def verdict(category, functions, message, expected):
    try:
        calls = decode_calls(message)
    except DecodeError as error:
        if "irrelevance" in category:
            return RIGHT
        return wrong("no_call", str(error))
    if "irrelevance" in category:
        return RIGHT if is_empty(calls) else wrong("called", f"{len(calls)} call(s) where none fits")
    if not is_call_list(calls):
        return wrong("no_call", "an empty list of tool calls")
    return check_case(category, functions, calls, expected)


# ---------------------------------------------------------------- requests


def client_for(endpoint, api_key, timeout):
    """The openai package when it is installed (as the leaderboard sends its requests), else
    the same body over urllib. Either returns (status, body text)."""
    try:
        import openai
    except ImportError:
        openai = None
    if openai is not None:
        client = openai.OpenAI(base_url=endpoint, api_key=api_key, max_retries=0, timeout=timeout)

        def send(body):
            extra = {key: value for key, value in body.items() if key not in ("model", "messages")}
            try:
                raw = client.chat.completions.with_raw_response.create(model=body["model"], messages=body["messages"], **extra)
                return raw.http_response.status_code, raw.http_response.text
            except openai.APIStatusError as error:
                return error.status_code, error.response.text
        return "openai " + openai.__version__, send

    def send(body):
        request = urllib.request.Request(endpoint.rstrip("/") + "/chat/completions", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", "Authorization": f"Bearer {api_key}"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace")
    return "urllib", send


def session_client(command, timeout):
    """A process that answers one request body a line with one {"status", "body"} line."""
    import shlex
    import subprocess
    process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def send(body):
        process.stdin.write(json.dumps(body) + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"{command} ended (exit status {process.poll()})")
        answer = json.loads(line)
        return answer["status"], json.dumps(answer["body"])
    return "the Swift API through " + command, send


def run_case(send, args, category, case, expected):
    functions = with_python_hint(case["function"])
    body = {"model": args.model, "messages": case["question"][0], "tools": tools_for(functions),
            "tool_choice": args.tool_choice, "temperature": 0, "max_tokens": args.max_tokens}
    record = {"id": case["id"], "category": category, "request": body}
    started = time.time()
    try:
        status, text = send(body)
    except Exception as error:  # noqa: BLE001 — any failure of one request is that case's error
        record.update(server_error=f"{type(error).__name__}: {error}", verdict=wrong("server_error", str(error)))
        return record
    record["seconds"] = round(time.time() - started, 3)
    record["status"] = status
    try:
        record["response"] = json.loads(text)
    except ValueError:
        record["response"] = text
    message = None
    if status == 200 and isinstance(record["response"], dict):
        choices = record["response"].get("choices") or []
        if choices and isinstance(choices[0], dict):
            message = choices[0].get("message")
            record["finish_reason"] = choices[0].get("finish_reason")
    if not isinstance(message, dict):
        record.update(server_error=f"status {status}: {text[:500]}", verdict=wrong("server_error", f"status {status}"))
        return record
    try:
        record["decoded"] = decode_calls(message)
    except DecodeError:
        record["decoded"] = None
    record["verdict"] = verdict(category, functions, message, expected)
    return record


# ---------------------------------------------------------------- tables


def latest(paths):
    records = {}
    for path in paths:
        if os.path.exists(path):
            for line in open(path, encoding="utf-8"):
                if line.strip():
                    record = json.loads(line)
                    records[(record["category"], record["id"])] = record
    return records


def table(records, categories, title):
    print(f"\n{title}\n")
    print("| category | right/total | server errors | wrong, by kind |")
    print("| --- | --- | --- | --- |")
    right = total = 0
    for category in categories:
        rows = [r for (c, _), r in records.items() if c == category]
        if not rows:
            continue
        good = sum(1 for r in rows if r["verdict"]["valid"])
        errors = sum(1 for r in rows if "server_error" in r)
        kinds = {}
        for r in rows:
            if not r["verdict"]["valid"]:
                kinds[r["verdict"]["error_type"]] = kinds.get(r["verdict"]["error_type"], 0) + 1
        right, total = right + good, total + len(rows)
        print(f"| {category} | {good}/{len(rows)} | {errors} | {', '.join(f'{k} {n}' for k, n in sorted(kinds.items())) or '-'} |")
    print(f"| all | {right}/{total} | | |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gorilla", help="a checkout of ShishirPatil/gorilla")
    parser.add_argument("--endpoint", default="http://127.0.0.1:8091/v1", help="the server's /v1 root")
    parser.add_argument("--model", default="default")
    parser.add_argument("--swift-session", metavar="COMMAND", help="answer through the Swift API: guided-bench tool-session")
    parser.add_argument("--api-key", default=os.environ.get("OPENAI_API_KEY", "none"))
    parser.add_argument("--categories", default=",".join(CATEGORIES))
    parser.add_argument("--count", type=int, help="cases per category: the first N, or N drawn with --seed")
    parser.add_argument("--seed", type=int, help="draw --count cases per category at random with this seed")
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--tool-choice", default="auto", choices=["auto", "required"],
                        help="the request's tool_choice: the leaderboard's auto, or required (a measure of the calls a "
                             "model writes once it must call; irrelevance then cannot be right)")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--out", default="bfcl.jsonl")
    parser.add_argument("--resume", action="store_true", help="keep the cases already in --out that got an answer")
    parser.add_argument("--summarize", nargs="+", metavar="FILE", help="print the table of saved files and stop")
    parser.add_argument("--text-calls", action="store_true", help="with --summarize: read calls written in the text as calls")
    args = parser.parse_args()
    categories = [c.strip() for c in args.categories.split(",") if c.strip()]
    if args.summarize:
        cases = {}
        if args.text_calls:
            if not args.gorilla:
                parser.error("--text-calls needs --gorilla")
            folder = data_folder(args.gorilla)
            for category in categories:
                _, rows, answers = load_category(folder, category)
                cases.update({(category, row["id"]): (row, answers.get(row["id"])) for row in rows})
        for path in args.summarize:
            records = latest([path])
            if args.text_calls:
                for key, record in records.items():
                    message = (record.get("response") or {}).get("choices", [{}])[0].get("message") if "server_error" not in record else None
                    if key in cases and isinstance(message, dict) and not message.get("tool_calls"):
                        found = text_calls(message.get("content"))
                        if found:
                            case, expected = cases[key]
                            record["verdict"] = verdict(key[0], with_python_hint(case["function"]), {"tool_calls": found}, expected)
            table(records, categories, path + (", calls in the text read as calls" if args.text_calls else ""))
        return
    if not args.gorilla:
        parser.error("--gorilla is required")
    folder = data_folder(args.gorilla)
    if args.swift_session:
        library, send = session_client(args.swift_session, args.timeout)
    else:
        library, send = client_for(args.endpoint, args.api_key, args.timeout)
    kept = latest([args.out]) if args.resume else {}
    kept = {key: record for key, record in kept.items() if "server_error" not in record}
    with open(args.out, "a" if args.resume else "w", encoding="utf-8") as out:
        for category in categories:
            file_name, cases, answers = load_category(folder, category)
            chosen = list(range(len(cases)))
            if args.count is not None and args.count < len(cases):
                chosen = sorted(random.Random(args.seed).sample(chosen, args.count)) if args.seed is not None else chosen[:args.count]
            print(f"{category}: {len(chosen)} of {len(cases)} cases of {file_name} ({library})", file=sys.stderr)
            for index in chosen:
                case = cases[index]
                if (category, case["id"]) in kept:
                    continue
                record = run_case(send, args, category, case, answers.get(case["id"]))
                kept[(category, case["id"])] = record
                out.write(json.dumps(record) + "\n")
                out.flush()
                mark = "ok" if record["verdict"]["valid"] else record["verdict"]["error_type"]
                print(f"  {case['id']}: {mark}", file=sys.stderr)
    table(kept, categories, f"{args.model} at {args.swift_session or args.endpoint}, {args.out}")


if __name__ == "__main__":
    main()
