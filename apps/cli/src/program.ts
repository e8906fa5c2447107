import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { ASSIGNMENT_KIND_NAMES, assignmentOption } from './commands/assignment-options';
import { EXIT_CODES_HELP } from './exit-codes';

/**
 * The command tree: names, arguments, options and help. Nothing here loads what a command does;
 * each leaf hands its id (`marketplace order wait`), arguments and options to `dispatch`, which
 * loads the command's module only then: `waldur-cli --help` stays quick.
 */
export type Dispatch = (id: string, args: string[], options: Record<string, unknown>) => Promise<void>;

function seconds(name: string, minimum: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isFinite(number) || number < minimum)
      throw new InvalidArgumentError(`${name} must be a number of seconds ≥ ${minimum}.`);
    return number;
  };
}

function count(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError('Must be a whole number ≥ 0.');
  return number;
}

function wholeNumber(name: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number)) throw new InvalidArgumentError(`${name} must be a whole number.`);
    return number;
  };
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function leaf(parent: Command, name: string, summary: string, dispatch: Dispatch, id: string): Command {
  return parent
    .command(name)
    .description(summary)
    .action(async (...params: unknown[]) => {
      const command = params[params.length - 1] as Command;
      await dispatch(id, command.args, command.optsWithGlobals());
    });
}

const filterOption = () =>
  new Option('--filter <KEY=VALUE>', "filter the list (repeatable; checked against the list's query schema)")
    .argParser(collect)
    .default([]);

function waitOptions(command: Command): Command {
  return command
    .option('--timeout <seconds>', 'how long to wait', seconds('--timeout', 1), 600)
    .option(
      '--interval <seconds>',
      'poll interval when the event stream cannot be opened',
      seconds('--interval', 1),
      3,
    );
}

function orderFlowOptions(command: Command, skeleton: boolean): Command {
  command
    .option('--request <json|yaml>', 'the request body, JSON or YAML')
    .option('--request-file <file>', 'the request body from a file (JSON or YAML; - for stdin)');
  if (skeleton)
    command.addOption(
      new Option('--generate-skeleton [format]', 'print a request skeleton to fill in, and exit').choices([
        'json',
        'yaml',
      ]),
    );
  command
    .option(
      '--dry-run',
      skeleton
        ? "validate with the server's dry run and print the order; create nothing"
        : 'print the request; send nothing',
    )
    .option('--no-wait', 'return the order at once instead of waiting for it');
  return waitOptions(command);
}

function browse(
  parent: Command,
  noun: string,
  dispatch: Dispatch,
  verbs: { list?: boolean; get?: boolean; wait?: boolean },
): void {
  const prefix = `${fullName(parent)} `;
  if (verbs.list) leaf(parent, 'list', `list ${noun}s`, dispatch, `${prefix}list`).addOption(filterOption());
  if (verbs.get) leaf(parent, 'get', `get one ${noun}`, dispatch, `${prefix}get`).argument('<uuid>');
  if (verbs.wait)
    waitOptions(
      leaf(
        parent,
        'wait',
        `wait until --jmespath CONDITION holds on the ${noun} (SSE; polling as a fallback)`,
        dispatch,
        `${prefix}wait`,
      ).argument('<uuid>'),
    );
}

/** `marketplace order` for `marketplace order wait`: the id of a leaf's parent. */
function fullName(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent)
    names.unshift(current.name());
  return names.join(' ');
}

const PROVIDER_OFFERING_ACTIONS: [string, string][] = [
  ['activate', 'publish an offering (vSphere: once its integration is OK)'],
  ['pause', 'stop taking new orders'],
  ['archive', 'archive an offering for good'],
  ['update-integration', 'save vCenter settings (service_attributes) and synchronise'],
  ['sync', 'synchronise the inventory from vCenter now'],
  ['integration', 'the vCenter integration: state, last synchronisation, counts (never the password)'],
];

/** The typed OpenStack nouns and the fields their skeleton leads with (the help's hint only). */
const OPENSTACK_NOUNS: [string, string][] = [
  ['tenant', 'subnet_cidr, skip_connection_extnet, ...; limits cores, ram, storage'],
  ['instance', 'flavor, image, ports, floating_ips, ...'],
  ['volume', 'size, type, image, ...'],
];

/** A VM's actions (`POST …/{uuid}/<action>/`, 202 with the operation), as the command line spells them. */
const VM_ACTION_VERBS: [string, string][] = [
  ['start', 'power on (from POWERED_OFF or SUSPENDED)'],
  ['stop', 'power off (from POWERED_ON or SUSPENDED)'],
  ['reset', 'reset (from POWERED_ON)'],
  ['suspend', 'suspend (from POWERED_ON)'],
  ['shutdown-guest', 'shut the guest OS down (VMware Tools running)'],
  ['reboot-guest', 'reboot the guest OS (VMware Tools running)'],
  ['pull', 'read the VM from vCenter and record what changed there'],
];

/** `--wait` of a day-2 command: follow its operation on the event stream to its end. */
function operationOptions(command: Command): Command {
  return command
    .option('--wait', "follow the operation to its end (the VM's event stream); exit 5 if it errs")
    .option('--timeout <seconds>', 'with --wait: how long to wait', seconds('--timeout', 1), 600)
    .option(
      '--interval <seconds>',
      'with --wait: delay before reopening a lost stream',
      seconds('--interval', 1),
      3,
    );
}

const ORDER_ACTIONS: [string, string][] = [
  ['approve-by-consumer', 'approve as the consumer (pending-consumer)'],
  ['reject-by-consumer', 'reject as the consumer (pending-consumer)'],
  ['approve-by-provider', 'approve as the provider (pending-provider)'],
  ['reject-by-provider', 'reject as the provider (pending-provider)'],
  ['cancel', 'cancel an order not yet done'],
  ['retry', 'carry out an erred order again'],
  ['set-state-done', 'complete a Marketplace.Basic order by hand (provider)'],
  ['set-state-erred', 'fail a Marketplace.Basic order by hand (provider; --request {"error_message": ...})'],
];

/**
 * `errorsAsJson`: commander's own errors (unknown flag, missing argument) as `{"error": ...}`. The
 * settings are made before any subcommand is added, which inherits them: a parse error anywhere
 * throws (exit 2 in main) instead of exiting.
 */
export function buildProgram(dispatch: Dispatch, options: { errorsAsJson?: boolean } = {}): Command {
  const program = new Command('waldur-cli')
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => {
        if (!options.errorsAsJson) return write(text);
        // The error itself as JSON; the "run with --help" hint after it is for people, not parsers.
        if (text.startsWith('error: ')) write(`${JSON.stringify({ error: text.slice(7).trim() })}\n`);
      },
    })
    .description("Waldur's marketplace from the command line: offerings, orders, resources, vSphere VMs")
    .version('0.1.0')
    .option('--api-url <url>', 'the API (env WALDUR_API_URL; profile api_url)')
    .option('--token <token>', 'API token (env WALDUR_TOKEN; profile token)')
    .option('--profile <name>', 'profile of ~/.config/waldur-cli/config.yaml (env WALDUR_PROFILE)', undefined)
    .option('--project <uuid|url>', 'ambient project for order bodies without one (env WALDUR_PROJECT)')
    .addOption(
      new Option('--format <format>', 'output format (table on a terminal, json otherwise)').choices([
        'json',
        'yaml',
        'table',
      ]),
    )
    .option('--jmespath <expr>', 'reshape the output; in wait, the condition to wait for')
    .option('--debug', 'log requests, stream reconnects and fallbacks to stderr')
    .option('--http-timeout <seconds>', 'timeout of one HTTP request', seconds('--http-timeout', 1))
    .option('--max-retries <n>', 'retries of a GET on connection errors, 5xx and 429 (POST: never)', count)
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP);

  leaf(
    program,
    'login',
    'log in with a username and password; the token is saved in the profile',
    dispatch,
    'login',
  )
    .requiredOption('--username <username>', 'user name')
    .option('--password <password>', 'password')
    .option('--password-stdin', 'read the password from stdin');

  const config = program.command('config').description('the profile file: ambient project, API URL, token');
  leaf(config, 'show', 'what commands connect with (never the token)', dispatch, 'config show');
  leaf(
    config,
    'set',
    'set api_url, token or project (the ambient project) in the profile',
    dispatch,
    'config set',
  )
    .argument('<key>', 'api_url | token | project')
    .argument('<value>');

  const customer = program.command('customer').description('organisations, with their quotas');
  browse(customer, 'customer', dispatch, { list: true, get: true });
  const project = program.command('project').description('projects, with their quotas');
  browse(project, 'project', dispatch, { list: true, get: true });

  const marketplace = program.command('marketplace').description('offerings, plans, orders and resources');
  const offering = marketplace.command('offering').description('offerings to order from');
  browse(offering, 'offering', dispatch, { list: true, get: true });
  const providerOffering = marketplace
    .command('provider-offering')
    .description("your providers' offerings: create, integrate with vCenter, synchronise, publish");
  browse(providerOffering, 'provider offering', dispatch, { list: true, get: true });
  leaf(
    providerOffering,
    'create',
    'create an offering (Draft) from --request {name, type, customer, ...}',
    dispatch,
    'marketplace provider-offering create',
  )
    .option('--request <json|yaml>', 'the offering, JSON or YAML')
    .option('--request-file <file>', 'the offering from a file');
  for (const [action, summary] of PROVIDER_OFFERING_ACTIONS) {
    const command = leaf(
      providerOffering,
      action,
      summary,
      dispatch,
      `marketplace provider-offering ${action}`,
    ).argument('<uuid>');
    if (action === 'update-integration')
      command
        .option(
          '--request <json|yaml>',
          'the body: {"service_attributes": {"backend_url": ..., "username": ..., ...}}',
        )
        .option('--request-file <file>', 'the body from a file');
  }
  const plan = marketplace.command('plan').description("offerings' plans");
  browse(plan, 'plan', dispatch, { list: true });

  const order = marketplace.command('order').description('marketplace orders');
  browse(order, 'order', dispatch, { list: true, get: true, wait: true });
  for (const [action, summary] of ORDER_ACTIONS) {
    const command = leaf(order, action, summary, dispatch, `marketplace order ${action}`).argument('<uuid>');
    if (action === 'set-state-erred')
      command.option('--request <json|yaml>', 'the body: {"error_message": "..."}');
  }

  const resource = marketplace.command('resource').description('marketplace resources');
  browse(resource, 'resource', dispatch, { list: true, get: true, wait: true });
  orderFlowOptions(
    leaf(
      resource,
      'provision',
      'order a resource of any offering type; wait; print it',
      dispatch,
      'marketplace resource provision',
    ),
    true,
  );
  orderFlowOptions(
    leaf(
      resource,
      'terminate',
      'order the termination of a resource; wait; print it',
      dispatch,
      'marketplace resource terminate',
    ).argument('<marketplace_resource_uuid>'),
    false,
  );

  leaf(
    resource,
    'set-end-date',
    "set when the system terminates a resource (ISO date or date-time; 'none' removes it)",
    dispatch,
    'marketplace resource set-end-date',
  )
    .argument('<marketplace_resource_uuid>')
    .argument('<end_date>');

  const vmware = program
    .command('vmware')
    .description('vSphere virtual machines (VMware.VirtualMachine offerings)');
  const vm = vmware.command('vm').description('virtual machines: order, act on, resize, open a console');
  browse(vm, 'vm', dispatch, { list: true, get: true, wait: true });
  orderFlowOptions(
    leaf(
      vm,
      'provision',
      'order a VM (typed skeleton: template, cluster, networks, ...); wait; print it',
      dispatch,
      'vmware vm provision',
    ),
    true,
  );
  orderFlowOptions(
    leaf(
      vm,
      'terminate',
      'order the deletion of a VM; wait; print it',
      dispatch,
      'vmware vm terminate',
    ).argument('<marketplace_resource_uuid>'),
    false,
  );

  const openstack = program
    .command('openstack')
    .description('OpenStack tenants, instances and volumes (OpenStack.* offerings), through orders');
  for (const [noun, fields] of OPENSTACK_NOUNS) {
    const command = openstack.command(noun).description(`OpenStack ${noun}s`);
    browse(command, noun, dispatch, { list: true, get: true, wait: true });
    orderFlowOptions(
      leaf(
        command,
        'provision',
        `order a ${noun} (typed skeleton: ${fields}); wait; print it`,
        dispatch,
        `openstack ${noun} provision`,
      ),
      true,
    );
    orderFlowOptions(
      leaf(
        command,
        'terminate',
        `order the termination of a ${noun}; wait; print it`,
        dispatch,
        `openstack ${noun} terminate`,
      ).argument('<marketplace_resource_uuid>'),
      false,
    );
  }

  for (const [action, summary] of VM_ACTION_VERBS)
    operationOptions(leaf(vm, action, summary, dispatch, `vmware vm ${action}`).argument('<uuid>'));
  operationOptions(
    leaf(
      vm,
      'update',
      'change CPU, cores per socket and RAM of a powered-off VM',
      dispatch,
      'vmware vm update',
    )
      .argument('<uuid>')
      .option('--cores <n>', 'vCPUs', wholeNumber('--cores'))
      .option('--cores-per-socket <n>', 'cores per socket', wholeNumber('--cores-per-socket'))
      .option('--ram <MiB>', 'RAM in MiB', wholeNumber('--ram')),
  );
  leaf(vm, 'stats', "the latest usage values from vCenter's statistics", dispatch, 'vmware vm stats')
    .argument('<uuid>')
    .option('--metric <names>', 'cpu, memory, disk, network (comma-separated; default all)')
    .option('--period <period>', 'hour (20 s samples), day or week; default hour');
  leaf(
    vm,
    'console',
    'a VMRC console URL, no ticket in it (staff: VMRC asks for your vCenter account)',
    dispatch,
    'vmware vm console',
  )
    .argument('<uuid>')
    .option('--web', 'the WebMKS (browser) console URL instead: a single-use ticket for this VM');

  const disk = vmware.command('disk').description("VMs' disks");
  browse(disk, 'disk', dispatch, { list: true, get: true });
  operationOptions(
    leaf(disk, 'create', 'add a disk to a VM', dispatch, 'vmware disk create')
      .requiredOption('--vm <uuid>', 'the VM')
      .requiredOption('--size <MiB>', 'size in MiB', wholeNumber('--size')),
  );
  operationOptions(
    leaf(disk, 'extend', 'grow a disk (also while the VM runs)', dispatch, 'vmware disk extend')
      .argument('<uuid>')
      .requiredOption('--size <MiB>', 'the new size in MiB, larger than now', wholeNumber('--size')),
  );
  operationOptions(
    leaf(disk, 'delete', 'remove a disk from its VM and delete it', dispatch, 'vmware disk delete').argument(
      '<uuid>',
    ),
  );

  const port = vmware.command('port').description("VMs' network adapters");
  browse(port, 'port', dispatch, { list: true, get: true });
  operationOptions(
    leaf(port, 'create', 'add a network adapter to a VM', dispatch, 'vmware port create')
      .requiredOption('--vm <uuid>', 'the VM')
      .requiredOption('--network <uuid|url>', 'a network assigned to the organisation'),
  );
  operationOptions(
    leaf(port, 'delete', 'remove a network adapter from its VM', dispatch, 'vmware port delete').argument(
      '<uuid>',
    ),
  );

  const snapshot = vmware.command('snapshot').description("VMs' snapshots (vCenter's snapshot tree)");
  browse(snapshot, 'snapshot', dispatch, { list: true, get: true });
  operationOptions(
    leaf(snapshot, 'create', 'take a snapshot of a VM', dispatch, 'vmware snapshot create')
      .requiredOption('--vm <uuid>', 'the VM')
      .requiredOption('--name <name>', 'the snapshot name')
      .option('--description <text>', 'what it is for')
      .option('--memory', "include the VM's memory (powered-on VM; a revert then powers it on)")
      .option('--quiesce', 'quiesce the guest file systems (VMware Tools running)'),
  );
  operationOptions(
    leaf(
      snapshot,
      'revert',
      "revert its VM to a snapshot (the snapshot's hardware and power state)",
      dispatch,
      'vmware snapshot revert',
    ).argument('<uuid>'),
  );
  operationOptions(
    leaf(
      snapshot,
      'delete',
      'delete a snapshot (its children stay), or every snapshot of a VM',
      dispatch,
      'vmware snapshot delete',
    )
      .argument('[uuid]')
      .option('--all', 'every snapshot of the VM named by --vm')
      .option('--vm <uuid>', 'with --all: the VM'),
  );

  const assignment = vmware
    .command('assignment')
    .description('which clusters, networks, datastores and folders an organisation may use (staff)');
  leaf(assignment, 'list', 'list assignments (of every kind, or --kind)', dispatch, 'vmware assignment list')
    .option('--kind <kind>', ASSIGNMENT_KIND_NAMES.join(' | '))
    .addOption(filterOption());
  for (const [verb, summary] of [
    ['add', 'assign one object to an organisation'],
    ['remove', 'take an object back from an organisation'],
  ]) {
    const command = leaf(assignment, verb, summary, dispatch, `vmware assignment ${verb}`).requiredOption(
      '--customer <uuid|url>',
      'the organisation',
    );
    for (const kind of ASSIGNMENT_KIND_NAMES)
      command.option(`${assignmentOption(kind)} <uuid|url>`, `one of the offering's ${kind}`);
  }

  for (const kind of ['template', 'cluster', 'network', 'datastore', 'folder'])
    browse(vmware.command(kind).description(`vCenter ${kind}s the organisation may use`), kind, dispatch, {
      list: true,
    });

  leaf(program, 'completion', 'print the bash or zsh completion script', dispatch, 'completion').addArgument(
    new Argument('<shell>').choices(['bash', 'zsh']),
  );
  return program;
}
