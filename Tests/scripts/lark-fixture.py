#!/usr/bin/env python3
"""Lark grammars, texts for each, and the verdict of the `lark` package (PyPI) on each text: the
fixture Tests/Fixtures/lark-verdicts.json, {"grammars": {name: text}, "texts": [{"grammar",
"text", "valid"}]}. LarkAgreementTests expects the engine to give every text lark's verdict.

lark parses with its Earley parser and the `dynamic_complete` lexer, which tries every way of
cutting the text into terminals: the engine reads terminals as parts of the text in the same way
(a greedy lexer would refuse some texts that some cut fits). One difference stays: lark matches
an %ignore pattern greedily, the engine as any part of the text, so under `%ignore SH_COMMENT`
the engine reads `a=#x` as `a=`, the comment `#` and the value `x`, where lark reads `#x` as the
comment and finds no value; the texts leave such cuts out.

usage: lark-fixture.py record [FIXTURE]   parse the texts below with lark and write the fixture
       lark-fixture.py check [FIXTURE]    parse the fixture's texts with lark and fail where a
                                          verdict differs
Needs the `lark` package (pip install lark).
"""
import json
import os
import sys

import lark

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "lark-verdicts.json")

GRAMMARS = {
    # Left recursion, aliases, %ignore and an imported number.
    "calculator": r"""
start: sum
?sum: sum "+" product -> add
    | sum "-" product -> subtract
    | product
?product: product "*" atom | product "/" atom | atom
?atom: NUMBER | "-" atom | "(" sum ")"
%import common.NUMBER
%import common.WS_INLINE
%ignore WS_INLINE
""",
    # Rows of fields, quoted or bare, one per line.
    "csv": r"""
start: row (NEWLINE row)* NEWLINE?
row: field ("," field)*
field: ESCAPED_STRING | BARE |
BARE: /[^",\n\r]+/
%import common.ESCAPED_STRING
%import common.NEWLINE
""",
    # Keywords in any case, names, an optional clause, spaces ignored.
    "select": r"""
start: "select"i columns "from"i CNAME [where] ";"?
columns: "*" | CNAME ("," CNAME)*
where: "where"i CNAME OPERATOR value
OPERATOR: "=" | "<>" | "<=" | ">=" | "<" | ">"
value: SIGNED_NUMBER | ESCAPED_STRING
%import common (CNAME, SIGNED_NUMBER, ESCAPED_STRING, WS)
%ignore WS
""",
    # Terminals of terminals, ranges, counts and a regular expression. DAY's alternatives are
    # grouped: lark joins the expressions of a terminal made of terminals without grouping them.
    "timestamp": r"""
start: DATE ("T" | " ") TIME ZONE?
DATE: YEAR "-" MONTH "-" DAY
YEAR: DIGIT~4
MONTH: "0" "1".."9" | "1" "0".."2"
DAY: /(0[1-9]|[12][0-9]|3[01])/
TIME: /([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?/
ZONE: "Z" | ("+" | "-") /[0-9]{2}:[0-9]{2}/
%import common.DIGIT
""",
    # Calls with nested lists and keyword arguments.
    "calls": r"""
start: call (";" call)*
call: NAME "(" [arguments] ")"
arguments: argument ("," argument)*
argument: (NAME "=")? value
value: call | list | STRING | INT | "true" | "false"
list: "[" [value ("," value)*] "]"
NAME: /[a-z_][a-z0-9_]*/
STRING: /'[^'\n]*'/
%import common.INT
%ignore " "
""",
    # Settings with comments and sections.
    "settings": r"""
start: (line? NEWLINE)* line?
line: section | setting
section: "[" KEY "]"
setting: KEY "=" VALUE
KEY: /[A-Za-z][A-Za-z0-9_.-]*/
VALUE: /[^#\n\s][^#\n]*[^#\n\s]|[^#\n\s]/
%import common.NEWLINE
%import common.SH_COMMENT
%import common.WS_INLINE
%ignore SH_COMMENT
%ignore WS_INLINE
""",
}

TEXTS = {
    "calculator": (
        ["1", "1+2", "1 + 2 * 3", "(1 + 2) * 3", "-4", "--4", "1.5 / -2", "2 * (3 - (4 + 5))", " 7 ", "1e3 + .5",
         "((1))", "1 - 2 - 3", "8/4/2", "0", "3 *\t4", "1.", "12 + 34 * 56 - 78 / 9", "-(1 + 2)", "5 * -1",
         "( 2 )"],
        ["", "1 +", "+ 1", "(1 + 2", "1 + 2)", "1 2", "1 ++ 2", "a", "1 * * 2", "()", "1 +\n2", "1..5", "1e", "1 +- ",
         "-", "1 = 1", "(1)(2)", "1,5", "1 / ", "2 ^ 3"],
    ),
    "csv": (
        ["a", "a,b,c", "a,b\nc,d", "\"x, y\",z", "a,,c", ",", "a\r\nb", "a\n", "\"\"", "one two,three",
         "\"q \\\"quoted\\\"\",x", "1,2,3\n4,5,6\n", "a,b\n\nc", "é,ü", "a , b", "\"\",\"\"", "x\n,y",
         "a,\"b\"", "\"a\"", "a,b,"],
        ["\"a", "a\"b\",c", "\"a\" b", "a\n\n\n\"", "\"x\"y", "\"\"\"", "\"a\nb\"", "a,\"b", "\"", "\"a\"\"b\"",
         "x,\"y\"z", "\"\"x", "a\"", "\"a,b", "\"a\"\"", "b,\"c", "\"\\\"", "a,\"\"\"", "\"x\" \"y\"", "\"a\"b"],
    ),
    "select": (
        ["select * from t", "SELECT a, b FROM users;", "Select a from t where b = 1", "select a from t where b <> 'x'",
         "select a from t where name = \"Ann\"", "select\n*\nfrom\nt", "SELECT x FROM t WHERE y >= -2.5", "select a,b from t",
         "select _x from _t", "sElEcT * fRoM t wHeRe a<1;", "select a from t where b=1;", "  select * from t  ",
         "select a from t where b > 1e3", "select a ,b from t", "select * from t;", "select a from t where b <= +3",
         "SELECT * FROM t WHERE a = \"x y\"", "select abc from d", "select a from t\twhere b=2", "select t from select"],
        ["select from t", "select * t", "select * from", "select * from t where", "select * from t where a",
         "select * from t where a == 1", "select *, a from t", "select a, from t", "delete * from t", "select * from 1t",
         "select * from t;;", "select * from t where a = b", "", "select", "select * from t where a = 'x",
         "selecta from t", "select * fromt", "select a b from t", "select * from t where a = 1 and b = 2", "SELECT * FROM t WHERE"],
    ),
    "timestamp": (
        ["2024-01-31T12:00", "2024-12-01 23:59:59", "1999-09-09T00:00:00.5Z", "2000-10-10T10:10+02:00", "2024-02-29T08:30:15.123456",
         "0001-01-01T00:00", "2024-11-30 01:02:03-05:30", "2024-03-15T23:59Z", "2024-01-01T00:00:00Z", "9999-12-31T23:59:59.999999+14:00",
         "2024-10-20 10:20", "2024-05-05T05:05:05", "2024-06-30T12:30:00.1", "2024-07-01T00:00-00:00", "2024-08-19T19:19",
         "2024-09-03 03:03Z", "2024-12-12T12:12:12+12:12", "2024-04-04T04:04:04.000", "2024-01-10T10:00", "2023-12-25 18:45"],
        ["2024-13-01T00:00", "2024-00-10T00:00", "2024-01-32T00:00", "2024-01-00T00:00", "24-01-01T00:00", "2024-1-01T00:00",
         "2024-01-01T24:00", "2024-01-01T12:60", "2024-01-01", "2024-01-01T12", "2024-01-01T12:00:00.1234567", "2024-01-01t12:00",
         "2024-01-01T12:00z", "2024-01-01T12:00+0200", "2024-01-01  12:00", "", "2024-01-01T12:00:", "2024-01-01T12:00:61",
         "2024-01-01T12:00.5", "２０２４-01-01T00:00"],
    ),
    "calls": (
        ["f()", "f(1)", "f(1, 2)", "f(a=1)", "f('x', b=true)", "f([1, 2, 3])", "f([])", "f(g(1))", "f(x=[g(), 'y'])", "f();g()",
         "f(1) ; g(2)", "get_weather(city='Oslo', days=3)", "f( 1 )", "f(false)", "f([[1], [2, [3]]])", "f(a=g(b=h()))",
         "f(1,2,3)", "f('')", "f(x=-1)", "f(x=[ ])"],
        ["f", "f(", "f(1,)", "f(,1)", "F()", "f(1 2)", "f(a==1)", "f('x)", "f(\"x\")", "f([1,])", "f(x=)", "f();",
         "1()", "f(True)", "f(a=1=2)", "f()g()", "f(x=[1", "f(1.5)", "", "f(a b=1)"],
    ),
    "settings": (
        ["a=1", "[main]\nname=app", "# comment\nkey = value", "a=1\nb=2\n", "", "\n\n", "[s]", "key = value with spaces",
         "a.b-c_d = x # trailing", "  a = 1  ", "[x]\n\n[y]\nz=1", "path=/usr/local/bin", "a=b=c", "url = http://x.y/z?q=1",
         "# only a comment", "a=1\n# c\nb=2", "K=v\n", "[a.b]\nc = d", "x=1\n\n\ny=2", "a\t=\t1"],
        ["=1", "a=", "[]", "[a", "a b=1", "1a=2", "a=1 [b]", "[a] b=1", "a", "[a]]", "[ a ]x", "a = \n", "a==",
         "a=1\nb", "[a b]", "=", "a=1\n=2", "key value", "[-a]", "a=#"],
    ),
}


def parser(grammar):
    return lark.Lark(grammar, start="start", parser="earley", lexer="dynamic_complete")


def verdict(compiled, text):
    try:
        compiled.parse(text)
        return True
    except lark.exceptions.LarkError:
        return False


def record(path):
    compiled = {name: parser(text) for name, text in GRAMMARS.items()}
    texts = []
    for name, (valid, invalid) in TEXTS.items():
        for expected, group in [(True, valid), (False, invalid)]:
            for text in group:
                found = verdict(compiled[name], text)
                if found != expected:
                    print(f"{name}: {text!r} was written as {'valid' if expected else 'invalid'}; lark says {'valid' if found else 'invalid'}")
                texts.append({"grammar": name, "text": text, "valid": found})
    with open(path, "w", encoding="utf-8") as file:
        json.dump({"grammars": GRAMMARS, "texts": texts}, file, ensure_ascii=False, indent=1)
        file.write("\n")
    print(f"{len(texts)} texts over {len(GRAMMARS)} grammars written to {path}")


def check(path):
    with open(path, encoding="utf-8") as file:
        fixture = json.load(file)
    compiled = {name: parser(text) for name, text in fixture["grammars"].items()}
    wrong = [entry for entry in fixture["texts"] if verdict(compiled[entry["grammar"]], entry["text"]) != entry["valid"]]
    for entry in wrong:
        print(f"{entry['grammar']}: {entry['text']!r} is recorded {'valid' if entry['valid'] else 'invalid'}; lark disagrees")
    print(f"{len(fixture['texts']) - len(wrong)} of {len(fixture['texts'])} verdicts hold")
    return not wrong


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("record", "check"):
        sys.exit(__doc__)
    path = sys.argv[2] if len(sys.argv) > 2 else FIXTURE
    if sys.argv[1] == "record":
        record(path)
    else:
        sys.exit(0 if check(path) else 1)
