import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { windowPeriod } from '../time/period.js';
import type { Logger } from '../util/logger.js';
import { EXPORT_FILE_NAMES } from './files.js';
import { MANIFEST } from './manifest.js';
import { JOURNAL } from './export-set.js';

/**
 * Moves the files an earlier release wrote at the top of the exports folder into their period's own folder
 * (docs/upgrading.md): that release wrote one set straight into ./exports, this one writes each period into
 * ./exports/<period>/. The set's manifest.json says its range and time zone, so its folder is the one this
 * release would write it to; only the file names an export writes move (accounts/ too), and only when that folder
 * does not exist yet. A set without a manifest (a report alone) stays where it is, and the line says so.
 */
export async function adoptEarlierExports(root: string, timeZone: string, log: Logger, now = Date.now()): Promise<void> {
  const manifestPath = join(root, MANIFEST);
  let manifest: { range?: { from?: string; to?: string; time_zone?: string } };
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as typeof manifest;
  } catch {
    const left = (await readdir(root).catch(() => [] as string[])).filter((n) => n === 'report.html' || n.endsWith('.csv'));
    if (left.length > 0 && !(await exists(join(root, JOURNAL)))) {
      log.warn(`${root} holds files of an earlier release at its top (${left.slice(0, 3).join(', ')}${left.length > 3 ? ', ...' : ''}) without a manifest saying their period; this release writes each period in its own folder (docs/upgrading.md)`);
    }
    return;
  }
  const from = Date.parse(manifest.range?.from ?? '');
  const to = Date.parse(manifest.range?.to ?? '');
  if (Number.isNaN(from) || Number.isNaN(to)) return;
  const period = windowPeriod({ start: from, end: to }, manifest.range?.time_zone ?? timeZone, now);
  const target = join(root, period.folder);
  if (await exists(target)) {
    log.warn(`${root} holds the files of ${period.label} an earlier release wrote at its top, and ${target} exists already: they stay where they are (docs/upgrading.md)`);
    return;
  }
  await mkdir(target, { recursive: true });
  const names = new Set([...EXPORT_FILE_NAMES, JOURNAL, 'accounts']);
  const moved: string[] = [];
  for (const name of await readdir(root)) {
    if (!names.has(name)) continue;
    await rename(join(root, name), join(target, name));
    moved.push(name);
  }
  log.info(`moved the ${moved.length} files of ${period.label} an earlier release wrote at the top of ${root} into ${target}, where this release writes that period (docs/upgrading.md)`);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
