import { diffInventory } from './inventory-diff';

interface Row {
  backendId: string;
  name: string;
}
const row = (backendId: string, name = backendId): Row => ({ backendId, name });
const sameName = (a: Row, b: Row) => a.name === b.name;

describe('diffInventory', () => {
  it('creates the new, updates the changed, removes the vanished, leaves the rest', () => {
    const diff = diffInventory(
      [row('domain-c1'), row('domain-c2', 'old name'), row('domain-c3')],
      [row('domain-c1'), row('domain-c2', 'new name'), row('domain-c4')],
      sameName,
    );
    expect(diff.create).toEqual([row('domain-c4')]);
    expect(diff.update).toEqual([
      { existing: row('domain-c2', 'old name'), fresh: row('domain-c2', 'new name') },
    ]);
    expect(diff.remove).toEqual([row('domain-c3')]);
    expect(diff.unchanged).toBe(1);
  });

  it('keeps objects that could not be read this time', () => {
    const diff = diffInventory([row('a'), row('b')], [row('a')], sameName, new Set(['b']));
    expect(diff.remove).toEqual([]);
  });

  it('removes everything when vCenter holds nothing, creates everything on a first sync', () => {
    expect(diffInventory([row('a')], [], sameName).remove).toEqual([row('a')]);
    expect(diffInventory([], [row('a'), row('b')], sameName).create).toHaveLength(2);
  });

  it('counts a duplicate id once', () => {
    const diff = diffInventory([], [row('a', 'first'), row('a', 'second')], sameName);
    expect(diff.create).toEqual([row('a', 'first')]);
  });
});
