import { z } from 'zod';
import { ORDER_TYPES } from '@app/contracts';
import { parseRequest } from './parse-request';

// A request schema of the kind the contracts write: required uuids, defaults, a bounded record.
const createOrderRequestSchema = z.strictObject({
  offering_uuid: z.uuid('Must be a valid UUID.'),
  project_uuid: z.uuid('Must be a valid UUID.'),
  type: z.enum(ORDER_TYPES).default('Create'),
  attributes: z.record(z.string(), z.unknown()).default({}),
  limits: z
    .record(z.string(), z.number().int().nonnegative('Ensure this value is greater than or equal to 0.'))
    .default({}),
});

describe('parseRequest', () => {
  it('returns the parsed value with defaults', () => {
    const parsed = parseRequest(createOrderRequestSchema, {
      offering_uuid: '0b6f4c0e-3c8e-4f55-b7f4-1f7a0f9a4b21',
      project_uuid: '7d8f2a51-6a3e-4d1c-9e0b-2c5d4e6f7a89',
    });
    expect(parsed.ok && parsed.value).toMatchObject({ type: 'Create', attributes: {}, limits: {} });
  });

  it('answers 400 naming each field and its rule: missing, malformed, unknown', () => {
    const parsed = parseRequest(createOrderRequestSchema, {
      offering_uuid: 'nope',
      limits: { cpu: -1 },
      colour: 'red',
    });
    expect(parsed).toEqual({
      ok: false,
      reply: {
        status: 'error',
        code: 400,
        fields: {
          offering_uuid: ['Must be a valid UUID.'],
          project_uuid: ['This field is required.'],
          'limits.cpu': ['Ensure this value is greater than or equal to 0.'],
          colour: ['Unknown field.'],
        },
      },
    });
  });

  it('reports a body that is not an object under non_field_errors', () => {
    const parsed = parseRequest(createOrderRequestSchema, 'hello');
    expect(parsed.ok === false && parsed.reply).toMatchObject({
      code: 400,
      fields: { non_field_errors: [expect.any(String)] },
    });
  });
});

describe('parseRequest with prototype-named keys', () => {
  it('names them as unknown fields instead of failing', () => {
    const payload = JSON.parse('{"offering_uuid":"x","__proto__":1,"constructor":2}') as unknown;
    const parsed = parseRequest(createOrderRequestSchema, payload);
    expect(parsed.ok).toBe(false);
    const fields = !parsed.ok && parsed.reply.status === 'error' ? parsed.reply.fields : undefined;
    expect(Object.keys(fields ?? {}).sort()).toEqual([
      '__proto__',
      'constructor',
      'offering_uuid',
      'project_uuid',
    ]);
  });
});
