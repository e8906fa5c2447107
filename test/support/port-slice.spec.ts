import { readFileSync } from 'node:fs';
import { freePort } from './free-port';
import { PORT_RANGE, portSlice } from './port-slice';

describe('the ports tests hand out', () => {
  it('gives each of ten jest workers a slice of its own and processes outside jest two others', () => {
    const slices = [
      ...Array.from({ length: 10 }, (_, index) => portSlice(String(index + 1), 1)),
      portSlice(undefined, 2),
      portSlice(undefined, 3),
    ];
    const firsts = slices.map((slice) => slice.first);
    expect(new Set(firsts).size).toBe(12);
    for (const slice of slices) {
      expect(slice.first).toBeGreaterThanOrEqual(PORT_RANGE.first);
      expect(slice.first + slice.size - 1).toBeLessThanOrEqual(PORT_RANGE.last);
    }
    expect(portSlice('11', 1)).toEqual(portSlice('1', 1));
  });

  it('lie below the range the kernel picks a port-0 bind from', () => {
    const range = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    expect(PORT_RANGE.last).toBeLessThan(Number(range[0]));
  });

  it('never hands out the same port twice in a file, even while none of them is bound yet', async () => {
    const ports: number[] = [];
    for (let index = 0; index < 50; index++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(50);
    const slice = portSlice(process.env.JEST_WORKER_ID, process.pid);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(slice.first);
      expect(port).toBeLessThan(slice.first + slice.size);
    }
  });
});
