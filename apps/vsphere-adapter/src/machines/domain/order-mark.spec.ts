import { describedWithMark, orderMark } from './order-mark';

describe('order mark', () => {
  const order = '0b1c7a52-6f0e-4c55-9d3a-2a5e4c1f7e10';

  it("puts the mark on its own line after the user's description, or alone", () => {
    expect(describedWithMark('  web server ', order)).toBe(`web server\n${orderMark(order)}`);
    expect(describedWithMark('', order)).toBe(`marketplace-order:${order}`);
  });
});
