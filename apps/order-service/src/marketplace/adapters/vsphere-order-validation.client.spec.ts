import { mapValidationReply } from './vsphere-order-validation.client';

const UNAVAILABLE = 'The vsphere-adapter service is not available; try again shortly.';

describe("the vSphere adapter's order validation, as the order service passes it on", () => {
  it('takes the normalised attributes and limits of an accepted order', () => {
    const data = { attributes: { template: 'tpl-uuid', folder: 'f-uuid' }, limits: { cpu: 2, ram: 2048 } };
    expect(mapValidationReply({ status: 'ok', data })).toEqual({ status: 'ok', data });
  });

  it("passes a 400's fields and a 409's reason through unchanged", () => {
    const fields = { networks: ['This network is not available for this customer.'] };
    expect(mapValidationReply({ status: 'error', code: 400, fields })).toEqual({
      status: 'error',
      code: 400,
      fields,
    });
    expect(
      mapValidationReply({ status: 'error', code: 409, detail: 'The VM must be powered off to be resized.' }),
    ).toEqual({ status: 'error', code: 409, detail: 'The VM must be powered off to be resized.' });
  });

  it('answers 503 for an adapter that cannot check (its own 503, or an answer that is not a validation)', () => {
    expect(mapValidationReply({ status: 'error', code: 503, detail: 'vCenter unreachable.' })).toEqual({
      status: 'error',
      code: 503,
      detail: 'vCenter unreachable.',
    });
    expect(mapValidationReply({ status: 'ok', data: { attributes: 'nope' } })).toEqual({
      status: 'error',
      code: 503,
      detail: UNAVAILABLE,
    });
    expect(mapValidationReply(null)).toEqual({ status: 'error', code: 503, detail: UNAVAILABLE });
  });

  it('names the offering when the adapter knows no integration for it', () => {
    expect(mapValidationReply({ status: 'error', code: 404, detail: 'Not found.' })).toEqual({
      status: 'error',
      code: 400,
      fields: { offering: ["The offering's vSphere integration is not configured."] },
    });
  });
});
