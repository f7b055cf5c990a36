import type { TObject, TSchema } from "typebox";
import { Briefing } from "./briefing.js";
import { ErrorBody } from "./errors.js";
import { MAX_WAIT_S } from "./limits.js";
import { COMMON_ERRORS, OPERATIONS, type Operation } from "./operations.js";
import { LAGGED_CLOSE_CODE } from "./spectator-close.js";
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from "./version.js";

type Json = Record<string, unknown>;

const PROTOCOL_HEADER_NAME = "X-Warren-Protocol";
const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

/** The named schemas: every titled schema reachable from the operations (and the error body). */
function collectNamed(): Map<string, TSchema> {
  const named = new Map<string, TSchema>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    const title = (node as Json).title;
    if (typeof title === "string") {
      const seen = named.get(title);
      if (seen && JSON.stringify(seen) !== JSON.stringify(node)) {
        throw new Error(`two different schemas are titled ${title}`);
      }
      if (seen) return;
      named.set(title, node as TSchema);
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(ErrorBody);
  visit(Briefing);
  for (const op of OPERATIONS) {
    for (const part of [op.params, op.query, op.headers, op.body?.schema]) visit(part);
    for (const answer of Object.values(op.responses)) visit(answer.schema);
  }
  return named;
}

/**
 * A copy of `schema` whose optional properties carry their default in words, not as `default`:
 * generators (openapi-typescript's default settings) type a property with a `default` as always
 * present, which is true of the server's view but makes a client spell out every default.
 */
function defaultsInWords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(defaultsInWords);
  if (schema === null || typeof schema !== "object") return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, defaultsInWords(v)])) as Json;
  const properties = node.properties as Record<string, Json> | undefined;
  if (node.type !== "object" || !properties) return node;
  const required = new Set((node.required as string[] | undefined) ?? []);
  for (const [name, property] of Object.entries(properties)) {
    if (required.has(name) || !("default" in property)) continue;
    const { default: value, description, ...rest } = property;
    const said = `default ${JSON.stringify(value)}`;
    properties[name] = { ...rest, description: description ? `${description}; ${said}` : said };
  }
  return node;
}

/** A copy of `schema` with every nested titled schema replaced by a reference to its component. */
function withRefs(schema: unknown, isRoot = true): unknown {
  if (Array.isArray(schema)) return schema.map((s) => withRefs(s, false));
  if (schema === null || typeof schema !== "object") return schema;
  const title = (schema as Json).title;
  if (!isRoot && typeof title === "string") return ref("schemas", title);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, withRefs(v, false)]));
}

function parameters(op: Operation): Json[] {
  const out: Json[] = [ref("parameters", "ProtocolHeader")];
  const add = (where: string, object: TObject | undefined): void => {
    if (!object) return;
    const required = new Set(object.required ?? []);
    for (const [name, schema] of Object.entries(object.properties)) {
      const { description, ...rest } = schema as Json;
      // The lease an operation needs: ?lease= is the form every server takes (with an access token
      // the bearer header carries the token), so the document requires it; the route also reads a bearer.
      const leaseNeeded = where === "query" && name === "lease" && op.lease === "required";
      out.push({
        name,
        in: where,
        required: where === "path" || required.has(name) || leaseNeeded,
        ...(description ? { description } : {}),
        schema: withRefs(rest),
      });
    }
  };
  add("path", op.params);
  add("query", op.query);
  add("header", op.headers);
  return out;
}

function responses(op: Operation): Json {
  const out: Json = {};
  const all = { ...COMMON_ERRORS, ...op.responses };
  for (const [status, answer] of Object.entries(all).sort(([a], [b]) => Number(a) - Number(b))) {
    const headers: Json = { [PROTOCOL_HEADER_NAME]: ref("headers", "ProtocolHeader") };
    for (const [name, header] of Object.entries(answer.headers ?? {})) {
      headers[name] = { description: header.description, schema: withRefs(header.schema) };
    }
    out[status] = {
      description: answer.description,
      headers,
      ...(answer.schema && status !== "101"
        ? { content: { "application/json": { schema: withRefs(answer.schema, false) } } }
        : {}),
    };
  }
  return out;
}

function operation(op: Operation): Json {
  const leases =
    op.lease === "required"
      ? [{ leaseQuery: [] }, { leaseBearer: [] }]
      : op.lease === "optional"
        ? [{}, { leaseQuery: [] }, { leaseBearer: [] }]
        : [];
  // With an access token the lease goes in ?lease=, the bearer header carrying the token.
  const security = op.access
    ? op.lease === "optional"
      ? [...leases, { accessToken: [] }, { accessToken: [], leaseQuery: [] }]
      : [{}, { accessToken: [] }]
    : leases;
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    parameters: parameters(op),
    ...(op.body
      ? {
          requestBody: {
            required: op.body.required,
            content: { "application/json": { schema: withRefs(op.body.schema, false) } },
          },
        }
      : {}),
    responses: responses(op),
    security,
    ...(op.operationId === "spectate"
      ? {
          "x-websocket": {
            frames: ref("schemas", "SpectatorFrame"),
            close_codes: {
              1000: "the run ended and every event was sent",
              [LAGGED_CLOSE_CODE]: "lagged: reconnect with since=<cursor> from the lagged frame",
            },
          },
        }
      : {}),
  };
}

/** The OpenAPI 3.1 document of warren-agent/0, built from the protocol's declarations. */
export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path]![op.method.toLowerCase()] = operation(op);
  }
  const schemas = Object.fromEntries(
    [...collectNamed()].map(([name, schema]) => [name, defaultsInWords(withRefs(schema))]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "warren-agent/0",
      version: PROTOCOL_VERSION,
      license: { name: "MIT", identifier: "MIT" },
      description: [
        "Remote control of agents in a WARREN run over plain HTTP and long polling.",
        "A run starts when all its controlled agents have been claimed once.",
        "Every answer under /v1 carries X-Warren-Protocol and every error is an ErrorBody {error, detail}, including those made before routing: a method the server does not know, or a CONNECT (400 bad_request), headers that are too large (431 headers_too_large).",
        `Long polls wait at most ${MAX_WAIT_S} s. The lease goes in ?lease= or Authorization: Bearer.`,
      ].join(" "),
    },
    servers: [{ url: "/", description: "the warren server that serves this document" }],
    paths,
    components: {
      schemas,
      parameters: {
        ProtocolHeader: {
          name: PROTOCOL_HEADER_NAME,
          in: "header",
          required: false,
          description: `${PROTOCOL_VERSION}; another value is refused with 409 protocol_mismatch; none is fine`,
          schema: { type: "string", const: PROTOCOL_VERSION },
        },
      },
      headers: {
        ProtocolHeader: {
          description: `always ${PROTOCOL_VERSION} (header ${PROTOCOL_HEADER})`,
          schema: { type: "string", const: PROTOCOL_VERSION },
        },
      },
      securitySchemes: {
        leaseQuery: { type: "apiKey", in: "query", name: "lease", description: "the token from claimAgent" },
        leaseBearer: { type: "http", scheme: "bearer", description: "the token from claimAgent" },
        accessToken: {
          type: "http",
          scheme: "bearer",
          description:
            "the server's access token (warren serve --token T), which createRun, deleteRun and claimAgent need when the server has one",
        },
      },
    },
  };
}
