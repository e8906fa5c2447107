import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { HttpRequest, HttpResponse } from './http-types';

type Next = (error?: unknown) => void;

/** Content types of the files a Vite build writes. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * The portal's policy: its own scripts and styles only (Vite writes no inline script), requests to
 * this origin only (REST and SSE), no framing, no base rewriting, forms posting nowhere else.
 */
export const WEB_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths that belong to the API and the gateway's own endpoints: never the portal's, even unknown. */
const RESERVED = /^\/(api|api-auth)(\/|$)|^\/(health|metrics)\/?$/i;

/** Files under `assets/` carry a content hash in their name: a new build is a new name. */
const HASHED_PREFIX = '/assets/';

/**
 * Serves the single-page portal built into `root` (`dist/web`): its files as they are, hashed assets
 * cached for a year, and `index.html` (never cached, so a new build is seen at once) for each of the
 * portal's pages (`isPage`), so a reload of `/orders/<uuid>` loads the app. Any other path goes on to
 * the 404, as does everything when `root` holds no build.
 */
export function webAppMiddleware(root: string, isPage: (path: string) => boolean) {
  const index = join(root, 'index.html');
  return (request: HttpRequest, response: HttpResponse, next: Next): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    const path = decodedPath(request.url ?? '/');
    if (path === undefined || RESERVED.test(path) || !existsSync(index)) return next();
    const file = normalize(join(root, path));
    // A `..` that normalize resolved above the root is not a file of the portal.
    if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return next();
    const hashed = path.startsWith(HASHED_PREFIX);
    void (async () => {
      const size = await fileSize(file);
      if (size !== undefined) return sendFile(request, response, file, size, hashed);
      // A missing asset is a 404, not the page: a script tag must not get HTML.
      if (hashed || !isPage(path)) return next();
      sendFile(request, response, index, (await fileSize(index)) ?? 0, false);
    })().catch(next);
  };
}

function decodedPath(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url, 'http://portal').pathname);
  } catch {
    return undefined;
  }
}

/** The size of a regular file, undefined for anything else (a folder, nothing). */
async function fileSize(path: string): Promise<number | undefined> {
  try {
    const found = await stat(path);
    return found.isFile() ? found.size : undefined;
  } catch {
    return undefined;
  }
}

function sendFile(
  request: HttpRequest,
  response: HttpResponse,
  file: string,
  size: number,
  immutable: boolean,
): void {
  const contentType = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  response.setHeader('Content-Type', contentType);
  response.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  response.setHeader('Content-Security-Policy', WEB_CSP);
  response.setHeader('Content-Length', size);
  response.statusCode = 200;
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  const stream = createReadStream(file);
  stream.on('error', () => response.destroy());
  stream.pipe(response);
}
