import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestBody } from './waldur-bodies';
import { WaldurSchema } from './waldur-schema';

/** A document in Waldur's dialect (OpenAPI 3.0: nullable, readOnly, writeOnly), one operation. */
const DOCUMENT = `
openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  /api/things/:
    post:
      operationId: things_create
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
      responses:
        '201':
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
          description: ''
components:
  schemas:
    Thing:
      type: object
      properties:
        url: { type: string, format: uri, readOnly: true }
        name: { type: string, maxLength: 4 }
        secret: { type: string, writeOnly: true }
        size: { type: integer, minimum: 1024, nullable: true }
        state: { $ref: '#/components/schemas/StateEnum' }
      required: [url, name, secret, state]
    StateEnum: { enum: [OK, Erred], type: string }
`;

describe('WaldurSchema', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'waldur-schema-')), 'doc.yaml');
  writeFileSync(file, DOCUMENT);
  const waldur = new WaldurSchema(file);
  const op = waldur.operations.get('things_create');
  const answer = op?.responses['201'].schema as Record<string, unknown>;

  it('reads the operation, its success answer and its body', () => {
    expect(op).toMatchObject({ method: 'post', path: '/api/things/', requestBody: { required: true } });
  });

  it('takes an answer without writeOnly fields, with null where nullable', () => {
    const good = { url: 'http://gw/api/things/1/', name: 'a', size: null, state: 'OK' };
    expect(waldur.mismatches(answer, good, 'response')).toEqual([]);
  });

  it('names each misfit of an answer by component and field', () => {
    const bad = { name: 'a', size: 12, state: 'Gone' };
    expect(waldur.mismatches(answer, bad, 'response').map((m) => m.field)).toEqual([
      'Thing.url',
      'Thing.size',
      'Thing.state',
    ]);
  });

  it('asks a request for its writable required fields only (readOnly ones are the server’s)', () => {
    expect(waldur.mismatches(answer, { name: 'a', secret: 's', state: 'OK' }, 'request')).toEqual([]);
    expect(waldur.mismatches(answer, { name: 'a', state: 'OK' }, 'request').map((m) => m.field)).toEqual([
      'Thing.secret',
    ]);
  });

  it('builds the body the schema describes: required fields, or all writable ones, within limits', () => {
    expect(requestBody(waldur, answer, 'required', { secret: 's' })).toEqual({
      name: 'conf',
      secret: 's',
      state: 'OK',
    });
    expect(requestBody(waldur, answer, 'all', { secret: 's' })).toEqual({
      name: 'conf',
      secret: 's',
      size: 1024,
      state: 'OK',
    });
  });
});
