# workload.py: a Python workload (json, re, zlib, hashlib, exceptions,
# classes); prints a digest of its results (safety-workloads.sh).
import hashlib, json, re, zlib

class Node:
    def __init__(self, n):
        self.n, self.kids = n, [n * 2, n * 3]

h = hashlib.sha256()
for i in range(3000):
    doc = json.dumps({"i": i, "node": Node(i).__dict__, "s": "x" * (i % 50)}, sort_keys=True)
    h.update(zlib.compress(doc.encode()))
    h.update(str(re.findall(r"\d+", doc)).encode())
    try:
        {}[i]
    except KeyError as e:
        h.update(repr(e).encode())
print(h.hexdigest())
