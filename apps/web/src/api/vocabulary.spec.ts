// The test, unlike the bundle, may load the contracts' values: it is what keeps the copies honest.
/* eslint-disable @typescript-eslint/no-restricted-imports */
import * as offeringTypes from '@app/contracts/marketplace/offering-types';
import * as orderViews from '@app/contracts/orders/order-views';
/* eslint-enable @typescript-eslint/no-restricted-imports */
import * as portal from './vocabulary';

describe("the portal's copy of the contracts' vocabulary", () => {
  it('holds each constant exactly as the contracts export it', () => {
    const contracts: Record<string, unknown> = { ...offeringTypes, ...orderViews };
    for (const [name, value] of Object.entries(portal)) {
      expect([name, value]).toEqual([name, contracts[name]]);
    }
  });
});
