import { VimFault, VimTransportError } from '../soap/vim-errors';
import { fixture } from '../../test/support/fixture-caller';
import { readResponse } from './envelope-reader';
import { faultFromLocalized } from './fault-reader';
import { asObject, pathOf } from './values';

const fault = (operation: string, name: string): unknown => {
  try {
    readResponse(operation, { status: 500, body: fixture(name) });
  } catch (err) {
    return err;
  }
  throw new Error('no fault');
};

describe('readResponse', () => {
  it('returns the decoded returnval', () => {
    expect(
      readResponse('PowerOffVM_Task', { status: 200, body: fixture('05-PowerOffVM_Task.response.xml') }),
    ).toEqual({ type: 'Task', value: 'task-68' });
    const content = readResponse('RetrieveServiceContent', {
      status: 200,
      body: fixture('01-RetrieveServiceContent.response.xml'),
    });
    expect(pathOf(content, 'about.apiVersion')).toBe('6.5');
  });

  it('turns a fault with an empty faultstring into VimFault named by the detail xsi:type', () => {
    const err = fault('ShutdownGuest', '09-ShutdownGuest-fault.response.xml');
    expect(err).toBeInstanceOf(VimFault);
    expect(err).toMatchObject({
      operation: 'ShutdownGuest',
      faultType: 'InvalidPowerState',
      message: 'InvalidPowerState',
    });
    expect((err as VimFault).detail).toMatchObject({
      requestedState: 'poweredOn',
      existingState: 'poweredOff',
    });
  });

  it('keeps vCenter faultstring as the message (InvalidLogin, MethodNotFound)', () => {
    expect(fault('Login', '21-Login-InvalidLogin.response.xml')).toMatchObject({
      faultType: 'InvalidLogin',
      message: 'Login failure',
    });
    expect(fault('AcquireTicket', '18-AcquireTicket-webmks-MethodNotFound.response.xml')).toMatchObject({
      faultType: 'MethodNotFound',
      message: 'VirtualMachine:vm-57 does not implement: AcquireTicket',
    });
    const reboot = fault('RebootGuest', '10-RebootGuest-MethodNotFound.response.xml') as VimFault;
    expect(reboot.summary).toBe(
      'RebootGuest: MethodNotFound: VirtualMachine:vm-57 does not implement: RebootGuest',
    );
  });

  it('reads NotAuthenticated from the fault detail', () => {
    expect(fault('PowerOnVM_Task', '20-PowerOnVM_Task-no-session.response.xml')).toMatchObject({
      faultType: 'NotAuthenticated',
    });
  });

  it('takes the fault type from the element name when the detail has no xsi:type', () => {
    const body = fixture('21-Login-InvalidLogin.response.xml')
      .replace(' xsi:type="InvalidLogin"', '')
      .replace('Login failure', '');
    const err = (() => {
      try {
        return readResponse('Login', { status: 500, body });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toMatchObject({ faultType: 'InvalidLogin', message: 'InvalidLogin' });
  });

  it('reports a body that is not a SOAP envelope as a protocol error naming the operation', () => {
    expect(() => readResponse('Login', { status: 200, body: '<html>proxy error</html>' })).toThrow(
      VimTransportError,
    );
    expect(() => readResponse('Login', { status: 200, body: '<html>proxy error</html>' })).toThrow(
      /Login: the answer is not a SOAP envelope/,
    );
  });

  it('builds a task error from TaskInfo.error with the localized message', () => {
    const result = readResponse('RetrievePropertiesEx', {
      status: 200,
      body: fixture('07-RetrievePropertiesEx-taskinfo-error.response.xml'),
    });
    const info = asObject(pathOf(result, 'objects.propSet'))?.val;
    const err = faultFromLocalized('PowerOffVM_Task', pathOf(info, 'error'));
    expect(err).toMatchObject({
      operation: 'PowerOffVM_Task',
      faultType: 'InvalidPowerState',
      message: '*types.InvalidPowerState',
    });
    expect(String(err)).not.toContain('[object Object]');
  });
});
