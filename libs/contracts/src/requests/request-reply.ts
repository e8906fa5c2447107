/**
 * The answer to every NATS request between services. The gateway turns `error` into the HTTP status
 * and Waldur-style body (`{"field": ["message"]}` or `{"detail": "..."}`).
 */
export type RequestReply<T> =
  | { status: 'ok'; data: T }
  | { status: 'error'; code: 400 | 403 | 404 | 409; detail?: string; fields?: Record<string, string[]> };

export function ok<T>(data: T): RequestReply<T> {
  return { status: 'ok', data };
}
