import { VapiError, VimFault, VimTransportError } from '@app/vim25';
import { isTransient } from './vcenter-failure';

describe('isTransient', () => {
  it('retries an unreachable vCenter, a timeout or an abort', () => {
    for (const kind of ['network', 'timeout', 'aborted'] as const)
      expect(isTransient(new VimTransportError('DeployVmTemplate', kind, 'x'))).toBe(true);
  });

  it("ends the order on vCenter's refusals and on TLS or protocol failures", () => {
    expect(isTransient(new VimTransportError('Login', 'tls', 'x'))).toBe(false);
    expect(isTransient(new VimFault('PowerOnVM_Task', 'InvalidPowerState', 'x'))).toBe(false);
    expect(isTransient(new VapiError('DeployVmTemplate', 'NOT_FOUND', 'gone', 404, []))).toBe(false);
    expect(isTransient(new Error('x'))).toBe(false);
  });
});
