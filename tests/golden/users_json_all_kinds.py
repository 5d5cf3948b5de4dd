# Checks tap --format=json output (spec/output.md, "Machine-readable output"):
# every stdout line must be one JSON object with the fields of its type.
# Usage: python3 users_json_all_kinds.py FILE...  (prints what it found)
import json
import sys

FIELDS = {
    "printf": {"type", "data"},
    "map": {"type", "name", "data"},
    "hist": {"type", "name", "data"},
    "global": {"type", "name", "value"},
    "lost": {"type", "count"},
}

for path in sys.argv[1:]:
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            print(f"{path}:{number}: not JSON ({e}): {line!r}")
            continue
        kind = obj.get("type")
        if kind not in FIELDS or set(obj) != FIELDS[kind]:
            print(f"{path}:{number}: unexpected object {obj}")
            continue
        if kind == "printf":
            print(f"printf {obj['data']!r}")
        elif kind == "lost":
            print("lost " + ("> 0" if isinstance(obj["count"], int) and obj["count"] > 0 else repr(obj["count"])))
        elif kind == "hist":
            ok = all(set(b) == {"min", "max", "count"} for b in obj["data"])
            rows = " ".join(f"{b['min']}..{b['max']}:{b['count']}" for b in obj["data"])
            print(f"hist {obj['name']} {rows}" + ("" if ok else " BAD BUCKET"))
        elif kind == "map":
            rows = " ".join(f"{json.dumps(e['key'])}={json.dumps(e['value'], sort_keys=True)}" for e in obj["data"])
            print(f"map {obj['name']} {rows}")
        else:
            print(f"global {obj['name']}={json.dumps(obj['value'], sort_keys=True)}")
