import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpRequest } from './http-types';
import { isWebPath } from '@app/contracts';
import { WEB_CSP, webAppMiddleware } from './web-app';

const INDEX =
  '<!doctype html><title>portal</title><script type="module" src="/assets/index-abc123.js"></script>';
const SCRIPT = 'console.log("portal");';

/** The middleware on a plain HTTP server, with a JSON 404 after it as the gateway has. */
function serve(root: string): Promise<{ server: Server; base: string }> {
  const middleware = webAppMiddleware(root, isWebPath);
  const server = createServer((request, response) => {
    middleware(request as HttpRequest, response, () => {
      response.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' });
      response.end('{"detail":"Not found."}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

describe('the web portal served by the gateway', () => {
  let root: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'web-app-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), INDEX);
    writeFileSync(join(root, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(join(root, 'assets', 'index-abc123.css'), 'body{}');
    writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(tmpdir(), 'outside-web-root.txt'), 'secret');
    ({ server, base } = await serve(root));
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it('answers / with index.html, never cached, under the portal policy', async () => {
    const answer = await fetch(`${base}/`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.headers.get('content-security-policy')).toBe(WEB_CSP);
    expect(await answer.text()).toBe(INDEX);
  });

  it("answers each of the portal's pages with index.html", async () => {
    const answer = await fetch(`${base}/orders/6f1c2b9e-6a43-4a55-9f0e-0c1f1b6f2d11`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(INDEX);
  });

  it('serves hashed assets with their content type, cached for a year', async () => {
    const script = await fetch(`${base}/assets/index-abc123.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('content-length')).toBe(String(Buffer.byteLength(SCRIPT)));
    expect(await script.text()).toBe(SCRIPT);
    const style = await fetch(`${base}/assets/index-abc123.css`);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('serves other files of the build uncached', async () => {
    const icon = await fetch(`${base}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers HEAD with the headers only', async () => {
    const answer = await fetch(`${base}/assets/index-abc123.js`, { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(SCRIPT)));
    expect(await answer.text()).toBe('');
  });

  it('leaves a missing asset and a path that is no page to the 404', async () => {
    for (const path of ['/assets/index-gone.js', '/robots.txt', '/no/such/path', '/orders/x/events']) {
      const answer = await fetch(`${base}${path}`);
      expect([path, answer.status]).toEqual([path, 404]);
    }
  });

  it('leaves the API, the login and the gateway endpoints to their routes, even unknown paths', async () => {
    for (const path of ['/api/nothing/', '/api', '/api-auth/password/', '/health', '/metrics']) {
      const answer = await fetch(`${base}${path}`);
      expect([path, answer.status]).toEqual([path, 404]);
    }
  });

  it('serves nothing outside its folder, however the path is spelled', async () => {
    for (const path of [
      '/../outside-web-root.txt',
      '/%2e%2e/outside-web-root.txt',
      '/assets/..%2f..%2foutside-web-root.txt',
    ]) {
      const answer = await fetch(`${base}${path}`);
      expect(await answer.text()).not.toBe('secret');
    }
  });

  it('leaves other methods to the routes after it', async () => {
    const answer = await fetch(`${base}/`, { method: 'POST', body: '{}' });
    expect(answer.status).toBe(404);
  });

  it('with no build in its folder, leaves every request to the 404', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'web-app-empty-'));
    const other = await serve(empty);
    try {
      expect((await fetch(`${other.base}/`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => other.server.close(resolve));
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
