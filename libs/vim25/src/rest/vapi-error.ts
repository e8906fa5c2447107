/** One localizable message of a vAPI error (`messages[]` of vCenter 8's `/api` errors). */
export interface VapiMessage {
  readonly id?: string;
  readonly default_message: string;
  readonly args?: readonly string[];
}

/**
 * A vSphere Automation (REST) call that vCenter answered with an error, e.g. NOT_FOUND,
 * INVALID_ARGUMENT, UNAUTHENTICATED. `message` is vCenter's own text (the messages'
 * `default_message`, first the error then its causes); when vCenter sent none it names the
 * error type and the HTTP status, never `[object Object]`.
 */
export class VapiError extends Error {
  override readonly name = 'VapiError';

  constructor(
    /** The client operation that failed, e.g. `GetLibraryItem`. */
    readonly operation: string,
    /** vCenter's `error_type`, e.g. `NOT_FOUND` (from the HTTP status when the body had none). */
    readonly errorType: string,
    message: string,
    /** The HTTP status of the answer. */
    readonly status: number,
    /** vCenter's messages as sent. */
    readonly messages: readonly VapiMessage[] = [],
  ) {
    super(message.trim() === '' ? `${errorType} (HTTP ${status})` : message);
  }

  /** `operation: errorType: message`, for logs. */
  get summary(): string {
    return `${this.operation}: ${this.errorType}: ${this.message}`;
  }
}

// vAPI standard errors by HTTP status, for answers without a JSON error body.
const TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  500: 'ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function messagesOf(v: unknown): VapiMessage[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((m: unknown): VapiMessage[] => {
    if (typeof m === 'string') return [{ default_message: m }];
    if (!isRecord(m)) return [];
    const text = m.default_message ?? m.localized;
    return [
      {
        id: typeof m.id === 'string' ? m.id : undefined,
        default_message: typeof text === 'string' ? text : '',
        args: Array.isArray(m.args) ? m.args.filter((a): a is string => typeof a === 'string') : undefined,
      },
    ];
  });
}

// What vCenter's error types look like: `NOT_FOUND` in `/api`, and in the `/rest` form the class
// `com.vmware.vapi.std.errors.not_found`. A body with neither is not vCenter's and is not quoted.
const VAPI_TYPE = /^[A-Z][A-Z_]{0,63}$/;
const REST_ERROR_CLASS = /^com\.vmware\.[a-z0-9_.]{0,200}\.([a-z_]{1,64})$/;

/** vCenter's error type of a JSON error body (`/api` or `/rest` form), or undefined for another's. */
function vapiTypeOf(json: Record<string, unknown>, inner: Record<string, unknown>): string | undefined {
  for (const type of [json.error_type, inner.error_type])
    if (typeof type === 'string' && VAPI_TYPE.test(type)) return type;
  const match = typeof json.type === 'string' ? REST_ERROR_CLASS.exec(json.type) : null;
  return match === null ? undefined : match[1].toUpperCase();
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Decodes a non-2xx answer of vCenter's `/api` into a VapiError: the JSON error
 * `{"error_type", "messages": [{"default_message", "id", "args"}]}` (also accepted: the `/rest`
 * form `{"type", "value": {"messages"}}`); any other body gives the type of the HTTP status, the
 * body not quoted (what answered may not be vCenter). Pure.
 */
export function vapiErrorOf(operation: string, status: number, body: string): VapiError {
  const json = parse(body);
  const statusType = TYPE_BY_STATUS[status] ?? (status >= 500 ? 'ERROR' : 'INVALID_ARGUMENT');
  const inner = isRecord(json) && isRecord(json.value) ? json.value : json;
  const errorType = isRecord(json) && isRecord(inner) ? vapiTypeOf(json, inner) : undefined;
  if (isRecord(inner) && errorType !== undefined) {
    const messages = messagesOf(inner.messages);
    const text = messages
      .map((m) => m.default_message)
      .filter((m) => m !== '')
      .join(': ');
    return new VapiError(operation, errorType, text || `${errorType} (HTTP ${status})`, status, messages);
  }
  // Not vCenter's error form: the body is not quoted (what answered may be another service).
  return new VapiError(operation, statusType, `${statusType} (HTTP ${status})`, status);
}
