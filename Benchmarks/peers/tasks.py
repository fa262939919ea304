"""Task accuracy with exact answers, after JSONSchemaBench's quality study: the same generated
tasks asked with a schema {reasoning, answer} and as free text, answers computed here.

  tasks.py make --out TASKS.jsonl [--count 50] [--seed 1] [--shots 0] [--families worked|zero-shot]
           [--ways both|constrained]
      writes the tasks of three families, COUNT each, as prompts for guided-bench quality:
        last-letters  the last letters of two words, joined
        arithmetic    a word problem of four steps on whole numbers, two of them products
        tracking      three people swap balls three times; the color one holds at the end
      or, with --families zero-shot, three others, to be asked without worked examples:
        sums          three to five counts of things of one kind, added up
        weekdays      the day of the week some days after a given one
        sorting       five numbers from 1 to 99, from smallest to largest
      each twice (once with --ways constrained): with the schema (constrained) and without (free text, ending with a line
      "Answer: ..."); with --shots K, each prompt first shows K worked tasks of its family (drawn
      apart from the tasks), the same steps in both ways: as a JSON value {reasoning, answer}
      when constrained, as lines and a last "Answer:" line in free text
  tasks.py peer --server URL --records guided.jsonl --out peer.jsonl [--max-tokens N]
      asks llama-server the constrained records' chat messages, greedy, with the schema as
      response_format json_schema; with --as-sent TASKS.jsonl, each task's prompt alone, as a
      client sends it (the schema only in response_format)
  tasks.py score --tasks TASKS.jsonl RECORDS.jsonl ...
      prints the accuracy per engine and records file, family and way of asking
"""

import argparse
import json
import os
import random
import re
import sys
import time
import urllib.request
from collections import defaultdict

WORDS = ("apple river stone cloud garden window silver tiger candle forest pencil rocket "
         "marble lemon castle mirror button planet violin harbor basket dragon meadow anchor "
         "orbit puzzle island jacket ladder nickel").split()
NAMES = ["Alice", "Bob", "Claire", "Dave", "Eve"]
COLORS = ["red", "blue", "green", "yellow", "purple", "orange", "white", "black"]

CONSTRAINED = "Reason step by step, briefly, in \"reasoning\", then give only the final answer in \"answer\"."
FREE = "Reason step by step, briefly, then give the final answer on the last line, as \"Answer: <answer>\"."


def schema(answer_type):
    return {"type": "object", "properties": {"reasoning": {"type": "string"}, "answer": {"type": answer_type}},
            "required": ["reasoning", "answer"], "additionalProperties": False}


def last_letters(rng):
    first, second = rng.sample(WORDS, 2)
    question = "Take the last letter of each of the words %s and %s, and join them, in order, into one string." % (first, second)
    steps = ["The last letter of %s is %s." % (first, first[-1]), "The last letter of %s is %s." % (second, second[-1]),
             "Joined in order: %s." % (first[-1] + second[-1])]
    return question, first[-1] + second[-1], "string", steps


def arithmetic(rng):
    item, containers, person, used = rng.choice([("muffins", "trays", "A baker", "sells"), ("apples", "boxes", "A grocer", "sells"),
                                                 ("pencils", "packs", "A teacher", "hands out"), ("stickers", "sheets", "A child", "gives away")])
    groups, size = rng.randint(3, 9), rng.randint(6, 15)
    more_groups, more_size = rng.randint(2, 6), rng.randint(4, 12)
    used_first = rng.randint(5, groups * size // 2)
    used_then = rng.randint(3, min(20, groups * size - used_first + more_groups * more_size - 1))
    question = ("%s has %d %s of %d %s each and %s %d of them. Then the %s gets %d more %s of %d %s each, and %s %d more. "
                "How many %s are left?" % (person, groups, containers, size, item, used, used_first, person.split()[-1].lower(),
                                           more_groups, containers, more_size, item, used, used_then, item))
    start, bought = groups * size, more_groups * more_size
    steps = ["%d %s of %d is %d x %d = %d." % (groups, containers, size, groups, size, start),
             "After %d: %d - %d = %d." % (used_first, start, used_first, start - used_first),
             "%d more %s of %d is %d x %d = %d, so %d + %d = %d." % (more_groups, containers, more_size, more_groups, more_size, bought,
                                                               start - used_first, bought, start - used_first + bought),
             "After %d more: %d - %d = %d." % (used_then, start - used_first + bought, used_then, start - used_first + bought - used_then)]
    return question, start - used_first + bought - used_then, "integer", steps


def tracking(rng):
    people = NAMES[:3]
    colors = rng.sample(COLORS, 3)
    holding = dict(zip(people, colors))
    start = ", ".join("%s has %s %s ball" % (person, "an" if holding[person][0] in "aeiou" else "a", holding[person])
                      for person in people)
    def state():
        return ", ".join("%s %s" % (person, holding[person]) for person in people)
    steps = []
    worked = ["At the start: %s." % state()]
    for _ in range(3):
        a, b = rng.sample(people, 2)
        holding[a], holding[b] = holding[b], holding[a]
        steps.append("%s and %s swap balls" % (a, b))
        worked.append("%s: %s." % (steps[-1], state()))
    asked = rng.choice(people)
    question = ("%s. First, %s. Then %s. Finally, %s. What color is the ball %s has at the end?"
                % (start, steps[0], steps[1], steps[2], asked))
    worked.append("At the end %s has %s." % (asked, holding[asked]))
    return question, holding[asked], "string", worked


WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
THINGS = [("books", "a shelf holds", ["red", "blue", "green", "yellow", "old", "new"]),
          ("marbles", "a jar holds", ["red", "blue", "green", "striped", "glass", "clay"]),
          ("cars", "a car park holds", ["red", "white", "black", "silver", "blue", "green"]),
          ("birds", "a garden has", ["sparrows", "robins", "crows", "pigeons", "finches", "wrens"])]


def sums(rng):
    item, place, kinds = rng.choice(THINGS)
    counts = [rng.randint(5, 60) for _ in range(rng.randint(3, 5))]
    # The birds' kinds are nouns of their own; the others' are adjectives of the item.
    parts = ["%d %s" % (count, kind if item == "birds" else kind + " " + item) for count, kind in zip(counts, rng.sample(kinds, len(counts)))]
    listed = ", ".join(parts[:-1]) + " and " + parts[-1]
    question = "%s %s. How many %s is that in all?" % (place[0].upper() + place[1:], listed, item)
    return question, sum(counts), "integer", ["%s = %d." % (" + ".join(map(str, counts)), sum(counts))]


def weekdays(rng):
    today, days = rng.randrange(7), rng.randint(3, 40)
    question = "Today is %s. What day of the week will it be in %d days?" % (WEEKDAYS[today], days)
    answer = WEEKDAYS[(today + days) % 7]
    return question, answer, "string", ["%d days is %d weeks and %d days." % (days, days // 7, days % 7),
                                        "%d days after %s is %s." % (days % 7, WEEKDAYS[today], answer)]


def sorting(rng):
    numbers = rng.sample(range(1, 100), 5)
    question = "Sort these numbers from smallest to largest: %s." % ", ".join(map(str, numbers))
    ordered = sorted(numbers)
    return question, ordered, "string", ["In order: %s." % ", ".join(map(str, ordered))]


FAMILIES = {"last-letters": last_letters, "arithmetic": arithmetic, "tracking": tracking}
# Families asked without worked examples, apart from those asked with them.
ZERO_SHOT_FAMILIES = {"sums": sums, "weekdays": weekdays, "sorting": sorting}


def make(args):
    # Each family draws from a generator of its own, so that changing one leaves the others'
    # tasks as they were; the families take turns, so that a run's first answers cover them all.
    families = ZERO_SHOT_FAMILIES if args.families == "zero-shot" else FAMILIES
    generators = {family: random.Random("%s %d" % (family, args.seed)) for family in families}
    # The worked examples come from generators of their own, so that the tasks are the same
    # with and without them.
    shots = {family: [generate(random.Random("%s %d example %d" % (family, args.seed, shot))) for shot in range(args.shots)]
             for family, generate in families.items()}
    with open(args.out, "w") as out:
        for number in range(args.count):
            for family, generate in families.items():
                question, answer, answer_type, _ = generate(generators[family])
                task = {"family": family, "task": number, "answer": answer, "shots": args.shots}
                out.write(json.dumps(dict(task, way="constrained", prompt=examples(shots[family], "constrained") + question + "\n" + CONSTRAINED,
                                          schemaText=json.dumps(schema(answer_type)))) + "\n")
                if args.ways == "both":
                    out.write(json.dumps(dict(task, way="free", prompt=examples(shots[family], "free") + question + "\n" + FREE)) + "\n")


def examples(worked, way):
    """Worked tasks shown before a task: the same steps in both ways, as the way asks for them."""
    if not worked:
        return ""
    text = "Worked examples:\n\n"
    for question, answer, _, steps in worked:
        if way == "constrained":
            response = json.dumps({"reasoning": "\n".join(steps), "answer": answer})
        else:
            response = "\n".join(steps) + "\nAnswer: %s" % answer
        text += "Question: %s\nResponse:\n%s\n\n" % (question, response)
    return text + "Now this question:\n"


def load_jsonl(path):
    with open(path) as handle:
        return [json.loads(line) for line in handle if line.strip()]


def peer(args):
    tasks = load_jsonl(args.as_sent) if args.as_sent else None
    with open(args.out, "w") as out:
        for record in load_jsonl(args.records):
            if "schemaText" not in record:
                continue
            # The request as a client sends it (the prompt alone, the schema only in
            # response_format), or the chat messages this engine rendered from it.
            messages = [{"role": "user", "content": tasks[record["case"]]["prompt"]}] if tasks else record["messages"]
            body = {"model": "model", "messages": messages, "max_tokens": args.max_tokens, "temperature": 0.0,
                    "response_format": {"type": "json_schema", "json_schema": {
                        "name": "answer", "schema": json.loads(record["schemaText"]), "strict": True}}}
            result = {"engine": "llama-server", "case": record["case"], "sampling": record["sampling"]}
            started = time.monotonic()
            try:
                request = urllib.request.Request(args.server.rstrip("/") + "/v1/chat/completions", json.dumps(body).encode(),
                                                 {"Content-Type": "application/json"})
                reply = json.loads(urllib.request.urlopen(request, timeout=900).read())
                result["output"] = reply["choices"][0]["message"]["content"]
                result["tokens"] = reply["usage"]["completion_tokens"]
                if reply["choices"][0]["finish_reason"] == "length":
                    result["error"] = "the response was not complete after %d tokens" % args.max_tokens
            except Exception as error:  # a refusal is a wrong answer, not a crash
                result["error"] = str(error)
            result["seconds"] = time.monotonic() - started
            out.write(json.dumps(result, sort_keys=True) + "\n")
            print("%s" % record["case"], file=sys.stderr)


def normalized(text):
    return re.sub(r"[^a-z0-9-]", "", str(text).lower())


def answer_of(record, way, expected=None):
    """The answer a record gives, or None: the schema's `answer`; in free text the last
    'Answer:' line, or failing that the last \\boxed{...} or 'the final answer is ...', then
    the last bold text, and for a number the last number written: free text is read as leniently
    as a reader would, so that its format never counts against it."""
    output = record.get("output")
    if output is None:
        return None
    if way == "constrained":
        if record.get("error"):
            return None
        try:
            return json.loads(output).get("answer")
        except (ValueError, AttributeError):
            return None
    for pattern in (r"answer\s*[:=]\s*\**\s*(.+)", r"\\boxed\{(?:\\text\{)?([^{}]+)", r"final answer is\s*[:=]?\s*(.+)"):
        found = re.findall(pattern, output, flags=re.IGNORECASE)
        if found:
            return found[-1].strip().strip("*").strip().rstrip(".").strip()
    bold = re.findall(r"\*\*([^*]+)\*\*", output)
    if bold:
        return bold[-1].strip().rstrip(".").strip()
    if isinstance(expected, int):
        numbers = re.findall(r"-?\d[\d,]*", output)
        if numbers:
            return numbers[-1]
    return None


def correct(given, expected):
    if given is None:
        return False
    if isinstance(expected, list):
        return [int(number) for number in re.findall(r"-?\d+", str(given))] == expected
    if isinstance(expected, int):
        numbers = re.findall(r"-?\d+", str(given).replace(",", ""))
        return bool(numbers) and int(numbers[0]) == expected
    return normalized(given) == normalized(expected)


def score(args):
    tasks = load_jsonl(args.tasks)
    tally = defaultdict(lambda: [0, 0])
    for path in args.records:
        for record in load_jsonl(path):
            task = tasks[record["case"]]
            key = ("%s (%s)" % (record["engine"], os.path.basename(path)), task["way"], task["family"])
            tally[key][1] += 1
            tally[key][0] += correct(answer_of(record, task["way"], task["answer"]), task["answer"])
    print("%-40s %-12s %-13s %s" % ("engine (records)", "asked", "family", "correct"))
    totals = defaultdict(lambda: [0, 0])
    for (engine, way, family), (right, count) in sorted(tally.items()):
        print("%-40s %-12s %-13s %3d/%-3d %5.1f%%" % (engine, way, family, right, count, 100.0 * right / count))
        totals[(engine, way)][0] += right
        totals[(engine, way)][1] += count
    for (engine, way), (right, count) in sorted(totals.items()):
        print("%-40s %-12s %-13s %3d/%-3d %5.1f%%" % (engine, way, "all", right, count, 100.0 * right / count))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("make")
    making.add_argument("--out", required=True)
    making.add_argument("--count", type=int, default=50)
    making.add_argument("--seed", type=int, default=1)
    making.add_argument("--shots", type=int, default=0)
    making.add_argument("--families", choices=["worked", "zero-shot"], default="worked")
    making.add_argument("--ways", choices=["both", "constrained"], default="both")
    asking = commands.add_parser("peer")
    asking.add_argument("--server", required=True)
    asking.add_argument("--records", required=True)
    asking.add_argument("--out", required=True)
    asking.add_argument("--max-tokens", type=int, default=400)
    asking.add_argument("--as-sent", metavar="TASKS.jsonl", help="send each task's prompt alone, as a client would")
    scoring = commands.add_parser("score")
    scoring.add_argument("--tasks", required=True)
    scoring.add_argument("records", nargs="+")
    args = parser.parse_args()
    {"make": make, "peer": peer, "score": score}[args.command](args)


if __name__ == "__main__":
    main()
