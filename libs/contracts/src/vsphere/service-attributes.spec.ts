import { parseRequest } from '@app/messaging/requests/parse-request';
import { integrationUpdateRequestSchema } from './integration-update.request';
import {
  backendUrlProblem,
  normaliseBackendUrl,
  parseLooseBoolean,
  pemCertificateBlocks,
} from './service-attributes';

const OFFERING = '0f5e2c1a-3b4d-4e5f-8a6b-7c8d9e0f1a2b';
const update = (service_attributes: Record<string, unknown>) =>
  parseRequest(integrationUpdateRequestSchema, { offering_uuid: OFFERING, service_attributes });

describe('verify_ssl as Waldur reads it', () => {
  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['Yes', true],
    [' 1 ', true],
    ['ON', true],
    ['false', false],
    ['no', false],
    ['0', false],
    ['off', false],
    [1, true],
    [0, false],
  ])('%p is %p', (input, expected) => {
    expect(parseLooseBoolean(input)).toBe(expected);
  });

  it.each(['', 'maybe', 'tru', 2, null, {}])('%p is not a boolean', (input) => {
    expect(parseLooseBoolean(input)).toBeUndefined();
  });

  it("refuses anything else with DRF's message naming the field", () => {
    expect(update({ verify_ssl: 'maybe' })).toEqual({
      ok: false,
      reply: {
        status: 'error',
        code: 400,
        fields: { 'service_attributes.verify_ssl': ['Must be a valid boolean.'] },
      },
    });
    expect(update({ verify_ssl: 'off' })).toMatchObject({
      ok: true,
      value: { service_attributes: { verify_ssl: false } },
    });
  });
});

describe('backend_url', () => {
  it('accepts https with a non-default port and keeps only the origin', () => {
    expect(backendUrlProblem('https://vcenter.example.org:8443')).toBeUndefined();
    expect(backendUrlProblem('https://vcenter.example.org/')).toBeUndefined();
    expect(normaliseBackendUrl(' https://VCenter.example.org:443/ ')).toBe('https://vcenter.example.org');
    expect(normaliseBackendUrl('https://127.0.0.1:8989')).toBe('https://127.0.0.1:8989');
  });

  it.each([
    ['vcenter.example.org', 'Enter a valid URL.'],
    ['not a url', 'Enter a valid URL.'],
    ['http://vcenter.example.org', 'Enter a valid URL starting with https://.'],
    [
      'https://user:pw@vcenter.example.org',
      'Give the user name and password in their own fields, not in the URL.',
    ],
    [
      'https://vcenter.example.org/sdk',
      'Give only the scheme, host and port, e.g. https://vcenter.example.org:8443.',
    ],
    [
      'https://vcenter.example.org/?x=1',
      'Give only the scheme, host and port, e.g. https://vcenter.example.org:8443.',
    ],
  ])('refuses %p: %s', (input, message) => {
    expect(backendUrlProblem(input)).toBe(message);
    expect(update({ backend_url: input })).toEqual({
      ok: false,
      reply: { status: 'error', code: 400, fields: { 'service_attributes.backend_url': [message] } },
    });
  });
});

describe('the maximums', () => {
  it('take ints >= 1, as numbers or strings of digits, and null to clear', () => {
    expect(update({ max_ram: 32768, max_cpu: '8', max_disk: null })).toMatchObject({
      ok: true,
      value: { service_attributes: { max_ram: 32768, max_cpu: 8, max_disk: null } },
    });
  });

  it.each([0, -1, '-5', 1.5, 'lots'])('refuse %p naming the field', (value) => {
    const result = update({ max_disk_total: value });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(Object.keys(result.reply.status === 'error' ? (result.reply.fields ?? {}) : {})).toEqual([
        'service_attributes.max_disk_total',
      ]);
  });

  it('refuse zero and negatives with the minimum in the message', () => {
    expect(update({ max_cpu: 0 })).toEqual({
      ok: false,
      reply: {
        status: 'error',
        code: 400,
        fields: { 'service_attributes.max_cpu': ['Ensure this value is greater than or equal to 1.'] },
      },
    });
  });
});

describe('the other fields', () => {
  it('take one field at a time, as the portal saves them', () => {
    expect(update({ username: 'svc@vsphere.local' })).toMatchObject({
      ok: true,
      value: { service_attributes: { username: 'svc@vsphere.local' } },
    });
    expect(update({})).toMatchObject({ ok: true, value: { service_attributes: {} } });
  });

  it('refuse unknown fields, a blank password and a CA that is not PEM', () => {
    const result = update({ hostname: 'x', password: '', ca_pem: 'hello' });
    expect(result).toEqual({
      ok: false,
      reply: {
        status: 'error',
        code: 400,
        fields: {
          'service_attributes.hostname': ['Unknown field.'],
          'service_attributes.password': ['This field may not be blank.'],
          'service_attributes.ca_pem': [
            'Enter one or more PEM certificates (-----BEGIN CERTIFICATE----- ...).',
          ],
        },
      },
    });
  });

  it('clears the CA with null or ""', () => {
    expect(update({ ca_pem: '' })).toMatchObject({
      ok: true,
      value: { service_attributes: { ca_pem: null } },
    });
    expect(update({ ca_pem: null })).toMatchObject({
      ok: true,
      value: { service_attributes: { ca_pem: null } },
    });
  });
});

describe('bounded input before any pattern', () => {
  const oversized = '-----BEGIN CERTIFICATE-----'.repeat(9_500); // 250 KiB of openings, no end

  it('refuses an oversized ca_pem by its length alone', () => {
    expect(update({ ca_pem: oversized })).toEqual({
      ok: false,
      reply: {
        status: 'error',
        code: 400,
        fields: { 'service_attributes.ca_pem': ['Ensure this field has no more than 65536 characters.'] },
      },
    });
  });

  it('finds PEM blocks in one pass, also in a body of openings only', () => {
    expect(pemCertificateBlocks('x-----BEGIN CERTIFICATE-----\nAA\n-----END CERTIFICATE-----y')).toEqual([
      '-----BEGIN CERTIFICATE-----\nAA\n-----END CERTIFICATE-----',
    ]);
    expect(pemCertificateBlocks('-----BEGIN CERTIFICATE----------END CERTIFICATE-----')).toEqual([]);
    expect(pemCertificateBlocks(oversized.slice(0, 65_000))).toEqual([]);
  });
});
