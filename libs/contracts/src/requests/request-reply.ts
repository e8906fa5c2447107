/**
 * The answer to every NATS request between services. The gateway turns `error` into the HTTP status
 * and Waldur-style body (`{"field": ["message"]}` or `{"detail": "..."}`).
 */
export type RequestReply<T> =
  | { status: 'ok'; data: T }
  | { status: 'error'; code: ErrorCode; detail?: string; fields?: Record<string, string[]> };

/**
 * 401 answers a token that resolves to nobody; 403 a caller who may see but not act; 404 one who may
 * not see; 422 an `Idempotency-Key` reused with another request; 503 a service that cannot reach a
 * dependency of its own (its Postgres) right now, or cannot finish before the gateway's deadline.
 */
export type ErrorCode = 400 | 401 | 403 | 404 | 409 | 422 | 503;

export function ok<T>(data: T): RequestReply<T> {
  return { status: 'ok', data };
}

/** A refusal without field errors, e.g. `refuse(404, 'Not found.')`. */
export function refuse(code: ErrorCode, detail: string): RequestReply<never> {
  return { status: 'error', code, detail };
}

/** A 400 naming one field and its rule. */
export function invalidField(field: string, message: string): RequestReply<never> {
  return { status: 'error', code: 400, fields: { [field]: [message] } };
}
