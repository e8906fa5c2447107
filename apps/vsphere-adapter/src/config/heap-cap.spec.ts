import { ADAPTER_OLD_SPACE_MB, withHeapCap } from './heap-cap';

describe('withHeapCap', () => {
  it('puts the cap before the Node arguments the adapter was started with', () => {
    expect(withHeapCap(['--cpu-prof'], '--require ./counter.js')).toEqual([
      `--max-old-space-size=${ADAPTER_OLD_SPACE_MB}`,
      '--cpu-prof',
    ]);
  });

  it('leaves a start that names a cap as it is, on the command line or in NODE_OPTIONS', () => {
    expect(withHeapCap(['--max-old-space-size=512'], undefined)).toBeUndefined();
    expect(withHeapCap([], '--require x.js --max_old_space_size=96')).toBeUndefined();
    expect(withHeapCap(['--max-old-space-size', '64'], '')).toBeUndefined();
  });

  it('is not fooled by a neighbouring flag', () => {
    expect(withHeapCap(['--max-semi-space-size=16'], '--max-old-space-sizes')).toEqual([
      `--max-old-space-size=${ADAPTER_OLD_SPACE_MB}`,
      '--max-semi-space-size=16',
    ]);
  });
});
