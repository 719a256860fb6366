# Shared by the loopback test scripts (scripts/test-streaming.sh, scripts/test-streaming-hls.sh); sourced
# after `script_name=NAME`: a work directory, the server pids to stop on exit, fail, free_port, wait_http.
# shellcheck shell=bash
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    [ -n "${KEEP_WORK:-}" ] && { echo "kept $work"; return; }
    rm -rf "$work"
}
trap cleanup EXIT

fail() {
    echo "$script_name: FAIL: $*" >&2
    for log in "$work"/*.log; do [ -s "$log" ] && { echo "--- $log" >&2; tail -20 "$log" >&2; }; done
    exit 1
}

# A free TCP port on 127.0.0.1 (bounded tries).
free_port() {
    local port
    for _ in $(seq 1 50); do
        port=$((20000 + RANDOM % 20000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    return 1
}

# Waits (at most $2 seconds) until URL $1 answers 200.
wait_http() {
    local deadline=$((SECONDS + $2))
    while [ $SECONDS -lt "$deadline" ]; do
        if curl -s -o /dev/null -f --max-time 2 "$1"; then return 0; fi
        sleep 0.2
    done
    return 1
}

# start_nginx TYPES SERVERS [HTTP]: writes $work/nginx.conf — one unprivileged worker in the foreground,
# its temporary folders and log under $work, the MIME line TYPES (the inside of a `types { }` block), the
# `server { }` blocks SERVERS and optional http-level directives HTTP (a log_format) — starts $NGINX on it
# and adds its pid to those stopped on exit.
start_nginx() {
    mkdir -p "$work/nginx"
    cat >"$work/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx.log warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    types { $1 }
    default_type application/octet-stream;
${3:-}
$2
}
CONF
    "$NGINX" -c "$work/nginx.conf" -e "$work/nginx.log" >>"$work/nginx.log" 2>&1 &
    pids+=($!)
}
