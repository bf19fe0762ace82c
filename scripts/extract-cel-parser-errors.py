#!/usr/bin/env python3
# Extracts the error cases of cel-go's parser/parser_test.go (inputs, parser
# options and the expected error display; data only) for the parser error
# test in crates/dra-core/src/cel/parse_errors.rs:
#   git -C MIRROR show v0.27.0:parser/parser_test.go > /tmp/pt.go
#   python3 scripts/extract-cel-parser-errors.py /tmp/pt.go v0.27.0 > testdata/cel-upstream/parser-errors.json
# Cases whose options Kubernetes never sets (custom macros, the old
# accumulator name, macro-call tracking only) are left out.
import json, re, sys

src = open(sys.argv[1]).read()
start = src.index('var testCases = []testInfo{')
end = src.index('\n}\n', start)
body = src[start:end]


def go_string(text):
    """A Go string literal (raw or interpreted) at the start of text, and its length."""
    if text.startswith('`'):
        close = text.index('`', 1)
        return text[1:close], close + 1
    m = re.match(r'"((?:[^"\\]|\\.)*)"', text)
    return json.loads('"' + m.group(1).replace("\\'", "'") + '"'), m.end()


def string_expr(text):
    """A Go string expression: literals joined with +, across lines."""
    out, i = '', 0
    while True:
        while text[i] in ' \t\n':
            i += 1
        s, n = go_string(text[i:])
        out += s
        i += n
        rest = text[i:]
        m = re.match(r'\s*\+\s*', rest)
        if not m:
            return out
        i += m.end()


# Top-level entries of the slice: lines "\t{" ... "\t},".
entries = re.split(r'\n\t\{\n', body)[1:]
cases, skipped = [], 0
for blk in entries:
    blk = '\n' + blk.split('\n\t},')[0]
    if '\n\t\tE:' not in blk:
        continue
    i = blk.index('\n\t\tI:') + len('\n\t\tI:')
    expr = string_expr(blk[i:])
    j = blk.index('\n\t\tE:') + len('\n\t\tE:')
    expect = string_expr(blk[j:])
    opts = {}
    o = blk.find('Opts:')
    if o >= 0:
        text = blk[o:blk.index('\n\t\tE:') if blk.index('\n\t\tE:') > o else len(blk)]
        known = {
            'EnableOptionalSyntax': 'optionalSyntax',
            'EnableIdentEscapeSyntax': 'identEscapeSyntax',
            'ErrorRecoveryLimit': 'errorRecoveryLimit',
            'ErrorRecoveryLookaheadTokenLimit': 'lookaheadLimit',
            'ErrorReportingLimit': 'errorReportingLimit',
            'MaxRecursionDepth': 'maxRecursionDepth',
        }
        calls = re.findall(r'(\w+)\(([^()]*)\)', text)
        ok = True
        for name, arg in calls:
            if name in ('Option',):
                continue
            if name not in known:
                ok = False
                break
            opts[known[name]] = json.loads(arg) if arg in ('true', 'false') else int(arg)
        if not ok:
            skipped += 1
            continue
    cases.append((expr, opts, expect))

print(json.dumps({
    'about': [
        'cel-go ' + sys.argv[2] + ' parser/parser_test.go: every case that expects parse errors',
        '(input I, options, expected ToDisplayString E; compared without whitespace as',
        "cel-go's test.Compare does). The test parser's defaults: all macros,",
        'MaxRecursionDepth 32, ErrorRecoveryLimit 4, ErrorRecoveryLookaheadTokenLimit 4,',
        'optional and escaped-identifier syntax off. Extracted by',
        'scripts/extract-cel-parser-errors.py, data only; %d cases with options' % skipped,
        'Kubernetes never sets were left out.',
    ],
    'cases': [dict(input=e, **({'options': o} if o else {}), expect=x) for e, o, x in cases],
}, indent=1, ensure_ascii=False))
