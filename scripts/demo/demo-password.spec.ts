import { newDemoPassword } from './demo-password';

describe("the demo staff user's password", () => {
  it('is new each time, 24 URL-safe characters, never all digits', () => {
    const passwords = Array.from({ length: 50 }, newDemoPassword);
    expect(new Set(passwords).size).toBe(50);
    for (const password of passwords) {
      expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(password).not.toMatch(/^\d+$/);
    }
  });
});
