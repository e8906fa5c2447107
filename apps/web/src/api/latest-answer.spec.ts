import { LatestAnswer } from './latest-answer';

describe('LatestAnswer', () => {
  it('lets the answer to the newest request through', () => {
    const latest = new LatestAnswer();
    latest.next();
    const newest = latest.next();
    expect(latest.isLatest(newest)).toBe(true);
  });

  it('holds back an older answer arriving after a newer one', () => {
    const latest = new LatestAnswer();
    const older = latest.next();
    const newer = latest.next();
    const shown: string[] = [];
    const answer = (ticket: number, text: string) => latest.isLatest(ticket) && shown.push(text);
    answer(newer, 'refused');
    answer(older, 'accepted');
    expect(shown).toEqual(['refused']);
  });

  it('holds back an answer to a request made before the input changed', () => {
    const latest = new LatestAnswer();
    const inFlight = latest.next();
    latest.invalidate();
    expect(latest.isLatest(inFlight)).toBe(false);
  });
});
