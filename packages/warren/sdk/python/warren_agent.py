"""warren_agent: a client of the warren-agent/0 protocol.

One file, standard library only, Python 3.8+.

    from warren_agent import WarrenClient, play_agent

    warren = WarrenClient("http://127.0.0.1:8080")
    run = warren.create_run("bridge_repair", seed=3, controlled_agents=["engineer-1"])
    session = warren.agent(run["run_id"], "engineer-1")
    status = play_agent(session, lambda ctx: {"noop": True})

The loop claims the agent (or resumes a saved lease), reads the briefing once per revision,
long-polls each observation and answers it with exactly one command. A command keeps its
command_id through every retry, so a response lost on the way back is answered as a duplicate
of the accepted command, never a second command.
"""

import http.client
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, List, Optional

PROTOCOL_VERSION = "warren-agent/0"

__all__ = [
    "PROTOCOL_VERSION",
    "WarrenError",
    "RunEnded",
    "WarrenClient",
    "AgentSession",
    "play_agent",
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
    """The run is over; `status` is its terminal status (completed, failed or crashed)."""

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
    def __init__(self, base_url: str, timeout_s: float) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s

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
        headers = {"X-Warren-Protocol": PROTOCOL_VERSION}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
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
        self, envelope: Dict[str, Any], payload: Dict[str, Any], command_id: Optional[str] = None
    ) -> Dict[str, Any]:
        """Answers an envelope; retries keep the same command_id."""
        body = {"command_id": command_id or str(uuid.uuid4()), "observation_id": envelope["observation_id"]}
        body.update(payload)
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


class WarrenClient:
    """A warren-agent/0 server: runs, scenarios and agents."""

    def __init__(self, base_url: str, timeout_s: float = 60) -> None:
        self._http = _Http(base_url, timeout_s)

    def create_run(
        self,
        scenario: str,
        seed: int = 0,
        controlled_agents: Optional[List[str]] = None,
        npc_policy: str = "solution",
        pace: Optional[float] = None,
        deadline_s: Optional[float] = None,
    ) -> Dict[str, Any]:
        body: Dict[str, Any] = {
            "controlled_agents": list(controlled_agents or []),
            "npc_policy": npc_policy,
            "pace": pace,
        }
        if deadline_s is not None:
            body["deadline_s"] = deadline_s
        return self._http.request("POST", "/v1/runs", {"scenario": scenario, "seed": seed}, body)[1]

    def runs(self) -> List[Dict[str, Any]]:
        return self._http.request("GET", "/v1/runs")[1]["runs"]

    def run(self, run_id: str) -> Dict[str, Any]:
        return self._http.request("GET", "/v1/runs/" + urllib.parse.quote(run_id, safe=""))[1]

    def scenarios(self) -> List[Dict[str, Any]]:
        return self._http.request("GET", "/v1/scenarios")[1]["scenarios"]

    def agent(
        self, run_id: str, agent_id: str, lease: Optional[str] = None, holder: Optional[str] = None
    ) -> AgentSession:
        """A session for one agent; nothing is sent until it claims."""
        return AgentSession(self._http, run_id, agent_id, lease=lease, holder=holder)


Decide = Callable[[Dict[str, Any]], Dict[str, Any]]


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
    {"sleep_ms": N} or {"noop": True}. After `tries_per_observation` rejections it answers noop.
    """
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
                    payload = decide({"envelope": envelope, "briefing": briefing, "rejection": rejection})
                else:
                    payload = {"noop": True}
                receipt = session.submit(envelope, payload)
                if on_receipt is not None:
                    on_receipt(receipt, envelope)
                if receipt["status"] != "rejected":
                    break
                rejection = receipt["detail"]
                attempt += 1
    except RunEnded as ended:
        return ended.status
