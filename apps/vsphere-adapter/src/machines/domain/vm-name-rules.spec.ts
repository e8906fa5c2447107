import { MAX_VM_NAME_LENGTH, vcenterNameLength, VM_NAME_TOO_LONG, vmNameRefusal } from './vm-name-rules';

describe('vmNameRefusal', () => {
  it('takes 80 characters and refuses 81', () => {
    expect(vmNameRefusal('a'.repeat(MAX_VM_NAME_LENGTH))).toBeNull();
    expect(vmNameRefusal('a'.repeat(MAX_VM_NAME_LENGTH + 1))).toBe(VM_NAME_TOO_LONG);
  });

  it('counts %, \\ and / as three characters each (their escaped form)', () => {
    expect(vcenterNameLength('a/b%c\\d')).toBe(4 + 9);
    expect(vmNameRefusal(`${'a'.repeat(77)}/`)).toBeNull();
    expect(vmNameRefusal(`${'a'.repeat(78)}/`)).toBe(VM_NAME_TOO_LONG);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(vcenterNameLength('💻'.repeat(80))).toBe(80);
    expect(vmNameRefusal('é'.repeat(80))).toBeNull();
  });
});
