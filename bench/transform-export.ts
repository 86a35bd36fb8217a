/**
 * transform + export of a year of fills against the plain one-pass DuckDB script (issue 45; bench/baseline.ts,
 * ONE_PASS_SQL): both from the same raw records (a copy each), each step a process of its own at the default memory
 * budget. ledgerpipe's: `ledgerpipe transform` (the whole ledger, its checks, the gains from the first movement,
 * kept) then `ledgerpipe export --year 2025` (its default files, CSV and Parquet: the tables, the valued ledger, the
 * year summary, the disposals; the gains taken as kept). The script's: its typed tables and ledger as CSV and
 * Parquet. Wall time and peak RSS of each.
 */
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './incremental.js';

export interface TransformExportFigures {
  transformSeconds: number;
  transformPeakRssMb: number;
  exportSeconds: number;
  exportPeakRssMb: number;
  baselineSeconds: number;
  baselinePeakRssMb: number;
  /** The script's wall time over ledgerpipe's (transform + export): 1 or more when ledgerpipe is as fast or faster. */
  ratio: number;
}

const MAIN = fileURLToPath(new URL('../ledgerpipe.js', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline.js', import.meta.url));

/** Both, from the raw records of `base` (extracted, never transformed), with the opening lots of `lots`. */
export async function measureTransformExport(
  base: string,
  lots: string,
  dir: string,
  signal: AbortSignal,
  main = MAIN,
): Promise<TransformExportFigures> {
  const ours = join(dir, 'transform-export.duckdb');
  const theirs = join(dir, 'one-pass.duckdb');
  await copyFile(base, ours);
  await copyFile(base, theirs);
  try {
    const transform = await cli(['transform', '--opening-lots', lots, '--db', ours, '--quiet'], dir, signal, main);
    const exported = await cli(
      ['export', '--year', '2025', '--db', ours, '--out', join(dir, 'transform-export-out'), '--quiet'],
      dir,
      signal,
      main,
    );
    const baseline = await cli([theirs, dir], dir, signal, BASELINE);
    return {
      transformSeconds: transform.seconds,
      transformPeakRssMb: transform.peakRssMb,
      exportSeconds: exported.seconds,
      exportPeakRssMb: exported.peakRssMb,
      baselineSeconds: baseline.seconds,
      baselinePeakRssMb: baseline.peakRssMb,
      ratio: baseline.seconds / (transform.seconds + exported.seconds),
    };
  } finally {
    await rm(ours, { force: true });
    await rm(theirs, { force: true });
  }
}
