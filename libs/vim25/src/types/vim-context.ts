import type { SoapCaller } from '../soap/soap-transport';
import type { ServiceContent } from './service-content';

/** What the inventory readers and VM operations need: a (session) caller and its ServiceContent. */
export interface VimContext {
  readonly caller: SoapCaller;
  readonly content: ServiceContent;
  /** `host[:port]` of vCenter as the client reaches it (a non-default port kept), for console URLs. */
  readonly serverAddress: string;
}
