import { guestRefusal, TOOLS_NOT_RUNNING, updateRefusal, webConsoleRefusal } from './guest-rules';

describe('guest, update and web console rules', () => {
  it('lets a guest shut down only powered on with Tools running, with Waldur message otherwise', () => {
    expect(guestRefusal({ runtimeState: 'POWERED_ON', toolsState: 'RUNNING' })).toBeNull();
    expect(guestRefusal({ runtimeState: 'POWERED_ON', toolsState: 'NOT_RUNNING' })).toBe(TOOLS_NOT_RUNNING);
    expect(guestRefusal({ runtimeState: 'POWERED_ON', toolsState: 'STARTING' })).toBe(TOOLS_NOT_RUNNING);
    expect(guestRefusal({ runtimeState: 'POWERED_OFF', toolsState: 'RUNNING' })).toContain('POWERED_ON');
  });

  it('resizes only powered off and opens a web console only powered on, naming the state', () => {
    expect(updateRefusal('POWERED_OFF')).toBeNull();
    expect(updateRefusal('SUSPENDED')).toBe(
      'The virtual machine must be POWERED_OFF to be resized; it is SUSPENDED.',
    );
    expect(webConsoleRefusal('POWERED_ON')).toBeNull();
    expect(webConsoleRefusal('POWERED_OFF')).toContain('it is POWERED_OFF');
  });
});
