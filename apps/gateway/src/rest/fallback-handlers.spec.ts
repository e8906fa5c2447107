import { allowedMethods } from './fallback-handlers';
import type { AnyRoute } from './route';

const route = (method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
  ({ kind: 'nest', method, path, operationId: '', summary: '', tag: '' }) as unknown as AnyRoute;

describe('allowed methods per path', () => {
  const paths = allowedMethods([
    route('get', '/api/users/'),
    route('post', '/api/users/'),
    route('get', '/api/users/{uuid}/'),
    route('delete', '/api/users/{uuid}/'),
  ]);
  const allowed = (path: string) =>
    [
      ...new Set(paths.filter((entry) => entry.pattern.test(path)).flatMap((entry) => [...entry.methods])),
    ].sort();

  it('lists what each path answers, HEAD with GET and OPTIONS always', () => {
    expect(allowed('/api/users/')).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    expect(allowed('/api/users/0b7d/')).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS']);
  });

  it('matches as Express does: any case, trailing slash optional, one segment per parameter', () => {
    expect(allowed('/API/Users')).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    expect(allowed('/api/users/a/b/')).toEqual([]);
    expect(allowed('/api/users.x/')).toEqual([]);
  });
});
