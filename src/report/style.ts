/** The report's stylesheet, inline in the page: plain on screen, A4 and no breaks inside a table row on paper. */
export const REPORT_STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; color: #1d2433; margin: 2rem auto; max-width: 64rem; padding: 0 1rem; }
h1 { margin: 0 0 .2rem; } h2 { border-bottom: 1px solid #d0d5dd; padding-bottom: .2rem; margin-top: 2rem; }
.meta, .note, footer { color: #596275; } footer { margin-top: 2rem; font-size: 12px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #eceff3; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.time { white-space: nowrap; }
tfoot tr.total td { font-weight: 600; border-top: 2px solid #1d2433; border-bottom: none; }
tr.gap td { background: #fff4e5; }
#warnings li { margin: .2rem 0; } .none { color: #596275; font-style: italic; }
figure.chart { margin: 1rem 0; } figure.chart svg { max-width: 100%; height: auto; }
@media print {
  @page { size: A4; margin: 14mm; }
  body { margin: 0; max-width: none; font-size: 11px; }
  section { break-inside: auto; } tr, figure.chart { break-inside: avoid; }
  h2 { break-after: avoid; }
  thead { display: table-header-group; }
}
`;
