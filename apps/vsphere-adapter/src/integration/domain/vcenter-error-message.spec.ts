import { VapiError, VimFault, VimTransportError } from '@app/vim25';
import { CredentialCipherError } from './credential-cipher';
import { connectionOf, IncompleteCredentialsError } from './vcenter-connection';
import { describeVcenterError } from './vcenter-error-message';

describe('describeVcenterError', () => {
  it("keeps vCenter's own message for a fault (a wrong password)", () => {
    const fault = new VimFault(
      'Login',
      'InvalidLogin',
      'Cannot complete login due to an incorrect user name or password.',
    );
    expect(describeVcenterError(fault)).toBe(
      'Cannot complete login due to an incorrect user name or password.',
    );
  });

  it('says a connection failed for an unreachable host', () => {
    const err = new VimTransportError(
      'RetrieveServiceContent',
      'network',
      'RetrieveServiceContent to https://127.0.0.1:1 failed: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(describeVcenterError(err)).toBe(
      'Cannot connect to vCenter: RetrieveServiceContent to https://127.0.0.1:1 failed: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1',
    );
  });

  it('says TLS and how to fix it for an untrusted certificate, with the verification code', () => {
    const err = new VimTransportError('RetrieveServiceContent', 'tls', 'lib text', {
      cause: { message: 'self-signed certificate in certificate chain', code: 'SELF_SIGNED_CERT_IN_CHAIN' },
    });
    expect(describeVcenterError(err)).toBe(
      "TLS: vCenter's certificate is not trusted (SELF_SIGNED_CERT_IN_CHAIN). Set ca_pem to the CA that signed it, or turn verify_ssl off.",
    );
  });

  it('names timeouts, REST refusals, unreadable passwords and missing fields', () => {
    expect(
      describeVcenterError(new VimTransportError('Login', 'timeout', 'Login timed out after 10 ms')),
    ).toMatch(/^vCenter did not answer in time/);
    expect(
      describeVcenterError(
        new VapiError('CreateSession', 'UNAUTHENTICATED', 'Authentication required.', 401),
      ),
    ).toBe('vCenter refused the credentials for its REST API: Authentication required.');
    expect(describeVcenterError(new CredentialCipherError('bad key'))).toMatch(/save the password again/);
    expect(describeVcenterError(new IncompleteCredentialsError(['password']))).toBe(
      'The credentials are incomplete: password is not set.',
    );
  });
});

describe('connectionOf', () => {
  const fields = {
    backendUrl: 'https://vc',
    username: 'svc',
    password: 'pw',
    verifySsl: false,
    caPem: 'PEM',
  };

  it('names every missing field', () => {
    expect(() => connectionOf({ ...fields, backendUrl: '', password: undefined })).toThrow(
      'The credentials are incomplete: backend_url, password are not set.',
    );
  });

  it('trusts the CA only when verify_ssl is on', () => {
    expect(connectionOf(fields).caPem).toBeUndefined();
    expect(connectionOf({ ...fields, verifySsl: true }).caPem).toBe('PEM');
  });
});
