#!/usr/bin/env python3
"""Hostile servers and files that change under us (issue 21): runs `audioinspect` (a debug build: some
cases use its test hooks) against loopback servers that misbehave on purpose, and against files that
shrink, grow or have hostile names, and checks the clean outcome of each case: exit status, the error
line, a time bound and a peak-memory bound, and nothing raw reaching the terminal.

Every server listens on 127.0.0.1 (an ephemeral port), is bounded in bytes and in time, and stops by
itself; every run of audioinspect is killed when it passes its time bound (and the case fails).
Needs python3 and openssl (the TLS cases make their certificates; scripts/test-hostile.sh installs both
with apt when they are missing).

    scripts/test_hostile.py [--binary PATH] [--only REGEX] [--list]

Each case names the defect of issue 21 it covers (1-10), or "ok" for what behaved well before and
must keep doing so. docs/testing.md, "Hostile servers and changing files", lists them.
"""
import argparse
import gzip
import json
import os
import random
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Fixtures")
MP3 = os.path.join(FIXTURES, "mpeg/mp3-44100-2ch-concat.mp3")
WAV = os.path.join(FIXTURES, "wav/pcm_s16le-8000-1ch.wav")
ADTS = os.path.join(FIXTURES, "adts/aac-44100-2ch.aac")

# Peak resident memory allowed for one run (debug build; its floor is about 25-30 MiB). The memory
# defects took the process to gigabytes.
RSS_BOUND_MIB = 150
# What a terminal must never receive raw from the input: C0 controls other than LF, DEL, C1 (as UTF-8),
# the bidi overrides and isolates (as UTF-8).
RAW_CONTROLS = re.compile(
    rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c|\xe2\x80[\x8e\x8f]")


# ---------------------------------------------------------------------------------------------------
# Servers

class Server:
    """A TCP (or TLS) server on 127.0.0.1 that calls `handler(conn, index, server)` for each accepted
    connection, in its own thread. It stops by itself after `connections` connections or `lifetime`
    seconds, whichever comes first; handlers send through `send`, bounded by `max_bytes` in all and by the
    lifetime. `requests` keeps the request heads received (at most 64 KiB each)."""

    def __init__(self, handler, connections=1, lifetime=20.0, max_bytes=2 << 30, tls=None, backlog=8,
                 accept=True, process=False):
        self.handler, self.connections, self.tls = handler, connections, tls
        self.deadline = time.monotonic() + lifetime
        self.max_bytes, self.sent = max_bytes, 0
        self.requests, self.lock = [], threading.Lock()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(backlog)
        self.port = self.sock.getsockname()[1]
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        self.stopped = threading.Event()
        self.threads = []
        self.child = None
        if accept and process:
            # In a child process (`requests` stays empty here): what it allocates does not count in the
            # peak memory wait4 reports for audioinspect, which Linux starts from this process's.
            self.child = os.fork()
            if self.child == 0:
                try:
                    self._accept()
                    for t in self.threads:
                        t.join(timeout=max(0, self.deadline - time.monotonic()))
                finally:
                    os._exit(0)
            self.sock.close()
        elif accept:
            t = threading.Thread(target=self._accept, daemon=True)
            t.start()
            self.threads.append(t)

    def _accept(self):
        self.sock.settimeout(0.2)
        index = 0
        while index < self.connections and not self.stopped.is_set() and time.monotonic() < self.deadline:
            try:
                conn, _ = self.sock.accept()
            except socket.timeout:
                continue
            except OSError:
                break
            t = threading.Thread(target=self._serve, args=(conn, index), daemon=True)
            t.start()
            self.threads.append(t)
            index += 1
        self.sock.close()

    def _serve(self, conn, index):
        try:
            conn.settimeout(max(0.1, self.deadline - time.monotonic()))
            if self.tls:
                try:
                    conn = self.tls.wrap_socket(conn, server_side=True)
                except (ssl.SSLError, OSError):
                    with self.lock:
                        self.requests.append(b"<TLS handshake refused by the client>")
                    return
            head = self.read_head(conn)
            if head is None:
                return
            with self.lock:
                self.requests.append(head)
            self.handler(conn, index, self)
        except (OSError, ssl.SSLError):
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    def read_head(self, conn):
        data = b""
        while b"\r\n\r\n" not in data and len(data) < 65536:
            try:
                chunk = conn.recv(4096)
            except (OSError, ssl.SSLError):
                return None
            if not chunk:
                return None
            data += chunk
        return data

    def send(self, conn, data):
        """Sends `data` unless the byte budget or the lifetime is spent; False when it is (or the peer
        went away)."""
        if self.stopped.is_set() or time.monotonic() > self.deadline or self.sent + len(data) > self.max_bytes:
            return False
        try:
            conn.sendall(data)
        except (OSError, ssl.SSLError):
            return False
        self.sent += len(data)
        return True

    def hold(self, seconds):
        """Waits (a stalled server) at most `seconds` and not past the lifetime."""
        end = min(self.deadline, time.monotonic() + seconds)
        while not self.stopped.is_set() and time.monotonic() < end:
            time.sleep(0.05)

    def close(self):
        if self.child:
            try:
                os.kill(self.child, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self.child, 0)
            self.child = None
        self.stopped.set()
        try:
            self.sock.close()
        except OSError:
            pass
        for t in self.threads:
            t.join(timeout=5)


def respond(head, body=b"", close=True):
    """A handler that answers `head` (a str) and `body`."""
    def handler(conn, index, server):
        server.send(conn, head.encode("latin-1") + body)
    return handler


# ---------------------------------------------------------------------------------------------------
# Running audioinspect

class Run:
    def __init__(self, status, signal_number, stdout, stderr, seconds, rss_mib, timed_out):
        self.status, self.signal, self.stdout, self.stderr = status, signal_number, stdout, stderr
        self.seconds, self.rss_mib, self.timed_out = seconds, rss_mib, timed_out

    def describe(self):
        what = f"killed by signal {self.signal}" if self.signal else f"status {self.status}"
        if self.timed_out:
            what = "timed out (killed)"
        return f"{what}, {self.seconds:.2f} s, {self.rss_mib:.0f} MiB"


def run(binary, args, timeout, env=None, stdin=None, interrupt_after=None, keep=8 << 20):
    """Runs `binary args`; kills it after `timeout` s. `stdin`: bytes, or a callable(pipe) run in a
    thread. `interrupt_after`: send SIGINT after that many seconds. Keeps at most `keep` bytes of each
    output. Peak memory from wait4's ru_maxrss."""
    environment = dict(os.environ)
    environment.update(env or {})
    start = time.monotonic()
    process = subprocess.Popen([binary] + args, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
    outputs = {1: bytearray(), 2: bytearray()}

    def drain(stream, key):
        while True:
            chunk = stream.read(65536)
            if not chunk:
                break
            if len(outputs[key]) < keep:
                outputs[key] += chunk[:keep - len(outputs[key])]
    readers = [threading.Thread(target=drain, args=(process.stdout, 1), daemon=True),
               threading.Thread(target=drain, args=(process.stderr, 2), daemon=True)]
    for r in readers:
        r.start()
    if stdin is not None:
        def feed():
            try:
                if callable(stdin):
                    stdin(process.stdin)
                else:
                    process.stdin.write(stdin)
                process.stdin.close()
            except (BrokenPipeError, OSError, ValueError):
                pass
        threading.Thread(target=feed, daemon=True).start()
    timed_out = threading.Event()

    def killer():
        if interrupt_after is not None:
            if not done.wait(interrupt_after):
                try:
                    os.kill(process.pid, signal.SIGINT)
                except ProcessLookupError:
                    pass
        if not done.wait(max(0, timeout - (time.monotonic() - start))):
            timed_out.set()
            try:
                os.kill(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    done = threading.Event()
    threading.Thread(target=killer, daemon=True).start()
    _, wait_status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    done.set()
    process.returncode = 0  # reaped by wait4
    for r in readers:
        r.join(timeout=5)
    status = os.WEXITSTATUS(wait_status) if os.WIFEXITED(wait_status) else None
    sig = os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else None
    result = Run(status, sig, bytes(outputs[1]), bytes(outputs[2]), seconds, usage.ru_maxrss / 1024,
                 timed_out.is_set())
    LAST_RUNS.append(result)
    return result


# The runs of the current case (the summary line shows the last one's status, time and peak memory).
LAST_RUNS = []


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def expect(r, status, seconds, stderr=None, rss=RSS_BOUND_MIB, stdout=None):
    """The common assertions: no signal, no timeout, the status, the time and memory bounds, the error
    line (a regular expression over standard error), no raw control character on either output."""
    check(not r.timed_out, f"did not end within its time bound ({r.describe()})")
    check(r.signal is None, f"killed by signal {r.signal}")
    statuses = status if isinstance(status, (set, tuple, list)) else {status}
    check(r.status in statuses, f"exit status {r.status}, expected {sorted(statuses)}; stderr: {r.stderr[-300:]!r}")
    check(r.seconds <= seconds, f"took {r.seconds:.1f} s (bound {seconds} s)")
    check(r.rss_mib <= rss, f"peak memory {r.rss_mib:.0f} MiB (bound {rss} MiB)")
    if stderr is not None:
        check(re.search(stderr.encode() if isinstance(stderr, str) else stderr, r.stderr, re.I | re.M),
              f"standard error {r.stderr[-400:]!r} does not match {stderr!r}")
    if stdout is not None:
        check(re.search(stdout.encode(), r.stdout, re.M), f"standard output does not match {stdout!r}")
    for name, text in (("standard output", r.stdout), ("standard error", r.stderr)):
        raw = RAW_CONTROLS.search(text)
        check(raw is None, f"raw control character {raw.group(0)!r} on {name}" if raw else "")


# ---------------------------------------------------------------------------------------------------
# Inputs

def read(path):
    with open(path, "rb") as f:
        return f.read()


def icy_block(text):
    """An ICY metadata block: length byte and NUL-padded metadata."""
    data = text.encode("utf-8")
    data += b"\0" * (-len(data) % 16)
    assert len(data) <= 255 * 16
    return bytes([len(data) // 16]) + data


def chunked(data, sizes=(1000,)):
    out, i, k = b"", 0, 0
    while i < len(data):
        n = min(len(data) - i, sizes[k % len(sizes)])
        out += b"%x\r\n" % n + data[i:i + n] + b"\r\n"
        i, k = i + n, k + 1
    return out


def wav_with_title(title):
    """A 16-bit mono 8 kHz WAVE with a LIST/INFO INAM (title) tag and 100 frames."""
    fmt = b"fmt " + (16).to_bytes(4, "little") + (1).to_bytes(2, "little") + (1).to_bytes(2, "little") + \
        (8000).to_bytes(4, "little") + (16000).to_bytes(4, "little") + (2).to_bytes(2, "little") + \
        (16).to_bytes(2, "little")
    name = title.encode("utf-8") + b"\0"
    if len(name) % 2:
        name += b"\0"
    info = b"INFO" + b"INAM" + len(name).to_bytes(4, "little") + name
    lst = b"LIST" + len(info).to_bytes(4, "little") + info
    data = b"data" + (200).to_bytes(4, "little") + bytes(200)
    body = b"WAVE" + fmt + lst + data
    return b"RIFF" + len(body).to_bytes(4, "little") + body


HOSTILE_TEXT = "Evil\x1b]0;pwned\x07\x1b[2J\x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\\u009b31m\u202eTXT.exe\u2066\r\x08Fake"


class Context:
    def __init__(self, binary, work):
        self.binary, self.work = binary, work
        self.certs = None

    def local_json(self, path):
        r = run(self.binary, ["--json", path], 60)
        return strip_source(r.stdout)


def strip_source(text):
    return b"\n".join(line for line in text.split(b"\n") if not line.startswith(b'  "source"'))


def make_certificates(work):
    """A test CA and leaves for 127.0.0.1 (trusted through AUDIOINSPECT_TEST_CA_FILE), a self-signed
    leaf, a leaf from another CA, and a leaf for another host name (from the test CA)."""
    d = os.path.join(work, "certs")
    os.makedirs(d, exist_ok=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    def ossl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=d, timeout=60)

    def ca(name):
        ossl("req", "-x509", *ec, "-keyout", f"{name}.key", "-out", f"{name}.pem", "-days", "3650",
             "-subj", f"/CN=audioinspect test {name}", "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign")

    def leaf(name, issuer, san):
        ossl("req", *ec, "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", "/CN=audioinspect test leaf")
        with open(os.path.join(d, f"{name}.ext"), "w") as f:
            f.write(f"subjectAltName={san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
        ossl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{issuer}.pem", "-CAkey", f"{issuer}.key",
             "-CAcreateserial", "-out", f"{name}.pem", "-days", "3650", "-extfile", f"{name}.ext")
    ca("ca")
    ca("otherca")
    leaf("leaf", "ca", "IP:127.0.0.1,DNS:localhost")
    leaf("otherleaf", "otherca", "IP:127.0.0.1,DNS:localhost")
    leaf("wronghost", "ca", "DNS:other.example")
    ossl("req", "-x509", *ec, "-keyout", "self.key", "-out", "self.pem", "-days", "3650",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1")

    def context(name):
        c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        c.load_cert_chain(os.path.join(d, f"{name}.pem"), os.path.join(d, f"{name}.key"))
        return c
    return {"ca": os.path.join(d, "ca.pem"), "leaf": context("leaf"), "otherleaf": context("otherleaf"),
            "wronghost": context("wronghost"), "self": context("self")}


# ---------------------------------------------------------------------------------------------------
# Cases: each takes the context and raises Failure; `CASES` lists (name, defect, function).

CASES = []


def case(name, defect):
    def register(function):
        CASES.append((name, defect, function))
        return function
    return register


def with_server(server, body):
    try:
        return body(server)
    finally:
        server.close()


# 1. Negative lengths and chunk sizes crashed the process (SIGILL).

@case("content-length-minus-1", "1")
def _(ctx):
    s = Server(respond("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", read(MP3)))
    r = with_server(s, lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15))
    expect(r, 1, 10, stderr=r"^audioinspect: error io: cannot get '.*': .*content-length")


for _name, _size, _follow in (("chunk-size-minus-1", "-1", False),
                              ("chunk-size-minus-7FFFFFFFFFFFFFFF", "-7FFFFFFFFFFFFFFF", False),
                              ("chunk-size-minus-1-follow", "-1", True),
                              ("chunk-size-17-hex-digits", "1" + "0" * 16, False)):
    def _chunk_case(ctx, size=_size, follow=_follow):
        body = chunked(read(MP3)[:5000]) + size.encode() + b"\r\n" + read(MP3)
        s = Server(respond("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", body))
        args = ["--follow", "--max-seconds", "10"] if follow else []
        r = with_server(s, lambda s: run(ctx.binary, args + [s.url + "/a.mp3"], 15))
        expect(r, 1, 10, stderr=r"^audioinspect: error io at offset \d+: cannot read '.*': .*chunk")
    case(_name, "ok" if _name.endswith("digits") else "1")(_chunk_case)


# 2. ICY titles were kept forever (2 GB in 20 s), one summary line per block instead of per change.

_FLOODS = {}


def icy_flood(distinct):
    """icy-metaint: 1 and a full 4,080-byte metadata block after every audio byte (the MP3 fixture,
    cycled), for 12 s or 2 GiB, as fast as the client reads. Each block is `StreamTitle='…';` followed by
    677 short fields (`a='b';`), and its title differs from the one before when `distinct`: a client that
    keeps every block keeps several times the bytes it reads, which shows within seconds even in a debug
    build (the issue saw 2 GB in 20 s with plain 4 KB titles). The body of one pass over the fixture
    (about 100 MB) is made once, in the server process."""
    def make():
        audio = read(MP3)
        fields = "a='b';" * 677
        blocks = [icy_block((f"StreamTitle='T{n if distinct else 0:07d}';" + fields)[:4080]) for n in range(256)]
        return b"".join(audio[n:n + 1] + blocks[n % 256] for n in range(len(audio)))

    def handler(conn, index, server):
        if not server.send(conn, b"HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nicy-metaint: 1\r\n\r\n"):
            return
        body = memoryview(_FLOODS.setdefault(distinct, make()))
        while True:
            for start in range(0, len(body), 1 << 18):
                if not server.send(conn, body[start:start + (1 << 18)]):
                    return
    return Server(handler, lifetime=12, process=True)


# The peak memory allowed while a title flood plays for 10 s (a debug build's floor with the HTTP stack is
# about 25 MiB; keeping every block passed 100 MiB in 10 s here, and a helper queue that kept the chunks
# it had handed out, while a slower reader never let it empty, grew 6-7 MiB/s to 75-94 MiB).
FLOOD_RSS_MIB = 50


@case("icy-title-flood-summary", "2")
def _(ctx):
    r = with_server(icy_flood(True), lambda s: run(ctx.binary, ["--max-seconds", "10", s.url + "/live"], 20))
    expect(r, 0, 14, rss=FLOOD_RSS_MIB)
    titles = r.stdout.count(b"\nStream title  T")
    check(0 < titles <= 1000, f"{titles} title lines (at most 1,000 kept)")
    check(b"more changes" in r.stdout or titles < 1000, "no '… and N more changes' line")


@case("icy-identical-titles-follow", "2")
def _(ctx):
    r = with_server(icy_flood(False),
                    lambda s: run(ctx.binary, ["--follow", "--max-seconds", "10", s.url + "/live"], 20))
    expect(r, 0, 14, rss=FLOOD_RSS_MIB)
    check(r.stdout.count(b"\nTitle ") == 1, f"{r.stdout.count(b'Title ')} title lines for one title")


@case("icy-title-lines-per-change", "2")
def _(ctx):
    mp3 = read(MP3)
    titles = ["A", "A", "A", "B", "B", "A"]
    body = b""
    for k, start in enumerate(range(0, len(mp3), 1000)):
        chunk = mp3[start:start + 1000]
        body += chunk
        if len(chunk) < 1000:
            break
        body += icy_block(f"StreamTitle='{titles[k]}';") if k < len(titles) else b"\0"
    s = Server(respond("HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nIcy-MetaInt: 1000\r\n\r\n", body))
    r = with_server(s, lambda s: run(ctx.binary, [s.url + "/live"], 15))
    expect(r, 0, 10)
    lines = re.findall(rb"^Stream title  (\S+)  \(audio offset (\d+)\)$", r.stdout, re.M)
    check([t for t, _ in lines] == [b"A", b"B", b"A"], f"title lines {lines}")


# 3. A 100 MB chunk-size line was buffered and rescanned (146 MB, 58 s of CPU, then `typ?`).

@case("chunk-size-line-100MiB", "3")
def _(ctx):
    def handler(conn, index, server):
        server.send(conn, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        zeros = b"0" * (1 << 20)
        for _ in range(100):
            if not server.send(conn, zeros):
                return
    r = with_server(Server(handler, lifetime=30), lambda s: run(ctx.binary, [s.url + "/a.mp3"], 30))
    expect(r, 1, 20, stderr=r"^audioinspect: error io at offset 0: cannot read '.*': the connection closed before "
                            r"the end of the body")


# 4. Request splitting through a redirect's Location; local targets.

def redirect_server(location, then=None, connections=3):
    """The first request gets a 302 to `location`; later ones get `then` (a response) or a 404."""
    def handler(conn, index, server):
        if index == 0:
            server.send(conn, b"HTTP/1.1 302 Found\r\nLocation: " + location + b"\r\nContent-Length: 0\r\n\r\n")
        else:
            server.send(conn, then or b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
    return Server(handler, connections=connections, lifetime=10)


def well_formed_requests(server):
    """Every request the server got has a request line `GET <target> HTTP/1.1` and no injected header."""
    for head in server.requests:
        line = head.split(b"\r\n", 1)[0]
        check(re.fullmatch(rb"GET [\x21-\x7e]+ HTTP/1\.1", line), f"malformed request line {line!r}")
        check(b"X-Injected" not in head and b"POST" not in head, f"injected request: {head!r}")


# Each target must be refused before a request is sent for it (by the response parser, which refuses a
# control character in a header value, or by the redirect check), and every request the server gets must
# be one well-formed GET line: (name, Location, the error line's pattern).
for _name, _location, _stderr in (
        ("redirect-bare-lf-in-location", b"/next\nX-Injected: yes\n\nPOST /admin/delete HTTP/1.1",
         r"^audioinspect: error io: cannot get "),
        ("redirect-space-in-location", b"/next HTTP/1.0",
         r"redirect to '/next HTTP/1\.0' refused: the target contains a space"),
        ("redirect-control-character-in-location", b"/x\x1b]0;pwned\x07", r"^audioinspect: error io: cannot get ")):
    def _redirect_case(ctx, location=_location, stderr=_stderr):
        s = redirect_server(location)
        r = with_server(s, lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15))
        expect(r, 1, 10, stderr=stderr)
        well_formed_requests(s)
        check(len(s.requests) == 1, f"{len(s.requests)} requests: the refused target was requested")
    case(_name, "4")(_redirect_case)


@case("redirect-loop", "ok")
def _(ctx):
    def handler(conn, index, server):
        server.send(conn, b"HTTP/1.1 302 Found\r\nLocation: /again\r\nContent-Length: 0\r\n\r\n")
    s = Server(handler, connections=50, lifetime=10)
    r = with_server(s, lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15))
    expect(r, 1, 10, stderr=r"redirect")
    check(len(s.requests) <= 7, f"{len(s.requests)} requests for a redirect loop")


for _name, _target in (("redirect-to-file-url", b"file:///etc/passwd"), ("redirect-to-ftp-url", b"ftp://127.0.0.1/x")):
    def _scheme_case(ctx, target=_target):
        s = redirect_server(target)
        r = with_server(s, lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15))
        expect(r, 1, 10, stderr=r"^audioinspect: error io: cannot get ")
        check(len(s.requests) == 1, f"{len(s.requests)} requests")
    case(_name, "ok")(_scheme_case)


@case("redirect-to-another-local-port-is-followed", "4 (documented)")
def _(ctx):
    wav = read(WAV)
    target = Server(respond(f"HTTP/1.1 200 OK\r\nContent-Length: {len(wav)}\r\n\r\n", wav))
    s = redirect_server(f"http://localhost:{target.port}/b.wav".encode())
    try:
        r = run(ctx.binary, ["--json", s.url + "/a.wav"], 15)
    finally:
        s.close()
        target.close()
    expect(r, 0, 10)
    check(strip_source(r.stdout) == ctx.local_json(WAV), "the redirected document differs from the file's")


# 5. Terminal escape injection; JSON let C1 and bidi controls through.

def icy_title_server(title, name="Station"):
    mp3 = read(MP3)
    body = mp3[:1000] + icy_block(f"StreamTitle='{title}';") + mp3[1000:2000] + b"\0" + mp3[2000:3000]
    head = (b"HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nicy-metaint: 1000\r\nicy-name: " +
            name.encode("utf-8") + b"\r\n\r\n")
    return Server(lambda conn, index, server: server.send(conn, head + body), connections=1)


@case("escapes-in-icy-title-summary", "5")
def _(ctx):
    r = with_server(icy_title_server(HOSTILE_TEXT), lambda s: run(ctx.binary, [s.url + "/live"], 15))
    expect(r, 0, 10, stdout=r"Stream title  Evil\\x1B\]0;pwned\\x07")


@case("escapes-in-icy-title-and-name-follow", "5")
def _(ctx):
    r = with_server(icy_title_server(HOSTILE_TEXT, name="Radio \u009b2J\u202e"),
                    lambda s: run(ctx.binary, ["--follow", "--max-seconds", "10", s.url + "/live"], 15))
    expect(r, 0, 12, stdout=r"^Station       Radio \\u\{9B\}2J\\u\{202E\}$")
    check(b"Title         Evil\\x1B" in r.stdout, "title line not escaped visibly")


@case("escapes-in-icy-title-follow-json", "5")
def _(ctx):
    r = with_server(icy_title_server(HOSTILE_TEXT),
                    lambda s: run(ctx.binary, ["--follow", "--json", "--max-seconds", "10", s.url + "/live"], 15))
    expect(r, 0, 12)
    titles = [json.loads(line) for line in r.stdout.splitlines() if b'"event":"title"' in line]
    check([t["title"] for t in titles] == [HOSTILE_TEXT], f"titles {titles}")
    check(b"\\u009b" in r.stdout and b"\\u202e" in r.stdout, "C1/bidi not escaped in JSON")


@case("escapes-in-redirect-url-error", "5")
def _(ctx):
    # C1 CSI and RLO as UTF-8 (a response parser lets obs-text through in header values).
    s = redirect_server(b"/x\xc2\x9b2J\xe2\x80\xae")
    r = with_server(s, lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15))
    expect(r, 1, 10, stderr=r"/x\\u\{9B\}2J\\u\{202E\}")


@case("escapes-in-file-name", "5")
def _(ctx):
    name = os.path.join(ctx.work, "a\x1b]0;pwned\x07\u202egnp.wav")
    shutil.copyfile(WAV, name)
    r = run(ctx.binary, [name], 15)
    expect(r, 0, 10, stdout=r"^Source +.*a\\x1B\]0;pwned\\x07\\u\{202E\}gnp\.wav$")
    missing = run(ctx.binary, [name + "\x1b[2J"], 15)
    expect(missing, 1, 10, stderr=r"cannot open '.*\\x1B\[2J'")


@case("escapes-in-file-tags", "5")
def _(ctx):
    path = os.path.join(ctx.work, "tag.wav")
    with open(path, "wb") as f:
        f.write(wav_with_title(HOSTILE_TEXT))
    r = run(ctx.binary, [path], 15)
    expect(r, 0, 10, stdout=r"title: Evil\\x1B\]0;pwned\\x07")
    j = run(ctx.binary, ["--json", path], 15)
    expect(j, 0, 10)
    check(json.loads(j.stdout)["metadata"].get("title") == HOSTILE_TEXT, "the JSON title does not read back")


# 6. A file truncated while it is read crashed with SIGBUS (12 of 20 runs).

def adts_file(path, size):
    """ADTS frames (the fixture repeated) up to `size` bytes: the parser touches every frame header."""
    frames = read(ADTS)
    with open(path, "wb") as f:
        written = 0
        while written < size:
            f.write(frames)
            written += len(frames)


@case("file-truncated-while-read-x30", "6")
def _(ctx):
    source = os.path.join(ctx.work, "long.aac")
    adts_file(source, 24 << 20)
    # How long a whole parse takes here: truncations are spread over it.
    whole = run(ctx.binary, ["--no-progress", source], 60)
    expect(whole, 0, 60)
    rng = random.Random(21)
    path = os.path.join(ctx.work, "shrinking.aac")
    hit = 0
    for i in range(30):
        shutil.copyfile(source, path)
        delay = rng.uniform(0, whole.seconds * 0.8)
        cut = rng.choice([4096, 1 << 20, 5 << 20])

        def truncate_later():
            time.sleep(delay)
            os.truncate(path, cut)
        t = threading.Thread(target=truncate_later)
        t.start()
        r = run(ctx.binary, ["--no-progress", path], 60)
        t.join()
        check(r.signal is None, f"run {i + 1}: killed by signal {r.signal} (truncated to {cut} after {delay:.3f} s)")
        expect(r, (0, 1), 60)
        if r.status == 1:
            check(re.search(rb"shrank while it was read", r.stderr), f"run {i + 1}: {r.stderr!r}")
            hit += 1
    check(hit > 0, "no run saw the truncation (the race was never hit)")
    print(f"    {hit} of 30 runs were cut while reading (an io error), the others finished first", flush=True)


@case("scan-files-truncated-while-read-x10", "6")
def _(ctx):
    """A library scan reads several files at once, each thread with its own guarded mapping: files cut
    while other threads read theirs give io errors in their documents, never a crash, and the scan goes on."""
    source = os.path.join(ctx.work, "long.aac")
    if not os.path.exists(source):
        adts_file(source, 24 << 20)
    library = os.path.join(ctx.work, "scan-shrinking")
    os.makedirs(library, exist_ok=True)
    names = [os.path.join(library, f"{i}.aac") for i in range(4)]
    whole = run(ctx.binary, ["--no-progress", "--jsonl", "--jobs", "4", "-r", source], 60)
    expect(whole, 0, 60)
    rng = random.Random(20)
    hit = 0
    for i in range(10):
        for name in names:
            shutil.copyfile(source, name)
        victims = rng.sample(names, 2)
        delay = rng.uniform(0, whole.seconds * 3)

        def truncate_later():
            time.sleep(delay)
            for v in victims:
                os.truncate(v, 1 << 20)
        t = threading.Thread(target=truncate_later)
        t.start()
        r = run(ctx.binary, ["--no-progress", "--jsonl", "--jobs", "4", "-r", library], 120)
        t.join()
        check(r.signal is None, f"run {i + 1}: killed by signal {r.signal}")
        expect(r, (0, 1), 120)
        docs = [json.loads(line) for line in r.stdout.splitlines()]
        check([d["source"] for d in docs] == sorted(names), f"run {i + 1}: sources {[d['source'] for d in docs]}")
        for d in docs:
            if "error" in d:
                check(d["source"] in victims and "shrank while it was read" in d["error"]["message"],
                      f"run {i + 1}: {d['source']}: {d['error']}")
                hit += 1
    check(hit > 0, "no run saw a truncation (the race was never hit)")
    print(f"    {hit} files of 10 scans were cut while reading (io errors), the scans went on", flush=True)


@case("scan-progress-only-on-a-terminal", "files")
def _(ctx):
    """A long scan shows its progress line when standard error is a terminal (a pty here), never with
    --no-progress (and never when it is a pipe: AudioInspectTests)."""
    import pty
    source = os.path.join(ctx.work, "long.aac")
    if not os.path.exists(source):
        adts_file(source, 24 << 20)
    library = os.path.join(ctx.work, "scan-progress")
    os.makedirs(library, exist_ok=True)
    # 20 names of one 24 MiB file (hard links): the scan lasts well over the half second before the line.
    for i in range(20):
        name = os.path.join(library, f"{i:02d}.aac")
        if not os.path.exists(name):
            os.link(source, name)

    def on_terminal(extra):
        master, slave = pty.openpty()
        p = subprocess.Popen([ctx.binary, "--jsonl", "--jobs", "1", "-r", *extra, library],
                             stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
        os.close(slave)
        out, _ = p.communicate(timeout=120)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        os.close(master)
        check(p.returncode == 0 and len(out.splitlines()) == 20, f"status {p.returncode}, {len(out.splitlines())} lines")
        return seen
    shown = on_terminal([])
    check(re.search(rb"audioinspect: \d+ of 20 files \(\d+%\), \d+ files/s, 0 errors", shown), f"no progress line: {shown[:200]!r}")
    check(shown.endswith(b"\r\x1b[K"), f"the line was not erased at the end: {shown[-40:]!r}")
    check(on_terminal(["--no-progress"]) == b"", "a progress line with --no-progress")


@case("scan-hostile-names", "5,9")
def _(ctx):
    """Names found in a directory are opened by their bytes (not UTF-8: shown as \\xNN) and sanitized."""
    library = os.path.join(ctx.work.encode(), b"scan-names")
    os.makedirs(library, exist_ok=True)
    shutil.copyfile(WAV, os.path.join(library, b"caf\xe9.wav"))
    shutil.copyfile(WAV, os.path.join(library, b"evil\x1b]0;pwned\x07.wav"))
    r = run(ctx.binary, ["-r", library], 15)
    expect(r, 0, 10, stdout=r"Source +.*caf\\xE9\.wav")
    check(b"\x1b" not in r.stdout and b"evil\\x1B]0;pwned\\x07.wav" in r.stdout, f"unsanitized: {r.stdout[:300]!r}")
    j = run(ctx.binary, ["--jsonl", "-r", library], 15)
    expect(j, 0, 10)
    sources = [json.loads(line)["source"] for line in j.stdout.splitlines()]
    check(any(s.endswith("caf\\xE9.wav") for s in sources) and any(s.endswith("evil\x1b]0;pwned\x07.wav") for s in sources),
          f"sources {sources!r}")
    check(b"\x1b" not in j.stdout, "a raw ESC in the JSON Lines output")


@case("file-growing-while-read", "files")
def _(ctx):
    path = os.path.join(ctx.work, "growing.aac")
    adts_file(path, 4 << 20)
    size = os.path.getsize(path)
    stop = threading.Event()
    frames = read(ADTS) * 64

    def grow():
        end = time.monotonic() + 8
        with open(path, "ab") as f:
            while not stop.is_set() and time.monotonic() < end and f.tell() < (512 << 20):
                f.write(frames)
                f.flush()
    t = threading.Thread(target=grow)
    t.start()
    try:
        r = run(ctx.binary, ["--json", path], 30)
    finally:
        stop.set()
        t.join()
    # Read to the size at open (4 MiB: a fraction of a second), not chasing the writer for seconds.
    expect(r, 0, 1.0)
    parsed = json.loads(r.stdout)["parsed"]["bytes"]
    check(parsed < os.path.getsize(path), "read to the end of a file that kept growing")
    check(parsed >= size - len(read(ADTS)), f"parsed {parsed} of at least {size} bytes")


# 7. A chunked body cut before its last chunk was reported as complete (exit 0; curl exits 18).

@case("chunked-body-cut-before-last-chunk", "7")
def _(ctx):
    s = Server(respond("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", chunked(read(MP3))))
    r = with_server(s, lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15))
    expect(r, 1, 10, stderr=r"^audioinspect: error io at offset \d+: cannot read '.*': the connection closed before "
                            r"the end of the body")


@case("chunked-body-cut-before-last-chunk-follow", "7")
def _(ctx):
    s = Server(respond("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", chunked(read(MP3))))
    r = with_server(s, lambda s: run(ctx.binary, ["--follow", s.url + "/a.mp3"], 15))
    expect(r, 1, 10, stderr=r"closed before the end of the body")


@case("content-length-body-cut", "ok")
def _(ctx):
    mp3 = read(MP3)
    s = Server(respond(f"HTTP/1.1 200 OK\r\nContent-Length: {len(mp3) + 1000}\r\n\r\n", mp3))
    r = with_server(s, lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15))
    expect(r, 1, 10, stderr=r"^audioinspect: error io at offset \d+: ")


@case("chunked-body-complete", "ok")
def _(ctx):
    mp3 = read(MP3)
    s = Server(respond("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                       chunked(mp3, (1, 997, 13, 4096)) + b"0\r\n\r\n"))
    r = with_server(s, lambda s: run(ctx.binary, ["--json", s.url + "/a.mp3"], 15))
    expect(r, 0, 10)
    check(strip_source(r.stdout) == ctx.local_json(MP3), "the document differs from the file's")


# 8. No connect timeout (134 s), --max-seconds ignored while waiting for the head, no idle timeout.

@case("connect-timeout-bounded-by-max-seconds", "8")
def _(ctx):
    # A listener whose accept queue is full: Linux drops further SYNs, as a filtering firewall does.
    s = Server(None, backlog=0, accept=False, lifetime=30)
    fillers = []
    for _ in range(4):
        c = socket.socket()
        c.setblocking(False)
        c.connect_ex(("127.0.0.1", s.port))
        fillers.append(c)
    time.sleep(0.3)
    try:
        r = run(ctx.binary, ["--max-seconds", "3", s.url + "/a.mp3"], 20)
    finally:
        for c in fillers:
            c.close()
        s.close()
    expect(r, 1, 6, stderr=r"^audioinspect: error io: cannot get '.*': cannot connect to .*timed out")


@case("head-timeout-bounded-by-max-seconds", "8")
def _(ctx):
    s = Server(lambda conn, index, server: server.hold(30), lifetime=30)
    r = with_server(s, lambda s: run(ctx.binary, ["--max-seconds", "3", s.url + "/a.mp3"], 20))
    expect(r, 1, 6, stderr=r"no response in time \(--max-seconds\)")


def stalled_body(tls=None):
    mp3 = read(MP3)

    def handler(conn, index, server):
        if server.send(conn, f"HTTP/1.1 200 OK\r\nContent-Length: {len(mp3)}\r\n\r\n".encode() + mp3[:3000]):
            server.hold(30)
    return Server(handler, lifetime=30, tls=tls)


@case("idle-timeout-http", "8")
def _(ctx):
    r = with_server(stalled_body(), lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15,
                                                  env={"AUDIOINSPECT_TEST_IDLE_SECONDS": "2"}))
    expect(r, 1, 8, stderr=r"^audioinspect: error io at offset 3000: .*no data from the server for 2 s")


@case("idle-timeout-https", "8")
def _(ctx):
    r = with_server(stalled_body(ctx.certs["leaf"]),
                    lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15,
                                  env={"AUDIOINSPECT_TEST_IDLE_SECONDS": "2", "AUDIOINSPECT_TEST_CA_FILE": ctx.certs["ca"]}))
    expect(r, 1, 8, stderr=r"^audioinspect: error io at offset 3000: .*no data from the server for 2 s")


@case("stalled-body-ends-at-max-seconds", "ok")
def _(ctx):
    r = with_server(stalled_body(), lambda s: run(ctx.binary, ["--max-seconds", "2", s.url + "/a.mp3"], 15))
    expect(r, 0, 6)


# 9. A file name that is not UTF-8 could not be opened.

@case("non-utf8-file-name", "9")
def _(ctx):
    name = os.path.join(ctx.work.encode(), b"caf\xe9.wav")
    shutil.copyfile(WAV, name)
    r = run(ctx.binary, [name], 15)
    expect(r, 0, 10, stdout=r"^Source +.*caf\\xE9\.wav$")


# 10. `100 Continue` before the 200 was taken as the final status.

@case("100-continue-before-200", "10")
def _(ctx):
    wav = read(WAV)
    s = Server(respond("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n"
                       f"HTTP/1.1 200 OK\r\nContent-Length: {len(wav)}\r\n\r\n", wav))
    r = with_server(s, lambda s: run(ctx.binary, ["--json", s.url + "/a.wav"], 15))
    expect(r, 0, 10)
    check(strip_source(r.stdout) == ctx.local_json(WAV), "the document differs from the file's")


# What behaved well before and must keep doing so.

@case("endless-header-line", "ok")
def _(ctx):
    def handler(conn, index, server):
        server.send(conn, b"HTTP/1.1 200 OK\r\nX-Endless: ")
        block = b"a" * (1 << 20)
        for _ in range(256):
            if not server.send(conn, block):
                return
    r = with_server(Server(handler, lifetime=15), lambda s: run(ctx.binary, [s.url + "/a.mp3"], 20))
    expect(r, 1, 10, stderr=r"^audioinspect: error io: cannot get ")


@case("100000-headers", "ok")
def _(ctx):
    head = "HTTP/1.1 200 OK\r\n" + "".join(f"X-H{i}: v\r\n" for i in range(100000)) + "Content-Length: 0\r\n\r\n"
    r = with_server(Server(respond(head), lifetime=15), lambda s: run(ctx.binary, [s.url + "/a.mp3"], 20))
    expect(r, 1, 10, stderr=r"^audioinspect: error io: cannot get ")


_BOMB = []


def gzip_bomb():
    """1 GiB of zeros, gzip-compressed (about 1 MiB), made once."""
    if not _BOMB:
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
        zeros = bytes(1 << 20)
        _BOMB.append(b"".join([compressor.compress(zeros) for _ in range(1024)] + [compressor.flush()]))
    return _BOMB[0]


for _name, _tls in (("gzip-bomb-1GiB-http", False), ("gzip-bomb-1GiB-https", True)):
    def _bomb_case(ctx, tls=_tls):
        bomb = gzip_bomb()
        s = Server(respond("HTTP/1.1 200 OK\r\nContent-Type: audio/mpeg\r\nContent-Encoding: gzip\r\n"
                           f"Content-Length: {len(bomb)}\r\n\r\n", bomb), tls=ctx.certs["leaf"] if tls else None)
        r = with_server(s, lambda s: run(ctx.binary, [s.url + "/a.mp3"], 20,
                                         env={"AUDIOINSPECT_TEST_CA_FILE": ctx.certs["ca"]}))
        expect(r, 1, 10, stderr=r"^audioinspect: error io: cannot get '.*': the response has Content-Encoding 'gzip'")
        check(b"accept-encoding: identity" in s.requests[0].lower(), "the request did not ask for identity")
    case(_name, "ok")(_bomb_case)


for _name, _cert in (("self-signed-certificate-rejected", "self"), ("untrusted-ca-rejected", "otherleaf"),
                     ("wrong-host-name-rejected", "wronghost")):
    def _tls_case(ctx, cert=_cert):
        mp3 = read(MP3)
        s = Server(respond(f"HTTP/1.1 200 OK\r\nContent-Length: {len(mp3)}\r\n\r\n", mp3), tls=ctx.certs[cert])
        r = with_server(s, lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15,
                                         env={"AUDIOINSPECT_TEST_CA_FILE": ctx.certs["ca"]}))
        expect(r, 1, 10, stderr=r"^audioinspect: error io: cannot get '.*': .*(certificate|TLS|handshake)")
        check(not any(h.startswith(b"GET") for h in s.requests), "a request was sent over the refused connection")
    case(_name, "ok")(_tls_case)


@case("https-trusted-test-ca", "ok")
def _(ctx):
    wav = read(WAV)
    s = Server(respond(f"HTTP/1.1 200 OK\r\nContent-Length: {len(wav)}\r\n\r\n", wav), tls=ctx.certs["leaf"])
    r = with_server(s, lambda s: run(ctx.binary, ["--json", s.url + "/a.wav"], 15,
                                     env={"AUDIOINSPECT_TEST_CA_FILE": ctx.certs["ca"]}))
    expect(r, 0, 10)
    check(strip_source(r.stdout) == ctx.local_json(WAV), "the document differs from the file's")


@case("icy-200-ok-status-line", "ok")
def _(ctx):
    mp3 = read(MP3)
    body = mp3[:1000] + icy_block("StreamTitle='Shoutcast';") + mp3[1000:]
    s = Server(respond("ICY 200 OK\r\nicy-name:Old Shoutcast\r\nicy-metaint:1000\r\nicy-pub:0\r\n\r\n", body),
               connections=2)
    r = with_server(s, lambda s: run(ctx.binary, ["--follow", "--json", s.url + "/"], 15))
    expect(r, 0, 10)
    events = [json.loads(line) for line in r.stdout.splitlines()]
    check(events[0].get("icyName") == "Old Shoutcast", f"stream event {events[0]}")
    check([e["title"] for e in events if e["event"] == "title"] == ["Shoutcast"], "title not seen")
    check(events[-1]["event"] == "end" and events[-1]["reason"] == "end", f"end event {events[-1]}")


# ^C prints the partial summary in human mode.

@case("interrupt-prints-partial-summary-stdin", "files")
def _(ctx):
    mp3 = read(MP3)

    def feed(pipe):
        pipe.write(mp3[:12000])
        pipe.flush()
        time.sleep(8)
    r = run(ctx.binary, ["-"], 15, stdin=feed, interrupt_after=1.5)
    expect(r, 130, 5, stderr=r"^audioinspect: error intr at offset 12000: interrupted",
           stdout=r"^File type +MPG3")


@case("interrupt-prints-partial-summary-url", "files")
def _(ctx):
    mp3 = read(MP3)

    def handler(conn, index, server):
        if server.send(conn, f"HTTP/1.1 200 OK\r\nContent-Length: {len(mp3)}\r\n\r\n".encode() + mp3[:12000]):
            server.hold(20)
    r = with_server(Server(handler, lifetime=20), lambda s: run(ctx.binary, [s.url + "/a.mp3"], 15,
                                                                 interrupt_after=1.5))
    expect(r, 130, 5, stderr=r"error intr at offset 12000: interrupted", stdout=r"^File type +MPG3")


# ---------------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="audioinspect to test (default: the debug build's)")
    parser.add_argument("--only", help="run the cases whose name matches this regular expression")
    parser.add_argument("--list", action="store_true", help="list the cases")
    options = parser.parse_args()
    if options.list:
        for name, defect, _ in CASES:
            print(f"{defect:>14}  {name}")
        return 0
    binary = options.binary
    if not binary:
        bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                                  check=True).stdout.strip()
        binary = os.path.join(bin_path, "audioinspect")
    selected = [c for c in CASES if not options.only or re.search(options.only, c[0])]
    work = tempfile.mkdtemp(prefix="audioinspect-hostile-")
    ctx = Context(binary, work)
    failures = []
    started = time.monotonic()
    try:
        ctx.certs = make_certificates(work)
        for name, defect, function in selected:
            t = time.monotonic()
            LAST_RUNS.clear()
            try:
                function(ctx)
                last = f"; last run: {LAST_RUNS[-1].describe()}" if LAST_RUNS else ""
                print(f"PASS  {name}  (defect {defect}, {time.monotonic() - t:.1f} s{last})", flush=True)
            except Failure as failure:
                failures.append(name)
                print(f"FAIL  {name}  (defect {defect}): {failure}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"test_hostile.py: {len(selected) - len(failures)} of {len(selected)} cases passed "
          f"in {time.monotonic() - started:.0f} s" + (f"; failed: {', '.join(failures)}" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
