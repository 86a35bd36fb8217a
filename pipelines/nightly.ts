import { definePipeline } from '../src/pipeline/define.js';

/**
 * From the end of what is covered to now, re-reading 3 days back and every window that still holds a
 * pending withdrawal, so late records and changed statuses land; exports the year to date.
 */
export default definePipeline({
  name: 'nightly',
  description: 'From the end of coverage to now, with a 3-day look-back and pending withdrawals re-read',
  range: { kind: 'since-coverage', lookBackDays: 3, refreshPendingWithdrawals: true },
  streams: 'all',
  stages: ['extract', 'transform', 'prices', 'export'],
  export: { range: 'year-to-date', formats: ['csv', 'parquet'] },
});
