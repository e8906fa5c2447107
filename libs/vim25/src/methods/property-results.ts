import type { SoapObject } from '../soap/soap-encoder';
import type { XmlValue } from '../xml/decoder';
import { asArray, asBoolean, asMoRef, asObject, asString } from '../xml/values';
import type { MoRef } from '../types/mo-ref';
import type {
  ObjectContent,
  ObjectUpdate,
  ObjectUpdateKind,
  PropertyChangeOp,
  PropertyFilterSpec,
  RetrieveResult,
  UpdateSet,
} from '../types/property';

const NO_OBJECT: MoRef = { type: '', value: '' };

/** Writes a PropertyFilterSpec in WSDL order (PropertySpec: type, all, pathSet). Pure. */
export function encodeFilterSpec(spec: PropertyFilterSpec): SoapObject {
  return {
    propSet: spec.propSet.map((p) => ({ type: p.type, all: false, pathSet: p.pathSet })),
    objectSet: spec.objectSet.map((o) => ({
      obj: o.obj,
      skip: o.skip,
      selectSet: o.selectSet?.map((t) => ({
        _type: 'TraversalSpec',
        name: t.name,
        type: t.type,
        path: t.path,
        skip: t.skip ?? false,
      })),
    })),
  };
}

/** Maps a decoded vim25 ObjectContent. Pure. */
export function toObjectContent(value: XmlValue): ObjectContent {
  const o = asObject(value);
  const props = new Map<string, XmlValue>();
  for (const p of asArray(o?.propSet)) {
    const name = asString(asObject(p)?.name);
    const val = asObject(p)?.val;
    if (name !== undefined && val !== undefined) props.set(name, val);
  }
  const missing = asArray(o?.missingSet).map((m) => ({
    path: asString(asObject(m)?.path) ?? '',
    fault: asObject(m)?.fault,
  }));
  return { obj: asMoRef(o?.obj) ?? NO_OBJECT, props, missing };
}

/** Maps a decoded vim25 RetrieveResult (undefined = no objects). Pure. */
export function toRetrieveResult(value: XmlValue | undefined): RetrieveResult {
  const o = asObject(value);
  const token = asString(o?.token);
  return { objects: asArray(o?.objects).map(toObjectContent), token: token === '' ? undefined : token };
}

/** Maps a decoded vim25 UpdateSet, flattening its filterSet (undefined = nothing changed). Pure. */
export function toUpdateSet(value: XmlValue | undefined): UpdateSet | undefined {
  const o = asObject(value);
  if (o === undefined) return undefined;
  const objects: ObjectUpdate[] = [];
  for (const filter of asArray(o.filterSet)) {
    for (const u of asArray(asObject(filter)?.objectSet)) {
      const uo = asObject(u);
      objects.push({
        kind: (asString(uo?.kind) ?? 'modify') as ObjectUpdateKind,
        obj: asMoRef(uo?.obj) ?? NO_OBJECT,
        changeSet: asArray(uo?.changeSet).map((c) => ({
          name: asString(asObject(c)?.name) ?? '',
          op: (asString(asObject(c)?.op) ?? 'assign') as PropertyChangeOp,
          val: asObject(c)?.val,
        })),
      });
    }
  }
  return { version: asString(o.version) ?? '', truncated: asBoolean(o.truncated) ?? false, objects };
}
