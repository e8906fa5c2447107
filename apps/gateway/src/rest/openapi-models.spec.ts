import { eventRoutes } from '../events/event-routes';
import type { EventStreamEndpoint } from '../events/event-stream.endpoint';
import { API_ROUTES, NEST_ROUTES } from './api-routes';
import { docsRoutes } from './docs-routes';
import { buildOpenApiDocument } from './openapi-document';
import { REQUEST_MODELS } from './openapi-models';
import type { AnyRoute } from './route';

type Schema = { $ref?: string; type?: string; items?: Schema; properties?: Record<string, Schema> };
interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const ROUTES: readonly AnyRoute[] = [
  ...API_ROUTES,
  ...eventRoutes({} as EventStreamEndpoint),
  ...docsRoutes(() => ({})),
  ...NEST_ROUTES,
];
const document = buildOpenApiDocument(ROUTES, 'test') as unknown as Document;
const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

/** The component an answer or body names, `[Name]` for a list of them; anything inline as `inline`. */
function modelOf(schema: Schema | undefined): string | undefined {
  if (schema === undefined) return undefined;
  const ref = (target: Schema) => target.$ref?.replace('#/components/schemas/', '') ?? 'inline';
  return schema.type === 'array' && schema.items ? `[${ref(schema.items)}]` : ref(schema);
}
// The main answer: a create's 201 before its dry run's 200 (JSON orders integer keys ascending).
const successOf = (operation: Operation) =>
  ['201', '202', '200'].map((status) => operation.responses[status]).find(Boolean);

/**
 * Operations we share with Waldur and the models Waldur's document (waldur/api-docs,
 * docs/API/waldur-openapi-schema-8.0.3.yaml) gives their body and answer, where our object is the
 * same one. A client generated from either document then has the same type names.
 */
const WALDUR_MODELS: [operationId: string, request: string | null, response: string][] = [
  ['customers_list', null, '[Customer]'],
  ['customers_create', 'CustomerRequest', 'Customer'],
  ['customers_partial_update', 'PatchedCustomerRequest', 'Customer'],
  ['projects_list', null, '[Project]'],
  ['projects_create', 'ProjectRequest', 'Project'],
  ['projects_retrieve', null, 'Project'],
  ['projects_partial_update', 'PatchedProjectRequest', 'Project'],
  ['users_me_retrieve', null, 'User'],
  ['users_create', 'UserRequest', 'User'],
  ['users_partial_update', 'PatchedUserRequest', 'User'],
  ['users_refresh_token', null, 'UserAuthToken'],
  ['marketplace_provider_offerings_list', null, '[ProviderOfferingDetails]'],
  ['marketplace_provider_offerings_create', 'OfferingCreateRequest', 'ProviderOfferingDetails'],
  ['marketplace_public_offerings_list', null, '[PublicOfferingDetails]'],
  ['marketplace_public_offerings_retrieve', null, 'PublicOfferingDetails'],
  ['marketplace_plans_list', null, '[ProviderPlanDetails]'],
  ['marketplace_plans_retrieve', null, 'ProviderPlanDetails'],
  ['marketplace_orders_list', null, '[OrderDetails]'],
  ['marketplace_orders_create', 'OrderCreateRequest', 'OrderDetails'],
  ['marketplace_orders_retrieve', null, 'OrderDetails'],
  ['marketplace_resources_list', null, '[Resource]'],
  ['marketplace_resources_retrieve', null, 'Resource'],
  ['marketplace_resources_terminate', 'ResourceTerminateRequest', 'OrderUUID'],
  ['marketplace_resources_update_limits', 'ResourceUpdateLimitsRequest', 'OrderUUID'],
  ['vmware_templates_list', null, '[VmwareTemplate]'],
  ['vmware_clusters_list', null, '[VmwareCluster]'],
  ['vmware_networks_list', null, '[VmwareNetwork]'],
  ['vmware_datastores_list', null, '[VmwareDatastore]'],
  ['vmware_folders_list', null, '[VmwareFolder]'],
  ['vmware_limits_retrieve', null, 'VmwareLimit'],
  ['vmware_virtual_machine_list', null, '[VmwareVirtualMachine]'],
  ['vmware_virtual_machine_retrieve', null, 'VmwareVirtualMachine'],
  ['vmware_virtual_machine_create_disk', 'VmwareDiskRequest', 'VmwareDisk'],
  ['vmware_virtual_machine_create_port', 'VmwarePortRequest', 'VmwarePort'],
  ['vmware_virtual_machine_console_retrieve', null, 'ConsoleUrl'],
  ['vmware_disks_retrieve', null, 'VmwareDisk'],
  ['vmware_ports_list', null, '[VmwarePort]'],
];

describe('the OpenAPI document names its models', () => {
  it('gives every JSON body and answer of the API a component', () => {
    const inline: string[] = [];
    for (const operation of operations) {
      if (modelOf(operation.requestBody?.content['application/json']?.schema) === 'inline')
        inline.push(`${operation.operationId} body`);
      for (const [status, response] of Object.entries(operation.responses)) {
        const model = modelOf(response.content?.['application/json']?.schema);
        if (model?.includes('inline')) inline.push(`${operation.operationId} ${status}`);
      }
    }
    // The document itself and /health answer JSON of their own; neither is a model of the API.
    expect(inline).toEqual(['schema_retrieve 200', 'health_retrieve 200']);
  });

  it("names the shared operations' bodies and answers as Waldur does", () => {
    const ours = WALDUR_MODELS.map(([id]) => {
      const operation = byId.get(id);
      if (!operation) return [id, 'not served', 'not served'];
      return [
        id,
        modelOf(operation.requestBody?.content['application/json']?.schema) ?? null,
        modelOf(successOf(operation)?.content?.['application/json']?.schema),
      ];
    });
    expect(ours).toEqual(WALDUR_MODELS);
  });

  it('refers to a nested model by name, under the name Waldur gives it there', () => {
    const { schemas } = document.components;
    expect(schemas.PublicOfferingDetails.properties?.plans.items?.$ref).toBe(
      '#/components/schemas/BasePublicPlan',
    );
    expect(schemas.ProviderOfferingDetails.properties?.plans.items?.$ref).toBe(
      '#/components/schemas/BaseProviderPlan',
    );
    expect(schemas.VmwareVirtualMachine.properties?.disks.items?.$ref).toBe(
      '#/components/schemas/VmwareDisk',
    );
    expect(schemas.VmwareVirtualMachine.properties?.ports.items?.$ref).toBe(
      '#/components/schemas/VmwarePort',
    );
  });

  it('has a component for every $ref, and refers to every component', () => {
    const text = JSON.stringify(document);
    const referenced = new Set([...text.matchAll(/"#\/components\/schemas\/([A-Za-z]+)"/g)].map((m) => m[1]));
    const defined = Object.keys(document.components.schemas);
    expect([...referenced].filter((name) => !defined.includes(name))).toEqual([]);
    expect(defined.filter((name) => !referenced.has(name))).toEqual([]);
    // Each component has its own content (a body named twice is not a bare pointer at the other).
    const aliases = defined.filter(
      (name) => Object.keys(document.components.schemas[name]).join() === '$ref',
    );
    expect(aliases).toEqual([]);
  });

  it('names bodies of operations the gateway serves only', () => {
    const served = ROUTES.map((route) => route.operationId);
    expect(Object.keys(REQUEST_MODELS).filter((id) => !served.includes(id))).toEqual([]);
  });
});
