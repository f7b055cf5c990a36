import assert from "node:assert/strict";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is read as plain JSON
type Doc = any;

export interface OperationCall {
  path?: Record<string, string>;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as the operation's security asks: Authorization: Bearer. */
  lease?: string;
}

export interface OperationAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: the body is checked against the document's schema
  body: any;
}

/**
 * A client that knows nothing of warren but its OpenAPI document: it finds each operation by its
 * operationId, sends only the parameters the document declares, presents the lease as the
 * document's security scheme says, and checks every request body and answer (status, protocol
 * header, body) against the document's schemas.
 */
export class OpenApiClient {
  private readonly operations = new Map<string, { method: string; path: string; op: Doc }>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    private readonly doc: Doc,
    private readonly baseUrl: string,
  ) {
    for (const [path, methods] of Object.entries<Doc>(doc.paths)) {
      for (const [method, op] of Object.entries<Doc>(methods)) {
        this.operations.set(op.operationId, { method: method.toUpperCase(), path, op });
      }
    }
  }

  /** The schema at `pointer` in the document, compiled once with the document's components in reach. */
  private validator(pointer: string, schema: Doc): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ allOf: [schema], components: this.doc.components });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private check(pointer: string, schema: Doc, value: unknown, what: string): void {
    const validate = this.validator(pointer, schema);
    assert.ok(validate(value), `${what}: ${this.ajv.errorsText(validate.errors)}`);
  }

  async call(operationId: string, options: OperationCall = {}): Promise<OperationAnswer> {
    const found = this.operations.get(operationId);
    assert.ok(found, `the document has no operation ${operationId}`);
    const { method, path, op } = found;
    const declared = new Map<string, Doc>();
    for (const p of op.parameters) {
      const parameter = p.$ref ? this.doc.components.parameters[p.$ref.split("/").at(-1)] : p;
      declared.set(`${parameter.in}:${parameter.name.toLowerCase()}`, parameter);
    }
    const url = new URL(
      this.baseUrl +
        path.replace(/\{(\w+)\}/g, (_, name: string) => {
          assert.ok(declared.has(`path:${name}`), `${operationId} declares path parameter ${name}`);
          return encodeURIComponent(options.path?.[name] ?? assert.fail(`${operationId} needs ${name}`));
        }),
    );
    for (const [name, value] of Object.entries(options.query ?? {})) {
      assert.ok(declared.has(`query:${name}`), `${operationId} declares query parameter ${name}`);
      url.searchParams.set(name, String(value));
    }
    const protocol = this.doc.components.parameters.ProtocolHeader;
    const headers: Record<string, string> = { [protocol.name]: protocol.schema.const };
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      assert.ok(declared.has(`header:${name.toLowerCase()}`), `${operationId} declares header ${name}`);
      headers[name] = value;
    }
    if (options.lease !== undefined) {
      const schemes = op.security.flatMap((requirement: object) => Object.keys(requirement));
      const bearer = schemes.find((s: string) => this.doc.components.securitySchemes[s].scheme === "bearer");
      assert.ok(bearer, `${operationId} takes a bearer lease`);
      headers.authorization = `Bearer ${options.lease}`;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      const media = op.requestBody?.content?.["application/json"];
      assert.ok(media, `${operationId} takes a JSON body`);
      this.check(`${operationId} request`, media.schema, options.body, `${operationId} request body`);
      body = JSON.stringify(options.body);
      headers["content-type"] = "application/json";
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    const answer = op.responses[String(response.status)];
    assert.ok(answer, `${operationId} declares status ${response.status} (${text})`);
    const headerRef = answer.headers?.[protocol.name]?.$ref;
    const headerSchema = this.doc.components.headers[headerRef.split("/").at(-1)].schema;
    assert.equal(response.headers.get(protocol.name), headerSchema.const, "the protocol header");
    const parsed = text === "" ? undefined : JSON.parse(text);
    const media = answer.content?.["application/json"];
    if (media) {
      this.check(
        `${operationId} ${response.status}`,
        media.schema,
        parsed,
        `${operationId} ${response.status}`,
      );
    } else {
      assert.equal(text, "", `${operationId} ${response.status} has no body`);
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }
}
