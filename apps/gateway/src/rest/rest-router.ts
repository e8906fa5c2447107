import { resolve } from 'node:path';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { isWebPath } from '@app/contracts';
import { HttpAdapterHost } from '@nestjs/core';
import { CONFIG, type GatewayConfig } from '../config/gateway.config';
import { API_ROUTES, NEST_ROUTES } from './api-routes';
import { EventStreamEndpoint } from '../events/event-stream.endpoint';
import { eventRoutes } from '../events/event-routes';
import { ApiHandler } from './api-handler';
import { docsRoutes } from './docs-routes';
import { errorHandler, methodFallback, notFound } from './fallback-handlers';
import { sendJson, type ExpressApp, type HttpRequest, type HttpResponse } from './http-types';
import { buildOpenApiDocument } from './openapi-document';
import { expressPath, type AnyRoute } from './route';
import { webAppMiddleware } from './web-app';

/**
 * Registers the route table on Express when the module starts (after Nest's own routes, before its
 * 404 handler), so the routes served and the OpenAPI document come from one list.
 */
@Injectable()
export class RestRouter implements OnModuleInit {
  readonly routes: readonly AnyRoute[];
  private document?: object;
  private readonly logger = new Logger(RestRouter.name);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly api: ApiHandler,
    events: EventStreamEndpoint,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {
    this.routes = [
      ...API_ROUTES,
      ...eventRoutes(events),
      ...docsRoutes(() => this.openApiDocument()),
      ...NEST_ROUTES,
    ];
  }

  openApiDocument(): object {
    this.document ??= buildOpenApiDocument(this.routes, '0.1.0');
    return this.document;
  }

  onModuleInit(): void {
    const app = this.adapterHost.httpAdapter.getInstance<ExpressApp>();
    const origin = `http://${this.config.GATEWAY_HOST}:${this.config.GATEWAY_PORT}`;
    for (const route of this.routes) {
      if (route.kind === 'nest') continue;
      const handle = (request: HttpRequest, response: HttpResponse): void => {
        const work =
          route.kind === 'api'
            ? this.api.handle(route, request, response, origin)
            : route.handler(request, response, origin);
        work.catch((error: unknown) => {
          // A bug, not bad input: logged with its stack, answered without one.
          this.logger.error(describe(error));
          if (!response.headersSent) sendJson(response, 500, { detail: 'Internal server error.' });
          else response.destroy();
        });
      };
      app[route.method](expressPath(route.path), handle);
    }
    // After every route (Nest's /health came before; its own 404 handler comes after these).
    app.use(webAppMiddleware(resolve(this.config.WEB_DIR), isWebPath));
    app.use(methodFallback(this.routes));
    app.use(notFound);
    app.use(errorHandler((error) => this.logger.error(describe(error))));
  }
}

/** An error for the log: its stack, or its JSON form (a service's RPC error arrives as a plain object). */
function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
