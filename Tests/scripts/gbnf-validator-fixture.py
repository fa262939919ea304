#!/usr/bin/env python3
"""Texts for llama.cpp's eight example grammars (grammars/*.gbnf) and llama.cpp's own verdict on
each, from its grammar checker `test-gbnf-validator` (`scripts/build-llama-server.sh
test-gbnf-validator` builds it; the grammars are in "grammars" beside it). The fixture,
Tests/Fixtures/gbnf-validator.jsonl, has one line per text: {"grammar", "text", "valid"}.
LlamaCppValidatorAgreementTests expects the engine to give every text the checker's verdict.

usage: gbnf-validator-fixture.py record CHECKER [FIXTURE]   run the checker on the texts below and
                                                            write the fixture with its verdicts
       gbnf-validator-fixture.py check CHECKER [FIXTURE]    run the checker on the fixture's texts
                                                            and fail where a verdict differs
       gbnf-validator-fixture.py verdict CHECKER GRAMMAR TEXT_FILE
                                                            print "valid", "prefix" (every character
                                                            read, but the text ends too soon) or
                                                            "invalid"

The texts are grouped by what they were written to show (a grammar's valid and invalid texts),
but the fixture records what the checker answers; `record` says where the two differ. The
checker exits 0 whether or not the text is valid: its verdict is the first line it prints.
Python standard library only.
"""
import json
import os
import subprocess
import sys
import tempfile
import unicodedata

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "gbnf-validator.jsonl")

# root ::= (expr "=" ws term "\n")+, with identifiers, numbers, parentheses and [ \t\n]* spaces.
ARITHMETIC = (
    [
        "x=1\n", "a+1=2\n", "a +1 = 2\n", "x_1=y2\n", "(a)=b\n", "( a+b ) *c = d\n", "1=1\n2=2\n",
        "a\t=\tb\n", "a=b\n\n", "((((x))))=1\n", "a/b-c*d=e\n", "007=x\n", "a=(b)\n", "a\n=b\n",
        "z=(a*b+c/d)\n", "abc_def9=0\n", "a=1\t\n", "1+2+3+4+5=15\n", "(\na\n)=b\n", "x = ( y )\n",
        "a-b=c\n", "a=1\n\n\n", "a=1 \n", "x = (y*3)\nq=(1)\n",
    ],
    [
        "", "x=1", "x=1\ny=2", "X=1\n", "_a=1\n", "1a=b\n", "a+=2\n", "a=b+c\n", "=1\n", "a=\n",
        "a==b\n", "(a=b\n", "a)=b\n", "()=1\n", "a=(b\n", "a % b=c\n", "a=-1\n", " a=1\n", "a=1\r\n",
        "a=1.5\n", "a b=c\n", "a=1\nb", "2x=1\n", "a=b\u00e9\n", "y=(x+2)*3\n",
        # No space may come before an operand: spaces follow identifiers, numbers and parentheses.
        "a + 1 = 2\n", "( a + b ) * c = d\n",
    ],
)

# Declarations of one optional parameter; statements written without spaces between them, with
# the mandatory spaces of `ws ::= [ \t\n]+` where the grammar puts them.
C = (
    [
        "", "int main(){}", "int main(){return 0;}", "float f(int x){return x*2;}",
        "int main(){int x = 1;x = x+1;return x;}", "int f(){}int g(){}",
        "int main(){while(i<10){i = i+1;}}", "int main(){for(int i = 0; i<10; i = i+1){}}",
        "int main(){if(a==b){return 1;}else{return 0;}}", "int main(){// note\nreturn 0;}",
        "int main(){/* a * b */return 0;}", "int main(){/**/}", "int main(){print (x, y);}",
        "int main(){x = -y;}", "int main(){x = ( a+b )*c;}", "int main(){x = f(a, g(b));}",
        "int\tmain(){}", "int\nmain(){}", "float _x9(float y){return y/2-1;}", "int main(){if(x!=0){}}",
        "char s(char c){c = c+1;return c;}", "int main(){x = 1;}int other(){return 2;}",
        "int main(){while(a>=b){a = a-b;}}", "int main(){return --x;}", "int   main(){}",
        "int main(){/* line\nbreak */}", "int main(){f\t();}",
    ],
    [
        "int main(){return 0}", "int main() {}", "intmain(){}", "int main(){f(x);}",
        "int main(int a, int b){}", "int main(){x=1;}", "int main(){return(0);}", "int main(){x = (1);}",
        "int main(){/* a **/}", "int main(){// no newline}", "void main(){}", "int main(){x = 1.5;}",
        "int main(){x = 'a';}", "int main(){if(a==b){}else if(c){}}", "int main(){}\n", " int main(){}",
        "int main(){while (x<1){}}", "int main(){x = a && b;}", "int main(){x += 1;}", "int 9x(){}",
        "int main(){int x;}", "int main()", "int main(){return 0;", "int main(){x = f(a,b);}",
        "int main(){for(int i = 0;i<10; i = i+1){}}", "int main(){if(a<b<c){}}", "char c(){return 'a';}",
        # Spaces only where `ws` stands: not around operators.
        "int main(){x = ( a + b ) * c;}",
    ],
)

# "1. " and at least one more numbered line (1-99), two moves a line, each line ending in "\n".
CHESS = (
    [
        "1. e4 e5\n2. Nf3 Nc6\n", "1. d4 d5\n2. c4 dxc4\n", "1. e4 c5\n2. Nf3 d6\n3. d4 cxd4\n",
        "1. O-O O-O-O\n2. Kh1 Kb8\n", "1. e8=Q+ Kxe8\n2. a1=N# b1=R\n", "1. Nbd2 R1e2\n2. Qh4xe7 Bb5+\n",
        "1. e4 e5\n99. a3 h6\n", "1. e4 e5\n10. a3 h6\n", "1. e4 e5\n1. e4 e5\n", "1. Qxf7# Ke7\n2. O-O+ O-O-O#\n",
        "1. a1 h8\n2. b2 g7\n", "1. exd5 exd4\n2. axb8=R hxg1=B\n", "1. Rxe1 Rxe1+\n2. Bxe1 Nxe1\n",
        "1. Ne4 Nf6\n2. Nc3 Bb4\n3. a3 Bxc3+\n4. bxc3 O-O\n", "1. Kd1 Ke8\n20. Kd2 Ke7\n",
        "1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6\n4. Ba4 Nf6\n5. O-O Be7\n", "1. Na1 Nb1\n9. h1=B a8=K\n",
        "1. e4 e5\n2. e5 e6\n3. e6 e7\n", "1. R1a3 Nge7\n2. Qa1b2 Kh1#\n", "1. c4 Nf6\n2. Nc3 e6\n",
        "1. Bxh7+ Kxh7\n2. Ng5+ Kg8\n", "1. e4 e5\n91. f4 exf4\n",
    ],
    [
        "", "1. e4 e5\n", "1. e4 e5\n2. Nf3 Nc6", "1.e4 e5\n2. Nf3 Nc6\n", "1. e4\n2. e5\n",
        "1. e9 e5\n2. d4 d5\n", "1. i4 e5\n2. d4 d5\n", "1. Pe4 e5\n2. d4 d5\n", "1. O-O-O-O e5\n2. d4 d5\n",
        "1. 0-0 e5\n2. d4 d5\n", "1. e4 e5\n0. d4 d5\n", "1. e4 e5\n100. d4 d5\n", "1. e4 e5\n2. d4  d5\n",
        "1. e8=P e5\n2. d4 d5\n", "1. e4+# e5\n2. d4 d5\n", "1. e4 e5 \n2. d4 d5\n", "2. e4 e5\n3. d4 d5\n",
        "1. e4 e5\n2. d4 d5\n\n", "1. exd e5\n2. d4 d5\n", "1. e4 e5\r\n2. d4 d5\r\n", "1. e4 e5\n2... d5 d4\n",
        "1. Nxxf3 e5\n2. d4 d5\n", "1. e4 e5!\n2. d4 d5\n", "1. e4 e5\n2. d4 d5\n3.",
    ],
)

# Words of ASCII letters, digits and the 32 ASCII punctuation characters, one space, tab or
# newline between them.
ENGLISH = (
    [
        "Hello", "Hello, world!", "a", "The quick brown fox.", "line one\nline two", "tab\tseparated",
        "1234567890", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", "e-mail: a@b.c", "It's 5 o'clock.",
        "C:\\path\\to", "[brackets] {braces} (parens)", "a\nb\tc d", "~~~", "A-Z and a-z",
        "multiple words with sixty-four letters in total, or so they say", "----", "100% sure?",
        "x^2 + y^2 = z^2", "#hashtag @mention", "back`tick`", "a,b-c.d",
    ],
    [
        "", " Hello", "Hello ", "Hello  world", "Hello\n", "caf\u00e9", "na\u00efve", "Hello\r\nworld",
        "a\n\nb", "\u65e5\u672c", "emoji \U0001F600", "a\u000bb", "\t", "non breaking\u00a0space",
        "\u201cquoted\u201d", "a\u007fb", "em\u2014dash", "a\u0000b", "\n", "a \tb", "\u00fcber",
        "\ufb01 ligature",
    ],
)

# Hiragana U+3041-309F, katakana U+30A1-30FF, CJK punctuation U+3001-303E, CJK ideographs
# U+4E00-9FFF; one space, tab or newline between words.
JAPANESE = (
    [
        "こんにちは", "こんにちは 世界", "カタカナ", "日本語", "東京は、日本の首都です。", "\u3041", "\u309f",
        "\u30a1", "\u30ff", "\u3001", "\u303e", "\u4e00", "\u9fff", "ー", "「こんにちは」", "一\t二\n三",
        "ひらがな カタカナ 漢字", "ゝゞ", "〜", "・", "。。。", "ヴ", "〇", "々",
    ],
    [
        "", "hello", "日本 ", " 日本", "日本\u3000語", "\u30a0", "\u303f", "\u3040", "\uff71", "\uff01",
        "日本語!", "\U00020000", "\u3400", "\ua000", "日本\r\n語", "日本  語", "日本123", "한국어", "日本\n",
        "\u31f0", "\U0001F600", "\t",
    ],
)

# A JSON object: at most one space, or a newline and up to 20 spaces or tabs, where spaces go;
# integer parts of up to 16 digits; an exponent of one digit and then only 1-9; no "\/".
JSON = (
    [
        "{}", '{"a":1}', '{"a": 1}', '{"a" : 1}', '{ "a":1 }', '{"a":[1,2,3]}', '{"a":{"b":{"c":null}}}',
        '{"s":"\\"\\\\\\b\\f\\n\\r\\t"}', '{"u":"\\u00e9\\uABCD"}', '{"k":"é日本\U0001F600"}',
        '{"n":-0.5e-3}', '{"n":1234567890123456}', '{"n":1e01}', '{"t":true,"f":false,"z":null}',
        '{\n"a": 1\n}', '{\n' + ' ' * 20 + '"a":1}', '{"a":1}\n', '{"a":1} ', '{"":""}', '{"a":[]}',
        '{"a":[{}, [], "x", 0]}', '{"a":' + '[' * 20 + ']' * 20 + '}', '{"n":0}', '{"n":1.0E+2}',
        '{"tab":"\\t","a":"/"}', '{"a":1,\n\t"b":2}', '{"n":-0}', '{"n":1e9}',
    ],
    [
        "", "[]", '{"a":1,}', "{'a':1}", "{a:1}", '{"a":01}', '{"a":1e10}', '{"a":12345678901234567}',
        '{"a":"\\/"}', '{"a":"\\x41"}', '{"a":"\\u12G4"}', '{"a":"tab\there"}', '{"a":"\u007f"}',
        '{"a":  1}', '{"a":1}  ', " {}", '{"a":1}\n\n', '{"a":1}\r\n', '{"a":.5}', '{"a":1.}',
        '{"a":+1}', '{"a":True}', '{"a":NaN}', '{"a" 1}', '{\n' + ' ' * 21 + '"a":1}', '{"a":1}{}',
        '{"a":[1 2]}', '{"a":"unterminated}', '{"a":"\\u00e"}',
    ],
)

# A JSON array opened by "[\n", items separated by ",\n", closed by "]" with nothing after it;
# here an exponent starts with 1-9.
JSON_ARR = (
    [
        "[\n]", "[\n1]", "[\n1,\n2]", '[\n{"a":1},\n{"b":2}]', '[\n"x"]', "[\n1 ]", "[\n 1]", "[\n\n1]",
        "[\n1,\n\n  2]", "[\n1e10]", "[\n-1.5E-7]", "[\ntrue,\nfalse,\nnull]", '[\n[1, 2],\n{"a": [3]}]',
        "[\n{}]", "[\n[]]", '[\n"\\u00e9\\n"]', '[\n"日本語 \U0001F600"]', "[\n0]", "[\n1234567890123456]",
        '[\n{"k": "v"},\n{"k": "w"}\n]', "[\n1,\n 2]", '[\n{"a":{"b":[]}}]', "[\n1e+99]",
    ],
    [
        "", "[]", "[1]", "[\n1,2]", "[\n1, 2]", "[\n1]\n", "[\n1] ", "[\n1,\n]", "[\n1e0]", "[\n1e01]",
        "[\n01]", "[\n1,\n  2]", "[\n1,\n\t2]", "{\n}", "[\r\n1]", '[\n"a\\/b"]', "[\n'a']", "[\nundefined]",
        "[\n12345678901234567]", '[\n"\u001f"]', " [\n1]", "[\n1,\n2", "[\n[1,]]",
    ],
)

# Lines "- " and at least one character other than the line breaks \r \n \x0b \x0c \x85 \u2028
# \u2029, each ending in "\n".
LIST = (
    [
        "- milk\n", "- milk\n- eggs\n", "- a\n", "-  two spaces\n", "- \t\n", "- - nested\n", "- 日本語\n",
        "- \U0001F600 emoji\n", "- café\n", "- \u2027\n", "- \u2030\n", "- \u0084\n", "- \u0086\n",
        "- trailing space \n", "- a\n- b\n- c\n- d\n- e\n", "- \u0000\n", "- \u007f\n", "- #heading\n",
        '- "quoted"\n', "- 1. first\n", "- \u000e\n", "- x\ufeff\n",
    ],
    [
        "", "- milk", "-milk\n", "- \n", "* milk\n", "- milk\r\n", "- a\u000bb\n", "- a\u000cb\n",
        "- a\u0085b\n", "- a\u2028b\n", "- a\u2029b\n", "- milk\n\n", " - milk\n", "- milk\n-eggs\n",
        "- milk\nmore\n", "\n", "- milk\n- ", "\u2014 milk\n", "- a\rb\n", "\u2013 milk\n", "- milk\n- eggs",
        "\ufeff- milk\n",
    ],
)

CANDIDATES = {
    "arithmetic": ARITHMETIC, "c": C, "chess": CHESS, "english": ENGLISH, "japanese": JAPANESE,
    "json": JSON, "json_arr": JSON_ARR, "list": LIST,
}

# Each grammar needs at least this many texts of each verdict.
MINIMUM = 20


def verdict(checker, grammar_file, text):
    """True when the checker finds `text` valid under the grammar in `grammar_file`."""
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as file:
        file.write(text.encode("utf-8"))
        path = file.name
    try:
        return file_verdict(checker, grammar_file, path) == "valid"
    finally:
        os.unlink(path)


def file_verdict(checker, grammar_file, path):
    """The checker's verdict on the text of the file at `path`: "valid"; "prefix" when it read
    every character but the text ends before the grammar lets it; else "invalid"."""
    result = subprocess.run([checker, grammar_file, path], capture_output=True, timeout=60)
    lines = result.stdout.decode("utf-8", "replace").split("\n")
    if result.returncode == 0 and lines[0] == "Input string is valid according to the grammar.":
        return "valid"
    if result.returncode == 0 and lines[0] == "Input string is invalid according to the grammar.":
        return "prefix" if len(lines) > 1 and lines[1].startswith("Error: Unexpected end of input at") else "invalid"
    raise RuntimeError(f"the checker failed on {path} ({grammar_file}): exit {result.returncode}, "
                       f"{result.stdout.decode('utf-8', 'replace')!r} {result.stderr.decode('utf-8', 'replace')!r}")


def grammar_file(checker, grammar):
    return os.path.join(os.path.dirname(os.path.abspath(checker)), "grammars", grammar + ".gbnf")


def line(grammar, text, valid):
    """One fixture line; characters that are invisible or break lines are written as escapes."""
    encoded = json.dumps({"grammar": grammar, "text": text, "valid": valid}, ensure_ascii=False)
    return "".join(
        f"\\u{ord(character):04x}"
        if character != " " and unicodedata.category(character) in ("Cc", "Cf", "Zs", "Zl", "Zp")
        else character
        for character in encoded
    )


def record(checker, fixture):
    lines = []
    failed = False
    for grammar, (valid_texts, invalid_texts) in CANDIDATES.items():
        counts = {True: 0, False: 0}
        for written, texts in ((True, valid_texts), (False, invalid_texts)):
            for text in texts:
                answer = verdict(checker, grammar_file(checker, grammar), text)
                if answer != written:
                    print(f"{grammar}: written as {'valid' if written else 'invalid'}, the checker says "
                          f"{'valid' if answer else 'invalid'}: {text!r}")
                counts[answer] += 1
                lines.append(line(grammar, text, answer))
        print(f"{grammar}: {counts[True]} valid, {counts[False]} invalid")
        if min(counts.values()) < MINIMUM:
            print(f"{grammar}: fewer than {MINIMUM} texts of a verdict", file=sys.stderr)
            failed = True
    if failed:
        return 1
    with open(fixture, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} texts to {fixture}")
    return 0


def check(checker, fixture):
    drifted = 0
    counts = {}
    with open(fixture, encoding="utf-8") as file:
        entries = [json.loads(text) for text in file.read().split("\n") if text]
    for entry in entries:
        answer = verdict(checker, grammar_file(checker, entry["grammar"]), entry["text"])
        counts.setdefault(entry["grammar"], {True: 0, False: 0})[answer] += 1
        if answer != entry["valid"]:
            drifted += 1
            print(f"{entry['grammar']}: the fixture says {'valid' if entry['valid'] else 'invalid'}, the checker "
                  f"says {'valid' if answer else 'invalid'}: {entry['text']!r}")
    for grammar, count in counts.items():
        print(f"{grammar}: {count[True]} valid, {count[False]} invalid")
    if drifted:
        print(f"{drifted} of {len(entries)} recorded verdicts differ from the checker's", file=sys.stderr)
        return 1
    print(f"the checker gives all {len(entries)} texts of the fixture their recorded verdicts")
    return 0


def main(arguments):
    if len(arguments) >= 2 and arguments[0] in ("record", "check") and len(arguments) <= 3:
        fixture = arguments[2] if len(arguments) == 3 else FIXTURE
        return (record if arguments[0] == "record" else check)(arguments[1], fixture)
    if len(arguments) == 4 and arguments[0] == "verdict":
        # A grammar given by name is one of llama.cpp's, beside the checker.
        path = arguments[2] if os.path.exists(arguments[2]) else grammar_file(arguments[1], arguments[2])
        print(file_verdict(arguments[1], path, arguments[3]))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
