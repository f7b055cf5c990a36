"""A small remote agent: plays engineer-1 in bridge_repair beside the scenario's solution NPCs.

    python3 examples/bridge_engineer.py http://127.0.0.1:8080

It creates the run, then fetches the toolbox, waits at the bridge for the courier's planks and
repairs until the span stands. Prints the run id and its terminal status; exits 0 if it completed.
"""

import os
import sys
from typing import Any, Dict, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sdk", "python"))

from warren_agent import WarrenClient, play_agent  # noqa: E402

WAIT_MS = 5000


def kinds(items: List[Dict[str, Any]], kind: str) -> List[str]:
    return [item["id"] for item in items if item["kind"] == kind]


def engineer_decides(context: Dict[str, Any]) -> Dict[str, Any]:
    o = context["envelope"]["observation"]
    if any(g["id"] == "repair" and g["status"] == "completed" for g in o["objectives"]):
        return {"noop": True}
    if any(b["lane"] == "body" for b in o["busy"]):
        return {"sleep_ms": WAIT_MS}
    if not kinds(o["you"]["inventory"], "toolbox"):
        here = kinds(o["place"]["items"], "toolbox")
        if here:
            return {"action": "take", "args": {"item": here[0]}}
        if o["you"]["place"] != "workshop":
            return {"action": "move_to", "args": {"dest": "workshop"}}
        return {"sleep_ms": WAIT_MS}
    if o["you"]["place"] != "bridge":
        return {"action": "move_to", "args": {"dest": "bridge"}}
    if kinds(o["place"]["items"], "plank"):
        return {"action": "repair", "args": {}}
    return {"sleep_ms": WAIT_MS}


def main() -> int:
    base_url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    warren = WarrenClient(base_url)
    run = warren.create_run("bridge_repair", seed=3, controlled_agents=["engineer-1"])
    session = warren.agent(run["run_id"], "engineer-1", holder="bridge_engineer.py")
    status = play_agent(session, engineer_decides)
    print("%s %s" % (run["run_id"], status))
    return 0 if status == "completed" else 1


if __name__ == "__main__":
    sys.exit(main())
