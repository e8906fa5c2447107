import { planDeviceSync } from './device-reconcile';

type Row = { uuid: string; key: number | null; size: number };
type Disk = { key: number; size: number };
const differs = (row: Row, disk: Disk) => row.size !== disk.size;

describe('planDeviceSync', () => {
  it('keeps matched rows untouched when nothing differs', () => {
    const rows = [{ uuid: 'a', key: 2000, size: 10 }];
    expect(planDeviceSync(rows, [{ key: 2000, size: 10 }], differs)).toEqual({
      update: [],
      insert: [],
      remove: [],
    });
  });

  it('updates a row whose device changed, inserts unknown devices, removes rows whose device is gone', () => {
    const rows: Row[] = [
      { uuid: 'a', key: 2000, size: 10 },
      { uuid: 'b', key: 2001, size: 20 },
    ];
    const plan = planDeviceSync(
      rows,
      [
        { key: 2000, size: 15 },
        { key: 2002, size: 30 },
      ],
      differs,
    );
    expect(plan.update).toEqual([{ row: rows[0], device: { key: 2000, size: 15 } }]);
    expect(plan.insert).toEqual([{ key: 2002, size: 30 }]);
    expect(plan.remove).toEqual([rows[1]]);
  });

  it('never removes a row without a key (being created, or never made by vCenter)', () => {
    const rows: Row[] = [{ uuid: 'c', key: null, size: 1024 }];
    expect(planDeviceSync(rows, [], differs).remove).toEqual([]);
  });

  it('matches by key, so a renumbered label does not move a row to another device', () => {
    const rows: Row[] = [{ uuid: 'b', key: 2001, size: 20 }];
    const plan = planDeviceSync(rows, [{ key: 2001, size: 20 }], differs);
    expect(plan).toEqual({ update: [], insert: [], remove: [] });
  });
});
