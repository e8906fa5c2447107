// npm run -s generate:api-client: writes test/e2e/generated-client/api-schema.ts, the types
// openapi-typescript generates from the gateway's OpenAPI document, built from the route table as
// the gateway builds it (no service needs to run). The generated-client e2e test fails when it is stale.
require('./ts-register');
const { writeFileSync } = require('node:fs');
const { API_ROUTES, NEST_ROUTES } = require('../apps/gateway/src/rest/api-routes');
const { docsRoutes } = require('../apps/gateway/src/rest/docs-routes');
const { eventRoutes } = require('../apps/gateway/src/events/event-routes');
const { buildOpenApiDocument } = require('../apps/gateway/src/rest/openapi-document');
const { API_CLIENT_TYPES, apiClientTypes } = require('../test/support/api-client-types');

// The same table, in the same order, as RestRouter's (handlers are never called here).
const routes = [...API_ROUTES, ...eventRoutes({}), ...docsRoutes(() => ({})), ...NEST_ROUTES];
apiClientTypes(buildOpenApiDocument(routes, '0.1.0')).then(
  (types) => {
    writeFileSync(API_CLIENT_TYPES, types);
    console.log(`wrote ${API_CLIENT_TYPES}`);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
