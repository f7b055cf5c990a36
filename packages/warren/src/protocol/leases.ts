import { type Static, Type } from "typebox";

export const ClaimResponse = Type.Object(
  {
    lease: Type.String({ description: "send it as ?lease=<token> or Authorization: Bearer <token>" }),
    briefing_revision: Type.Integer({ minimum: 1 }),
    run_id: Type.String(),
    agent_id: Type.String(),
    resumed: Type.Boolean({ description: "the presented lease was live and is resumed as it was" }),
    lease_ttl_s: Type.Number(),
    lease_expires_unix: Type.Number(),
    outstanding_observation_id: Type.Union([Type.String(), Type.Null()], {
      description: "the observation waiting for this agent's answer, if any",
    }),
  },
  { title: "ClaimResponse", additionalProperties: false },
);
export type ClaimResponse = Static<typeof ClaimResponse>;

export const ReleaseResponse = Type.Object(
  { released: Type.Literal(true), run_id: Type.String(), agent_id: Type.String() },
  { title: "ReleaseResponse", additionalProperties: false },
);
export type ReleaseResponse = Static<typeof ReleaseResponse>;
