import { VapiError, VimFault, VimTransportError } from '@app/vim25';
import { CredentialCipherError } from './credential-cipher';
import { AddressRefusedError } from '@app/vim25';
import { connectionOf, IncompleteCredentialsError, PasswordNotForThisUrlError } from './vcenter-connection';
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

  it('says the same for a refused, reset or silent port: no port scanner', () => {
    const failure = (code: string) =>
      describeVcenterError(
        new VimTransportError('RetrieveServiceContent', 'network', `lib text ${code}`, {
          cause: { message: `connect ${code}`, code },
        }),
      );
    const said = new Set(
      ['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'].map(failure),
    );
    expect([...said]).toEqual([
      'vCenter did not answer at backend_url (no connection could be made). Check the address and that vCenter is up.',
    ]);
    expect(failure('ENOTFOUND')).toBe("backend_url's host name does not resolve. Check the address.");
    // A handshake with something that is not TLS reads like a silent port too.
    expect(
      describeVcenterError(
        new VimTransportError('Login', 'tls', 'lib', { cause: { code: 'ERR_SSL_WRONG_VERSION_NUMBER' } }),
      ),
    ).toBe([...said][0]);
  });

  it('never quotes what a non-vCenter answered, only its status', () => {
    const err = new VimTransportError('RetrieveServiceContent', 'http', 'lib text {"internal":"SECRET"}', {
      status: 403,
    });
    expect(describeVcenterError(err)).toBe(
      'The address did not answer as a vCenter does (HTTP 403). Is backend_url a vCenter?',
    );
    expect(
      describeVcenterError(new VimTransportError('Login', 'protocol', 'Login: not SOAP: SECRET')),
    ).not.toContain('SECRET');
  });

  it('names the rule for an address the allow-list refuses', () => {
    const err = new VimTransportError('Login', 'refused', 'lib text', {
      cause: new AddressRefusedError(
        'vc.example',
        'it is a loopback address, which … (VCENTER_ALLOWED_NETWORKS)',
      ),
    });
    expect(describeVcenterError(err)).toBe(
      'backend_url may not be connected to: it is a loopback address, which … (VCENTER_ALLOWED_NETWORKS).',
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
    passwordUrl: 'https://vc',
    verifySsl: false,
    caPem: 'PEM',
  };
  const network = { addressCheck: () => undefined, connectTimeoutMs: 1_000 };

  it('names every missing field', () => {
    expect(() => connectionOf({ ...fields, backendUrl: '', password: undefined }, network)).toThrow(
      'The credentials are incomplete: backend_url, password are not set.',
    );
  });

  it('trusts the CA only when verify_ssl is on', () => {
    expect(connectionOf(fields, network).caPem).toBeUndefined();
    expect(connectionOf({ ...fields, verifySsl: true }, network).caPem).toBe('PEM');
  });

  it('refuses a password entered for another backend_url', () => {
    expect(() => connectionOf({ ...fields, passwordUrl: 'https://elsewhere' }, network)).toThrow(
      PasswordNotForThisUrlError,
    );
    expect(() => connectionOf({ ...fields, passwordUrl: null }, network)).toThrow(PasswordNotForThisUrlError);
  });
});
