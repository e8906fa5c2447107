import { Pool } from 'undici';
import { fromVcsimRest, type ApiError } from './api-errors';

/** The session header vcsim's `/rest` and vCenter's `/api` both use. */
export const SESSION_HEADER = 'vmware-api-session-id';

/** vcsim's `/rest` paths the front translates to. */
export const VCSIM_REST = {
  session: '/rest/com/vmware/cis/session',
  library: '/rest/com/vmware/content/library',
  libraryId: (id: string) => `/rest/com/vmware/content/library/id:${encodeURIComponent(id)}`,
  localLibrary: '/rest/com/vmware/content/local-library',
  items: (libraryId: string) =>
    `/rest/com/vmware/content/library/item?${new URLSearchParams({ library_id: libraryId }).toString()}`,
  itemId: (id: string) => `/rest/com/vmware/content/library/item/id:${encodeURIComponent(id)}`,
  vmTemplates: '/rest/vcenter/vm-template/library-items',
  deploy: (id: string) => `/rest/vcenter/vm-template/library-items/${encodeURIComponent(id)}?action=deploy`,
} as const;

/** A vcsim `/rest` answer: status, body and the `value` it wraps (undefined when not JSON). */
export interface VcsimReply {
  readonly status: number;
  readonly body: string;
  readonly value: unknown;
}

/** Calls vcsim's `/rest` over TLS (its CA) on a keep-alive pool. */
export class VcsimRest {
  private readonly pool: Pool;

  constructor(url: string, caPem: string) {
    this.pool = new Pool(url, { connections: 4, connect: { ca: caPem } });
  }

  async send(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { session?: string; authorization?: string; body?: unknown } = {},
  ): Promise<VcsimReply> {
    const headers: Record<string, string> = {};
    if (options.session !== undefined) headers[SESSION_HEADER] = options.session;
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.pool.request({
      method,
      path,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(60_000),
    });
    const body = await res.body.text();
    let value: unknown;
    try {
      value = (JSON.parse(body) as { value?: unknown }).value ?? null;
    } catch {
      value = undefined;
    }
    return { status: res.statusCode, body, value };
  }

  /** Like `send`, but a non-200 answer throws the `/api` error for it. */
  async ok(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    context: { operation: string; notFound: () => ApiError },
    options: { session?: string; body?: unknown } = {},
  ): Promise<unknown> {
    const reply = await this.send(method, path, options);
    if (reply.status !== 200) throw fromVcsimRest(reply.status, reply.body, context);
    return reply.value;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * A vcsim `/rest` object as vCenter 8's `/api` shows it: without the Go-internal fields vcsim
 * leaks (`Template`, `File`, `Item`, `Subs`, `VMTX`: capitalised keys). Pure.
 */
export function withoutVcsimInternals(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !/^[A-Z]/.test(k)));
}
