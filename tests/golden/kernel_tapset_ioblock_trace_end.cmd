# ioblock_trace.end (block_bio_complete: fired for bio-based devices only,
# none on this machine) compiles with every variable it sets.
@TAP@ -p4 -o /dev/null -e 'probe ioblock_trace.end { printf("%s %s %d %d %d %d %d %d %d\n", name, devname, q, ino, rw, bytes_done, sector, size, p_start_sect) }' && echo compiled
