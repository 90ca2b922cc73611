"""Checks the Python samples of the docs against the jsii assembly: every construct, struct, enum
member and static method they name exists, and every keyword argument is the snake_case name of a
real prop (required props present). Usage: check_python_samples.py ASSEMBLY.json SAMPLE.py..."""
import ast
import json
import re
import sys


def snake(name):
    return re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), name)


def main():
    assembly = json.load(open(sys.argv[1]))
    types = assembly["types"]

    def props(fqn):
        t = types.get(fqn, {})
        out = list(t.get("properties", []))
        for base in t.get("interfaces", []):
            out += props(base)
        return out

    # Python name (`platform.Organization`, `SecretValue`) -> jsii type
    by_name = {fqn[len("cdk-converge."):]: t for fqn, t in types.items() if fqn.startswith("cdk-converge.")}
    errors = []
    for file in sys.argv[2:]:
        tree = ast.parse(open(file).read(), file)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            dotted = ast.unparse(node)
            head, _, last = dotted.rpartition(".")
            if head in by_name:
                t = by_name[head]
                members = {snake(m["name"]) for m in t.get("methods", []) if m.get("static")}
                members |= {m["name"] for m in t.get("members", [])}
                members |= {snake(p["name"]) for p in t.get("properties", []) if p.get("static")}
                if last not in members:
                    errors.append(f"{file}:{node.lineno}: {head} has no {last}")
            elif dotted.split(".")[0] in ("platform", "secrets", "mesh") and dotted.count(".") == 1 and dotted not in by_name:
                errors.append(f"{file}:{node.lineno}: cdk_converge has no {dotted}")
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func)
            t = by_name.get(name)
            if t is None:
                continue
            if t["kind"] == "class":
                params = (t.get("initializer") or {}).get("parameters", [])
                struct = params[-1]["type"].get("fqn") if params else None
            elif t["kind"] == "interface" and t.get("datatype"):
                struct = "cdk-converge." + name
            else:
                continue
            fields = {snake(p["name"]): p for p in props(struct)} if struct else {}
            given = {k.arg for k in node.keywords if k.arg}
            for k in sorted(given - set(fields)):
                errors.append(f"{file}:{node.lineno}: {name} has no prop {k} (props: {', '.join(sorted(fields))})")
            for k, p in fields.items():
                if not p.get("optional") and k not in given:
                    errors.append(f"{file}:{node.lineno}: {name} needs {k}")
    if errors:
        print("\n".join(errors))
    sys.exit(1 if errors else 0)


main()
