import { RoostError } from "../../protocol/errors.js";
import type { Command } from "../command.js";

export const notify: Command = {
  name: "notify",
  usage: "notify test [--json]",
  summary:
    "Runs roost.json's notify.command with a sample event, as the daemon runs it when a session waits, fails or finishes.",
  positionals: [1, 1],
  run: async ({ positionals, client, print }) => {
    if (positionals[0] !== "test")
      throw new RoostError(
        "bad_request",
        `unknown notify command ${JSON.stringify(positionals[0])} (only: test)`,
      );
    const result = await (await client()).call("notify-test", {});
    if (result.error) throw new RoostError("notify_failed", `${result.command.join(" ")}: ${result.error}`);
    print(`notify: ran ${result.command.join(" ")} (exit 0)`, result);
    return 0;
  },
};
