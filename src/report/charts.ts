import * as echarts from 'echarts';

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
export function monthlyBarChart(title: string, months: readonly string[], series: readonly MonthlySeries[], unit: string): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 760, height: 280 });
  try {
    chart.setOption({
      animation: false,
      title: { text: title, left: 0, textStyle: { fontSize: 14, fontWeight: 'bold' } },
      legend: { top: 0, right: 0 },
      grid: { left: 70, right: 10, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: [...months] },
      yAxis: { type: 'value', name: unit, nameTextStyle: { align: 'right' } },
      series: series.map((s) => ({ type: 'bar', name: s.name, data: [...s.values] })),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
