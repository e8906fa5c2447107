import { uuidParams } from '../identity/operation';
import { vsphereOperation } from './vsphere-operation';

/**
 * `vsphere.templates.get` (`/api/vmware-templates/{uuid}/`, where every template's `url` points):
 * core NATS request-reply, asked by the gateway with the caller's token, answered by the vSphere
 * adapter with RequestReply<TemplateView>. Visible as in the list (to whoever may see the
 * template's offering's inventory); 404 otherwise, as for an unknown uuid.
 */
export const TEMPLATE_GET = vsphereOperation('vsphere.templates.get', { params: uuidParams });
