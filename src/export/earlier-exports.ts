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
 * does not exist yet. A set without a manifest (a report alone) stays where it is, and the line says so. A set
 * this release wrote there (--out ./exports) stays too: its manifest says range.to_date, which no earlier one did.
 *
 * The files move into a hidden folder beside, the manifest last, and that folder is renamed to the period's in one
 * step: a run killed halfway leaves either the manifest at the top (the next run moves the rest) or the hidden
 * folder complete (the next run renames it).
 */
export async function adoptEarlierExports(
  root: string,
  timeZone: string,
  log: Logger,
  now = Date.now(),
): Promise<void> {
  await finishMoves(root);
  const manifestPath = join(root, MANIFEST);
  let manifest: { range?: { from?: string; to?: string; time_zone?: string; to_date?: string } };
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as typeof manifest;
  } catch {
    const left = (await readdir(root).catch(() => [] as string[])).filter(
      (n) => n === 'report.html' || n.endsWith('.csv'),
    );
    if (left.length > 0 && !(await exists(join(root, JOURNAL)))) {
      log.warn(
        `${root} holds files of an earlier release at its top (${left.slice(0, 3).join(', ')}${left.length > 3 ? ', ...' : ''}) without a manifest saying their period; this release writes each period in its own folder (docs/upgrading.md)`,
      );
    }
    return;
  }
  const from = Date.parse(manifest.range?.from ?? '');
  const to = Date.parse(manifest.range?.to ?? '');
  if (Number.isNaN(from) || Number.isNaN(to) || manifest.range?.to_date !== undefined) return;
  const period = windowPeriod({ start: from, end: to }, manifest.range?.time_zone ?? timeZone, now);
  const target = join(root, period.folder);
  if (await exists(target)) {
    log.warn(
      `${root} holds the files of ${period.label} an earlier release wrote at its top, and ${target} exists already: they stay where they are (docs/upgrading.md)`,
    );
    return;
  }
  const staging = join(root, `.${period.folder}${MOVING}`);
  await mkdir(staging, { recursive: true });
  const names = new Set([...EXPORT_FILE_NAMES, JOURNAL, 'accounts']);
  const moving = (await readdir(root)).filter((n) => names.has(n) && n !== MANIFEST);
  for (const name of [...moving, MANIFEST]) await rename(join(root, name), join(staging, name));
  await rename(staging, target);
  log.info(
    `moved the ${moving.length + 1} files of ${period.label} an earlier release wrote at the top of ${root} into ${target}, where this release writes that period (docs/upgrading.md)`,
  );
}

/** How the hidden folder of a set being moved ends: `.<period>.moving`. */
const MOVING = '.moving';

/** Renames the hidden folder of a move a killed run completed (its manifest moved, last) to its period's folder. */
async function finishMoves(root: string): Promise<void> {
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!name.startsWith('.') || !name.endsWith(MOVING)) continue;
    const target = join(root, name.slice(1, -MOVING.length));
    if ((await exists(join(root, name, MANIFEST))) && !(await exists(target))) await rename(join(root, name), target);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
