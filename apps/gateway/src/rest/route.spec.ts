import { z } from 'zod';
import { apiRoute, expressPath, hasJsonBody, successStatus } from './route';
import type { AnyOperation } from './route';

const op = { auth: 'token', pattern: 'x', params: z.object({}), query: z.object({}), body: z.object({}) };
const operation = op as unknown as AnyOperation;
const resource = { schema: z.object({}), present: (view: object) => view };

describe('route table helpers', () => {
  it('reads a JSON body for POST, PATCH and PUT only', () => {
    expect(['get', 'post', 'patch', 'put', 'delete'].filter((m) => hasJsonBody(m as 'get'))).toEqual([
      'post',
      'patch',
      'put',
    ]);
  });

  it('answers 204 without a body only when the route allows it and the service sent null', () => {
    const destroy = apiRoute(
      'delete',
      '/api/vmware-disks/{uuid}/',
      operation,
      { operationId: 'd', summary: '', tag: '', status: 202, noContentWhenNull: true },
      { resource },
    );
    expect(successStatus(destroy, null)).toEqual({ status: 204, body: false });
    expect(successStatus(destroy, { uuid: 'op' })).toEqual({ status: 202, body: true });
    const get = apiRoute(
      'get',
      '/api/x/',
      operation,
      { operationId: 'g', summary: '', tag: '' },
      { resource },
    );
    expect(successStatus(get, null)).toEqual({ status: 200, body: true });
    const bare = apiRoute('delete', '/api/x/{uuid}/', operation, { operationId: 'b', summary: '', tag: '' });
    expect(successStatus(bare, undefined)).toEqual({ status: 204, body: false });
  });

  it('turns OpenAPI parameters into Express ones', () => {
    expect(expressPath('/api/vmware-disks/{uuid}/extend/')).toBe('/api/vmware-disks/:uuid/extend/');
  });
});
