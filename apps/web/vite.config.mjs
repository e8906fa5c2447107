// The web portal's build: apps/web → dist/web, which the gateway serves at `/`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  // The one contracts module the portal imports as values (eslint.config.mjs allows no other).
  resolve: {
    alias: {
      '@app/contracts/http/api-paths': fileURLToPath(
        new URL('../../libs/contracts/src/http/api-paths.ts', import.meta.url),
      ),
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: true,
  },
  // `vite` (dev): the API of a gateway running on its default port, same origin for the app.
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/api-auth': 'http://127.0.0.1:8080' },
  },
});
