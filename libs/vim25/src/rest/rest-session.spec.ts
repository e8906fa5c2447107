import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VimTransportError } from '../soap/vim-errors';
import { listLibraries } from './content-library';
import { SESSION_HEADER } from './rest-paths';
import { RestSession } from './rest-session';
import type { RestCallOptions, RestReply, RestRequest } from './rest-transport';
import { VapiError } from './vapi-error';

const sample = (name: string): string =>
  readFileSync(join(__dirname, '../../test/fixtures/rest', name), 'utf8');

type Script = (request: RestRequest) => RestReply | Promise<RestReply>;

/** A REST transport that answers "METHOD path" with the next scripted reply and records requests. */
class ScriptedRest {
  readonly origin = 'https://vc.example:8443';
  readonly sent: { operation: string; request: RestRequest; options?: RestCallOptions }[] = [];
  closed = false;
  private readonly script = new Map<string, Script[]>();

  on(key: string, ...replies: (RestReply | Script)[]): this {
    const list = this.script.get(key) ?? [];
    list.push(...replies.map((r): Script => (typeof r === 'function' ? r : () => r)));
    this.script.set(key, list);
    return this;
  }

  async send(operation: string, request: RestRequest, options?: RestCallOptions): Promise<RestReply> {
    this.sent.push({ operation, request, options });
    const next = this.script.get(`${request.method} ${request.path}`)?.shift();
    if (next === undefined) throw new Error(`unscripted ${request.method} ${request.path}`);
    return next(request);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  operations(): string[] {
    return this.sent.map((s) => s.operation);
  }
}

const options = { url: 'https://vc.example:8443', username: 'svc@vsphere.local', password: 'p:w' };
const created = (id: string): RestReply => ({ status: 201, body: JSON.stringify(id) });
const libraries: RestReply = { status: 200, body: sample('library-list.json') };
const unauthenticated: RestReply = { status: 401, body: sample('error-unauthenticated.json') };

describe('RestSession', () => {
  it('creates one session for many concurrent callers, with basic auth, and sends its id', async () => {
    const transport = new ScriptedRest()
      .on('POST /api/session', async () => {
        await new Promise((r) => setTimeout(r, 5));
        return created('s1');
      })
      .on('GET /api/content/library', ...Array.from({ length: 10 }, () => libraries));
    const session = new RestSession(options, transport);
    const results = await Promise.all(Array.from({ length: 10 }, () => listLibraries(session)));
    expect(results[9]).toEqual([
      'aa1b3431-4128-4f79-a770-bdb30d42dc5e',
      '5d0c8b3e-25a3-4a4f-9a0d-1b7c7e1f2a30',
    ]);
    expect(session.loginCount).toBe(1);
    const login = transport.sent[0].request;
    expect(login.headers?.authorization).toBe(
      `Basic ${Buffer.from('svc@vsphere.local:p:w').toString('base64')}`,
    );
    expect(transport.sent.slice(1).every((s) => s.request.headers?.[SESSION_HEADER] === 's1')).toBe(true);
  });

  it('creates a new session once on 401 and replays the call', async () => {
    const transport = new ScriptedRest()
      .on('POST /api/session', created('s1'), created('s2'))
      .on('GET /api/content/library', libraries, unauthenticated, libraries);
    const session = new RestSession(options, transport);
    await listLibraries(session);
    await expect(listLibraries(session)).resolves.toHaveLength(2);
    expect(transport.operations()).toEqual([
      'CreateSession',
      'ListLibraries',
      'ListLibraries',
      'CreateSession',
      'ListLibraries',
    ]);
    expect(transport.sent[4].request.headers?.[SESSION_HEADER]).toBe('s2');
    expect(session.loginCount).toBe(2);
  });

  it('gives up with UNAUTHENTICATED when the new session is refused too', async () => {
    const transport = new ScriptedRest()
      .on('POST /api/session', created('s1'), created('s2'))
      .on('GET /api/content/library', unauthenticated, unauthenticated);
    const session = new RestSession(options, transport);
    await expect(listLibraries(session)).rejects.toMatchObject({
      name: 'VapiError',
      operation: 'ListLibraries',
      errorType: 'UNAUTHENTICATED',
      message: 'Authentication required.',
      status: 401,
    });
  });

  it('passes refused credentials to every waiting caller and tries again on the next call', async () => {
    const transport = new ScriptedRest()
      .on('POST /api/session', unauthenticated, created('s1'))
      .on('GET /api/content/library', libraries);
    const session = new RestSession(options, transport);
    const results = await Promise.allSettled([listLibraries(session), listLibraries(session)]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const reason = (r as PromiseRejectedResult).reason as VapiError;
      expect(reason).toBeInstanceOf(VapiError);
      expect(reason).toMatchObject({ operation: 'CreateSession', errorType: 'UNAUTHENTICATED' });
    }
    await expect(listLibraries(session)).resolves.toHaveLength(2);
  });

  it('turns an answer of the wrong shape into a protocol error naming the operation', async () => {
    const transport = new ScriptedRest()
      .on('POST /api/session', created('s1'))
      .on(
        'GET /api/content/library',
        { status: 200, body: '{"value":["x"]}' },
        { status: 200, body: '<html>' },
      );
    const session = new RestSession(options, transport);
    const shape = await listLibraries(session).catch((e: unknown) => e);
    expect(shape).toBeInstanceOf(VimTransportError);
    expect(shape).toMatchObject({ kind: 'protocol', operation: 'ListLibraries' });
    await expect(listLibraries(session)).rejects.toThrow(/ListLibraries .* not JSON$/);
  });

  it('ends the session on close and refuses later calls', async () => {
    const transport = new ScriptedRest()
      .on('POST /api/session', created('s1'))
      .on('DELETE /api/session', { status: 204, body: '' });
    const session = new RestSession(options, transport);
    await session.ensureSession();
    await session.close();
    expect(transport.operations()).toEqual(['CreateSession', 'DeleteSession']);
    expect(transport.sent[1].request.headers?.[SESSION_HEADER]).toBe('s1');
    expect(transport.closed).toBe(true);
    await expect(listLibraries(session)).rejects.toThrow(
      /REST session to https:\/\/vc.example:8443 is closed/,
    );
  });

  it('stops waiting for a shared login when the caller aborts', async () => {
    let release: (r: RestReply) => void = () => undefined;
    const transport = new ScriptedRest().on(
      'POST /api/session',
      () => new Promise<RestReply>((r) => (release = r)),
    );
    const session = new RestSession(options, transport);
    const controller = new AbortController();
    const pending = listLibraries(session, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted', operation: 'CreateSession' });
    release(created('s1'));
  });
});
