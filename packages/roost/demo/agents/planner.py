"""A protocol agent in Python: asks which plan to follow, works through its steps, asks again."""
import threading
import time

from roost_agent import RoostAgent

PLANS = {"fast": 3, "careful": 6}
agent = None


def ask():
    agent.report("blocked", status="waiting", waiting_for="question",
                 summary="waiting for a plan",
                 question="Which plan should I follow?", choices=["fast", "careful", "skip"])


def work(plan):
    steps = PLANS.get(plan)
    if steps is None:
        agent.report("working", status="idle", summary="skipped; ask me again with any reply")
        return
    for step in range(1, steps + 1):
        agent.report("working", status="busy", tool="plan", summary="%s plan: step %d/%d" % (plan, step, steps))
        time.sleep(1.5)
    ask()


def on_reply(reply):
    text = reply.text.strip().lower()
    if text in PLANS or text == "skip":
        work(text)
    else:
        agent.report("working", status="busy", summary="noted: %s" % reply.text[:80])
        time.sleep(1)
        ask()


agent = RoostAgent.from_env("planner", version="1.0", on_reply=on_reply)
if agent is None:
    raise SystemExit("planner runs under roost (ROOST_JOB_ID is not set)")
ask()
threading.Event().wait()
