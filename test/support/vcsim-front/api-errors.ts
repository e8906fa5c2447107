import type { ServerResponse } from 'node:http';

/** A vAPI standard error type as vCenter 8's `/api` spells it. */
export type ApiErrorType =
  | 'NOT_FOUND'
  | 'INVALID_ARGUMENT'
  | 'UNAUTHENTICATED'
  | 'ALREADY_EXISTS'
  | 'NOT_ALLOWED_IN_CURRENT_STATE'
  | 'ERROR';

const STATUS: Record<ApiErrorType, number> = {
  NOT_FOUND: 404,
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  ALREADY_EXISTS: 400,
  NOT_ALLOWED_IN_CURRENT_STATE: 400,
  ERROR: 500,
};

/** An error the front answers in vCenter 8's `/api` shape. */
export class ApiError extends Error {
  constructor(
    readonly errorType: ApiErrorType,
    message: string,
    readonly messageId: string,
    readonly args: readonly string[] = [],
  ) {
    super(message);
  }

  get status(): number {
    return STATUS[this.errorType];
  }
}

/** vCenter 8's answer to a call without a valid session (and to refused credentials). */
export const unauthenticated = (): ApiError =>
  new ApiError(
    'UNAUTHENTICATED',
    'Authentication required.',
    'com.vmware.vapi.endpoint.method.authentication.required',
  );

/** `{"error_type", "messages": [{"args", "default_message", "id"}]}` with the type's HTTP status. */
export function writeApiError(res: ServerResponse, err: ApiError): void {
  writeJson(res, err.status, {
    error_type: err.errorType,
    messages: [{ args: [...err.args], default_message: err.message, id: err.messageId }],
  });
}

/** A JSON answer as vCenter 8's `/api` sends it. */
export function writeJson(res: ServerResponse, status: number, body: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

// vcsim's `/rest` 400 bodies: `{"type":"com.vmware.vapi.std.errors.already_exists","value":{}}`, or a Go
// error text in `type` (e.g. `*types.InvalidArgument`) when a clone failed.
function typeOfRestError(body: string): { type: ApiErrorType; text?: string } {
  try {
    const json = JSON.parse(body) as { type?: unknown };
    if (typeof json.type === 'string') {
      const std = /^com\.vmware\.vapi\.std\.errors\.([a-z_]+)$/.exec(json.type);
      if (std) {
        const t = std[1].toUpperCase();
        return { type: t in STATUS ? (t as ApiErrorType) : 'INVALID_ARGUMENT' };
      }
      return { type: 'INVALID_ARGUMENT', text: json.type };
    }
  } catch {
    // not JSON: the plain-text body is the message
  }
  return { type: 'INVALID_ARGUMENT', text: body.trim() || undefined };
}

/**
 * Maps a failed vcsim `/rest` answer to the error vCenter 8's `/api` gives for the same call.
 * `notFound` is the message for a 404 (vcsim sends only "404 page not found").
 */
export function fromVcsimRest(
  status: number,
  body: string,
  context: { operation: string; notFound: () => ApiError },
): ApiError {
  if (status === 401) return unauthenticated();
  if (status === 404) return context.notFound();
  if (status === 400) {
    const { type, text } = typeOfRestError(body);
    return new ApiError(
      type,
      text ?? `${context.operation}: the request is not valid (${type}).`,
      `com.vmware.vapi.std.errors.${type.toLowerCase()}`,
    );
  }
  return new ApiError(
    'ERROR',
    `${context.operation} failed: ${body.trim() || `HTTP ${status}`}`,
    'com.vmware.vapi.std.errors.error',
  );
}
