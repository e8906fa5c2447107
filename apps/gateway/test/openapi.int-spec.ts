import { compileErrors, validate } from '@readme/openapi-parser';
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { loadGatewayConfig } from '../src/config/gateway.config';
import type { ExpressApp } from '../src/rest/http-types';
import { RestRouter } from '../src/rest/rest-router';
import { testEnv } from '../../../test/support/test-env';

type PathItem = Record<string, unknown>;

/** The gateway in this process (on the real NATS, no service needed): its Express routes can be listed. */
describe('OpenAPI document', () => {
  let app: INestApplication;
  let document: { openapi: string; paths: Record<string, PathItem> };

  beforeAll(async () => {
    const config = loadGatewayConfig({ NATS_URL: testEnv.natsUrl, GATEWAY_PORT: '0', LOG_LEVEL: 'error' });
    app = await NestFactory.create(AppModule.register(config), { bodyParser: false, logger: false });
    await app.init();
    document = app.get(RestRouter).openApiDocument() as typeof document;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('passes an OpenAPI validator', async () => {
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(document.openapi).toBe('3.1.0');
  });

  it("gives no error under Spectral's spectral:oas ruleset", async () => {
    const spectral = new Spectral();
    // As `extends: spectral:oas` in a .spectral.yaml: the ruleset's recommended rules.
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(new Document(JSON.stringify(document, null, 2), Json, 'openapi.json'));
    // Severity 0 is an error; the ruleset's warnings (no `servers`, trailing slashes as Waldur has them) stay.
    const errors = results
      .filter((result) => Number(result.severity) === 0)
      .map((result) => `${result.code} at ${result.path.join('.')}: ${result.message}`);
    expect(errors).toEqual([]);
    expect(results.length).toBeGreaterThan(0);
  });

  it('lists exactly the routes Express serves', () => {
    const express = app.getHttpAdapter().getInstance() as ExpressApp;
    const served = express.router.stack
      .flatMap((layer) =>
        layer.route
          ? Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${layer.route!.path}`)
          : [],
      )
      .sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{([a-z_]+)\}/g, ':$1')}`),
      )
      .sort();
    expect(served).toEqual(documented);
    expect(documented).toEqual(
      expect.arrayContaining([
        'GET /api/customers/',
        'POST /api/customers/:uuid/add_user/',
        'POST /api/projects/:uuid/delete_user/',
        'PATCH /api/users/:uuid/',
        'GET /api/schema/',
        'GET /api/docs/',
        'GET /health',
        'PATCH /api/vmware-virtual-machine/:uuid/',
        'PUT /api/vmware-virtual-machine/:uuid/',
        'POST /api/vmware-virtual-machine/:uuid/shutdown_guest/',
        'POST /api/vmware-virtual-machine/:uuid/create_disk/',
        'GET /api/vmware-virtual-machine/:uuid/console/',
        'POST /api/vmware-disks/:uuid/extend/',
        'DELETE /api/vmware-disks/:uuid/',
        'DELETE /api/vmware-ports/:uuid/',
      ]),
    );
  });

  it('documents a device removal as 202 with the operation, or 204 when vCenter never had the device', () => {
    const destroy = (
      document.paths['/api/vmware-disks/{uuid}/'] as {
        delete: { operationId: string; responses: Record<string, { content?: object }> };
      }
    ).delete;
    expect(destroy.operationId).toBe('vmware_disks_destroy');
    expect(destroy.responses['202'].content).toBeDefined();
    expect(destroy.responses['204'].content).toBeUndefined();
    const update = document.paths['/api/vmware-virtual-machine/{uuid}/'] as Record<
      string,
      { operationId: string; requestBody?: object }
    >;
    expect(update.put.operationId).toBe('vmware_virtual_machine_update');
    expect(update.put.requestBody).toBeDefined();
  });

  it('documents the token scheme, the pagination headers and the error bodies', () => {
    const list = (
      document.paths['/api/projects/'] as {
        get: { responses: Record<string, { headers?: object }>; parameters: { name: string }[] };
      }
    ).get;
    expect(Object.keys(list.responses['200'].headers ?? {})).toEqual(['X-Result-Count', 'Link']);
    expect(list.parameters.map((parameter) => parameter.name)).toEqual([
      'page',
      'page_size',
      'name',
      'customer_uuid',
    ]);
    expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '503']));
  });
});
