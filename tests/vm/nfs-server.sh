#!/usr/bin/env bash
# nfs-server.sh: in a test guest (run-in-vm.sh), as root, a kernel NFS server (nfsd) exporting a fresh
# tmpfs and mounted back over loopback with NFSv3 and NFSv4.2, so that a case can make nfsd work.
#
#   nfs-server.sh start DIR MNT3 MNT4   DIR: made a new tmpfs and exported; MNT3, MNT4: its mounts
#   nfs-server.sh stop  DIR MNT3 MNT4   unmounts, unexports, stops nfsd and the daemons start started
#
# Sourced, it defines nfs_server_start and nfs_server_stop (same arguments) instead. Both fail with a
# message on stderr rather than hang: whatever waits on the kernel or a daemon has a timeout
# (NFS_TIMEOUT seconds, default 60: TCG is slow), the mounts are soft. NFS_MOUNT_OPTS adds options
# to both mounts (e.g. noac,lookupcache=none: every access then reaches the server).
#
# For a throw-away guest only: it mounts tmpfs over /var/lib/nfs (the guest's root may be read-only)
# and there is one nfsd per network namespace: one server at a time. Daemons: rpcbind, rpc.mountd.
# Needs nfs-kernel-server (scripts/install-deps.sh). Under TCG a fork costs a good tenth of a second,
# so checks read /proc with bash builtins.

nfs_server_state=/run/tap-nfs-server          # its pids and mounts; there while a server runs
nfs_server_mountd_port=20048                   # fixed, so that the v3 mount need not ask rpcbind

# The bodies run in subshells: exit ends the step, not a shell that sourced this file.
nfs_server_start() (
	set -u
	dir=$1 mnt3=$2 mnt4=$3 t=${NFS_TIMEOUT:-60} state=$nfs_server_state
	# a failed start undoes what it did: a caller that gives up is left no daemons nor mounts
	die() {
		echo "nfs-server.sh start: $*" >&2
		[ -s "$state/log" ] && sed 's/^/  daemon log: /' "$state/log" >&2
		nfs_server_stop "$dir" "$mnt3" "$mnt4"
		exit 1
	}
	# until_ok CMD...: polls CMD until it succeeds; false after NFS_TIMEOUT
	until_ok() { local end=$((SECONDS + t)); until "$@"; do ((SECONDS < end)) || return 1; sleep 0.1; done; }
	# listening PORT: a socket listens on TCP PORT of 127.0.0.1 or any address
	listening() {
		local addr st rest port
		printf -v port '%04X' "$1"
		while read -r _ addr _ st rest; do
			[[ $st == 0A && ($addr == 00000000:$port || $addr == 0100007F:$port) ]] && return 0
		done </proc/net/tcp
		return 1
	}
	grace_ended() { [[ $(</proc/fs/nfsd/v4_end_grace) == Y ]]; }
	# daemon NAME CMD...: CMD (made to stay in the foreground: its pid is then known) in the
	# background, its output in the log (not the caller's stdout: a $(...) around us would wait)
	daemon() { local name=$1; shift; "$@" </dev/null >>"$state/log" 2>&1 & echo "$! $name" >>"$state/pids"; }
	mnt() { mount "$@" && echo "${!#}" >>"$state/mounts"; }   # stop unmounts them, last first

	# mkdir fails if the directory exists: of two starts at once, one fails here and touches nothing
	if ! mkdir "$state" 2>/dev/null; then echo "nfs-server.sh start: a server runs already ($state)" >&2; exit 1; fi
	: >"$state/pids" && : >"$state/mounts" && mkdir -p "$dir" "$mnt3" "$mnt4" /run/rpcbind ||
		die "cannot create $dir, $mnt3, $mnt4 or /run/rpcbind"
	# exportfs and mountd keep their state (etab, rmtab) in /var/lib/nfs; nfsd its NFSv4 clients in
	# v4recovery (the simplest of its client trackers, which ending the grace period needs, below)
	mnt -t tmpfs -o mode=755 tmpfs /var/lib/nfs && mkdir /var/lib/nfs/v4recovery &&
		: >/var/lib/nfs/etab && : >/var/lib/nfs/rmtab || die "cannot mount a tmpfs on /var/lib/nfs"
	mnt -t tmpfs -o mode=777 tmpfs "$dir" || die "cannot mount a tmpfs on $dir"
	# mounting the nfsd filesystem loads the nfsd module (the kernel's request_module: in the guest it
	# finds the guest kernel's modules, where a modprobe run here, in the host's root, does not)
	if ! [ -e /proc/fs/nfsd/threads ]; then
		mnt -t nfsd nfsd /proc/fs/nfsd || die "cannot mount /proc/fs/nfsd (no nfsd module?)"
	fi

	# rpcbind: nfsd and lockd register their v3 services there (rpc.nfsd fails without it)
	daemon rpcbind rpcbind -f
	until_ok listening 111 || die "rpcbind did not listen on port 111 within ${t}s"
	# no_root_squash: the cases run as root; fsid=0: tmpfs has no UUID to name the export by, and DIR
	# is then the root of the server's NFSv4 namespace, which nfsd cannot build from a 9p "/"
	exportfs -i -o rw,sync,no_root_squash,no_subtree_check,insecure,fsid=0 "127.0.0.1:$dir" ||
		die "exportfs of $dir failed"
	# mountd: the v3 MOUNT protocol, and it answers the kernel's export upcalls (v4's too)
	daemon rpc.mountd rpc.mountd -F -u -p "$nfs_server_mountd_port"
	until_ok listening "$nfs_server_mountd_port" ||
		die "rpc.mountd did not listen on port $nfs_server_mountd_port within ${t}s"
	timeout -k 5 "$t" rpc.nfsd -U 4 >>"$state/log" 2>&1 || die "rpc.nfsd failed or timed out"
	read -r v </proc/fs/nfsd/versions
	[[ " $v " == *" +3 "*" +4.2 "* ]] || die "nfsd lacks NFSv3 or NFSv4.2: $v"
	# nfsd refuses NFSv4 opens for a grace period (90 s) in which the clients of its previous run
	# reclaim their state. There are none (v4recovery is new): end it now (the laundromat does, soon).
	echo Y >/proc/fs/nfsd/v4_end_grace || die "cannot end nfsd's NFSv4 grace period"
	until_ok grace_ended || die "nfsd's NFSv4 grace period did not end within ${t}s"

	# soft, retry=0: an NFS call or the mount itself fails (EIO, ETIMEDOUT) rather than hang
	opts=soft,timeo=150,retrans=2,retry=0${NFS_MOUNT_OPTS:+,$NFS_MOUNT_OPTS}
	# nolock: v3 locks would need rpc.statd; the ports: no rpcbind lookups
	timeout -k 5 "$t" mount -t nfs -o "vers=3,proto=tcp,port=2049,mountproto=tcp,mountport=$nfs_server_mountd_port,nolock,$opts" \
		"127.0.0.1:$dir" "$mnt3" || die "NFSv3 mount of 127.0.0.1:$dir on $mnt3 failed or timed out"
	timeout -k 5 "$t" mount -t nfs4 -o "vers=4.2,$opts" 127.0.0.1:/ "$mnt4" ||
		die "NFSv4.2 mount of 127.0.0.1:/ ($dir) on $mnt4 failed or timed out"
)

nfs_server_stop() (
	set -u
	dir=$1 mnt3=$2 mnt4=$3 t=${NFS_TIMEOUT:-60} state=$nfs_server_state rc=0
	warn() { echo "nfs-server.sh stop: $*" >&2; rc=1; }
	ours=() pids=() names=()
	[ -e "$state/mounts" ] && mapfile -t ours <"$state/mounts"
	[ -e "$state/pids" ] && while read -r pid name; do pids+=("$pid") names+=("$name"); done <"$state/pids"
	mounted() { local m rest; while read -r _ m rest; do [ "$m" = "$1" ] && return 0; done </proc/mounts; return 1; }
	# the clients first, while the server still answers their last calls (a dirty page's write)
	for m in "$mnt4" "$mnt3"; do
		mounted "$m" || continue
		timeout -k 5 "$t" umount "$m" || { warn "umount $m failed or timed out; detaching it"; umount -f -l "$m"; }
	done
	[ -d "$state" ] || exit $rc   # no server of ours
	if [ -e /proc/fs/nfsd/threads ]; then
		exportfs -ua || warn "exportfs -ua failed"
		timeout -k 5 "$t" rpc.nfsd 0 || warn "rpc.nfsd 0 failed or timed out"
	fi
	((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
	for i in "${!pids[@]}"; do
		for ((n = 0; n < 10 * t; n++)); do kill -0 "${pids[i]}" 2>/dev/null || continue 2; sleep 0.1; done
		warn "${names[i]} (${pids[i]}) ignored SIGTERM; killing it"
		kill -9 "${pids[i]}"
	done
	# what start mounted, last first
	left=()
	for ((i = ${#ours[@]} - 1; i >= 0; i--)); do mounted "${ours[i]}" && left+=("${ours[i]}"); done
	((${#left[@]} == 0)) || umount "${left[@]}" || warn "umount ${left[*]} failed"
	rm -rf "$state"
	exit $rc
)

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	if [ $# -eq 4 ] && [[ $1 == start || $1 == stop ]]; then
		"nfs_server_$1" "$2" "$3" "$4"
	else
		echo "usage: $0 start|stop DIR MNT3 MNT4" >&2
		exit 2
	fi
fi
