import { z } from 'zod';
import { hasJsonBody, type AnyRoute, type ApiRoute, type StreamRoute } from './route';

type JsonSchema = Record<string, unknown>;

/** zod 4's own JSON Schema (draft 2020-12, OpenAPI 3.1's dialect), without the `$schema` marker. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = {
    ...(z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema),
  };
  delete converted.$schema;
  return converted;
}

const ERROR_RESPONSES = {
  '400': {
    description: 'Bad input: each field named with its messages',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationError' } } },
  },
  '401': {
    description: 'No token, or an unknown, expired or revoked one',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  '403': {
    description: 'Allowed to see, not to act',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  '404': {
    description: 'Not found, or not visible to the caller',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  '409': {
    description: 'Conflicts with the current state',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  '405': {
    description: 'Method not allowed on this path (`Allow` lists those that are)',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  '503': {
    description: 'The owning service did not answer in time',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
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

function apiOperation(route: ApiRoute): JsonSchema {
  const success: JsonSchema = { description: SUCCESS_DESCRIPTIONS[route.status] };
  if (route.response) {
    const item = jsonSchema(route.response.schema, 'output');
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
  const hasBody = hasJsonBody(route.method);
  const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const bodyErrors = hasBody && {
    '413': { description: 'Body larger than the gateway takes', ...error },
    '415': { description: 'Body not JSON in UTF-8, or compressed', ...error },
  };
  const throttleErrors = route.throttled && {
    '429': {
      description: 'Too many failed password checks from this address; `Retry-After` says when to try again',
      ...error,
    },
  };
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(route.operation.auth === 'none' && { security: [] }),
    parameters: parameters(route.operation),
    ...(hasBody && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: jsonSchema(route.operation.body, 'input') } },
      },
    }),
    responses: {
      [String(route.status)]: success,
      ...(route.noContentWhenNull && { '204': { description: 'Done at once: nothing left to do' } }),
      ...(route.dryRun && {
        [String(route.dryRun.status)]: {
          description: `With \`${route.dryRun.flag}=true\`: validated, nothing created`,
          content: { 'application/json': { schema: jsonSchema(route.dryRun.schema, 'output') } },
        },
      }),
      ...ERROR_RESPONSES,
      ...bodyErrors,
      ...throttleErrors,
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
  for (const route of routes) {
    const operation =
      route.kind === 'api'
        ? apiOperation(route)
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
    (paths[route.path] ??= {})[route.method] = operation;
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
      securitySchemes: {
        tokenAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The word `Token`, a space, and the key: `Token 3f2a…`',
        },
      },
      schemas: {
        Error: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] },
        ValidationError: {
          type: 'object',
          additionalProperties: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  };
}
