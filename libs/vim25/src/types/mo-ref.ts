/** vim25 ManagedObjectReference: the managed object's type and its opaque id (e.g. `vm-42`). */
// A type alias (not an interface) so that it is assignable to the encoder's SoapValue.
export type MoRef = { readonly type: string; readonly value: string };

/** Builds a MoRef. Pure. */
export function moRef(type: string, value: string): MoRef {
  return { type, value };
}
