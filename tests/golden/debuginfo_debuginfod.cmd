# Issue 18: a real debuginfod server (Debian's) on 127.0.0.1, on a free port, serving a directory that holds t_args's debug file; t_args stripped, with no debug file on this machine. With DEBUGINFOD_URLS set, tap fetches the DWARF through libdebuginfod into the client's cache (DEBUGINFOD_CACHE_PATH): -L lists the variables, -v names the cached file, a probe reads $a and $b. Once the server is stopped, the client's cache still serves it; without DEBUGINFOD_URLS, nothing does. The server is stopped and its files removed on every path (bounded: 20 s to start).
S=@PROGRAMS@/split/debuginfod
work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
debuginfod --database="$work/db.sqlite" --port="$port" --concurrency=1 --scan-file-dir "$S/serve" >"$work/server.log" 2>&1 &
server=$!
stop() { kill "$server" 2>/dev/null && wait "$server" 2>/dev/null; }
trap 'stop; rm -rf "$work"' EXIT
id=$(readelf -n "$S/t_args" | sed -n 's/^ *Build ID: //p')
for ((i = 0; i < 100; i++)); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/buildid/$id/debuginfo', timeout=2)" 2>/dev/null && break
  sleep 0.2
done
((i < 100)) || { echo "debuginfod did not start:"; cat "$work/server.log"; }
clean() { sed "s|$S/|S/|g; s|$work/client/$id/|CACHE/ID/|; s|@[^\"]*/tests/programs/|@SRC/|g; s/pc=0x[0-9a-f]*/pc=PC/"; }
export DEBUGINFOD_CACHE_PATH=$work/client
DEBUGINFOD_URLS=http://127.0.0.1:$port @TAP@ -v -L "process(\"$S/t_args\").function(\"add\")" 2>&1 | clean
DEBUGINFOD_URLS=http://127.0.0.1:$port @TAP@ -e "probe process(\"$S/t_args\").function(\"add\") { printf(\"%d+%d\n\", \$a, \$b) }" -c "$S/t_args"
stop
DEBUGINFOD_URLS=http://127.0.0.1:$port @TAP@ -L "process(\"$S/t_args\").function(\"add\")" 2>&1 | clean
DEBUGINFOD_URLS= @TAP@ -L "process(\"$S/t_args\").function(\"add\")" 2>&1 | clean
