# The nfsd tapset on the kernel's NFS server: tests/vm/nfs-server.sh exports
# a tmpfs and mounts it back over NFSv3 and NFSv4.2 (no attribute or lookup
# cache: each access reaches the server); on each, a file is created,
# written, read back, looked up where it is not, renamed and removed, and a
# directory made. The nfsd.proc3.* and nfsd.proc4.* entries print the
# arguments read from the requests (rq_argp through the module's BTF types,
# NFSv4's from union nfsd4_op_u), client_ip's address, the fh's dentry
# (typed: fh->fh_dentry; NFSv3's handle is verified inside the procedure,
# NFSv4's by the PUTFH before); returns their NFS status (v3's from the result,
# which the kernel fills; NFSv4 returns it), a write's count as written;
# nfsd.rename reads its 7th argument ($tlen) from the stack. Events on the
# case's own names only (the NFSv4 client renews its lease meanwhile), each
# once, sorted.
d=$(mktemp -d); x=$d/export
trap 'bash ../vm/nfs-server.sh stop $x $d/v3 $d/v4; rm -rf $d' EXIT
NFS_MOUNT_OPTS=noac,lookupcache=none bash ../vm/nfs-server.sh start $x $d/v3 $d/v4 || exit 1
cat > $d/ops <<EOS
for v in v3 v4; do
  echo hello > $d/\$v/tap_\$v
  echo 3 > /proc/sys/vm/drop_caches
  cat $d/\$v/tap_\$v > /dev/null
  stat $d/\$v/tap_none_\$v > /dev/null 2>&1
  mv $d/\$v/tap_\$v $d/\$v/tap_\${v}_moved
  rm $d/\$v/tap_\${v}_moved
  mkdir $d/\$v/tap_dir_\$v
done
EOS
# the umbrella aliases resolve (-p2: no compile): NFSv2's, v3's and v4's
# procedures, and the server's VFS calls but nfsd.open (6.1 has two)
@TAP@ -p2 -e 'probe nfsd.proc.entries, nfsd.proc.return, nfsd.entries, nfsd.return {}' | grep -c '^module("nfsd")'
@TAP@ -c "bash $d/ops" -e '
global mine
probe nfsd.proc3.lookup, nfsd.proc3.create, nfsd.proc3.write, nfsd.proc3.read, nfsd.proc3.rename,
      nfsd.proc3.remove, nfsd.proc4.lookup, nfsd.proc4.create, nfsd.proc4.write, nfsd.proc4.read,
      nfsd.proc4.rename, nfsd.proc4.remove {
  # (lookups of the names that exist vary with the revalidations of the client;
  # of one that does not, each stat makes one: no negative lookup cache)
  if ((argstr =~ "^tap_" && (name !~ "lookup" || argstr =~ "^tap_none_")) || name =~ "read|write") {
    mine[tid()] = 1
    printf("%s v%d [%s] uid=%d client=%s dir=%s\n", name, version, argstr, uid,
           client_ip =~ "^127\\.0\\.0\\.1:[0-9]+$" ? "127.0.0.1:PORT" : client_ip,
           fh->fh_dentry ? d_name(fh->fh_dentry) : "(not verified yet)")
  }
}
probe nfsd.proc3.lookup.return, nfsd.proc4.lookup.return, nfsd.proc3.create.return,
      nfsd.proc4.create.return, nfsd.proc3.rename.return, nfsd.proc4.rename.return,
      nfsd.proc3.remove.return, nfsd.proc4.remove.return, nfsd.proc3.read.return, nfsd.proc4.read.return {
  if (mine[tid()]) printf("%s %s\n", name, retstr)
  delete mine[tid()]
}
probe nfsd.proc3.write.return, nfsd.proc4.write.return {
  printf("%s %s written %d\n", name, retstr, count)
  delete mine[tid()]
}
probe nfsd.rename { printf("%s [%s] %d %d fh %s\n", name, argstr, filelen, tlen, fh =~ "^[0-9]+: [0-9a-f]{8} " ? "ok" : fh) }
' | sort -u
echo "tap: ${PIPESTATUS[0]}"
