import { splitTemplateName } from './template-name';

describe('splitTemplateName', () => {
  it.each([
    ['Ubuntu-24.04', 'Ubuntu', '24.04'],
    ['Rocky-9.4', 'Rocky', '9.4'],
    ['AlmaLinux 8 x86_64', 'AlmaLinux', '8 x86_64'],
    ['Windows Server 2022', 'Windows Server', '2022'],
    ['Debian_12', 'Debian', '12'],
    ['Win-11-Pro', 'Win', '11-Pro'],
    ['x86-64bit-base', 'x86', '64bit-base'],
    ['Ubuntu - 24.04 LTS', 'Ubuntu', '24.04 LTS'],
    ['  Fedora 40  ', 'Fedora', '40'],
  ])('%p → %p / %p', (name, os, version) => {
    expect(splitTemplateName(name)).toEqual({ os, version });
  });

  it.each([
    ['CentOS7', 'CentOS7'],
    ['FreeBSD', 'FreeBSD'],
    ['-7', '-7'],
    ['', ''],
  ])('%p has no separator followed by a digit: all OS, no version', (name, os) => {
    expect(splitTemplateName(name)).toEqual({ os, version: '' });
  });

  it('splits at the first such separator only', () => {
    expect(splitTemplateName('SLES 15 SP5 2024')).toEqual({ os: 'SLES', version: '15 SP5 2024' });
  });
});
