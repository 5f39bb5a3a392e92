#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The progress line (cli/common/progress.h) on a real pseudo-terminal.

tests/cli/cli_progress.py BINDIR GEN_BENCH

On a terminal (a pty from python's pty module) spe-load, spe-export,
spe-report --html, spe-dump --records and spe-query FILE.data draw one line on stderr, redrawn in
place with carriage returns, its share rising to at most 100 %, and erase it
before any other message; in a pipe nothing is drawn; --no-progress draws
nothing on a terminal; --progress off a terminal writes whole lines.  A
SIGINT while the line is up leaves the line erased before "interrupted", the
exit status 130 and the database as it was (spe-load), or the records
printed so far (spe-dump).  The records a command writes are the same on a
terminal and in a pipe.
"""
import hashlib
import os
import pty
import re
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import time

BIN, GEN = (os.path.abspath(a) for a in sys.argv[1:3])
RUN = shlex.split(os.environ.get("SPE_RUN", ""))  # qemu-user for the aarch64 build
failures = 0


def check(cond, what, detail=""):
    global failures
    if cond:
        print("ok   " + what)
    else:
        failures += 1
        print("FAIL " + what + (": " + detail if detail else ""))


def on_pty(argv, env=None, stdout_file=None, interrupt_when=None, signals=1):
    """Run @argv with stderr (and stdout, unless @stdout_file) on a new pty.
    interrupt_when: a regex; once the pty shows it, SIGINT is sent.
    Returns (exit status, bytes the pty showed)."""
    e = dict(os.environ)
    e.update(env or {})
    e.setdefault("COLUMNS", "120")
    pid, fd = pty.fork()
    if pid == 0:
        if stdout_file:
            out = os.open(stdout_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, 1)
            os.close(out)
        try:
            os.execvpe((RUN + argv)[0], RUN + argv, e)
        finally:
            os._exit(127)
    shown = bytearray()
    sent = False
    deadline = time.time() + 600
    while time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the child closed the pty
                break
            if not chunk:
                break
            shown += chunk
        if interrupt_when and not sent and re.search(interrupt_when, shown[-4096:]):
            if signals == 1:
                os.kill(pid, signal.SIGINT)
            else:
                # three stop signals at once (the third exits at once, cli_signals.h): sent while the
                # command is stopped, and of three kinds, so none merges with another; SIGINT is taken first
                os.kill(pid, signal.SIGSTOP)
                for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
                    os.kill(pid, sig)
                os.kill(pid, signal.SIGCONT)
            sent = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    if interrupt_when:
        check(sent, "%s: the line came before the end, and SIGINT was sent" % os.path.basename(argv[0]))
    return os.waitstatus_to_exitcode(status), bytes(shown).replace(b"\r\n", b"\n")


def in_pipe(argv, env=None, stdout_file=None):
    e = dict(os.environ)
    e.update(env or {})
    out = open(stdout_file, "wb") if stdout_file else subprocess.PIPE
    p = subprocess.run(RUN + argv, env=e, stdout=out, stderr=subprocess.PIPE)
    if stdout_file:
        out.close()
    return p.returncode, p.stderr


def lines_drawn(shown, prog):
    """The progress lines the pty shows: each drawn after a carriage return."""
    return [m.group(1) for m in re.finditer(rb"\r(" + prog.encode() + rb": [^\r\n]*?) *(?=\r|$)", shown)
            if re.search(rb"records|sections|writing", m.group(1))]


def shares(lines):
    return [int(m.group(1)) for m in (re.search(rb": (\d+)%, ", l) for l in lines) if m]


def erased_before(shown, message):
    """The last progress line is erased (CR, blanks, CR) right before @message."""
    i = shown.find(message)
    return i > 0 and re.search(rb"\r +\r$", shown[:i]) is not None


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


tmp = tempfile.mkdtemp(prefix="spe-progress-")
os.chdir(tmp)
subprocess.run(RUN + [GEN, "--perf-data=small.data", ".", "300000", "2000", "200"], check=True,
               stdout=subprocess.DEVNULL)
subprocess.run(RUN + [GEN, "--perf-data=big.data", ".", "1500000", "20000", "2000"], check=True,
               stdout=subprocess.DEVNULL)
load, export, report, dump = (os.path.join(BIN, c) for c in ("spe-load", "spe-export", "spe-report", "spe-dump"))
now = {"SPE_PROGRESS_DELAY": "0"}

# spe-load on a terminal: the line, rising, then the end-of-load step, erased before the counts
st, shown = on_pty([load, "small.data", "-o", "t.db", "--symfs=."], now)
drawn = lines_drawn(shown, "spe-load")
check(st == 0, "spe-load on a pty exits 0", str(st))
check(len(drawn) >= 2, "spe-load on a pty draws the line", repr(shown[:300]))
pct = shares(drawn)
check(pct and pct == sorted(pct) and pct[-1] <= 100 and pct[0] > 0, "its share rises, within 1..100 %", str(pct))
check(any(b"records/s" in l and b"left" in l for l in drawn), "it says records/s and the time left", repr(drawn))
check(any(b"writing the summaries" in l for l in drawn), "then the end-of-load step", repr(drawn))
check(erased_before(shown, b"spe-load: small.data: 300000 records;"), "erased before the counts",
      repr(shown[-400:]))

# in a pipe: nothing drawn (the same messages otherwise)
os.remove("t.db")
st, err = in_pipe([load, "small.data", "-o", "t.db", "--symfs=."], now)
check(st == 0 and b"\r" not in err and b"records/s" not in err and b"300000 records;" in err,
      "spe-load in a pipe: no progress line", repr(err[:300]))

# --no-progress on a terminal: none; the default 2 s delay is honoured (a longer one: none)
os.remove("t.db")
st, shown = on_pty([load, "small.data", "-o", "t.db", "--symfs=.", "--no-progress"], now)
check(st == 0 and not lines_drawn(shown, "spe-load") and b"300000 records;" in shown,
      "--no-progress on a pty: no line", repr(shown[:300]))
os.remove("t.db")
st, shown = on_pty([load, "small.data", "-o", "t.db", "--symfs=."], {"SPE_PROGRESS_DELAY": "3600"})
check(st == 0 and not lines_drawn(shown, "spe-load"), "work shorter than the delay: no line", repr(shown[:300]))

# --progress off a terminal: whole lines, no carriage return
os.remove("t.db")
st, err = in_pipe([load, "small.data", "-o", "t.db", "--symfs=.", "--progress"], now)
whole = [l for l in err.split(b"\n") if b"writing the summaries" in l or b"records/s" in l]
check(st == 0 and whole and b"\r" not in err, "--progress in a pipe: whole lines", repr(err[:400]))

# SIGINT while the line is up: erased before "interrupted", 130, the database as it was
before = sha("t.db")
st, shown = on_pty([load, "big.data", "-o", "t.db", "--force", "--symfs=."], now, interrupt_when=rb"records/s")
check(st == 130, "spe-load stopped by SIGINT exits 130", str(st))
check(erased_before(shown, b"spe-load: interrupted; t.db left unchanged"), "the line erased before 'interrupted'",
      repr(shown[-300:]))
check(sha("t.db") == before, "the database is as it was")
check(not [f for f in os.listdir(".") if f.startswith(".t.db") or f.startswith("t.db-")],
      "no temporary left", str(os.listdir(".")))

# three stop signals (out at once, cli_signals.h): the line ended by a newline, the database as it was
st, shown = on_pty([load, "big.data", "-o", "t.db", "--force", "--symfs=."], now, interrupt_when=rb"records/s",
                   signals=3)
tail = shown[shown.rfind(b"\rspe-load: big.data: "):]
check(st == 130, "three stop signals: exit 130 at once", str(st))
check(tail.endswith(b"\n") and tail.count(b"\n") == 1 and b"interrupted" not in tail,
      "the line on screen ended by a newline", repr(tail[-200:]))
check(sha("t.db") == before, "the database is as it was")
check(not [f for f in os.listdir(".") if f.startswith(".t.db") or f.startswith("t.db-")],
      "no temporary left", str(os.listdir(".")))

# spe-export: the line on a terminal, the same stacks as in a pipe
st, shown = on_pty([export, "-d", "t.db", "-f", "folded", "-o", "tty.folded"], now)
check(st == 0 and any(b"records/s" in l for l in lines_drawn(shown, "spe-export")), "spe-export on a pty draws the line",
      repr(shown[:300]))
check(erased_before(shown, b"spe-export: 300000 records"), "erased before its summary", repr(shown[-300:]))
st, err = in_pipe([export, "-d", "t.db", "-f", "folded", "-o", "pipe.folded"], now)
check(st == 0 and b"\r" not in err and sha("tty.folded") == sha("pipe.folded"),
      "spe-export in a pipe: no line, the same output")

# spe-report --html: the sections as steps, rising to 100 %
st, shown = on_pty([report, "-d", "t.db", "--html=p.html"], now)
drawn = lines_drawn(shown, "spe-report")
pct = shares(drawn)
check(st == 0 and drawn and b"wrote p.html" in shown, "spe-report --html on a pty draws the line", repr(shown[:300]))
check(pct == sorted(pct) and pct[-1] == 100 and any(b"memory" in l for l in drawn),
      "its sections rise to 100 %, named", repr(drawn))
check(erased_before(shown, b"spe-report: wrote p.html"), "erased before 'wrote'", repr(shown[-300:]))

# spe-query FILE.data: its load's line when stdout is a file (none when the answer goes to the terminal),
# erased before the answer is complete; the same answer as in a pipe
sql = "SELECT count(*), sum(total_latency) FROM spe_record"
st, shown = on_pty([os.path.join(BIN, "spe-query"), "small.data", sql], now, stdout_file="q-tty.txt")
check(st == 0 and any(b"records/s" in l for l in lines_drawn(shown, "spe-query")),
      "spe-query FILE.data > FILE on a pty: the load's line", repr(shown[:300]))
check(shown.rstrip(b" ").endswith(b"\r"), "the line erased at the end of the load", repr(shown[-200:]))
st, _ = in_pipe([os.path.join(BIN, "spe-query"), "small.data", sql], now, stdout_file="q-pipe.txt")
check(st == 0 and sha("q-tty.txt") == sha("q-pipe.txt") and b"300000" in open("q-pipe.txt", "rb").read(),
      "the same answer as in a pipe")
st, shown = on_pty([os.path.join(BIN, "spe-query"), "small.data", sql], now)
check(st == 0 and not lines_drawn(shown, "spe-query") and b"300000" in shown,
      "spe-query FILE.data to the terminal: no line, the answer", repr(shown[:300]))

# spe-report FILE.data --html: the load's line, then the page's, each erased
st, shown = on_pty([report, "small.data", "--html=q.html"], now)
drawn = lines_drawn(shown, "spe-report")
check(st == 0 and any(b"small.data" in l and b"records/s" in l for l in drawn) and any(b"memory" in l for l in drawn),
      "spe-report FILE.data --html on a pty: the load's line, then the sections'", repr(drawn[:4]))
check(erased_before(shown, b"spe-report: wrote q.html"), "erased before 'wrote'", repr(shown[-300:]))

# spe-dump --records: the line when stdout is a file, none when stdout is the terminal; the same records
st, shown = on_pty([dump, "--records", "small.data"], now, stdout_file="tty.txt")
check(st == 0 and any(b"records/s" in l for l in lines_drawn(shown, "spe-dump")), "spe-dump --records > FILE on a pty: the line",
      repr(shown[:300]))
st, _ = in_pipe([dump, "--records", "small.data"], now, stdout_file="pipe.txt")
check(st == 0 and sha("tty.txt") == sha("pipe.txt"), "the same records as in a pipe")
st, shown = on_pty([dump, "--records", "-q", "small.data"], now)
check(st == 0 and not lines_drawn(shown, "spe-dump"), "spe-dump --records to the terminal: no line")
st, shown = on_pty([dump, "--records", "big.data"], now, stdout_file="int.txt", interrupt_when=rb"records/s")
m = re.search(rb"spe-dump: interrupted after (\d+) records", shown)
printed = sum(1 for l in open("int.txt", "rb") if l.startswith(b"0x"))
check(st == 130 and m and erased_before(shown, m.group(0)), "spe-dump stopped by SIGINT: 130, the line erased first",
      repr(shown[-300:]))
check(m and 0 < printed and printed <= int(m.group(1)) < 1500000, "the records before the stop are printed",
      "%d printed, %s" % (printed, m and m.group(1)))

subprocess.run(["rm", "-rf", tmp])
print("%d failed" % failures)
sys.exit(1 if failures else 0)
