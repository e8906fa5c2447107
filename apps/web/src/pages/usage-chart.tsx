import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { VmStats } from '../api/types';

type Series = VmStats['series'][number];

/**
 * One metric's samples as a uPlot line (times in seconds, gaps where vCenter has no value). Loaded
 * only with the VM page's charts (its own chunk), so the first page's JavaScript stays small.
 */
export default function UsageChart({ series, width = 560 }: { series: Series; width?: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (box.current === null) return;
    const data: uPlot.AlignedData = [
      series.samples.map((s) => Date.parse(s.timestamp) / 1000),
      series.samples.map((s) => s.value),
    ];
    const chart = new uPlot(
      {
        width,
        height: 160,
        series: [{}, { label: `${series.metric} (${series.unit})`, stroke: '#1f5fa8', width: 1.5 }],
        axes: [{}, { values: (_u, ticks) => ticks.map((t) => `${t} ${series.unit}`), size: 90 }],
        legend: { show: false },
      },
      data,
      box.current,
    );
    return () => chart.destroy();
  }, [series, width]);
  return <div ref={box} />;
}
