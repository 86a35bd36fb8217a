import { z } from 'zod';
import { STREAM_NAMES } from '../streams/manifest.js';

const streamName = z.string().refine((s) => (STREAM_NAMES as readonly string[]).includes(s), {
  message: `not a stream; choose from ${STREAM_NAMES.join(', ')}`,
});

/**
 * A pipeline as data (docs/pipelines.md): which range it covers, which streams and
 * stages it runs, which files it exports. Checked with zod when loaded, so a user's file fails with the
 * name of the bad field.
 */
export const pipelineSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(''),
  /**
   * `flags`: the range comes from --year, --tax-year or --from/--to, one of which is required.
   * `since-coverage`: from the end of what is already covered to now, re-reading a look-back and every
   * window that still holds a withdrawal or deposit whose status is not final (the nightly run).
   */
  range: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('flags') }),
    z.strictObject({
      kind: z.literal('since-coverage'),
      lookBackDays: z.number().int().min(0).max(366).default(3),
      refreshPendingWithdrawals: z.boolean().default(true),
    }),
  ]),
  streams: z.union([z.literal('all'), z.array(streamName).min(1)]).default('all'),
  stages: z
    .array(z.enum(['extract', 'transform', 'prices', 'export']))
    .min(1)
    .default(['extract', 'transform', 'export']),
  export: z
    .strictObject({
      /**
       * `run`: the run's own range; `year-to-date`: the start (in --tz) of the run's end year, its tax year when that
       * does not start on 1 January, to its end.
       */
      range: z.enum(['run', 'year-to-date']).default('run'),
      formats: z
        .array(z.enum(['csv', 'parquet', 'koinly', 'cointracking', 'report']))
        .min(1)
        .default(['csv', 'parquet']),
    })
    .default({ range: 'run', formats: ['csv', 'parquet'] }),
});

export type PipelineInput = z.input<typeof pipelineSchema>;
export type Pipeline = z.output<typeof pipelineSchema>;

/**
 * Declares a pipeline; checked when loaded.
 *
 * @example
 * export default definePipeline({ name: 'withdrawals-only', range: { kind: 'flags' }, streams: ['withdrawals'] });
 */
export function definePipeline(pipeline: PipelineInput): PipelineInput {
  return pipeline;
}
