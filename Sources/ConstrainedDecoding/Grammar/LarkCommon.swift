/// The terminals of Lark's `common` module, which `%import common.NAME` brings in: each a
/// regular expression of the same language as Lark's definition (`.` there does not match a
/// line break, so neither do these).
enum LarkCommon {
    static let terminals: [String: String] = [
        "DIGIT": #"[0-9]"#,
        "HEXDIGIT": #"[a-fA-F0-9]"#,
        "INT": #"[0-9]+"#,
        "SIGNED_INT": #"[+-]?[0-9]+"#,
        "DECIMAL": #"[0-9]+\.[0-9]*|\.[0-9]+"#,
        "_EXP": #"[eE][+-]?[0-9]+"#,
        "FLOAT": #"[0-9]+[eE][+-]?[0-9]+|(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"#,
        "SIGNED_FLOAT": #"[+-]?(?:[0-9]+[eE][+-]?[0-9]+|(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"#,
        "NUMBER": #"[0-9]+(?:[eE][+-]?[0-9]+)?|(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"#,
        "SIGNED_NUMBER": #"[+-]?(?:[0-9]+(?:[eE][+-]?[0-9]+)?|(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"#,
        "ESCAPED_STRING": #""(?:[^"\\\n]|\\.)*""#,
        "LCASE_LETTER": #"[a-z]"#,
        "UCASE_LETTER": #"[A-Z]"#,
        "LETTER": #"[A-Za-z]"#,
        "WORD": #"[A-Za-z]+"#,
        "CNAME": #"[_A-Za-z][_A-Za-z0-9]*"#,
        "WS_INLINE": #"[ \t]+"#,
        "WS": #"[ \t\f\r\n]+"#,
        "CR": #"\r"#,
        "LF": #"\n"#,
        "NEWLINE": #"(?:\r?\n)+"#,
        "SH_COMMENT": #"#[^\n]*"#,
        "CPP_COMMENT": #"//[^\n]*"#,
        "C_COMMENT": #"/\*[^*]*\*+(?:[^/*][^*]*\*+)*/"#,
        "SQL_COMMENT": #"--[^\n]*"#,
    ]
}
