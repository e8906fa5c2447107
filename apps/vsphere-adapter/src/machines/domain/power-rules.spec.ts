import { powerRefusal, STATE_AFTER } from './power-rules';

describe('powerRefusal', () => {
  it.each([
    ['start', 'POWERED_OFF'],
    ['start', 'SUSPENDED'],
    ['stop', 'POWERED_ON'],
    ['stop', 'SUSPENDED'],
    ['reset', 'POWERED_ON'],
    ['suspend', 'POWERED_ON'],
  ] as const)('allows %s from %s', (action, state) => {
    expect(powerRefusal(action, state)).toBeNull();
  });

  it.each([
    [
      'start',
      'POWERED_ON',
      'The virtual machine must be POWERED_OFF or SUSPENDED to start; it is POWERED_ON.',
    ],
    [
      'stop',
      'POWERED_OFF',
      'The virtual machine must be POWERED_ON or SUSPENDED to stop; it is POWERED_OFF.',
    ],
    ['reset', 'POWERED_OFF', 'The virtual machine must be POWERED_ON to reset; it is POWERED_OFF.'],
    ['reset', 'SUSPENDED', 'The virtual machine must be POWERED_ON to reset; it is SUSPENDED.'],
    ['suspend', 'POWERED_OFF', 'The virtual machine must be POWERED_ON to suspend; it is POWERED_OFF.'],
    ['suspend', 'SUSPENDED', 'The virtual machine must be POWERED_ON to suspend; it is SUSPENDED.'],
  ] as const)('refuses %s from %s with the reason', (action, state, reason) => {
    expect(powerRefusal(action, state)).toBe(reason);
  });

  it('names the state each action leaves', () => {
    expect(STATE_AFTER).toEqual({
      start: 'POWERED_ON',
      stop: 'POWERED_OFF',
      reset: 'POWERED_ON',
      suspend: 'SUSPENDED',
    });
  });
});
