import { createRequire } from 'node:module';
import type * as Echarts from 'echarts';

// ECharts' single-file build, through require: its ESM entry is some 600 modules that Node reads and links one by
// one, about 0.8 s of CPU in every run that writes a report; the bundle draws the same SVG, byte for byte, in a
// third of that (docs/performance.md, "Start-up").
const echarts = createRequire(import.meta.url)('echarts') as typeof Echarts;

/** One series of a monthly chart: its name and a value per month (null: none that month). */
export interface MonthlySeries {
  name: string;
  values: readonly (number | null)[];
}

/**
 * A bar chart of monthly values as a static SVG string, drawn by Apache ECharts' server-side renderer: no
 * script, no animation, nothing fetched when the page opens. The numbers are for the eye; the tables beside
 * the charts carry the exact values.
 */
export function monthlyBarChart(title: string, months: readonly string[], series: readonly MonthlySeries[]): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 760, height: 280 });
  try {
    // The unit is in the title: an axis name drawn at the top of the axis would sit on it.
    chart.setOption({
      animation: false,
      title: { text: title, left: 0, top: 0, textStyle: { fontSize: 14, fontWeight: 'bold' } },
      grid: { left: 80, right: 10, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: [...months] },
      yAxis: { type: 'value' },
      series: series.map((s) => ({ type: 'bar', name: s.name, data: [...s.values] })),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
