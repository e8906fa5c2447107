import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTE_ACCESS } from '@app/contracts';
import { renderAccessTable } from './render-access-table';

const COMMITTED = join(__dirname, '..', '..', 'docs', 'access-policy.md');

describe('docs/access-policy.md', () => {
  it('is what the route access declaration generates (run `npm run access:table`)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(renderAccessTable());
  });

  it('names every declared route once', () => {
    const text = renderAccessTable();
    for (const operationId of Object.keys(ROUTE_ACCESS))
      expect(text.split(`\`${operationId}\``).length - 1).toBe(1);
  });
});
