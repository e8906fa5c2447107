import { assertXmlName, escapeXml } from './xml-escape';

describe('escapeXml', () => {
  it('escapes the five XML special characters', () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
  });

  it('keeps tabs, newlines and non-ASCII text', () => {
    expect(escapeXml('x\ty\nz ☺ é')).toBe('x\ty\nz ☺ é');
  });

  it('refuses control characters that XML 1.0 cannot carry', () => {
    expect(() => escapeXml('a\u0001b')).toThrow(/control character/);
  });
});

describe('assertXmlName', () => {
  it('refuses a name that would inject markup', () => {
    expect(() => assertXmlName('a><b')).toThrow(TypeError);
    expect(assertXmlName('PowerOnVM_Task')).toBe('PowerOnVM_Task');
  });
});
