/* eslint-disable @typescript-eslint/no-require-imports -- the command modules load only when their
   command runs, so `--help` does not pay for zod, yaml and the rest: a synchronous require keeps the
   nest build's alias rewriting (it rewrites static imports only) and works under jest. */
import type { OrderAction, ProviderOfferingAction } from '@app/contracts/http/api-paths';
import {
  OPENSTACK_INSTANCE_TYPE,
  OPENSTACK_TENANT_TYPE,
  OPENSTACK_VOLUME_TYPE,
  type OpenStackType,
} from '@app/contracts/marketplace/offering-types';
import type * as AssignmentsModule from './commands/assignments';
import type * as BrowseModule from './commands/browse';
import type * as CompletionModule from './commands/completion';
import type * as NounsModule from './commands/nouns';
import type * as OrderActionsModule from './commands/order-actions';
import type * as OrderingModule from './commands/ordering';
import type * as ProviderModule from './commands/provider';
import type * as SessionModule from './commands/session';
import type * as StructureModule from './commands/structure';
import type * as VmDay2Module from './commands/vm-day2';
import type * as VmSnapshotsModule from './commands/vm-snapshots';
import type * as VmStatsModule from './commands/vm-stats';
import type * as ContextModule from './command-context';
import type * as SkeletonsModule from './input/skeletons';
import { buildProgram } from './program';

const load = {
  assignments: () => require('./commands/assignments') as typeof AssignmentsModule,
  browse: () => require('./commands/browse') as typeof BrowseModule,
  completion: () => require('./commands/completion') as typeof CompletionModule,
  nouns: () => require('./commands/nouns') as typeof NounsModule,
  orderActions: () => require('./commands/order-actions') as typeof OrderActionsModule,
  ordering: () => require('./commands/ordering') as typeof OrderingModule,
  provider: () => require('./commands/provider') as typeof ProviderModule,
  session: () => require('./commands/session') as typeof SessionModule,
  structure: () => require('./commands/structure') as typeof StructureModule,
  vmDay2: () => require('./commands/vm-day2') as typeof VmDay2Module,
  vmSnapshots: () => require('./commands/vm-snapshots') as typeof VmSnapshotsModule,
  vmStats: () => require('./commands/vm-stats') as typeof VmStatsModule,
  context: () => require('./command-context') as typeof ContextModule,
  skeletons: () => require('./input/skeletons') as typeof SkeletonsModule,
};

type Options = Record<string, unknown>;

/** Runs the command `id` (`marketplace order wait`) with its arguments and options. */
export async function dispatch(id: string, args: string[], options: Options): Promise<void> {
  if (id === 'completion') {
    const { bashCompletion, zshCompletion } = load.completion();
    const program = buildProgram(dispatch);
    process.stdout.write(args[0] === 'zsh' ? zshCompletion(program) : bashCompletion(program));
    return;
  }
  const context = await load.context().CommandContext.create(options);
  const {
    OFFERING,
    PROVIDER_OFFERING,
    PLAN,
    ORDER,
    RESOURCE,
    VM,
    DISK,
    PORT,
    SNAPSHOT,
    VMWARE_INVENTORY,
    OPENSTACK,
  } = load.nouns();
  const { CUSTOMER, PROJECT } = load.nouns();
  const nouns = {
    customer: CUSTOMER,
    project: PROJECT,
    'marketplace offering': OFFERING,
    'marketplace provider-offering': PROVIDER_OFFERING,
    'marketplace plan': PLAN,
    'marketplace order': ORDER,
    'marketplace resource': RESOURCE,
    'vmware vm': VM,
    'vmware disk': DISK,
    'vmware port': PORT,
    'vmware snapshot': SNAPSHOT,
    'openstack tenant': OPENSTACK.tenant,
    'openstack instance': OPENSTACK.instance,
    'openstack volume': OPENSTACK.volume,
    'vmware template': VMWARE_INVENTORY.template,
    'vmware cluster': VMWARE_INVENTORY.cluster,
    'vmware network': VMWARE_INVENTORY.network,
    'vmware datastore': VMWARE_INVENTORY.datastore,
    'vmware folder': VMWARE_INVENTORY.folder,
  };
  const skeleton = (type: OpenStackType) => load.skeletons().openstackSkeleton(type);
  const verb = id.split(' ').pop()!;
  const noun = nouns[id.slice(0, id.length - verb.length - 1) as keyof typeof nouns];
  const browse = load.browse();
  const flow = options as unknown as OrderingModule.OrderFlowFlags;
  switch (id) {
    case 'login':
      return load
        .session()
        .login(context, options as { username: string; password?: string; passwordStdin?: boolean });
    case 'config show':
      return load.session().configShow(context);
    case 'config set':
      return load.session().configSet(context, args[0], args[1]);
    case 'customer get':
      return load.structure().getWithQuotas(context, CUSTOMER, args[0]);
    case 'project get':
      return load.structure().getWithQuotas(context, PROJECT, args[0]);
    case 'marketplace resource set-end-date':
      return load.structure().setEndDate(context, args[0], args[1]);
    case 'marketplace resource provision':
      return load.ordering().provision(context, flow, () => load.skeletons().genericSkeleton());
    case 'vmware vm provision':
      return load.ordering().provision(context, flow, () => load.skeletons().vmwareVmSkeleton());
    case 'openstack tenant provision':
      return load.ordering().provision(context, flow, () => skeleton(OPENSTACK_TENANT_TYPE));
    case 'openstack instance provision':
      return load.ordering().provision(context, flow, () => skeleton(OPENSTACK_INSTANCE_TYPE));
    case 'openstack volume provision':
      return load.ordering().provision(context, flow, () => skeleton(OPENSTACK_VOLUME_TYPE));
    case 'marketplace resource terminate':
    case 'vmware vm terminate':
    case 'openstack tenant terminate':
    case 'openstack instance terminate':
    case 'openstack volume terminate':
      return load.ordering().terminate(context, args[0], flow);
  }
  const day2 = options as unknown as VmDay2Module.UpdateFlags & {
    vm: string;
    size?: number;
    network?: string;
  };
  switch (id) {
    case 'vmware vm update':
      return load.vmDay2().updateVm(context, args[0], day2);
    case 'vmware vm stats':
      return load.vmStats().vmStats(context, args[0], {
        metric: options.metric as string | undefined,
        period: options.period as string | undefined,
      });
    case 'vmware vm console':
      return load.vmDay2().vmConsole(context, args[0], { web: options.web as boolean | undefined });
    case 'vmware disk create':
      return load.vmDay2().createDisk(context, day2);
    case 'vmware disk extend':
      return load.vmDay2().extendDisk(context, args[0], day2);
    case 'vmware disk delete':
      return load.vmDay2().deleteDevice(context, 'disk', args[0], day2);
    case 'vmware port create':
      return load.vmDay2().createPort(context, day2);
    case 'vmware port delete':
      return load.vmDay2().deleteDevice(context, 'port', args[0], day2);
    case 'vmware snapshot create':
      return load
        .vmSnapshots()
        .createSnapshot(context, options as unknown as VmSnapshotsModule.SnapshotCreateFlags);
    case 'vmware snapshot revert':
      return load.vmSnapshots().revertSnapshot(context, args[0], day2);
    case 'vmware snapshot delete':
      return load
        .vmSnapshots()
        .deleteSnapshot(context, args[0], { ...day2, all: options.all as boolean | undefined });
  }
  if (id.startsWith('vmware vm ') && !['list', 'get', 'wait', 'provision', 'terminate'].includes(verb))
    return load.vmDay2().vmAction(context, verb, args[0], day2);
  if (id === 'vmware assignment list')
    return load.assignments().listAssignments(context, {
      kind: options.kind as string | undefined,
      filter: options.filter as string[],
    });
  if (id === 'vmware assignment add')
    return load.assignments().addAssignment(context, options as AssignmentsModule.AssignmentFlags);
  if (id === 'vmware assignment remove')
    return load.assignments().removeAssignment(context, options as AssignmentsModule.AssignmentFlags);
  if (id === 'marketplace provider-offering create') return load.provider().createOffering(context, flow);
  if (id.startsWith('marketplace provider-offering ') && verb !== 'list' && verb !== 'get') {
    const action = verb.replace(/-/g, '_') as ProviderOfferingAction;
    return load.provider().offeringAction(context, action, args[0], flow);
  }
  if (noun && verb === 'list') return browse.list(context, noun, options.filter as string[]);
  if (noun && verb === 'get') return browse.get(context, noun, args[0]);
  if (noun && verb === 'wait')
    return browse.waitFor(context, noun, args[0], {
      timeout: options.timeout as number,
      interval: options.interval as number,
    });
  if (id.startsWith('marketplace order ')) {
    const action = verb.replace(/-/g, '_') as OrderAction;
    return load
      .orderActions()
      .orderAction(context, action, args[0], { request: options.request as string | undefined });
  }
  throw new Error(`no handler for ${id}`);
}
