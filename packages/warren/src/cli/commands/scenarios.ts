import { listScenarios } from "../../scenarios/index.js";
import type { CliCommand } from "../command.js";
import { parseOptions } from "../parse-options.js";

export const scenariosCommand: CliCommand = {
  name: "scenarios",
  usage: "warren scenarios [--json]",
  summary: "List the bundled scenarios, their agents and objectives.",
  async run(args, io) {
    const { values } = parseOptions(args, { json: { type: "boolean" } });
    const scenarios = listScenarios();
    if (values.json) {
      io.out(JSON.stringify(scenarios, null, 2));
      return 0;
    }
    for (const s of scenarios) {
      io.out(`${s.name}  ${s.premise}`);
      io.out(`  agents: ${s.agents.map((a) => `${a.agent_id} (${a.role})`).join(", ")}`);
      const objectives = s.objectives.map(
        (o) => `${o.id} ${o.target}${o.deadline_ms === null ? "" : ` by t=${o.deadline_ms / 1000}s`}`,
      );
      io.out(`  objectives: ${objectives.join(", ")}`);
    }
    return 0;
  },
};
