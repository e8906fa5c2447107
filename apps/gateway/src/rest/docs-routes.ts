import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { HttpResponse } from './http-types';
import type { LocalRoute } from './route';

/** swagger-ui-dist's files, served from node_modules: the docs page works offline, with no CDN. */
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>vSphere marketplace API</title>
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/api/schema/', dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout', persistAuthorization: true });\n`;

/**
 * The docs page's policy: its own scripts, styles and images only (no inline script: the page's
 * start-up code is init.js), data: images for Swagger UI's icons, requests only to this origin, and
 * no framing, base rewriting or form posts anywhere.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function send(
  response: HttpResponse,
  contentType: string,
  body: string | Buffer,
  options: { cache?: boolean; csp?: string } = {},
): void {
  response.writeHead(200, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    ...(options.cache && { 'Cache-Control': 'public, max-age=86400' }),
    ...(options.csp && { 'Content-Security-Policy': options.csp }),
  });
  response.end(body);
}

const cache = new Map<string, Buffer>();

/** `/api/schema/`, `/api/docs/` and the page's assets. */
export function docsRoutes(document: () => object): LocalRoute[] {
  return [
    {
      kind: 'local',
      method: 'get',
      path: '/api/schema/',
      operationId: 'schema_retrieve',
      summary: 'This OpenAPI document',
      tag: 'schema',
      contentType: 'application/json',
      handler: (_request, response) =>
        Promise.resolve(send(response, 'application/json; charset=utf-8', JSON.stringify(document()))),
    },
    {
      kind: 'local',
      method: 'get',
      path: '/api/docs/',
      operationId: 'docs_retrieve',
      summary: 'Browsable API documentation',
      tag: 'schema',
      contentType: 'text/html',
      handler: (_request, response) =>
        Promise.resolve(send(response, 'text/html; charset=utf-8', PAGE, { csp: DOCS_CSP })),
    },
    {
      kind: 'local',
      method: 'get',
      path: '/api/docs/init.js',
      operationId: 'docs_init_retrieve',
      summary: 'The docs page script',
      tag: 'schema',
      contentType: 'text/javascript',
      handler: (_request, response) =>
        Promise.resolve(send(response, 'text/javascript; charset=utf-8', INIT)),
    },
    ...Object.entries(ASSETS).map(([file, contentType]): LocalRoute => ({
      kind: 'local',
      method: 'get',
      path: `/api/docs/${file}`,
      operationId: `docs_${file.replace(/[^a-z0-9]+/gi, '_')}_retrieve`,
      summary: `Swagger UI asset ${file}`,
      tag: 'schema',
      contentType: contentType.split(';')[0],
      handler: async (_request, response) => {
        const body = cache.get(file) ?? (await readFile(join(SWAGGER_UI_DIR, file)));
        cache.set(file, body);
        send(response, contentType, body, { cache: true });
      },
    })),
  ];
}
