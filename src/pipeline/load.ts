import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { UsageError } from '../errors/usage-error.js';
import { packageRoot } from '../util/package-root.js';
import { pipelineSchema, type Pipeline } from './define.js';

/** The pipelines that ship in pipelines/ (compiled to dist/pipelines/). */
export const BUILT_IN = ['year-end', 'nightly'] as const;

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(pipeline)'}: ${i.message}`).join('; ');
}

/**
 * A pipeline by name (`year-end`, `nightly`) or by path to a user's file: JSON, or a JavaScript module whose
 * default export is the pipeline. Checked with zod; a bad file fails naming the field.
 *
 * @example
 * const pipeline = await loadPipeline('./my-pipeline.json');
 */
export async function loadPipeline(nameOrPath: string): Promise<Pipeline> {
  let raw: unknown;
  let where: string;
  if ((BUILT_IN as readonly string[]).includes(nameOrPath)) {
    where = `pipeline ${nameOrPath}`;
    const file = join(packageRoot(), 'dist', 'pipelines', `${nameOrPath}.js`);
    raw = ((await import(pathToFileURL(file).href)) as { default: unknown }).default;
  } else {
    const file = resolve(nameOrPath);
    where = `pipeline file ${nameOrPath}`;
    if (!existsSync(file)) {
      throw new UsageError(
        `unknown pipeline ${JSON.stringify(nameOrPath)}: not ${BUILT_IN.join(' or ')}, and no such file; give a built-in name or a path to a .json or .js file`,
      );
    }
    try {
      raw =
        extname(file) === '.json'
          ? JSON.parse(await readFile(file, 'utf8'))
          : ((await import(pathToFileURL(file).href)) as { default: unknown }).default;
    } catch (error) {
      throw new UsageError(`${where} cannot be read: ${(error as Error).message.split('\n')[0]}`, error);
    }
  }
  const parsed = pipelineSchema.safeParse(raw);
  if (!parsed.success) throw new UsageError(`${where} is not a valid pipeline: ${issues(parsed.error)}`);
  return parsed.data;
}
