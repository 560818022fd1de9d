#!/usr/bin/env python3
"""Write dsl/tokpidjin/list.h, the tokpidjin primitive table, to stdout.

usage: gen_list.py FUNCTIONS.tsv [DSL.py] > list.h

FUNCTIONS.tsv is shared/notes/tokpidjin-functions.tsv (one row per public
name: argc, safe default, body same as arc-dsl's or not, alias_of).
With DSL.py (tokpidjin's dsl.py) every arity is checked against the last
`def` of that name (positional parameters; later defs win, as in Python)
and parameters with defaults are emitted as TKOPT lines.  DSL.py is only
parsed with ast, never executed.

The output was generated once and is now maintained by hand; rerun this
only to diff against a new TSV.
"""
import ast
import csv
import sys

RET = {
    "frozenset()": "RET_FSET",
    "()": "RET_TUPLE",
    "0": "RET_INT",
    "False": "RET_BOOL",
    "safe_callable": "RET_CALLABLE",
}

# Not in dsl.py: the corpus imports it from a batt_gpu shim (golden/README.md).
SHIMS = [("batch_process_samples_gpu", 1, "RET_TUPLE", 0,
          "CPU path: (apply(first,S), apply(second,S), mapply(p_g,.), mapply(p_g,.))")]


def last_defs(path):
    """name -> (positional count, [(param, default source)]) for the last def."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            a = node.args
            pos = a.posonlyargs + a.args
            if a.vararg or a.kwarg or a.kwonlyargs:
                sys.exit(f"{node.name}: *args/**kw/kw-only not representable")
            dflt = [(p.arg, ast.unparse(d))
                    for p, d in zip(pos[len(pos) - len(a.defaults):], a.defaults)]
            out[node.name] = (len(pos), dflt)
    return out


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    with open(argv[1], encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    defs = last_defs(argv[2]) if len(argv) == 3 else None

    tk, alias, opt = [], [], []
    for r in rows:
        name, target, argc = r["name"], r["alias_of"], int(r["argc"])
        if defs is not None:
            real = target or name
            if real not in defs:
                sys.exit(f"{name}: no def {real} in dsl.py")
            if defs[real][0] != argc:
                sys.exit(f"{name}: TSV argc {argc} != dsl.py {defs[real][0]}")
            if not target:
                need = argc - len(defs[name][1])
                for p, d in defs[name][1]:
                    opt.append(f"TKOPT({name}, {need}, {p}, {d})")
        if target:
            alias.append(f"TKALIAS({name}, {target})")
            continue
        ret = RET[r["safe_default"]]
        fn = f"ad_{name}" if r["body_vs_arc_dsl"] == "same" else f"tk_{name}"
        tk.append(f"TK({name}, {argc}, {ret}, {fn}, NONE, NONE)")

    w = sys.stdout.write
    w("/* tokpidjin primitives (pierreb4/tokpidjin dsl.py): TK(name, arity, return\n"
      " * default, C function, GPU op, shape rule); the function is arc-dsl's ad_NAME\n"
      " * where the body is the same, else tk_NAME.  The return default\n"
      " * is what the safe wrapper yields when the call raises.  Hand-maintained;\n"
      " * first written by gen_list.py from shared/notes/tokpidjin-functions.tsv.\n"
      " *\n"
      " * TKALIAS(alias, target): a second name bound to the same function.\n"
      " * TKOPT(name, min_arity, param, default): a trailing parameter with a\n"
      " * default, so calls with min_arity..arity arguments are valid.\n"
      " * TKALIAS and TKOPT expand to nothing unless the includer defines them. */\n")
    for m, params in (("TKALIAS", "alias, target"), ("TKOPT", "name, min, param, dflt")):
        w(f"#ifndef {m}\n#define {m}({params})\n#define {m}_LOCAL_\n#endif\n")
    w("\n")
    for line in tk:
        w(line + "\n")
    w("\n")
    for name, ar, ret, same, why in SHIMS:
        w(f"/* not in dsl.py; imported by corpus batts from a shim. {why} */\n")
        w(f"TK({name}, {ar}, {ret}, {'ad_' + name if same else 'tk_' + name}, NONE, NONE)\n")
    w("\n")
    for line in alias:
        w(line + "\n")
    if opt:
        w("\n")
        for line in opt:
            w(line + "\n")
    w("\n")
    for m in ("TKALIAS", "TKOPT"):
        w(f"#ifdef {m}_LOCAL_\n#undef {m}\n#undef {m}_LOCAL_\n#endif\n")


if __name__ == "__main__":
    main(sys.argv)
