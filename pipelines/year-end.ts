import { definePipeline } from '../src/pipeline/define.js';

/** A calendar year (or any --from/--to range), every stream, every export: the accountant's run. */
export default definePipeline({
  name: 'year-end',
  description: 'Every record of a year (--year YYYY, or --from/--to), the ledger, and all exports',
  range: { kind: 'flags' },
  streams: 'all',
  stages: ['extract', 'transform', 'prices', 'export'],
  // The accountant's set: the tables as CSV and Parquet, the tax tools' files and the report.
  export: { range: 'run', formats: ['csv', 'parquet', 'koinly', 'cointracking', 'report'] },
});
