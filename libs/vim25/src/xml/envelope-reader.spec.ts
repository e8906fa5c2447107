import { VimFault, VimTransportError } from '../soap/vim-errors';
import { fixture } from '../../test/support/fixture-caller';
import { readResponse } from './envelope-reader';
import { faultFromLocalized } from './fault-reader';
import { toRetrieveResult } from '../methods/property-results';
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

  describe('the streaming path (HTTP 200)', () => {
    const SOAPENV = 'http://schemas.xmlsoap.org/soap/envelope/';
    const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
    const envelope = (body: string, prefix = 'soapenv', header = '') =>
      `<?xml version="1.0"?><${prefix}:Envelope xmlns:${prefix}="${SOAPENV}" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
      `${header}<${prefix}:Body>${body}</${prefix}:Body></${prefix}:Envelope>`;
    const read = (body: string) => readResponse('M', { status: 200, body });
    const error = (status: 200 | 500, body: string): unknown => {
      try {
        readResponse('M', { status, body });
      } catch (err) {
        return err;
      }
      throw new Error('no error');
    };

    it('finds Envelope and Body by namespace under any prefix, past a Header', () => {
      const body = envelope(
        '<MResponse xmlns="urn:vim25"><returnval type="Task">task-1</returnval></MResponse>',
        'S',
        '<S:Header><returnval>not this one</returnval></S:Header>',
      );
      expect(read(body)).toEqual({ type: 'Task', value: 'task-1' });
    });

    it('returns undefined for a void method, one value, or an array of repeated returnvals', () => {
      expect(read(fixture('08-ShutdownGuest.response.xml'))).toBeUndefined();
      expect(read(envelope('<MResponse xmlns="urn:vim25"/>'))).toBeUndefined();
      const two = envelope(
        '<MResponse xmlns="urn:vim25"><returnval type="Task">task-1</returnval><returnval type="Task">task-2</returnval></MResponse>',
      );
      expect(read(two)).toEqual([
        { type: 'Task', value: 'task-1' },
        { type: 'Task', value: 'task-2' },
      ]);
    });

    it('reads a RetrievePropertiesEx answer of one object as one object (array of one element)', () => {
      const body = envelope(
        `<RetrievePropertiesExResponse xmlns="urn:vim25"><returnval><objects><obj type="VirtualMachine">vm-1</obj>` +
          `<propSet><name>config.hardware.device</name><val xmlns:XMLSchema-instance="${XSI}" XMLSchema-instance:type="ArrayOfVirtualDevice">` +
          `<VirtualDevice XMLSchema-instance:type="VirtualDisk"><key>2000</key></VirtualDevice></val></propSet>` +
          `</objects></returnval></RetrievePropertiesExResponse>`,
      );
      const result = toRetrieveResult(read(body));
      expect(result.objects).toHaveLength(1);
      expect(result.objects[0].props.get('config.hardware.device')).toEqual([
        { _type: 'VirtualDisk', key: '2000' },
      ]);
    });

    it("decodes a missingSet holding vcsim's NotAuthenticated (an expired session)", () => {
      const result = toRetrieveResult(read(fixture('19-RetrievePropertiesEx-no-session.response.xml')));
      expect(result.objects[0].missing).toEqual([
        {
          path: 'name',
          fault: {
            fault: {
              _type: 'NotAuthenticated',
              object: { type: 'VirtualMachine', value: 'vm-57' },
              privilegeId: 'System.Read',
            },
          },
        },
      ]);
    });

    it('throws a fault sent with HTTP 200 as VimFault', () => {
      expect(error(200, fixture('09-ShutdownGuest-fault.response.xml'))).toMatchObject({
        name: 'VimFault',
        faultType: 'InvalidPowerState',
      });
    });

    it('reports an empty Body, a 500 without a fault and malformed XML as protocol errors', () => {
      expect(error(200, envelope(''))).toMatchObject({ kind: 'protocol', message: 'M: empty SOAP body' });
      expect(error(500, fixture('08-ShutdownGuest.response.xml'))).toMatchObject({
        kind: 'protocol',
        status: 500,
        message: 'M: HTTP 500 without a SOAP fault',
      });
      const truncated = fixture('04-RetrievePropertiesEx-vms.response.xml').slice(0, 700);
      expect(error(200, truncated)).toBeInstanceOf(VimTransportError);
      expect(error(200, truncated)).toMatchObject({ kind: 'protocol', message: /M: the answer is not XML/ });
      expect(error(200, `<Envelope><Body><MResponse/></Body></Envelope>`)).toMatchObject({
        message: /M: the answer is not a SOAP envelope/,
      });
    });
  });
});
