import { z } from 'zod';
import { renameLegacyField, withRenamedField } from './renamed-field';

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
