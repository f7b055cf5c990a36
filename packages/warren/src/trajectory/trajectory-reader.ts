import type { Static, TSchema } from "typebox";
import { schemaProblems, TRAJECTORY_FORMAT, TrajectoryHeader, TrajectoryStep } from "../protocol/index.js";
import { TrajectoryError } from "./trajectory-error.js";

export interface Trajectory {
  header: TrajectoryHeader;
  steps: TrajectoryStep[];
}

function invalid(why: string): TrajectoryError {
  return new TrajectoryError("invalid_trajectory", why);
}

/**
 * A trajectory file's text, each line checked against its schema; throws invalid_trajectory
 * naming the first line that is wrong, or when the steps are not as many as the header says.
 */
export function parseTrajectory(text: string): Trajectory {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) throw invalid("the file is empty");
  const first = parseLine(lines[0]!, 1) as Record<string, unknown> | null;
  if (first?.type !== "header" || first.format !== TRAJECTORY_FORMAT) {
    throw invalid(
      `line 1 must be a header of format "${TRAJECTORY_FORMAT}" (got type ${JSON.stringify(first?.type)}, format ${JSON.stringify(first?.format)})`,
    );
  }
  const header = checked(TrajectoryHeader, first, 1);
  const steps = lines.slice(1).map((line, i) => checked(TrajectoryStep, parseLine(line, i + 2), i + 2));
  if (header.result.steps !== steps.length) {
    throw invalid(`the header counts ${header.result.steps} steps, but the file has ${steps.length}`);
  }
  const lineOf = new Map<string, number>();
  steps.forEach((step, i) => {
    const earlier = lineOf.get(step.observation_id);
    if (earlier !== undefined) {
      throw invalid(`line ${i + 2} answers ${step.observation_id} again (line ${earlier} did)`);
    }
    lineOf.set(step.observation_id, i + 2);
  });
  return { header, steps };
}

function parseLine(line: string, number: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw invalid(`line ${number} is not JSON: ${(error as Error).message}`);
  }
}

function checked<S extends TSchema>(schema: S, value: unknown, number: number): Static<S> {
  const problem = schemaProblems(schema, value);
  if (problem) throw invalid(`line ${number}: ${problem}`);
  return value as Static<S>;
}
