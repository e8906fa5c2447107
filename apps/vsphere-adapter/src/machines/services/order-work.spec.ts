import { hardwareAsked } from './order-work';

describe('hardwareAsked', () => {
  it('reads CPU and RAM from the limits and cores per socket from the attributes', () => {
    expect(hardwareAsked({ limits: { cpu: 4, ram: 2048 }, attributes: { cores_per_socket: 2 } })).toEqual({
      cpu: 4,
      coresPerSocket: 2,
      ram: 2048,
    });
  });

  it('leaves unset what the order leaves unset or gives as anything but a whole number', () => {
    expect(hardwareAsked({ limits: { disk: 10240 }, attributes: { cores_per_socket: '2' } })).toEqual({
      cpu: undefined,
      coresPerSocket: undefined,
      ram: undefined,
    });
    expect(hardwareAsked({ limits: { cpu: 1.5 }, attributes: {} }).cpu).toBeUndefined();
  });
});
