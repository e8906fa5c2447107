/** A JSON object as the gateway answers it. */
export type Json = Record<string, unknown>;

/** An answer of the gateway that was not what the caller needed; names the call, never the token. */
export class GatewayError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${method} ${path} answered ${status}: ${JSON.stringify(body)}`);
  }
}

/**
 * The gateway's public REST API as one caller (a token) uses it: JSON in and out, lists read as a
 * page of up to 100. Nothing else: the demo is made the way any client would make it.
 */
export class GatewayClient {
  constructor(
    readonly base: string,
    private readonly token: string,
  ) {}

  /** The answer, whatever its status. */
  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        Authorization: `Token ${this.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: kept as text for the error message
    }
    return { status: response.status, body: parsed };
  }

  /** The body of a 2xx answer; anything else throws GatewayError. */
  async ok<T = Json>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call(method, path, body);
    if (answer.status < 200 || answer.status >= 300)
      throw new GatewayError(method, path, answer.status, answer.body);
    return answer.body as T;
  }

  /** The first page (up to 100 items) of a list, filtered by `query`. */
  async list<T = Json>(collection: string, query: Record<string, string>): Promise<T[]> {
    const params = new URLSearchParams({ ...query, page_size: '100' });
    return this.ok<T[]>('GET', `/api/${collection}/?${params.toString()}`);
  }

  /** The absolute URL of an object, as hyperlinked fields take it. */
  link(collection: string, uuid: string): string {
    return `${this.base}/api/${collection}/${uuid}/`;
  }
}
