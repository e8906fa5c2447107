import { ApiSystem, type ApiSystemOptions } from '../../test/support/api-system';

type Named = Record<string, unknown> & { uuid: string };

/**
 * A provider with an active, priced `Marketplace.Basic` offering and a customer organisation whose
 * owner (`member`, skips consumer review) orders in its project: what the orders bench submits to.
 */
export interface BasicMarketplace {
  system: ApiSystem;
  memberToken: string;
  providerToken: string;
  offering: Named;
  plan: Named;
  project: Named;
}

export async function startBasicMarketplace(
  label: string,
  options: ApiSystemOptions = {},
): Promise<BasicMarketplace> {
  const system = await ApiSystem.start(label, options);
  const staff = system.staffToken;
  const provider = await system.ok<Named>(staff, 'POST', '/api/customers/', { name: 'Bench Provider' });
  const customer = await system.ok<Named>(staff, 'POST', '/api/customers/', { name: 'Bench Customer' });
  const project = await system.ok<Named>(staff, 'POST', '/api/projects/', {
    name: 'Bench Project',
    customer: customer.uuid,
  });
  const member = await system.ok<Named>(staff, 'POST', '/api/users/', { username: 'bench-member' });
  await system.ok(staff, 'POST', `/api/customers/${customer.uuid}/add_user/`, {
    user: member.uuid,
    role: 'CUSTOMER.OWNER',
  });
  const memberToken = await system.createToken(member.uuid);
  const offering = await system.ok<Named & { plans: Named[] }>(
    staff,
    'POST',
    '/api/marketplace-provider-offerings/',
    {
      name: 'Bench Basic',
      type: 'Marketplace.Basic',
      customer: provider.uuid,
    },
  );
  const [plan] = offering.plans;
  await system.ok(staff, 'POST', `/api/marketplace-plans/${plan.uuid}/update_prices/`, { prices: {} });
  await system.ok(staff, 'POST', `/api/marketplace-provider-offerings/${offering.uuid}/activate/`);
  return { system, memberToken, providerToken: staff, offering, plan, project };
}
