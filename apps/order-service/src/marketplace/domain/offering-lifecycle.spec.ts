import { canApply } from './offering-lifecycle';

describe('offering lifecycle', () => {
  it.each([
    ['activate', 'Draft', true],
    ['activate', 'Paused', true],
    ['activate', 'Active', false],
    ['activate', 'Archived', false],
    ['pause', 'Active', true],
    ['pause', 'Draft', false],
    ['archive', 'Paused', true],
    ['archive', 'Archived', false],
  ] as const)('%s from %s: %s', (action, from, allowed) => {
    expect(canApply(action, from)).toBe(allowed);
  });
});
