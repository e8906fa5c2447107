import { topology } from '@app/contracts';
import { requestSubject } from './namespaced-nats';

describe('requestSubject', () => {
  it('puts requests under the namespace, outside every event stream of that namespace', () => {
    const names = topology('t1');
    const subject = requestSubject('t1', 'marketplace.orders.create');
    expect(subject).toBe('t1.requests.marketplace.orders.create');
    const streamSubjects = Object.values(names.streams).flatMap((stream) => stream.subjects);
    for (const wildcard of streamSubjects) expect(subject.startsWith(wildcard.replace(/>$/, ''))).toBe(false);
  });
});
