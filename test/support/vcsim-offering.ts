import { DemoRegistration } from '../../scripts/demo/demo-registration';
import { DEMO_CUSTOMER, DEMO_PROJECT } from '../../scripts/demo/demo-objects';
import { GatewayClient } from '../../scripts/demo/gateway-client';
import { VcsimLibrary } from '../../apps/vsphere-adapter/test/support/vcsim-library';
import type { ApiSession, Json } from './api-session';
import { startVcsimWithFront, type VcsimWithFront } from './vcsim-front';

export type Named = Json & { uuid: string; name: string };

/** vcsim behind the vCenter 8 front, with templates published in its content library. */
export interface VcsimWithTemplates {
  sim: VcsimWithFront;
  library: VcsimLibrary;
  published: { name: string; id: string }[];
}

/** What a registered vCenter offering brings: the offering, its customer's project and its templates. */
export interface RegisteredOffering {
  offering: Named & { plans: Named[] };
  customer: Named;
  project: Named;
  templates: Named[];
}

export async function startVcsimWithTemplates(
  password: string,
  templates: readonly string[] = ['Ubuntu-24.04'],
  args?: readonly string[],
): Promise<VcsimWithTemplates> {
  const sim = await startVcsimWithFront({ username: 'svc@vsphere.local', password, args });
  const library = await VcsimLibrary.open(sim);
  const published = [];
  for (const name of templates) published.push({ name, id: await library.publish(name) });
  return { sim, library, published };
}

/**
 * Registers the vcsim as a vCenter offering through the public REST API the way `npm start`'s demo
 * does (scripts/demo), and makes `member` an owner of the customer organisation. `api` has a staff
 * user named `staff`.
 */
export async function registerVcsimOffering(
  api: ApiSession,
  { sim, published }: VcsimWithTemplates,
): Promise<RegisteredOffering> {
  const registration = new DemoRegistration(new GatewayClient(api.base, api.tokens.staff), () => undefined);
  const offering = await registration.run(
    { url: sim.url, username: sim.username, password: sim.password, caPem: sim.caPem },
    published,
    60_000,
  );
  const [customer] = await api.ok<Named[]>(
    'staff',
    'GET',
    `/api/customers/?name=${encodeURIComponent(DEMO_CUSTOMER.name)}`,
  );
  const [project] = await api.ok<Named[]>(
    'staff',
    'GET',
    `/api/projects/?customer_uuid=${customer.uuid}&name=${encodeURIComponent(DEMO_PROJECT.name)}`,
  );
  const templates = await api.ok<Named[]>(
    'staff',
    'GET',
    `/api/vmware-templates/?offering_uuid=${offering.uuid}&page_size=100`,
  );
  await api.user('member', 'staff');
  await api.ok('staff', 'POST', `/api/customers/${customer.uuid}/add_user/`, {
    user: api.users.member,
    role: 'CUSTOMER.OWNER',
  });
  return { offering, customer, project, templates };
}
