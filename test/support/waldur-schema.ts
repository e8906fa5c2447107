import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

type Schema = Record<string, unknown>;

/**
 * The trimmed copy of Waldur's document (scripts/waldur-openapi-trim.js writes it). It is made from
 * a fetched public snapshot, so it is kept out of this repository's commits: it sits here, made
 * locally, or in the steering repository's shared/ (`../shared/waldur-openapi/`).
 */
const FIXTURE_NAME = 'waldur-openapi-8.0.3.trimmed.yaml';
const FIXTURE_PLACES = [
  join(__dirname, '..', 'fixtures', 'waldur-openapi', FIXTURE_NAME),
  join(__dirname, '..', '..', '..', 'shared', 'waldur-openapi', FIXTURE_NAME),
];
export const WALDUR_FIXTURE = FIXTURE_PLACES.find((place) => existsSync(place)) ?? FIXTURE_PLACES[0];

/** One operation of Waldur's document, as the conformance test needs it. */
export interface WaldurOperation {
  operationId: string;
  method: string;
  path: string;
  /** Success statuses Waldur documents, each with its JSON body schema (if any) and header names. */
  responses: Record<string, { schema?: Schema; headers: string[] }>;
  requestBody?: { schema: Schema; required: boolean };
}

/** Which side of the wire a schema describes: an answer drops writeOnly fields, a request readOnly ones. */
type Side = 'response' | 'request';
const ROOT_ID: Record<Side, string> = { response: 'waldur-response', request: 'waldur-request' };

/**
 * OpenAPI 3.0's schema dialect made JSON Schema for ajv: `nullable` becomes a `null` alternative,
 * fields the other side of the wire owns (readOnly in a request, writeOnly in an answer) are left
 * out, and `#/components/...` references point into the document ajv was given.
 */
function toJsonSchema(node: unknown, side: Side): unknown {
  if (Array.isArray(node)) return node.map((item) => toJsonSchema(item, side));
  if (node === null || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node as Schema)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = `${ROOT_ID[side]}${value}`;
    else if (key === 'properties' && value !== null && typeof value === 'object') {
      const skip = side === 'request' ? 'readOnly' : 'writeOnly';
      const kept = Object.entries(value as Record<string, Schema>).filter(([, property]) => !property[skip]);
      out.properties = Object.fromEntries(
        kept.map(([name, property]) => [name, toJsonSchema(property, side)]),
      );
      const names = new Set(kept.map(([name]) => name));
      const required = (node as Schema).required;
      if (Array.isArray(required)) out.required = required.filter((name: string) => names.has(name));
    } else if (key === 'required' && 'properties' in (node as Schema)) continue;
    else if (key !== 'nullable') out[key] = toJsonSchema(value, side);
  }
  if ((node as Schema).nullable !== true) return out;
  if (typeof out.type === 'string') {
    const nullable: Schema = { ...out, type: [out.type, 'null'] };
    if (Array.isArray(out.enum)) nullable.enum = [...(out.enum as unknown[]), null];
    return nullable;
  }
  return { anyOf: [out, { type: 'null' }] };
}

/** A validator's complaint, named by Waldur's component and field (`Resource.scope`) where it has one. */
export interface Mismatch {
  field: string;
  message: string;
}

/**
 * `Component.path.to.field`: the answer's (or body's) component in Waldur's document, then the
 * field's path in it without list indices, so one exemption covers every item of a list.
 */
function fieldOf(component: string, error: ErrorObject): string {
  const path = error.instancePath.split('/').filter((part) => part !== '' && !/^\d+$/.test(part));
  if (error.keyword === 'required') path.push((error.params as { missingProperty: string }).missingProperty);
  return [component, ...path].join('.');
}

/** The component a schema names, directly or as a list's items (`Customer` for `Customer[]`). */
function componentOf(schema: Schema): string {
  const ref = (schema.$ref ?? (schema.items as Schema | undefined)?.$ref) as string | undefined;
  return ref?.split('/').pop() ?? '(inline)';
}

/** Waldur's document (the trimmed copy), with ajv validators of its answers and request bodies. */
export class WaldurSchema {
  readonly operations = new Map<string, WaldurOperation>();
  readonly schemas: Record<string, Schema>;
  private readonly ajv: Ajv;
  private readonly compiled = {
    response: new Map<Schema, ValidateFunction>(),
    request: new Map<Schema, ValidateFunction>(),
  };

  constructor(file = WALDUR_FIXTURE) {
    if (!existsSync(file))
      throw new Error(
        `${file} is missing: run scripts/waldur-openapi-trim.js on Waldur's waldur-openapi-schema-8.0.3.yaml ` +
          '(github.com/waldur/api-docs, docs/API/)',
      );
    const document = YAML.parse(readFileSync(file, 'utf8')) as {
      paths: Record<string, Record<string, Schema>>;
      components: { schemas: Record<string, Schema> };
    };
    this.schemas = document.components.schemas;
    // Formats ajv-formats does not know are Waldur's annotations (decimal strings, numbers' widths).
    this.ajv = new Ajv({
      allErrors: true,
      strict: false,
      formats: { decimal: true, double: true, int64: true, binary: true },
    });
    addFormats(this.ajv);
    for (const side of ['response', 'request'] as const)
      this.ajv.addSchema({
        $id: ROOT_ID[side],
        components: { schemas: toJsonSchema(document.components.schemas, side) },
      });
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, raw] of Object.entries(item)) {
        const op = raw as {
          operationId?: string;
          responses?: Record<string, { content?: Record<string, { schema?: Schema }>; headers?: Schema }>;
          requestBody?: { content?: Record<string, { schema?: Schema }>; required?: boolean };
        };
        if (!op.operationId) continue;
        const responses: WaldurOperation['responses'] = {};
        for (const [status, response] of Object.entries(op.responses ?? {}))
          if (status.startsWith('2'))
            responses[status] = {
              schema: response.content?.['application/json']?.schema,
              headers: Object.keys(response.headers ?? {}),
            };
        const body = op.requestBody?.content?.['application/json']?.schema;
        this.operations.set(op.operationId, {
          operationId: op.operationId,
          method,
          path,
          responses,
          requestBody: body && { schema: body, required: op.requestBody?.required === true },
        });
      }
  }

  private validator(schema: Schema, side: Side): ValidateFunction {
    let validate = this.compiled[side].get(schema);
    if (validate === undefined) {
      validate = this.ajv.compile(toJsonSchema(schema, side) as Schema);
      this.compiled[side].set(schema, validate);
    }
    return validate;
  }

  /** Where `value` does not fit `schema` (an answer's, or a request body's), one entry per complaint. */
  mismatches(schema: Schema, value: unknown, side: Side): Mismatch[] {
    const validate = this.validator(schema, side);
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .filter((error) => !['anyOf', 'oneOf', 'if'].includes(error.keyword))
      .map((error) => ({
        field: fieldOf(componentOf(schema), error),
        message: `${error.instancePath || '/'} ${error.message ?? error.keyword}`,
      }));
  }

  /** A schema with its `$ref` followed (one level), as a request body generator reads it. */
  resolve(schema: Schema): Schema {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    return this.resolve(this.schemas[ref.split('/').pop() as string]);
  }
}
