"""The roost agent protocol for Python agents: one file, standard library only, Python 3.8+.

    from roost_agent import RoostAgent
    agent = RoostAgent.from_env("my-agent", version="1.0", on_reply=lambda r: work(r.text))
    if agent:
        agent.report("working", summary="reading the code")
        agent.wait()

The agent finds its job in the environment, connects on its first report, says hello on every
connection, resends its latest report after a reconnect, and hands replies to ``on_reply`` once
each, in order, one at a time, acking each after the handler returns. The last finished reply is
kept in the job's ``agent.json`` before its ack, so an agent started again after a crash skips what
it had finished (and only acks it).
"""

import base64
import hashlib
import json
import os
import random
import socket
import sys
import threading
import time

__all__ = ["RoostAgent", "RoostError", "Reply", "ForegroundPeer", "job_identity_from_env", "take_writer_lock",
           "PROTOCOL_VERSION"]

PROTOCOL_VERSION = 1

# The job's identity: the new name first, then the older one.
JOB_ENV = {
    "id": ("ROOST_JOB_ID", "PI_JOB_ID"),
    "token": ("ROOST_JOB_TOKEN", "PI_JOB_TOKEN"),
    "socket": ("ROOST_SOCKET", "PI_DAEMON_SOCK"),
    "dir": ("ROOST_JOB_DIR", "PI_JOB_DIR"),
}

AGENT_STATE_FILE = "agent.json"

REPORT_STATES = ("working", "blocked", "done", "failed")
REPORT_STATUSES = ("busy", "waiting", "idle")
WAITING_FOR = ("question", "dialog", "first-prompt")

# The spec's limits: over-long strings are cut.
LIMITS = {
    "summary": 500,
    "question": 2000,
    "tool": 100,
    "error": 1000,
    "name": 200,
    "model": 200,
    "thinking": 100,
    "remoteAt": 500,
    "session": 4096,
}
MAX_CHOICES = 20
MAX_CHOICE = 200

# The row's running text: a change to these alone goes at most every summary_interval seconds.
PACED_FIELDS = ("summary", "tool", "context", "usage")

# How long a new connection's hello and report may take before it is dropped and made again.
GREETING_TIMEOUT = 30.0

# How many finished agent items (acked one by one) are remembered.
ITEMS_KEPT = 200


class RoostError(Exception):
    """A refusal from the daemon, or ``disconnected``; ``code`` says which."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code

    def __str__(self):
        return "%s: %s" % (self.code, self.args[0] if self.args else "")


class Reply:
    """A reply from the user (``kind`` None) or an agent item (``kind`` set, acked one by one)."""

    def __init__(self, event):
        self.raw = event
        self.seq = event.get("seq")
        self.text = event.get("text")
        self.mode = event.get("mode") or "followUp"
        self.kind = event.get("kind")
        self.sender = event.get("from")
        self.relation = event.get("relation")

    @property
    def exact(self):
        return self.kind is not None

    def __repr__(self):
        return "Reply(seq=%r, text=%r, mode=%r, kind=%r)" % (self.seq, self.text, self.mode, self.kind)


def job_identity_from_env(env=None):
    """The job's identity (id, token, socket, dir), or None outside a job."""
    env = os.environ if env is None else env
    identity = {}
    for key, names in JOB_ENV.items():
        value = next((env[n] for n in names if env.get(n)), None)
        if not value:
            return None
        identity[key] = value
    return identity


def backoff_delay(attempt, initial=0.1, maximum=5.0, rand=random.random):
    """Doubling from ``initial`` up to ``maximum``, the upper half jittered."""
    ceiling = min(maximum, initial * (2 ** min(attempt, 30)))
    return ceiling / 2 + (ceiling / 2) * rand()


def _bad(field, want):
    raise RoostError("bad_request", "report.%s must be %s" % (field, want))


def normalize_report(fields):
    """A full snapshot from the fields given: what is left out is null; strings cut to the limits."""
    out = {
        "state": "working",
        "status": None,
        "waitingFor": None,
        "summary": None,
        "question": None,
        "choices": [],
        "tool": None,
        "error": None,
        "name": None,
        "model": None,
        "thinking": None,
        "context": None,
        "usage": None,
        "prLinks": None,
        "remoteAt": None,
        "session": None,
        "agentItems": False,
    }
    for field, value in fields.items():
        if value is None:
            continue
        if field == "state":
            if value not in REPORT_STATES:
                _bad(field, "one of " + ", ".join(REPORT_STATES))
        elif field == "status":
            if value not in REPORT_STATUSES:
                _bad(field, "one of " + ", ".join(REPORT_STATUSES))
        elif field == "waitingFor":
            if value not in WAITING_FOR:
                _bad(field, "one of " + ", ".join(WAITING_FOR))
        elif field in LIMITS:
            if not isinstance(value, str):
                _bad(field, "a string or None")
            value = value[: LIMITS[field]]
            if field == "name":
                value = " ".join(value.split()) or None
        elif field in ("choices", "prLinks"):
            if not isinstance(value, (list, tuple)) or not all(isinstance(c, str) for c in value):
                _bad(field, "a list of strings")
            value = [c[:MAX_CHOICE] for c in value[:MAX_CHOICES]]
        elif field == "agentItems":
            if not isinstance(value, bool):
                _bad(field, "a boolean")
        elif field == "context":
            numbers = [value.get(k) for k in ("tokens", "window", "percent")] if isinstance(value, dict) else []
            if len(numbers) != 3 or not all(isinstance(n, (int, float)) and not isinstance(n, bool)
                                            for n in numbers):
                _bad(field, "{tokens, window, percent} numbers")
            value = {"tokens": numbers[0], "window": numbers[1], "percent": numbers[2]}
        elif field == "usage":
            if not isinstance(value, dict):
                _bad(field, "a dict")
        out[field] = value
    return out


def report_urgency(new, sent):
    """``now`` for a change of state (or anything but the running text), ``paced`` for the text alone."""
    if sent is None:
        return "now"
    paced = False
    for field, value in new.items():
        if sent.get(field) == value:
            continue
        if field not in PACED_FIELDS:
            return "now"
        paced = True
    return "paced" if paced else "none"


class FinishedLedger:
    """What the agent finished, in ``$ROOST_JOB_DIR/agent.json``, written atomically before each ack."""

    def __init__(self, job_dir):
        self.path = os.path.join(job_dir, AGENT_STATE_FILE)
        self.finished, self.items = read_finished(self.path)

    def is_finished(self, seq, exact):
        return seq in self.items if exact else seq <= self.finished

    def record(self, seq, exact):
        finished = self.finished if exact else max(self.finished, seq)
        items = (self.items + [seq])[-ITEMS_KEPT:] if exact else self.items
        temporary = "%s.%d.tmp" % (self.path, os.getpid())
        with open(temporary, "w") as f:
            f.write(json.dumps({"finished": finished, "items": items}) + "\n")
        os.chmod(temporary, 0o600)
        os.replace(temporary, self.path)
        self.finished, self.items = finished, items


def read_finished(path):
    """(finished, items) from a ledger file; a missing or unreadable one means nothing finished."""
    try:
        with open(path) as f:
            record = json.load(f)
    except (OSError, ValueError):
        return 0, []
    if not isinstance(record, dict):
        return 0, []
    finished = record.get("finished")
    if not isinstance(finished, int) or isinstance(finished, bool) or finished < 0:
        finished = 0
    items = record.get("items")
    items = [s for s in items if isinstance(s, int)] if isinstance(items, list) else []
    return finished, items


class _Waiter:
    def __init__(self):
        self.done = threading.Event()
        self.result = None
        self.error = None


class _Connection:
    """One JSON-lines connection: numbered requests matched to responses, events passed on."""

    def __init__(self, path, on_event, on_close, on_answer):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.on_event = on_event
        self.on_close = on_close
        self.on_answer = on_answer
        self.write_lock = threading.Lock()
        self.lock = threading.Lock()
        self.next_id = 1
        self.pending = {}
        self.closed = False
        self.reader = threading.Thread(target=self._read, name="roost-agent-reader", daemon=True)
        self.reader.start()

    def send(self, op, args):
        """Sends a request; returns its waiter."""
        waiter = _Waiter()
        with self.lock:
            if self.closed:
                waiter.error = RoostError("disconnected", "the connection to the daemon was lost")
                waiter.done.set()
                return waiter
            request_id = self.next_id
            self.next_id += 1
            self.pending[request_id] = waiter
        line = json.dumps({"id": request_id, "op": op, "args": args}, ensure_ascii=False) + "\n"
        try:
            with self.write_lock:
                self.sock.sendall(line.encode("utf-8"))
        except OSError:
            self.close()
        return waiter

    def in_flight(self):
        with self.lock:
            return len(self.pending)

    def close(self):
        with self.lock:
            if self.closed:
                return
            self.closed = True
            waiters = list(self.pending.values())
            self.pending.clear()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        for waiter in waiters:
            waiter.error = RoostError("disconnected", "the connection to the daemon was lost")
            waiter.done.set()
        self.on_close(self)

    def _read(self):
        buffered = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                buffered += chunk
                while b"\n" in buffered:
                    line, buffered = buffered.split(b"\n", 1)
                    self._receive(line)
        except OSError:
            pass
        self.close()

    def _receive(self, line):
        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError:
            return  # A line we cannot read is skipped.
        if not isinstance(message, dict):
            return
        if "ok" in message and "id" in message:
            with self.lock:
                waiter = self.pending.pop(message["id"], None)
            if waiter is None:
                return
            if message.get("ok"):
                waiter.result = message.get("result")
            else:
                waiter.error = RoostError(message.get("code", "internal"), message.get("error", ""))
            waiter.done.set()
            self.on_answer(self, waiter)
        elif isinstance(message.get("event"), str):
            self.on_event(message)


class RoostAgent:
    """An agent that roost runs: reports its state and takes the user's replies."""

    def __init__(self, identity, name, version="0", capabilities=None, on_reply=None, on_error=None,
                 on_connected=None, summary_interval=3.0, backoff=(0.1, 5.0)):
        self.identity = identity
        self.agent = {"name": name, "version": version}
        default = ["report", "replies"] if on_reply else ["report"]
        self.capabilities = list(capabilities) if capabilities is not None else default
        self.on_reply = on_reply
        self.on_error = on_error
        self.on_connected = on_connected
        self.summary_interval = summary_interval
        self.backoff = backoff
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._latest = None
        self._sent = None
        self._sent_at = 0.0
        self._paced_timer = None
        self._conn = None
        self._ready = False
        self._connecting = False
        self._closed = False
        self._closing = False
        self._refused = None
        self._wake = threading.Event()
        # Replies: waiting in order, one running, holding (close called), stopped (close done).
        self._ledger = FinishedLedger(identity["dir"]) if on_reply else None
        self._waiting = []
        self._running = None
        self._holding = False
        self._stopped = False
        self._close_after_reply = None
        self._worker = None
        if on_reply:
            self._worker = threading.Thread(target=self._work, name="roost-agent-replies", daemon=True)
            self._worker.start()

    @classmethod
    def from_env(cls, name, version="0", capabilities=None, on_reply=None, on_error=None,
                 on_connected=None, env=None, summary_interval=3.0, backoff=(0.1, 5.0)):
        """The agent for the job this process runs as, or None outside a job.

        ``on_reply(reply)`` takes each reply once, in order, one at a time (on a thread of its own);
        ``on_error(error)`` hears of a handler that raised or of the daemon refusing the token;
        ``on_connected(hello)`` of each connection made (``hello`` None from an older daemon).
        """
        identity = job_identity_from_env(env)
        if identity is None:
            return None
        return cls(identity, name, version=version, capabilities=capabilities, on_reply=on_reply,
                   on_error=on_error, on_connected=on_connected, summary_interval=summary_interval,
                   backoff=backoff)

    @property
    def connected(self):
        return self._ready

    # -- reports ---------------------------------------------------------------------------------

    def report(self, state="working", summary=None, status=None, waiting_for=None, question=None,
               choices=None, tool=None, error=None, name=None, model=None, thinking=None,
               context=None, usage=None, pr_links=None, remote_at=None, agent_items=None,
               session=None):
        """Sets the row: a full snapshot, what is left out None. The first report connects."""
        snapshot = normalize_report({
            "state": state, "summary": summary, "status": status, "waitingFor": waiting_for,
            "question": question, "choices": choices, "tool": tool, "error": error, "name": name,
            "model": model, "thinking": thinking, "context": context, "usage": usage,
            "prLinks": pr_links, "remoteAt": remote_at, "agentItems": agent_items,
            "session": session,
        })
        with self._lock:
            if self._closing or self._refused:
                return
            self._latest = snapshot
            if self._conn is None and not self._connecting:
                self._start_connecting()
            elif self._ready:
                self._schedule()

    def _schedule(self):
        urgency = report_urgency(self._latest, self._sent)
        if urgency == "none":
            return
        wait = self._sent_at + self.summary_interval - time.monotonic()
        if urgency == "now" or wait <= 0:
            self._send_latest()
        elif self._paced_timer is None:
            self._paced_timer = threading.Timer(wait, self._paced)
            self._paced_timer.daemon = True
            self._paced_timer.start()

    def _paced(self):
        with self._lock:
            self._paced_timer = None
            if self._ready:
                self._schedule()

    def _send_latest(self):
        if self._paced_timer is not None:
            self._paced_timer.cancel()
            self._paced_timer = None
        self._sent = self._latest
        self._sent_at = time.monotonic()
        return self._send("report", {"id": self.identity["id"], "token": self.identity["token"],
                                     "report": self._latest})

    def _send(self, op, args, conn=None):
        conn = conn or self._conn
        if conn is None:
            waiter = _Waiter()
            waiter.error = RoostError("disconnected", "not connected to the daemon")
            waiter.done.set()
            return waiter
        return conn.send(op, args)

    # -- requests --------------------------------------------------------------------------------

    def request(self, op, args=None, timeout=30.0):
        """Any other op on the job's connection, after the first report. Raises RoostError (with
        ``code``; ``disconnected`` when the connection was lost meanwhile) or TimeoutError."""
        deadline = time.monotonic() + timeout
        with self._lock:
            if self._latest is None:
                raise RoostError("bad_request", "report first: the first report makes the connection")
            while not self._ready:
                if self._refused:
                    raise self._refused
                if self._closed:
                    raise RoostError("disconnected", "the agent is closed")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no connection to the daemon within %ss" % timeout)
                self._changed.wait(left)
            waiter = self._send(op, {} if args is None else args)
        if not waiter.done.wait(max(0.0, deadline - time.monotonic())):
            raise TimeoutError("%s: no answer within %ss" % (op, timeout))
        if waiter.error is not None:
            raise waiter.error
        return waiter.result

    # -- the task board (M47) --------------------------------------------------------------------

    def tasks(self, timeout=30.0):
        """The shared task board: ``{"tasks": [...]}``, oldest first."""
        return self.request("task", {"action": "list"}, timeout)

    def claim_task(self, task_id, timeout=30.0):
        """Takes a task; ``blocked`` while one it waits on is open, ``conflict`` while another holds it."""
        return self.request("task", {"action": "claim", "id": task_id}, timeout)

    def task_done(self, task_id, result=None, timeout=30.0):
        """Marks a task this agent holds done, with what came of it."""
        args = {"action": "done", "id": task_id}
        if result is not None:
            args["result"] = result
        return self.request("task", args, timeout)

    def release_task(self, task_id, timeout=30.0):
        """Gives a task this agent holds back to the board."""
        return self.request("task", {"action": "release", "id": task_id}, timeout)

    def add_task(self, title, detail=None, after=None, timeout=30.0):
        """Puts a new task on the board; ``after`` names tasks that must be done (or dropped) first."""
        args = {"action": "add", "title": title}
        if detail is not None:
            args["detail"] = detail
        if after is not None:
            args["after"] = list(after)
        return self.request("task", args, timeout)

    # -- agent-to-agent (M9) ---------------------------------------------------------------------

    def peers(self, timeout=30.0):
        """The sessions this agent may reach: ``{"peers": [{id, name, relation, state, ...}]}``."""
        return self.request("peers", {}, timeout)

    def send(self, to, message, timeout=30.0):
        """A message to a peer (an id, or a name unique in the tree); ``outcome`` says how it went."""
        return self.request("send", {"to": to, "message": message}, timeout)

    def spawn(self, task, name=None, cwd=None, profile=None, model=None, thinking=None, timeout=30.0):
        """A child job with a task; its report comes by itself as a ``report`` item."""
        args = {"task": task}
        for key, value in (("name", name), ("cwd", cwd), ("profile", profile), ("model", model),
                           ("thinking", thinking)):
            if value is not None:
                args[key] = value
        return self.request("spawn", args, timeout)

    def watch(self, peer_id, when, timeout=30.0):
        """A ``notice`` item once that session is next idle (``when="idle"``) or has ended."""
        return self.request("watch", {"id": peer_id, "when": when}, timeout)

    def handback(self, state, result=None, question=None, error=None, cause="task", timeout=60.0):
        """A spawned child's report to its parent. Sent again with the same request id while the
        daemon is away (up to ``timeout``), so the parent gets it once."""
        args = {"state": state, "cause": cause,
                "requestId": base64.urlsafe_b64encode(os.urandom(12)).decode("ascii").rstrip("=")}
        for key, value in (("result", result), ("question", question), ("error", error)):
            if value is not None:
                args[key] = value
        deadline = time.monotonic() + timeout
        wait = 0.05
        while True:
            try:
                return self.request("handback", args, max(0.1, deadline - time.monotonic()))
            except RoostError as e:
                if e.code not in ("disconnected", "busy") or time.monotonic() + wait > deadline:
                    raise
            time.sleep(wait)
            wait = min(wait * 2, 1.0)

    # -- connection ------------------------------------------------------------------------------

    def _start_connecting(self):
        self._connecting = True
        threading.Thread(target=self._connect_loop, name="roost-agent-connect", daemon=True).start()

    def _connect_loop(self):
        attempt = 0
        while True:
            with self._lock:
                if self._closed or self._refused:
                    self._connecting = False
                    self._changed.notify_all()
                    return
            try:
                self._greet()
                return
            except RoostError as e:
                with self._lock:
                    self._ready = False
                    conn, self._conn = self._conn, None
                if conn is not None:
                    conn.close()
                if e.code == "unauthorized":
                    self._refuse(e)
                    continue
            except OSError:
                pass
            self._wake.wait(backoff_delay(attempt, *self.backoff))
            attempt += 1

    def _greet(self):
        conn = _Connection(self.identity["socket"], self._on_event, self._lost, self._on_answer)
        with self._lock:
            if self._closed:
                conn.close()
                raise RoostError("disconnected", "the agent is closed")
            self._conn = conn
        hello = {"protocol": PROTOCOL_VERSION, "agent": self.agent, "capabilities": self.capabilities,
                 "id": self.identity["id"], "token": self.identity["token"]}
        waiter = self._send("hello", hello, conn)
        self._await(waiter, conn)
        # A daemon from before hello answers bad_request: go on with version 1.
        if waiter.error is not None and waiter.error.code != "bad_request":
            raise waiter.error
        answer = waiter.result if waiter.error is None else None
        with self._lock:
            waiter = self._send_latest()
        self._await(waiter, conn)
        if waiter.error is not None:
            raise waiter.error
        with self._lock:
            if self._conn is not conn or conn.closed:
                raise RoostError("disconnected", "the connection to the daemon was lost")
            self._ready = True
            self._connecting = False
            self._changed.notify_all()
            self._schedule()  # A report made while greeting may be newer.
        if self.on_connected is not None:
            self.on_connected(answer)

    def _await(self, waiter, conn):
        if not waiter.done.wait(GREETING_TIMEOUT):
            conn.close()
            raise RoostError("busy", "the daemon did not answer")

    def _lost(self, conn):
        with self._lock:
            if conn is not self._conn:
                return
            self._conn = None
            was_ready = self._ready
            self._ready = False
            self._sent = None
            self._changed.notify_all()
            if was_ready and not self._closed and not self._refused:
                self._start_connecting()

    def _on_answer(self, conn, waiter):
        if isinstance(waiter.error, RoostError) and waiter.error.code == "unauthorized":
            self._refuse(waiter.error)
        with self._lock:
            self._changed.notify_all()

    def _refuse(self, error):
        with self._lock:
            if self._refused:
                return
            self._refused = error
            self._ready = False
            conn, self._conn = self._conn, None
            self._stop_replies()
            self._changed.notify_all()
        self._wake.set()
        if conn is not None:
            conn.close()
        self._error(error)

    def _on_event(self, event):
        # A delivery names its job; one for another job is not this agent's.
        if event.get("event") == "deliver" and self.on_reply is not None \
                and event.get("id", self.identity["id"]) == self.identity["id"]:
            self._offer(Reply(event))

    # -- replies ---------------------------------------------------------------------------------

    def _ack(self, seq, exact):
        args = {"id": self.identity["id"], "token": self.identity["token"], "seq": seq}
        if exact:
            args["exact"] = True
        with self._lock:
            if self._conn is not None:
                self._send("ack", args)

    def _offer(self, reply):
        if not isinstance(reply.seq, int) or not isinstance(reply.text, str):
            return
        with self._lock:
            if self._stopped:
                return
            if self._ledger.is_finished(reply.seq, reply.exact):
                self._ack(reply.seq, reply.exact)
                return
            same = [r for r in [self._running] + self._waiting
                    if r is not None and r.seq == reply.seq and r.exact == reply.exact]
            if same:
                return
            at = len(self._waiting)
            if not reply.exact:
                later = [i for i, r in enumerate(self._waiting) if not r.exact and r.seq > reply.seq]
                at = later[0] if later else at
            self._waiting.insert(at, reply)
            self._changed.notify_all()

    def _work(self):
        while True:
            with self._lock:
                while self._stopped or self._holding or not self._waiting:
                    if self._stopped:
                        return
                    self._changed.wait()
                reply = self._running = self._waiting.pop(0)
            try:
                self.on_reply(reply)
            except Exception as e:  # The reply counts as handled, so that it does not come back forever.
                self._error(e)
            with self._lock:
                self._running = None
                self._changed.notify_all()
                if not self._stopped:
                    try:
                        self._ledger.record(reply.seq, reply.exact)
                        self._ack(reply.seq, reply.exact)
                    except OSError as e:
                        self._error(e)  # Not recorded, so not acked: it comes again rather than being lost.
                close_timeout, self._close_after_reply = self._close_after_reply, None
            if close_timeout is not None:
                threading.Thread(target=self.close, args=(close_timeout,), name="roost-agent-close",
                                 daemon=True).start()

    def _stop_replies(self):
        self._holding = True
        self._stopped = True
        self._waiting = []
        self._changed.notify_all()

    def _error(self, error):
        if self.on_error is not None:
            self.on_error(error)
        else:
            sys.stderr.write("roost_agent: %s\n" % (error,))

    # -- the end ---------------------------------------------------------------------------------

    def close(self, timeout=5.0):
        """Sends the latest report and ends the connection. A reply whose handler is still running
        is acked only if it finishes before the daemon has answered that report; otherwise it comes
        again on the next start. Called from a handler, it closes once that handler has returned (and
        its reply is acked), without waiting: ``wait()`` returns then."""
        if threading.current_thread() is self._worker:
            # Called by a handler: it closes once that handler has returned and its reply is acked.
            with self._lock:
                self._holding = True
                self._close_after_reply = timeout
            return
        deadline = time.monotonic() + timeout
        with self._lock:
            if self._closing:
                # Another thread is closing it: wait for that.
                while not self._closed and time.monotonic() < deadline:
                    self._changed.wait(max(0.0, deadline - time.monotonic()))
                return
            self._closing = True
            self._holding = True
            if self._paced_timer is not None:
                self._paced_timer.cancel()
                self._paced_timer = None
            waiter = self._send_latest() if self._ready and self._latest is not None else None
        if waiter is not None:
            waiter.done.wait(max(0.0, deadline - time.monotonic()))
        with self._lock:
            self._stop_replies()
            conn = self._conn
        # Acks sent before the report's answer are answered before the end.
        while conn is not None and conn.in_flight() and time.monotonic() < deadline:
            time.sleep(0.01)
        with self._lock:
            self._closed = True
            self._ready = False
            conn, self._conn = self._conn, None
            self._changed.notify_all()
        self._wake.set()
        if conn is not None:
            conn.close()

    def wait(self, timeout=None):
        """Blocks until the agent is closed (or the daemon refused its token); True if it was."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while not self._closed and not self._refused:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._changed.wait(left)
            return True


# -- foreground sessions (M9) --------------------------------------------------------------------

WRITER_LOCK_DIR = "session-locks"


def _roost_home(home=None):
    return home or os.environ.get("ROOST_HOME") or os.path.join(os.path.expanduser("~"), ".pi", "agent")


def writer_lock_path(session, home=None):
    """The session's writer lock: ``roost/session-locks/<first 32 hex of sha256(session)>.json``."""
    digest = hashlib.sha256(session.encode("utf-8")).hexdigest()[:32]
    return os.path.join(_roost_home(home), "roost", WRITER_LOCK_DIR, digest + ".json")


def _alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except PermissionError:
        return True
    except OSError:
        return False


def take_writer_lock(session, home=None, pid=None):
    """Takes roost's writer lock for a session; returns a function that lets it go. Raises
    RoostError ``locked`` while another live process holds it (a dead holder's lock is taken over)."""
    pid = os.getpid() if pid is None else pid
    path = writer_lock_path(session, home)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    body = json.dumps({"session": session, "pid": pid,
                       "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}) + "\n"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(body)
    except FileExistsError:
        try:
            with open(path) as f:
                held = json.load(f)
        except (OSError, ValueError):
            held = {}
        holder = held.get("pid") if isinstance(held, dict) else None
        if isinstance(holder, int) and holder != pid and _alive(holder):
            raise RoostError("locked", "the session is held by pid %d: it has a writer already" % holder)
        temporary = "%s.%d.tmp" % (path, os.getpid())
        with open(temporary, "w") as f:
            f.write(body)
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)

    def release():
        try:
            with open(path) as f:
                if json.load(f).get("pid") != pid:
                    return
            os.unlink(path)
        except (OSError, ValueError):
            pass

    return release


class ForegroundPeer:
    """A foreground session (a person's own agent, not a job) as a peer: it takes the writer lock,
    registers on a connection of its own, and then sends, spawns and watches. ``on_item(reply)``
    hears of peer items (messages, reports from children, notices); nothing is stored for it."""

    def __init__(self, session, name, cwd=None, home=None, on_item=None):
        self._release = take_writer_lock(session, home)
        self.on_item = on_item
        self._closed = threading.Event()
        socket_path = os.path.join(_roost_home(home), "roost", "daemon.sock")
        try:
            self._conn = _Connection(socket_path, self._on_event, self._on_close, lambda c, w: None)
            waiter = self._conn.send("peer_register", {"session": session, "name": name,
                                                       "cwd": cwd or os.getcwd(), "pid": os.getpid()})
            if not waiter.done.wait(GREETING_TIMEOUT):
                raise RoostError("busy", "the daemon did not answer")
            if waiter.error is not None:
                raise waiter.error
        except BaseException:
            self.close()
            raise
        self.id = waiter.result["id"]
        self.name = waiter.result["name"]

    def _on_event(self, event):
        if event.get("event") == "deliver" and self.on_item is not None:
            self.on_item(Reply(event))

    def _on_close(self, conn):
        self._closed.set()
        self._release()

    @property
    def connected(self):
        return not self._closed.is_set()

    def request(self, op, args=None, timeout=30.0):
        waiter = self._conn.send(op, {} if args is None else args)
        if not waiter.done.wait(timeout):
            raise TimeoutError("%s: no answer within %ss" % (op, timeout))
        if waiter.error is not None:
            raise waiter.error
        return waiter.result

    def peers(self, timeout=30.0):
        return self.request("peers", {}, timeout)

    def send(self, to, message, timeout=30.0):
        return self.request("send", {"to": to, "message": message}, timeout)

    def spawn(self, task, profile, name=None, cwd=None, model=None, thinking=None, timeout=30.0):
        args = {"task": task, "profile": profile}
        for key, value in (("name", name), ("cwd", cwd), ("model", model), ("thinking", thinking)):
            if value is not None:
                args[key] = value
        return self.request("spawn", args, timeout)

    def watch(self, peer_id, when, timeout=30.0):
        return self.request("watch", {"id": peer_id, "when": when}, timeout)

    def close(self):
        """Leaves: the connection ends and the lock is let go."""
        conn = getattr(self, "_conn", None)
        if conn is not None:
            conn.close()
        self._release()
