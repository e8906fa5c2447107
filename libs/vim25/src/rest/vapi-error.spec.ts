import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VapiError, vapiErrorOf } from './vapi-error';

const sample = (name: string): string =>
  readFileSync(join(__dirname, '../../test/fixtures/rest', name), 'utf8');

describe('vapiErrorOf', () => {
  it("keeps vCenter 8's error type, message, id and args", () => {
    const err = vapiErrorOf('GetLibraryItem', 404, sample('error-not-found.json'));
    expect(err).toBeInstanceOf(VapiError);
    expect(err).toMatchObject({
      operation: 'GetLibraryItem',
      errorType: 'NOT_FOUND',
      status: 404,
      message: 'Library item with identifier 0d1e2f30-0000-4000-8000-000000000000 does not exist.',
    });
    expect(err.messages[0]).toMatchObject({
      id: 'com.vmware.vdcs.cls-main.library_item_not_found',
      args: ['0d1e2f30-0000-4000-8000-000000000000'],
    });
    expect(err.summary).toBe(
      'GetLibraryItem: NOT_FOUND: Library item with identifier 0d1e2f30-0000-4000-8000-000000000000 does not exist.',
    );
  });

  it('joins the error and its causes in order', () => {
    const err = vapiErrorOf('DeployVmTemplate', 400, sample('error-invalid-argument.json'));
    expect(err.errorType).toBe('INVALID_ARGUMENT');
    expect(err.message).toBe('Invalid placement specification.: Resource pool resgroup-999 was not found.');
  });

  it('reads the /rest form by its error class', () => {
    const err = vapiErrorOf(
      'DeployVmTemplate',
      400,
      '{"type":"com.vmware.vapi.std.errors.invalid_argument","value":{"messages":[{"default_message":"bad spec","id":"x"}]}}',
    );
    expect(err).toMatchObject({ errorType: 'INVALID_ARGUMENT', message: 'bad spec' });
  });

  it('never says [object Object]: bodies without messages name the type and the status', () => {
    expect(vapiErrorOf('ListLibraries', 401, '').message).toBe('UNAUTHENTICATED (HTTP 401)');
    expect(vapiErrorOf('ListLibraries', 404, '404 page not found\n')).toMatchObject({
      errorType: 'NOT_FOUND',
      // Not vCenter's error form: never quoted (what answered may be another service).
      message: 'NOT_FOUND (HTTP 404)',
    });
    expect(vapiErrorOf('X', 502, '{"error_type":"ERROR","messages":[{}]}').message).toBe('ERROR (HTTP 502)');
    expect(vapiErrorOf('X', 418, '{"weird":{"nested":true}}')).toMatchObject({
      errorType: 'INVALID_ARGUMENT',
      message: 'INVALID_ARGUMENT (HTTP 418)',
    });
    for (const body of ['{"error_type":{"a":1}}', '[1,2]', 'null', '{"messages":[{"default_message":{}}]}']) {
      expect(vapiErrorOf('X', 500, body).message).not.toContain('[object Object]');
    }
  });

  it("quotes only vCenter's error form: another service's JSON error is named by its status", () => {
    // What answers at backend_url may be another service (a wrong address, or one the operator
    // allowed); its JSON (problem+json's `type`, a `messages` list) must not reach error_message.
    const other = [
      '{"type":"https://internal.example/errors/SECRET-FROM-INSIDE","title":"x"}',
      '{"type":"SECRET-FROM-INSIDE"}',
      '{"error_type":"SECRET-FROM-INSIDE token=abc"}',
      '{"messages":["SECRET-FROM-INSIDE"]}',
      '{"messages":[{"default_message":"SECRET-FROM-INSIDE"}]}',
    ];
    for (const body of other) {
      const err = vapiErrorOf('CreateSession', 403, body);
      expect(err).toMatchObject({ errorType: 'UNAUTHORIZED', message: 'UNAUTHORIZED (HTTP 403)' });
      expect(err.messages).toEqual([]);
    }
  });
});
