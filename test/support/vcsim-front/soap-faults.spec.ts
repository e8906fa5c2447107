import { faultFromSoapFault, parseXml, readResponse, VimFault } from '@app/vim25';
import { soapFaultEnvelope } from './soap-faults';

function decoded(xml: string): VimFault {
  try {
    readResponse('ReconfigVM_Task', { status: 500, body: xml });
  } catch (err) {
    if (err instanceof VimFault) return err;
    throw err;
  }
  throw new Error('no fault');
}

describe('soapFaultEnvelope', () => {
  it('is decoded by the project client as a VimFault of the fault type, with the message and fields', () => {
    const fault = decoded(
      soapFaultEnvelope({
        type: 'TaskInProgress',
        message: 'Another task is already in progress.',
        fields: { task: { type: 'Task', value: 'task-7' } },
      }),
    );
    expect(fault).toMatchObject({ operation: 'ReconfigVM_Task', faultType: 'TaskInProgress' });
    expect(fault.message).toBe('Another task is already in progress.');
    expect(fault.detail).toMatchObject({ task: { type: 'Task', value: 'task-7' } });
  });

  it('has the shape vcsim answers faults in (faultcode, faultstring, typed detail element)', () => {
    const xml = soapFaultEnvelope({
      type: 'InvalidPowerState',
      message: 'a <b> & "c"',
      fields: { requestedState: 'poweredOn', existingState: 'poweredOff' },
    });
    const fault = parseXml(xml).children[0].children[0];
    expect(fault.name).toBe('Fault');
    expect(fault.children.map((c) => c.name)).toEqual(['faultcode', 'faultstring', 'detail']);
    expect(fault.children[0].text).toBe('ServerFaultCode');
    expect(fault.children[1].text).toBe('a <b> & "c"');
    const detail = fault.children[2].children[0];
    expect(detail).toMatchObject({ ns: 'urn:vim25', name: 'InvalidPowerStateFault' });
    expect(detail.children.map((c) => [c.name, c.text])).toEqual([
      ['requestedState', 'poweredOn'],
      ['existingState', 'poweredOff'],
    ]);
    expect(faultFromSoapFault('ShutdownGuest', fault).faultType).toBe('InvalidPowerState');
  });

  it('writes a fault without fields as an empty typed element', () => {
    expect(decoded(soapFaultEnvelope({ type: 'ToolsUnavailable', message: 'm' }))).toMatchObject({
      faultType: 'ToolsUnavailable',
      message: 'm',
    });
  });
});
