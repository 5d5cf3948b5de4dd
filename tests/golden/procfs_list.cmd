# -l/-L of procfs points: each of read and write a wildcard component matches
# (procfs.* is both, as SystemTap lists it, though one script cannot have both
# on one file), as pp() spells them; -L lists no variables, as SystemTap's
# (its procfs probes have no getargs), though $value is there. A bad point is
# its resolver's error.
@TAP@ -l 'procfs.*'
@TAP@ -L 'procfs("x").read'
@TAP@ -L 'procfs("x").write'
@TAP@ -L 'procfs("a/b").umask(2).*'
@TAP@ -L 'procfs("x").*.maxsize(300)'
@TAP@ -L 'procfs.{read,write}'
@TAP@ -L 'procfs("__stdin").*'
@TAP@ -l 'procfs("/x").read'; echo "rc=$?"
@TAP@ -l 'procfs.open'; echo "rc=$?"
@TAP@ -l 'procfs.read.maxsize(0)'; echo "rc=$?"
