"""An agent roost runs: it counts the words in the files of its working folder and says so in its
row. Its task (and every reply after it) names what to count: a file or a folder under its working
folder, or anything else for the whole folder; `done` ends it.

Outside this repository, put roost_agent.py (packages/roost/sdk/python) beside it or on PYTHONPATH.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sdk", "python"))
from roost_agent import RoostAgent  # noqa: E402

SKIPPED = {".git", "node_modules", "dist", "__pycache__"}
MAX_FILE_BYTES = 1024 * 1024


def count_words(path, counts):
    """Words in each text file under path (binary and very large files left out)."""
    if os.path.isdir(path):
        for entry in sorted(os.listdir(path)):
            if entry not in SKIPPED:
                count_words(os.path.join(path, entry), counts)
    elif os.path.isfile(path) and os.path.getsize(path) <= MAX_FILE_BYTES:
        with open(path, "rb") as f:
            data = f.read()
        if b"\0" not in data:
            counts[path] = len(data.decode("utf-8", "replace").split())
    return counts


def describe(target):
    counts = count_words(target, {})
    total = sum(counts.values())
    largest, most = max(counts.items(), key=lambda kv: kv[1]) if counts else ("nothing", 0)
    where = os.path.relpath(target) if target != os.getcwd() else "."
    summary = "%d words in %d files of %s (most: %s, %d)" % (
        total, len(counts), where, os.path.relpath(largest), most)
    return summary, total


def target_of(text):
    named = os.path.abspath(text.strip())
    inside = not os.path.relpath(named).startswith("..")
    return named if text.strip() and inside and os.path.exists(named) else os.getcwd()


counted = [0]


def on_reply(reply):
    if reply.text.strip() == "done":
        agent.report("done", status="idle", summary="finished: %d words counted in all" % counted[0])
        agent.close()  # From a handler: once this reply is acked.
        return
    agent.report("working", status="busy", summary="counting: " + reply.text)
    summary, total = describe(target_of(reply.text))
    counted[0] += total
    agent.report("blocked", status="idle", waiting_for="question", summary=summary,
                 question="Name a file or folder to count, anything else for all of it, or done.")


agent = RoostAgent.from_env("word-count", version="1.0", on_reply=on_reply)
if agent is None:
    # Not under roost: count once and say it here.
    print(describe(target_of(sys.argv[1] if len(sys.argv) > 1 else ""))[0])
    sys.exit(0)
agent.report("blocked", status="idle", waiting_for="first-prompt", summary="ready to count words")
agent.wait()
