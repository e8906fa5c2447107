import { z } from 'zod';
import { vsphereOperation } from './vsphere-operation';
import { inventoryListQueryFields } from './inventory-views';

/**
 * `vsphere.templates.list` (`/api/vmware-templates/`): core NATS request-reply, asked by the gateway
 * with the caller's context, answered by the vSphere adapter with RequestReply<Page<TemplateView>>.
 * Every template imported for the offering (templates are not assigned per organisation); ordered by
 * name. `customer_uuid` is accepted and ignored (templates are not assigned).
 */
export const TEMPLATES_LIST = vsphereOperation('vsphere.templates.list', {
  query: z.object(inventoryListQueryFields),
});
