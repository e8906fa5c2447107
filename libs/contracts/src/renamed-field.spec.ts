import { z } from 'zod';
import { renameLegacyField, withLegacyNames, withRenamedField } from './renamed-field';

const schema = withRenamedField(
  z.object({ orderUuid: z.string(), marketplaceResourceUuid: z.string() }),
  'resourceUuid',
  'marketplaceResourceUuid',
);

describe('a payload schema with a renamed field', () => {
  it('reads the legacy name as the new one, and answers only the new one', () => {
    expect(schema.parse({ orderUuid: 'o', resourceUuid: 'r' })).toEqual({
      orderUuid: 'o',
      marketplaceResourceUuid: 'r',
    });
  });

  it('reads the new name as it is', () => {
    expect(schema.parse({ orderUuid: 'o', marketplaceResourceUuid: 'r' })).toEqual({
      orderUuid: 'o',
      marketplaceResourceUuid: 'r',
    });
  });

  it('keeps the new name when a payload carries both, and drops the legacy one', () => {
    expect(schema.parse({ orderUuid: 'o', resourceUuid: 'old', marketplaceResourceUuid: 'new' })).toEqual({
      orderUuid: 'o',
      marketplaceResourceUuid: 'new',
    });
  });

  it('still refuses a payload with neither, naming the new field', () => {
    const result = schema.safeParse({ orderUuid: 'o' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['marketplaceResourceUuid']]);
  });

  it('leaves what is not an object to the schema to refuse', () => {
    expect(renameLegacyField(null, 'a', 'b')).toBeNull();
    expect(renameLegacyField(['x'], 'a', 'b')).toEqual(['x']);
    expect(schema.safeParse('text').success).toBe(false);
  });

  it('does not change the object it was given', () => {
    const input = { orderUuid: 'o', resourceUuid: 'r' };
    renameLegacyField(input, 'resourceUuid', 'marketplaceResourceUuid');
    expect(input).toEqual({ orderUuid: 'o', resourceUuid: 'r' });
  });
});

describe('a payload as published after a rename', () => {
  const names = { resourceUuid: 'marketplaceResourceUuid' };

  it('carries the current value under the legacy name too', () => {
    expect(withLegacyNames({ orderUuid: 'o', marketplaceResourceUuid: 'r' }, names)).toEqual({
      orderUuid: 'o',
      marketplaceResourceUuid: 'r',
      resourceUuid: 'r',
    });
  });

  it('adds nothing for a field the payload does not have, nor without renames', () => {
    expect(withLegacyNames({ orderUuid: 'o' }, names)).toEqual({ orderUuid: 'o' });
    const payload = { orderUuid: 'o', marketplaceResourceUuid: 'r' };
    expect(withLegacyNames(payload, undefined)).toBe(payload);
  });
});
