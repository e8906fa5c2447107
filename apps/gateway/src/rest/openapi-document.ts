import { routeAccess } from '@app/contracts';
import { z } from 'zod';
import { REQUEST_MODELS, responseModels, takesNoField } from './openapi-models';
import { hasJsonBody, type AnyRoute, type ApiRoute, type StreamRoute } from './route';

type JsonSchema = Record<string, unknown>;

const TARGET = 'draft-2020-12';
const componentRef = (id: string): string => `#/components/schemas/${id}`;

/** zod 4's own JSON Schema (draft 2020-12, OpenAPI 3.1's dialect), without the `$schema` marker. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = {
    ...(z.toJSONSchema(schema, { io, unrepresentable: 'any', target: TARGET }) as JsonSchema),
  };
  delete converted.$schema;
  return converted;
}

const errorBody = (schema: 'Error' | 'ValidationError') => ({
  content: { 'application/json': { schema: { $ref: componentRef(schema) } } },
});

/** The refusals, once each in `components.responses` (a generated client has one type per refusal). */
const ERROR_RESPONSE_COMPONENTS = {
  BadRequest: {
    description: 'Bad input: each field named with its messages',
    ...errorBody('ValidationError'),
  },
  Unauthorized: { description: 'No token, or an unknown, expired or revoked one', ...errorBody('Error') },
  Forbidden: { description: 'Allowed to see, not to act', ...errorBody('Error') },
  NotFound: { description: 'Not found, or not visible to the caller', ...errorBody('Error') },
  Conflict: { description: 'Conflicts with the current state', ...errorBody('Error') },
  IdempotencyKeyReused: {
    description: 'The Idempotency-Key was already used with another request',
    ...errorBody('Error'),
  },
  MethodNotAllowed: {
    description: 'Method not allowed on this path (`Allow` lists those that are)',
    ...errorBody('Error'),
  },
  Unavailable: { description: 'The owning service did not answer in time', ...errorBody('Error') },
  PayloadTooLarge: { description: 'Body larger than the gateway takes', ...errorBody('Error') },
  UnsupportedMediaType: { description: 'Body not JSON in UTF-8, or compressed', ...errorBody('Error') },
  TooManyRequests: {
    description: 'Too many failed password checks from this address; `Retry-After` says when to try again',
    ...errorBody('Error'),
  },
};
const refusal = (name: keyof typeof ERROR_RESPONSE_COMPONENTS) => ({
  $ref: `#/components/responses/${name}`,
});

const ERROR_RESPONSES = {
  '400': refusal('BadRequest'),
  '401': refusal('Unauthorized'),
  '403': refusal('Forbidden'),
  '404': refusal('NotFound'),
  '409': refusal('Conflict'),
  '405': refusal('MethodNotAllowed'),
  '503': refusal('Unavailable'),
};

/** The IETF httpapi draft's header, on the POSTs that create something. */
const IDEMPOTENCY_KEY_HEADER: JsonSchema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 257 },
  description:
    "A key of the client's for this one request (a UUID; as a structured-field string, quoted, or bare). " +
    'Retried with the same key and body, the request answers the first answer (status and body) ' +
    'and creates nothing again; with another body, 422; while the first is still processed, 409. ' +
    'Keys are kept 24 h per user.',
};

function parameters(route: { params: z.ZodType; query: z.ZodType }): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    const object = jsonSchema(schema, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const { description, ...rest } = property;
      list.push({
        name,
        in: location,
        required: location === 'path' || (object.required ?? []).includes(name),
        schema: rest,
        ...(typeof description === 'string' && { description }),
      });
    }
  }
  return list;
}

const SUCCESS_DESCRIPTIONS: Record<ApiRoute['status'], string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: queued, its outcome follows on the event stream',
  204: 'Done',
};

/**
 * The request bodies named in REQUEST_MODELS, gathered while the operations are documented and then
 * emitted by zod as components. One schema under two names (a VM's PUT and PATCH) is a copy under the
 * second; one name for two schemas (customers' and projects' `add_user`) must be the same shape.
 */
class RequestModels {
  private readonly registry = z.registry<{ id: string }>();
  private readonly byName = new Map<string, z.ZodType>();

  schema(operationId: string, body: z.ZodType): JsonSchema {
    const id = REQUEST_MODELS[operationId];
    if (id === undefined) return jsonSchema(body, 'input');
    const named = this.byName.get(id);
    if (named === undefined) {
      const instance = this.registry.has(body) ? body.clone() : body;
      this.registry.add(instance, { id });
      this.byName.set(id, instance);
    } else if (named !== body && !sameShape(named, body)) {
      throw new Error(`${operationId}: its body differs from the one already named ${id}`);
    }
    return { $ref: componentRef(id) };
  }

  components(): Record<string, JsonSchema> {
    return components(this.registry, 'input');
  }
}

function sameShape(a: z.ZodType, b: z.ZodType): boolean {
  return JSON.stringify(jsonSchema(a, 'input')) === JSON.stringify(jsonSchema(b, 'input'));
}

/** A registry's schemas as components, each nested named one a `$ref` (zod's registry conversion). */
function components(
  registry: z.core.$ZodRegistry<{ id: string }>,
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    target: TARGET,
    uri: componentRef,
  });
  const result: Record<string, JsonSchema> = {};
  // In name order: the registry's order is the order modules loaded in, which is no property of the API.
  for (const [id, schema] of Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) {
    // Shared unnamed parts land in `__shared` (only cycles would put one there): none may.
    if (id === '__shared') throw new Error('A cyclic schema without a name: name it in openapi-models.ts');
    // zod names each `$id: <its uri>`; a component's address is its place in the document (a `$id`
    // with a fragment is not a valid one in 2020-12), so both markers go.
    const component = { ...(schema as JsonSchema) };
    delete component.$schema;
    delete component.$id;
    result[id] = component;
  }
  // zod emits a copy (one body under two names) as a bare `$ref` to the original: give it the
  // original's content, so each reads on its own (the docs page shows a bare `$ref` as `any`).
  for (const [id, component] of Object.entries(result)) {
    const target = typeof component.$ref === 'string' && Object.keys(component).length === 1;
    if (target) result[id] = { ...result[(component.$ref as string).replace(componentRef(''), '')] };
  }
  return result;
}

/** An answer's schema: a `$ref` to its component when it is named (openapi-models.ts), else inline. */
function responseSchema(schema: z.ZodType): JsonSchema {
  const id = responseModels.get(schema)?.id;
  return id === undefined ? jsonSchema(schema, 'output') : { $ref: componentRef(id) };
}

function apiOperation(route: ApiRoute, requests: RequestModels): JsonSchema {
  const success: JsonSchema = { description: SUCCESS_DESCRIPTIONS[route.status] };
  if (route.response) {
    const item = responseSchema(route.response.schema);
    success.content = {
      'application/json': { schema: route.response.list ? { type: 'array', items: item } : item },
    };
    if (route.response.list) {
      success.headers = {
        'X-Result-Count': { description: 'Items across all pages', schema: { type: 'integer' } },
        Link: { description: 'first, prev, next and last pages (RFC 8288)', schema: { type: 'string' } },
      };
    }
  }
  // The gateway reads a body on every POST, PATCH and PUT (413, 415); it documents one that takes fields.
  const readsBody = hasJsonBody(route.method);
  const hasBody = readsBody && !takesNoField(route.operation.body);
  const bodyErrors = readsBody && {
    '413': refusal('PayloadTooLarge'),
    '415': refusal('UnsupportedMediaType'),
  };
  const throttleErrors = route.throttled && { '429': refusal('TooManyRequests') };
  const idempotencyErrors = route.idempotent && { '422': refusal('IdempotencyKeyReused') };
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(route.operation.auth === 'none' && { security: [] }),
    parameters: [...parameters(route.operation), ...(route.idempotent ? [IDEMPOTENCY_KEY_HEADER] : [])],
    ...(hasBody && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: requests.schema(route.operationId, route.operation.body) } },
      },
    }),
    responses: {
      [String(route.status)]: success,
      ...(route.noContentWhenNull && { '204': { description: 'Done at once: nothing left to do' } }),
      ...(route.dryRun && {
        [String(route.dryRun.status)]: {
          description: `With \`${route.dryRun.flag}=true\`: validated, nothing created`,
          content: { 'application/json': { schema: responseSchema(route.dryRun.schema) } },
        },
      }),
      ...ERROR_RESPONSES,
      ...bodyErrors,
      ...throttleErrors,
      ...idempotencyErrors,
    },
  };
}

function streamOperation(route: StreamRoute): JsonSchema {
  const { '400': bad, '401': unauthorized, '404': notFound, '503': unavailable } = ERROR_RESPONSES;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    parameters: [
      ...parameters(route),
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
        description: 'Resume after this event id (EventSource sends it on a reconnect)',
      },
    ],
    responses: {
      '200': {
        description:
          'A Server-Sent Events stream; `id:` is the feed sequence, `event:` the type, `data:` JSON',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      '400': bad,
      '401': unauthorized,
      '404': notFound,
      '503': unavailable,
    },
  };
}

/** The OpenAPI 3.1 document of every route in the table, generated from the same schemas that validate. */
export function buildOpenApiDocument(routes: readonly AnyRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const requests = new RequestModels();
  for (const route of routes) {
    const operation =
      route.kind === 'api'
        ? apiOperation(route, requests)
        : route.kind === 'stream'
          ? streamOperation(route)
          : {
              operationId: route.operationId,
              summary: route.summary,
              tags: [route.tag],
              security: [],
              responses: {
                '200': {
                  description: 'OK',
                  content: {
                    [route.kind === 'local' ? route.contentType : 'application/json']: { schema: {} },
                  },
                },
              },
            };
    // Who may call it, from the one declaration (libs/contracts/src/identity/route-access.ts).
    const access = routeAccess(route.operationId);
    (paths[route.path] ??= {})[route.method] = { ...operation, ...(access && { 'x-access': access }) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'vSphere marketplace API',
      version,
      description: 'Waldur-compatible REST API. Authenticate with `Authorization: Token <key>`.',
    },
    security: [{ tokenAuth: [] }],
    paths,
    components: {
      responses: ERROR_RESPONSE_COMPONENTS,
      securitySchemes: {
        tokenAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The word `Token`, a space, and the key: `Token 3f2a…`',
        },
      },
      schemas: {
        ...components(responseModels, 'output'),
        ...requests.components(),
        Error: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] },
        ValidationError: {
          type: 'object',
          additionalProperties: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  };
}
