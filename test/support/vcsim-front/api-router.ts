import type { IncomingMessage, ServerResponse } from 'node:http';
import { VimFault, VimTransportError } from '@app/vim25';
import { ApiError, writeApiError, writeJson } from './api-errors';
import type { ApiAnswer, ApiRequest, FrontContext } from './front-context';
import * as library from './library-routes';
import * as session from './session-routes';
import * as template from './vm-template-routes';

type Handler = (ctx: FrontContext, req: ApiRequest, id: string) => Promise<ApiAnswer>;

// The `/api` operations the front serves, written here from vCenter 8's API reference and not
// imported from the client, so that a wrong path in the client fails against the front.
const ROUTES: readonly { method: string; pattern: RegExp; action?: string; handler: Handler }[] = [
  { method: 'POST', pattern: /^\/api\/session$/, handler: session.createSession },
  { method: 'GET', pattern: /^\/api\/session$/, handler: session.getSession },
  { method: 'DELETE', pattern: /^\/api\/session$/, handler: session.deleteSession },
  { method: 'GET', pattern: /^\/api\/content\/library$/, handler: library.listLibraries },
  { method: 'POST', pattern: /^\/api\/content\/local-library$/, handler: library.createLocalLibrary },
  { method: 'GET', pattern: /^\/api\/content\/library\/item$/, handler: library.listItems },
  { method: 'GET', pattern: /^\/api\/content\/library\/item\/([^/]+)$/, handler: library.getItem },
  { method: 'DELETE', pattern: /^\/api\/content\/library\/item\/([^/]+)$/, handler: library.deleteItem },
  { method: 'GET', pattern: /^\/api\/content\/library\/([^/]+)$/, handler: library.getLibrary },
  {
    method: 'POST',
    pattern: /^\/api\/vcenter\/vm-template\/library-items$/,
    handler: template.createVmTemplate,
  },
  {
    method: 'GET',
    pattern: /^\/api\/vcenter\/vm-template\/library-items\/([^/]+)$/,
    handler: template.getVmTemplate,
  },
  {
    method: 'POST',
    pattern: /^\/api\/vcenter\/vm-template\/library-items\/([^/]+)$/,
    action: 'deploy',
    handler: template.deployVmTemplate,
  },
];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1_000_000) req.destroy(new Error('request body over 1 MB'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** vCenter's answer for an error the front hit while filling a gap (a SOAP fault, a socket error). */
function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof VimFault) {
    return new ApiError('ERROR', `${err.faultType}: ${err.message}`, 'com.vmware.vapi.std.errors.error');
  }
  const text = err instanceof VimTransportError || err instanceof Error ? err.message : String(err);
  return new ApiError('ERROR', text, 'com.vmware.vapi.std.errors.error');
}

/** Serves one `/api` request: routes it, answers JSON or vCenter 8's error shape. */
export async function serveApi(ctx: FrontContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    await ctx.gate;
    const url = new URL(req.url ?? '/', 'https://front.invalid');
    const apiReq: ApiRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: await readBody(req),
    };
    for (const route of ROUTES) {
      const m = route.pattern.exec(apiReq.path);
      if (!m || route.method !== apiReq.method) continue;
      if ((route.action ?? null) !== apiReq.query.get('action')) continue;
      const answer = await route.handler(ctx, apiReq, decodeURIComponent(m[1] ?? ''));
      writeJson(res, answer.status, answer.body);
      return;
    }
    throw new ApiError(
      'NOT_FOUND',
      `No operation for ${apiReq.method} ${apiReq.path}${url.search}.`,
      'com.vmware.vapi.rest.unsupportedOperation',
    );
  } catch (err) {
    if (!res.headersSent) writeApiError(res, toApiError(err));
    else res.destroy();
  }
}
