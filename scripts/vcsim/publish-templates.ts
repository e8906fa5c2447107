// Publishes the demo's VM templates in vcsim's Content Library, through the front as a provider
// would publish them in vCenter 8 (SOAP for the source VM, `/api` for the library), once: a library
// or a template that is already there by name is kept. vcsim forgets everything when it stops, so
// npm start runs this at every start.
//   node -r ./scripts/ts-register.js scripts/vcsim/publish-templates.ts
// Environment: VCSIM_FRONT_URL, VCSIM_USERNAME, VCSIM_PASSWORD, VCSIM_CA (PEM file).
// Last line of stdout: {"library": "<id>", "templates": [{"name": ..., "id": ...}, ...]}.
import { readFileSync } from 'node:fs';
import {
  cloneVm,
  connectRest,
  connectVim,
  createLocalLibrary,
  createVmTemplate,
  destroyVm,
  extendDisk,
  getLibrary,
  getLibraryItem,
  listLibraries,
  listLibraryItems,
  readDatacenters,
  readDatastores,
  readVirtualMachines,
  readVmDevices,
  RestSessionRegistry,
  runTask,
  VimSessionRegistry,
  vmObject,
  type RestSession,
  type VimConnection,
} from '@app/vim25';
import { DEMO_LIBRARY, DEMO_TEMPLATES, type DemoTemplate } from './demo-templates';
import { required } from './env';

const log = (message: string): void => void process.stderr.write(`[templates] ${message}\n`);

async function findOrCreateLibrary(soap: VimConnection, rest: RestSession): Promise<string> {
  for (const id of await listLibraries(rest)) {
    if ((await getLibrary(rest, id)).name === DEMO_LIBRARY) return id;
  }
  const [datastore] = await readDatastores(soap);
  if (datastore === undefined) throw new Error('vcsim has no datastore to back a library');
  log(`creating the library "${DEMO_LIBRARY}" on ${datastore.name}`);
  return createLocalLibrary(rest, {
    name: DEMO_LIBRARY,
    description: 'VM templates of the local demo',
    storage_backings: [{ type: 'DATASTORE', datastore_id: datastore.ref.value }],
  });
}

/** Template name → item id, for the items already in the library. */
async function itemsByName(rest: RestSession, libraryId: string): Promise<Map<string, string>> {
  const items = await Promise.all(
    (await listLibraryItems(rest, libraryId)).map((id) => getLibraryItem(rest, id)),
  );
  return new Map(items.map((item) => [item.name, item.id]));
}

/** Clones a stock VM of cluster DC0_C0, shapes it as `template` says, publishes it, removes the clone. */
async function publish(
  soap: VimConnection,
  rest: RestSession,
  libraryId: string,
  template: DemoTemplate,
): Promise<string> {
  const vms = (await readVirtualMachines(soap)).filter((vm) => !vm.template);
  const stock =
    vms.find((vm) => vm.name.startsWith('DC0_C0_')) ?? vms.find((vm) => vm.name.startsWith('DC0_'));
  const [datacenter] = await readDatacenters(soap);
  if (stock === undefined || datacenter?.vmFolder === undefined)
    throw new Error('vcsim has no stock VM (DC0_*) to make a template from');
  const source = await cloneVm(soap, stock.ref, {
    folder: datacenter.vmFolder,
    name: `${template.name}-source`,
    pool: stock.resourcePool,
  });
  if (source === undefined) throw new Error(`cloning ${stock.name} returned no VM`);
  try {
    // VirtualMachineConfigSpec fields in WSDL order.
    const spec = {
      guestId: template.guestId,
      numCPUs: template.numCPUs,
      numCoresPerSocket: template.numCoresPerSocket,
      memoryMB: template.memoryMB,
    };
    await runTask(soap, (options) => vmObject(soap, source).reconfigure(spec, options));
    const disks = (await readVmDevices(soap, source)).filter((device) => device.kind === 'disk');
    for (const disk of disks) await extendDisk(soap, source, disk.key, template.diskGiB * 1024 * 1024);
    return await createVmTemplate(
      rest,
      {
        source_vm: source.value,
        name: template.name,
        description: template.description,
        library: libraryId,
        placement: { folder: datacenter.vmFolder.value },
      },
      { timeoutMs: 120_000 },
    );
  } finally {
    // The item holds a template VM of its own; the shaped clone is not needed any more.
    await destroyVm(soap, source);
  }
}

async function main(): Promise<void> {
  const connection = {
    url: required('VCSIM_FRONT_URL'),
    caPem: readFileSync(required('VCSIM_CA'), 'utf8'),
    username: required('VCSIM_USERNAME'),
    password: required('VCSIM_PASSWORD'),
  };
  const registries = { soap: new VimSessionRegistry(), rest: new RestSessionRegistry() };
  try {
    const soap = await connectVim(connection, {}, registries.soap);
    const rest = await connectRest(connection, {}, registries.rest);
    const libraryId = await findOrCreateLibrary(soap, rest);
    const present = await itemsByName(rest, libraryId);
    const templates: { name: string; id: string }[] = [];
    for (const template of DEMO_TEMPLATES) {
      let id = present.get(template.name);
      if (id === undefined) {
        id = await publish(soap, rest, libraryId, template);
        log(
          `published ${template.name} (${template.guestId}, ${template.numCPUs} vCPU, ${template.memoryMB} MiB, ${template.diskGiB} GiB)`,
        );
      } else {
        log(`${template.name} is already published`);
      }
      templates.push({ name: template.name, id });
    }
    process.stdout.write(`${JSON.stringify({ library: libraryId, templates })}\n`);
  } finally {
    await registries.rest.closeAll();
    await registries.soap.closeAll();
  }
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
