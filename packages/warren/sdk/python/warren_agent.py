"""warren_agent: a client of the warren-agent/0 protocol.

One file, standard library only, Python 3.8+.

    from warren_agent import WarrenClient, play_agent

    warren = WarrenClient("http://127.0.0.1:8080")
    run = warren.create_run("bridge_repair", seed=3, controlled_agents=["engineer-1"])
    session = warren.agent(run["run_id"], "engineer-1")
    status = play_agent(session, lambda ctx: {"noop": True})

`spectate(base_url, run_id, on_event)` follows a run's events to its end, resuming after a lag.

The loop claims the agent (or resumes a saved lease), reads the briefing once per revision,
long-polls each observation and answers it with exactly one command. A command keeps its
command_id through every retry, so a response lost on the way back is answered as a duplicate
of the accepted command, never a second command.
"""

import base64
import hashlib
import http.client
import json
import os
import socket
import struct
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, List, Optional, Union

PROTOCOL_VERSION = "warren-agent/0"

__all__ = [
    "PROTOCOL_VERSION",
    "WarrenError",
    "RunEnded",
    "WarrenClient",
    "AgentSession",
    "excluded_by_affordances",
    "play_agent",
    "spectate",
]


class WarrenError(Exception):
    """An error response: its HTTP status and the {error, detail} body."""

    def __init__(self, status: int, body: Dict[str, Any]) -> None:
        self.status = status
        self.body = body
        self.error = str(body.get("error", "internal"))
        self.detail = str(body.get("detail", ""))
        super().__init__("%d %s: %s" % (status, self.error, self.detail))


class RunEnded(Exception):
    """The run is over; `status` is its terminal status (completed, failed, crashed or interrupted)."""

    def __init__(self, status: str, detail: str) -> None:
        self.status = status
        self.detail = detail
        super().__init__(detail)


def _transient(error: BaseException) -> bool:
    if isinstance(error, WarrenError):
        return error.status >= 500
    return isinstance(
        error,
        (urllib.error.URLError, ConnectionError, socket.timeout, http.client.HTTPException),
    )


def _backoff_s(attempt: int) -> float:
    return min(2.0, 0.1 * (2 ** attempt))


class _Http:
    def __init__(self, base_url: str, timeout_s: float, token: Optional[str] = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self.token = token

    def request(
        self,
        method: str,
        path: str,
        query: Optional[Dict[str, Any]] = None,
        body: Any = None,
        timeout_s: Optional[float] = None,
    ) -> "tuple[int, Any]":
        url = self.base_url + path
        params = {k: str(v) for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        # Always JSON: routes that create or end runs need the type even with no body.
        headers = {"X-Warren-Protocol": PROTOCOL_VERSION, "Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout_s or self.timeout_s) as response:
                text = response.read().decode("utf-8")
                return response.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace")
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = None
            if not isinstance(parsed, dict) or "error" not in parsed:
                parsed = {"error": "internal", "detail": text or str(error.reason)}
            raise WarrenError(error.code, parsed) from None


class AgentSession:
    """One remote agent: its lease, its cached briefing, its observations and commands."""

    def __init__(
        self,
        http: _Http,
        run_id: str,
        agent_id: str,
        lease: Optional[str] = None,
        holder: Optional[str] = None,
        attempts: int = 8,
    ) -> None:
        self._http = http
        self.run_id = run_id
        self.agent_id = agent_id
        self.lease = lease
        self.holder = holder
        self.attempts = attempts
        # seq of the last observation answered; polls ask for the ones after it.
        self.answered_seq = -1
        self._briefing: Optional[Dict[str, Any]] = None
        self._path = "/v1/runs/%s/agents/%s" % (
            urllib.parse.quote(run_id, safe=""),
            urllib.parse.quote(agent_id, safe=""),
        )

    def claim(self) -> Dict[str, Any]:
        """Claims the agent, resuming the held lease when it is still live."""
        _, claim = self._retrying(
            lambda: self._http.request(
                "POST", self._path + "/claim", {"lease": self.lease, "holder": self.holder}
            )
        )
        self.lease = claim["lease"]
        return claim

    def briefing(self, revision: Optional[int] = None) -> Dict[str, Any]:
        """The briefing, fetched once per revision."""
        cached = self._briefing
        if cached is not None and (revision is None or cached["revision"] == revision):
            return cached
        _, self._briefing = self._authed(lambda: ("GET", self._path + "/briefing", {}, None))
        return self._briefing  # type: ignore[return-value]

    def observe(self, wait_s: float = 25) -> Optional[Dict[str, Any]]:
        """The next observation after the last one answered, or None if none came in wait_s."""
        status, envelope = self._authed(
            lambda: ("GET", self._path + "/observations", {"after": self.answered_seq, "wait": wait_s}, None),
            timeout_s=wait_s + 30,
        )
        return None if status == 204 else envelope

    def submit(
        self,
        envelope: Dict[str, Any],
        payload: Dict[str, Any],
        command_id: Optional[str] = None,
        usage: Optional[Dict[str, Any]] = None,
    ) -> Dict[str, Any]:
        """Answers an envelope; retries keep the same command_id.

        `usage` ({"input_tokens", "output_tokens", "cost"?}) is what the agent spent since its last
        accepted command; the server counts it if it accepts this one.
        """
        body = {"command_id": command_id or str(uuid.uuid4()), "observation_id": envelope["observation_id"]}
        body.update(payload)
        if usage is not None:
            body["usage"] = usage
        _, receipt = self._authed(lambda: ("POST", self._path + "/commands", {}, body))
        if receipt["status"] != "rejected":
            self.answered_seq = max(self.answered_seq, int(envelope["seq"]))
        return receipt

    def receipt(self, command_id: str) -> Dict[str, Any]:
        """An accepted command's receipt with its current outcome."""
        path = self._path + "/commands/" + urllib.parse.quote(command_id, safe="")
        return self._authed(lambda: ("GET", path, {}, None))[1]

    def release(self) -> Dict[str, Any]:
        released = self._authed(lambda: ("POST", self._path + "/release", {}, None))[1]
        self.lease = None
        return released

    def _authed(self, describe: Callable[[], Any], timeout_s: Optional[float] = None) -> Any:
        """A request under the lease; after a 403 (lapsed or taken) it claims again and repeats once."""
        if self.lease is None:
            self.claim()

        def send() -> Any:
            method, path, query, body = describe()
            query = dict(query, lease=self.lease)
            return self._http.request(method, path, query, body, timeout_s)

        try:
            return self._retrying(send)
        except WarrenError as error:
            if error.status != 403:
                raise
            self.lease = None
            self.claim()
            return self._retrying(send)

    def _retrying(self, send: Callable[[], Any]) -> Any:
        attempt = 0
        while True:
            try:
                return send()
            except WarrenError as error:
                if error.status == 410:
                    raise RunEnded(str(error.body.get("status", "ended")), error.detail) from None
                if not _transient(error) or attempt + 1 >= self.attempts:
                    raise
            except Exception as error:  # noqa: BLE001 - network failures are retried, others raised
                if not _transient(error) or attempt + 1 >= self.attempts:
                    raise
            time.sleep(_backoff_s(attempt))
            attempt += 1


class _SpectatorSocket:
    """Just enough of a WebSocket client (RFC 6455) to read a spectator stream."""

    def __init__(self, base_url: str, path: str, timeout_s: float) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        host = parsed.hostname or "127.0.0.1"
        port = parsed.port or 80
        self.sock = socket.create_connection((host, port), timeout=timeout_s)
        key = base64.b64encode(os.urandom(16)).decode("ascii")
        request = (
            "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nX-Warren-Protocol: %s\r\n\r\n"
        ) % (path, host, port, key, PROTOCOL_VERSION)
        self.sock.sendall(request.encode("ascii"))
        self.buffer = b""
        head = self._read_until(b"\r\n\r\n").decode("latin-1")
        status = int(head.split(" ", 2)[1])
        if status != 101:
            length = 0
            for line in head.split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            try:
                body = self._read_exact(length).decode("utf-8", "replace")
            except ConnectionError:
                body = self.buffer.decode("utf-8", "replace")
            self.sock.close()
            try:
                parsed_body = json.loads(body)
            except ValueError:
                parsed_body = {"error": "internal", "detail": body}
            raise WarrenError(status, parsed_body)
        accept = base64.b64encode(
            hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode("ascii")).digest()
        ).decode("ascii")
        if accept.lower() not in head.lower():
            self.sock.close()
            raise WarrenError(502, {"error": "internal", "detail": "bad WebSocket handshake"})

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the spectator stream closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(marker, 1)
        return head

    def _read_exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the spectator stream dropped")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def _send(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        header = bytes([0x80 | opcode])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def messages(self) -> "Any":
        """Yields each text message; returns the close code when the server closes."""
        fragments = b""
        while True:
            first, second = self._read_exact(2)
            opcode = first & 0x0F
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read_exact(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read_exact(8))[0]
            payload = self._read_exact(length)
            if opcode == 8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                try:
                    self._send(8, payload[:2])
                finally:
                    self.sock.close()
                return code
            if opcode == 9:
                self._send(10, payload)
                continue
            if opcode in (0, 1):
                fragments += payload
                if first & 0x80:
                    yield fragments.decode("utf-8")
                    fragments = b""

    def close(self) -> None:
        self.sock.close()


def spectate(
    base_url: str,
    run_id: str,
    on_event: Callable[[Dict[str, Any]], None],
    since: int = 0,
    on_lagged: Optional[Callable[[int], None]] = None,
    attempts: int = 8,
    timeout_s: float = 300,
) -> int:
    """Follows a run's spectator stream to its end, resuming with since=<cursor> after a lagged
    close (1013) or a dropped connection; each event reaches on_event once, in order. Returns the
    last cursor."""
    cursor = since
    failures = 0
    while True:
        path = "/v1/runs/%s/spectate?since=%d" % (urllib.parse.quote(run_id, safe=""), cursor)
        lagged = False
        code = 1006
        try:
            stream = _SpectatorSocket(base_url, path, timeout_s)
            messages = stream.messages()
            while True:
                try:
                    frame = json.loads(next(messages))
                except StopIteration as stop:
                    code = stop.value if stop.value is not None else 1005
                    break
                if frame.get("kind") == "lagged":
                    lagged = True
                    if on_lagged is not None:
                        on_lagged(int(frame["cursor"]))
                    continue
                if frame["cursor"] <= cursor:
                    continue
                cursor = frame["cursor"]
                failures = 0
                on_event(frame)
        except WarrenError:
            raise
        except (OSError, ConnectionError):
            code = 1006
        if code == 1000 and not lagged:
            return cursor
        if not lagged:
            failures += 1
            if failures >= attempts:
                raise ConnectionError("the spectator stream of %s keeps dropping (last close %d)" % (run_id, code))
            time.sleep(_backoff_s(failures))


class WarrenClient:
    """A warren-agent/0 server: runs, scenarios and agents.

    token: the server's access token (warren serve --token T), which creating, deleting and
    claiming need when it has one; default the WARREN_TOKEN environment variable ("" sends none)."""

    def __init__(self, base_url: str, timeout_s: float = 60, token: Optional[str] = None) -> None:
        self.base_url = base_url
        self._http = _Http(base_url, timeout_s, os.environ.get("WARREN_TOKEN") if token is None else token)

    def create_run(
        self,
        scenario: str,
        seed: int = 0,
        controlled_agents: Optional[List[str]] = None,
        npc_policy: Union[str, Dict[str, str]] = "solution",
        pace: Optional[float] = None,
        deadline_s: Optional[float] = None,
        affordances: Optional[str] = None,
    ) -> Dict[str, Any]:
        """npc_policy: "solution", "noop", "random" or "greedy", or one per agent id;
        affordances: "ready" (the server's default) or "all"."""
        body: Dict[str, Any] = {
            "controlled_agents": list(controlled_agents or []),
            "npc_policy": npc_policy,
            "pace": pace,
        }
        if deadline_s is not None:
            body["deadline_s"] = deadline_s
        if affordances is not None:
            body["affordances"] = affordances
        return self._http.request("POST", "/v1/runs", {"scenario": scenario, "seed": seed}, body)[1]

    def runs(self) -> List[Dict[str, Any]]:
        return self._http.request("GET", "/v1/runs")[1]["runs"]

    def delete_run(self, run_id: str) -> Dict[str, Any]:
        """Ends the run now (status deleted) if it is going; returns its summary."""
        return self._http.request("DELETE", "/v1/runs/" + urllib.parse.quote(run_id, safe=""))[1]

    def run(self, run_id: str) -> Dict[str, Any]:
        return self._http.request("GET", "/v1/runs/" + urllib.parse.quote(run_id, safe=""))[1]

    def scenarios(self) -> List[Dict[str, Any]]:
        return self._http.request("GET", "/v1/scenarios")[1]["scenarios"]

    def agent(
        self, run_id: str, agent_id: str, lease: Optional[str] = None, holder: Optional[str] = None
    ) -> AgentSession:
        """A session for one agent; nothing is sent until it claims."""
        return AgentSession(self._http, run_id, agent_id, lease=lease, holder=holder)

    def spectate(
        self,
        run_id: str,
        on_event: Callable[[Dict[str, Any]], None],
        since: int = 0,
        on_lagged: Optional[Callable[[int], None]] = None,
    ) -> int:
        """Follows the run's events to its end; see spectate()."""
        return spectate(self.base_url, run_id, on_event, since=since, on_lagged=on_lagged)


Decide = Callable[[Dict[str, Any]], Dict[str, Any]]


def _add_usage(a: Optional[Dict[str, Any]], b: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """Two usages as one (a refused try's carried into the next command): a cost when either has one."""
    if a is None or b is None:
        return a if b is None else b
    total = {
        "input_tokens": a["input_tokens"] + b["input_tokens"],
        "output_tokens": a["output_tokens"] + b["output_tokens"],
    }
    if "cost" in a or "cost" in b:
        total["cost"] = a.get("cost", 0) + b.get("cost", 0)
    return total


def excluded_by_affordances(affordances: List[Dict[str, Any]], payload: Dict[str, Any]) -> Optional[str]:
    """Why the envelope's affordances exclude this payload, or None when they allow it.

    An action must be offered now, and each argument with offered choices must be one of them;
    sleeps and noops are always allowed.
    """
    if "action" not in payload:
        return None
    offered = next((a for a in affordances if a["action"] == payload["action"]), None)
    if offered is None:
        names = ", ".join(a["action"] for a in affordances) or "nothing (sleep or noop)"
        return '"%s" is not offered now; offered: %s' % (payload["action"], names)
    args = payload.get("args") or {}
    for param, spec in offered["params"].items():
        if args.get(param) not in spec["choices"]:
            return "%s's %s must be one of %s now (got %s)" % (
                payload["action"],
                param,
                ", ".join(str(c) for c in spec["choices"]),
                json.dumps(args.get(param)),
            )
    return None


def play_agent(
    session: AgentSession,
    decide: Decide,
    wait_s: float = 25,
    tries_per_observation: int = 3,
    on_receipt: Optional[Callable[[Dict[str, Any], Dict[str, Any]], None]] = None,
) -> str:
    """Observe, decide, submit until the run ends; returns its terminal status.

    `decide` gets {"envelope", "briefing", "rejection"} (rejection: why the previous try for this
    envelope was rejected, or None) and returns one payload: {"action": ..., "args": {...}},
    {"sleep_ms": N} or {"noop": True}, with "usage" beside it when the agent knows what it spent.
    A payload the envelope's affordances exclude is never sent: it counts as a rejection. After
    `tries_per_observation` rejections it answers noop. Usage goes with the next command the
    server accepts, so the tries it did not accept are counted too.
    """
    unreported = None  # type: Optional[Dict[str, Any]]
    try:
        claim = session.claim()
        briefing = session.briefing(claim["briefing_revision"])
        while True:
            envelope = session.observe(wait_s)
            if envelope is None:
                continue
            briefing = session.briefing(envelope["briefing_revision"])
            rejection = None
            attempt = 0
            while True:
                if attempt < tries_per_observation:
                    decided = decide({"envelope": envelope, "briefing": briefing, "rejection": rejection})
                    payload = dict(decided)
                else:
                    payload = {"noop": True}
                unreported = _add_usage(unreported, payload.pop("usage", None))
                excluded = excluded_by_affordances(envelope["affordances"], payload)
                if excluded is not None:
                    rejection = excluded
                    attempt += 1
                    continue
                carried, unreported = unreported, None
                receipt = session.submit(envelope, payload, usage=carried)
                if receipt["status"] not in ("accepted", "duplicate"):
                    unreported = _add_usage(unreported, carried)
                if on_receipt is not None:
                    on_receipt(receipt, envelope)
                if receipt["status"] != "rejected":
                    break
                rejection = receipt["detail"]
                attempt += 1
    except RunEnded as ended:
        return ended.status
