import { STREAMS } from '../streams/index.js';
import type { StreamTableDef } from '../streams/table.js';
import {
  ACCOUNT_MODES_DEFAULT,
  type AccountMode,
  type PagedStreamDef,
  type PartitionDef,
  type SnapshotPart,
  type SnapshotStreamDef,
} from '../streams/stream.js';
import { EXPORTED_TABLES, STREAM_TABLES } from './index.js';

/**
 * The docs' tables of the streams, made from their definitions (src/streams/<stream>.ts) by `npm run generate`, each
 * between two markers of its page, the prose around them written by hand: the endpoints of docs/extraction.md and
 * the columns of the records' files in docs/files.md. test/tables/registry.test.ts fails while a page is out of date.
 */

const code = (text: string): string => `\`${text}\``;
const unique = <T>(list: readonly T[]): T[] => [...new Set(list)];

/** A list of names, all of them when no more than a dozen, else the first two, the last and how many. */
function names(list: readonly string[]): string {
  if (list.length <= 12) return list.map(code).join(', ');
  return [...list.slice(0, 2).map(code), `... ${code(list.at(-1) as string)} (${list.length})`].join(', ');
}

/** Which accounts read it: classic, unified or both, and what of its config it needs (docs/unified-accounts.md). */
function readBy(stream: PagedStreamDef | SnapshotStreamDef): string {
  const parts = stream.kind === 'snapshot' ? (stream.parts as readonly SnapshotPart[]) : [stream];
  const modes: readonly AccountMode[] = unique(parts.flatMap((p) => p.accountModes ?? ACCOUNT_MODES_DEFAULT));
  const who = modes.length === 2 ? 'both' : modes[0] === 'uta' ? 'unified' : 'classic';
  const optIn = stream.kind === 'paged' ? stream.optIn : undefined;
  if (optIn === 'leadTrader') return `${who}, a lead trader's (config)`;
  return optIn === 'copyProjects' ? `${who}, per project followed (config)` : who;
}

function pagedRow(s: PagedStreamDef): string {
  const partitions = s.partitions as readonly PartitionDef[];
  const own = partitions.flatMap((p) => (p.endpoint === undefined ? [] : [{ name: p.name, ...p.endpoint }]));
  const endpoint = [code(s.path), ...own.map((p) => `${p.name}: ${code(p.path)}`)].join('; ');
  const rate = [`${s.ratePerSecond}/s`, ...own.map((p) => `${p.name}: ${p.ratePerSecond}/s`)].join('; ');
  const named = partitions.map((p) => p.name).filter((n) => n !== '');
  const parts = s.optIn === 'copyProjects' ? 'one per project (`projectId`)' : names(named);
  const window = s.windowless === true ? "the run's range (it takes none)" : `${s.maxWindowDays} days`;
  const cursor = s.cursor ?? { param: 'idLessThan', descending: true };
  const next = `${code(cursor.param)} (${cursor.descending ? 'a record id' : 'a token'})`;
  return `| ${code(s.name)} | ${endpoint} | ${parts} | ${window} | ${s.pageLimit} | ${rate} | ${next} | ${readBy(s)} |`;
}

function snapshotRow(s: SnapshotStreamDef): string {
  const parts = s.parts as readonly SnapshotPart[];
  const endpoints = unique(parts.map((p) => p.path))
    .map(code)
    .join(', ');
  const rates = unique(parts.map((p) => `${p.ratePerSecond}/s`)).join(', ');
  const named = names(unique(parts.map((p) => p.name)).filter((n) => n !== ''));
  return `| ${code(s.name)} | ${endpoints} | ${named} | a snapshot per run | | ${rates} | | ${readBy(s)} |`;
}

/** docs/extraction.md: every stream's endpoint, partitions, window, page, rate, paging and accounts. */
export function extractionTable(): string {
  const rows = STREAMS.map((s) => (s.kind === 'paged' ? pagedRow(s) : snapshotRow(s)));
  return `| stream | endpoint | partitions | window | page | rate | next page | accounts |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}`;
}

/** docs/files.md: the columns of each stream's file, in their order, and those its warehouse table keeps beside. */
export function recordFilesTable(): string {
  const rows = EXPORTED_TABLES.flatMap(({ name, omit = [] }) => {
    const def = STREAM_TABLES.find((m) => m.name === name) as StreamTableDef | undefined;
    if (def === undefined) return [];
    const columns = def.columns.map((c) => c.name).filter((c) => !omit.includes(c));
    const kept = omit.length === 0 ? '' : ` (the warehouse table also keeps ${omit.map(code).join(', ')})`;
    return [`| ${code(name)} | ${code(columns.join(', '))}${kept} |`];
  });
  return `| file / table | columns |
|---|---|
${rows.join('\n')}`;
}

/** Each page's generated regions, by the page's path and the region's name. */
export function generatedRegions(): Record<string, Record<string, string>> {
  return {
    'docs/extraction.md': { streams: extractionTable() },
    'docs/files.md': { 'record-files': recordFilesTable() },
  };
}

/** The markers of a region: its text lies between them, each on a line of its own. */
const markers = (name: string): [string, string] => [
  `<!-- generated: ${name} (npm run generate, from src/streams/) -->`,
  `<!-- /generated: ${name} -->`,
];

/** `text` with the region `name` holding `content`; a page without the region's markers is an error. */
export function withRegion(text: string, name: string, content: string): string {
  const [open, close] = markers(name);
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`no region ${name} (${open} ... ${close})`);
  return `${text.slice(0, start + open.length)}\n${content}\n${text.slice(end)}`;
}
