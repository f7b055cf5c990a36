import { playerName } from "../../check/check-report.js";
import { checkText } from "../../check/check-text.js";
import {
  checkScenario,
  DEFAULT_CHECK_SEEDS,
  MAX_CHECK_SEEDS,
  PLAYS_PER_SEED,
} from "../../check/scenario-check.js";
import { type CliCommand, UsageError } from "../command.js";
import { parseCount } from "../parse-count.js";
import { parseOptions } from "../parse-options.js";
import { scenarioArgument } from "../scenario-argument.js";

/** `warren scenario check`: whether a scenario, bundled or in a module's file, is fit to count. */
export const scenarioCommand: CliCommand = {
  name: "scenario",
  usage: "warren scenario check SCENARIO|FILE [--seeds N] [--json]",
  summary: `Check a scenario (bundled, or a module's file) before it counts: play it ${PLAYS_PER_SEED} times on each of seeds 1 to N (default ${DEFAULT_CHECK_SEEDS}, at most ${MAX_CHECK_SEEDS}) with its solution team, and with noop, random and greedy as each agent; it fails (exit 1) if a seed's plays differ, the solution misses a seed, or noop, random or greedy, as any one agent, solve over 10 %.`,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      seeds: { type: "string" },
      json: { type: "boolean" },
    });
    const [action, target, ...extra] = positionals;
    if (action !== "check") throw new UsageError('say "check" and the scenario to check');
    if (target === undefined || extra.length > 0) {
      throw new UsageError("name exactly one scenario: a bundled scenario's name or a module's file");
    }
    const seeds = parseCount(
      "--seeds",
      values.seeds as string | undefined,
      DEFAULT_CHECK_SEEDS,
      1,
      MAX_CHECK_SEEDS,
    );
    const scenario = await scenarioArgument(target);
    io.err(
      `checking ${scenario.name} on seeds 1–${seeds}, each played ${PLAYS_PER_SEED} times by each player`,
    );
    let since = performance.now();
    const report = await checkScenario(scenario, seeds, (result, done, of) => {
      const seconds = ((performance.now() - since) / 1000).toFixed(1);
      since = performance.now();
      io.err(
        `[${done}/${of}] ${playerName(result)}: ${result.solved_seeds.length}/${seeds} solved, ${seconds} s`,
      );
    });
    io.out(values.json === true ? JSON.stringify(report) : checkText(report));
    return report.passed ? 0 : 1;
  },
};
