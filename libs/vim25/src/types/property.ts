import type { XmlValue } from '../xml/decoder';
import type { MoRef } from './mo-ref';

/** vim25 PropertySpec: which properties of which type to read (always explicit paths). */
export interface PropertySpec {
  readonly type: string;
  readonly pathSet: readonly string[];
}

/** vim25 TraversalSpec: follow property `path` of `type` to reach more objects. */
export interface TraversalSpec {
  readonly name?: string;
  readonly type: string;
  readonly path: string;
  readonly skip?: boolean;
}

/** vim25 ObjectSpec: the starting object of a retrieval and what to traverse from it. */
export interface ObjectSpec {
  readonly obj: MoRef;
  readonly skip?: boolean;
  readonly selectSet?: readonly TraversalSpec[];
}

/** vim25 PropertyFilterSpec. */
export interface PropertyFilterSpec {
  readonly propSet: readonly PropertySpec[];
  readonly objectSet: readonly ObjectSpec[];
}

/** vim25 MissingProperty: a property vCenter could not read, with the LocalizedMethodFault why. */
export interface MissingProperty {
  readonly path: string;
  readonly fault: XmlValue | undefined;
}

/** vim25 ObjectContent: one object's requested properties, keyed by path. */
export interface ObjectContent {
  readonly obj: MoRef;
  readonly props: ReadonlyMap<string, XmlValue>;
  readonly missing: readonly MissingProperty[];
}

/** vim25 RetrieveResult: one page of objects and the token for the next page, if any. */
export interface RetrieveResult {
  readonly objects: readonly ObjectContent[];
  readonly token?: string;
}

/** vim25 ObjectUpdateKind. */
export type ObjectUpdateKind = 'enter' | 'leave' | 'modify';
/** vim25 PropertyChangeOp. */
export type PropertyChangeOp = 'add' | 'remove' | 'assign' | 'indirectRemove';

/** vim25 PropertyChange. */
export interface PropertyChange {
  readonly name: string;
  readonly op: PropertyChangeOp;
  readonly val: XmlValue | undefined;
}

/** vim25 ObjectUpdate. */
export interface ObjectUpdate {
  readonly kind: ObjectUpdateKind;
  readonly obj: MoRef;
  readonly changeSet: readonly PropertyChange[];
}

/** vim25 UpdateSet (the filters' updates flattened), as WaitForUpdatesEx returns it. */
export interface UpdateSet {
  readonly version: string;
  readonly truncated: boolean;
  readonly objects: readonly ObjectUpdate[];
}
