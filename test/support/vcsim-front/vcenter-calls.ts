// Every vCenter call the product makes: each is a row (or rows) of the audit table in README.md,
// and the front must judge each as vCenter 8 does. `vcenter-calls.spec.ts` reads the product's code
// (apps/*/src, libs/*/src; specs and test support left out) and fails when the code makes a call
// this list lacks, or the list holds one the code no longer makes.
//
// Adding an entry: one line, kept in alphabetical order (so branches that add calls merge cleanly).
// - SOAP: `'<ManagedObjectType>.<Method>'`, the type the method is called on as the vSphere Web
//   Services API reference names it (`VirtualMachine.CreateSnapshot_Task`,
//   `VirtualMachineSnapshot.RevertToSnapshot_Task`, `PerformanceManager.QueryPerf`,
//   `PropertyCollector.CreateFilter`, `ViewManager.CreateContainerView`). The spec finds the calls
//   as the string literal given to `invoke`, `invokeForMoRef` or `buildEnvelope` of `@app/vim25`,
//   and the type in the doc comment of the function making the call, which starts
//   `/** <Type>.<Method>: ...` as every method of libs/vim25/src/methods does.
// - REST: `'<VERB> <path>'`, the path as REST_PATHS (libs/vim25/src/rest/rest-paths.ts) builds it
//   with every parameter written `{id}` (`'POST /api/vcenter/vm-template/library-items/{id}?action=deploy'`).
//   The spec finds the calls as the object literals `{ method: '<VERB>', path: REST_PATHS.<key>... }`.
// Then name it, in backticks exactly as listed here, in README.md's audit section: in a row of the
// table with the documented vCenter 8 behaviour and its source, or among the calls without a row
// (the spec checks that every entry is named there).

/** SOAP methods of the vSphere Web Services API (vim25), as `<ManagedObjectType>.<Method>`. */
export const SOAP_CALLS: readonly string[] = [
  'ManagedEntity.Destroy_Task',
  'PerformanceManager.QueryPerf',
  'PropertyCollector.CancelRetrievePropertiesEx',
  'PropertyCollector.ContinueRetrievePropertiesEx',
  'PropertyCollector.CreateFilter',
  'PropertyCollector.CreatePropertyCollector',
  'PropertyCollector.DestroyPropertyCollector',
  'PropertyCollector.RetrievePropertiesEx',
  'PropertyCollector.WaitForUpdatesEx',
  'PropertyFilter.DestroyPropertyFilter',
  'ServiceInstance.CurrentTime',
  'ServiceInstance.RetrieveServiceContent',
  'SessionManager.AcquireCloneTicket',
  'SessionManager.Login',
  'SessionManager.Logout',
  'SessionManager.SessionIsActive',
  'SessionManager.TerminateSession',
  'View.DestroyView',
  'ViewManager.CreateContainerView',
  'VirtualDiskManager.DeleteVirtualDisk_Task',
  'VirtualMachine.AcquireTicket',
  'VirtualMachine.CloneVM_Task',
  'VirtualMachine.CreateSnapshot_Task',
  'VirtualMachine.MarkAsTemplate',
  'VirtualMachine.MarkAsVirtualMachine',
  'VirtualMachine.PowerOffVM_Task',
  'VirtualMachine.PowerOnVM_Task',
  'VirtualMachine.RebootGuest',
  'VirtualMachine.ReconfigVM_Task',
  'VirtualMachine.RemoveAllSnapshots_Task',
  'VirtualMachine.ResetVM_Task',
  'VirtualMachine.ShutdownGuest',
  'VirtualMachine.SuspendVM_Task',
  'VirtualMachineSnapshot.RemoveSnapshot_Task',
  'VirtualMachineSnapshot.RevertToSnapshot_Task',
];

/** Operations of the vSphere Automation API (`/api`), as `<VERB> <path>`. */
export const REST_CALLS: readonly string[] = [
  'DELETE /api/session',
  'GET /api/content/library',
  'GET /api/content/library/item/{id}',
  'GET /api/content/library/item?library_id={id}',
  'GET /api/content/library/{id}',
  'GET /api/vcenter/vm-template/library-items/{id}',
  'POST /api/content/local-library',
  'POST /api/session',
  'POST /api/vcenter/vm-template/library-items',
  'POST /api/vcenter/vm-template/library-items/{id}?action=deploy',
];
