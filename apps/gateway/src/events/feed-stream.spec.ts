import { topology } from '@app/contracts';
import { feedStreamConfig, feedStreamDiffers } from './feed-stream';

describe('the feed stream configuration', () => {
  const feed = topology('unit').feed;
  const current = feedStreamConfig(feed, 3_600_000, 1);

  it('is unchanged when history, sources and replicas are as wanted', () => {
    expect(feedStreamDiffers({ ...current, sources: [...current.sources!].reverse() }, current)).toBe(false);
  });

  it('differs when the replicas, the history or the sources do', () => {
    expect(feedStreamDiffers(current, feedStreamConfig(feed, 3_600_000, 3))).toBe(true);
    expect(feedStreamDiffers(current, feedStreamConfig(feed, 7_200_000, 1))).toBe(true);
    expect(
      feedStreamDiffers(current, feedStreamConfig({ ...feed, sources: feed.sources.slice(1) }, 3_600_000, 1)),
    ).toBe(true);
  });
});
