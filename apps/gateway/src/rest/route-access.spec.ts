import { ACCESS_RULES, ROUTE_ACCESS } from '@app/contracts';
import { eventRoutes } from '../events/event-routes';
import type { EventStreamEndpoint } from '../events/event-stream.endpoint';
import { API_ROUTES, NEST_ROUTES } from './api-routes';
import { docsRoutes } from './docs-routes';
import { buildOpenApiDocument } from './openapi-document';
import type { AnyRoute } from './route';

// The gateway's whole table, as RestRouter gathers it (handlers are never called here).
const ROUTES: readonly AnyRoute[] = [
  ...API_ROUTES,
  ...eventRoutes({} as EventStreamEndpoint),
  ...docsRoutes(() => ({})),
  ...NEST_ROUTES,
];

describe('the access declaration (libs/contracts/src/identity/route-access.ts)', () => {
  it('names a rule for every route the gateway serves, and no route it does not serve', () => {
    const served = ROUTES.map((route) => route.operationId).sort();
    const undeclared = served.filter((id) => ROUTE_ACCESS[id] === undefined);
    const stale = Object.keys(ROUTE_ACCESS).filter((id) => !served.includes(id));
    expect({ undeclared, stale }).toEqual({ undeclared: [], stale: [] });
  });

  it('names only rules of the vocabulary', () => {
    const unknown = Object.entries(ROUTE_ACCESS).filter(([, name]) => !(name in ACCESS_RULES));
    expect(unknown).toEqual([]);
  });

  it('declares public exactly the routes that take no token', () => {
    const tokenless = ROUTES.filter((route) =>
      route.kind === 'api' ? route.operation.auth === 'none' : route.kind === 'local',
    ).map((route) => route.operationId);
    const declaredPublic = Object.keys(ROUTE_ACCESS).filter((id) => ROUTE_ACCESS[id] === 'public');
    const nest = NEST_ROUTES.map((route) => route.operationId);
    expect(declaredPublic.filter((id) => !nest.includes(id)).sort()).toEqual(tokenless.sort());
  });

  it("publishes each route's rule in the OpenAPI document as x-access", () => {
    const document = buildOpenApiDocument(ROUTES, 'test') as {
      paths: Record<string, Record<string, { operationId: string; 'x-access'?: unknown }>>;
    };
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(ROUTES.length);
    for (const operation of operations)
      expect({ id: operation.operationId, access: operation['x-access'] }).toEqual({
        id: operation.operationId,
        access: {
          rule: ROUTE_ACCESS[operation.operationId],
          ...ACCESS_RULES[ROUTE_ACCESS[operation.operationId]],
        },
      });
    const stop = document.paths['/api/vmware-virtual-machine/{uuid}/stop/'].post['x-access'];
    expect(stop).toEqual({ rule: 'vm-act', see: 'project-members', act: 'project-orderers', unseen: 404 });
  });
});
