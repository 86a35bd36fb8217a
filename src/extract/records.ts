import { createHash } from 'node:crypto';
import type { PagedStreamDef, SnapshotStreamDef } from '../streams/stream.js';
import type { DriftEntry, LoadRecord, QuarantineEntry } from '../load/raw-writer.js';

export interface CheckedRecords {
  load: LoadRecord[];
  quarantine: QuarantineEntry[];
  drift: DriftEntry[];
  /** Records outside the run's range: dropped, never loaded. */
  outside: number;
  /** Records outside the window asked for (`window`), loaded or not. */
  outsideWindow: number;
  /** The time of the first of them, to show in a warning. */
  firstOutsideWindow?: number;
}

/**
 * Checks one page's records against the stream's schema. Records that pass are loaded exactly as received
 * (unknown fields included); those that fail go to quarantine with the reason; fields the schema does not
 * know, and schema fields a record lacks, are reported once per stream through `seenFields`.
 */
export function checkRecords(
  stream: Pick<PagedStreamDef | SnapshotStreamDef, 'schema' | 'keyField' | 'optionalFields'> & {
    keyOf?: (record: Record<string, unknown>) => string;
  },
  records: readonly unknown[],
  options: {
    /** The record's time; for snapshots, the snapshot time. */
    time: (record: Record<string, unknown>) => number;
    /** Extra key prefix (snapshots: the snapshot time). */
    keyPrefix?: string;
    /** Loaded only when start <= time < end. */
    range?: { start: number; end: number };
    /** The window the records were asked for: those outside it are counted. */
    window?: { start: number; end: number };
    /** Drift already reported, as `unknown:field` and `missing:field`; shared across the pages of a run. */
    seenFields: Set<string>;
  },
): CheckedRecords {
  const known = new Set(Object.keys(stream.schema.shape));
  const optional = stream.optionalFields ?? [];
  const expected = optional === 'every' ? [] : [...known].filter((f) => !optional.includes(f));
  const report = (kind: 'unknown' | 'missing', field: string, sample: string): void => {
    if (options.seenFields.has(`${kind}:${field}`)) return;
    options.seenFields.add(`${kind}:${field}`);
    out.drift.push({ field, kind, sample });
  };
  const out: CheckedRecords = { load: [], quarantine: [], drift: [], outside: 0, outsideWindow: 0 };
  for (const raw of records) {
    const payload = JSON.stringify(raw);
    const parsed = stream.schema.safeParse(raw);
    const keyOf = stream.keyOf ?? ((r: Record<string, unknown>) => r[stream.keyField]);
    const rawKey = typeof raw === 'object' && raw !== null ? keyOf(raw as Record<string, unknown>) : undefined;
    if (!parsed.success) {
      out.quarantine.push(quarantineEntry(parsed.error.issues, rawKey, payload, options.keyPrefix));
      continue;
    }
    const record = parsed.data as Record<string, unknown>;
    const ts = options.time(record);
    if (options.window !== undefined && !(ts >= options.window.start && ts < options.window.end)) {
      out.outsideWindow++;
      out.firstOutsideWindow ??= ts;
    }
    if (options.range !== undefined && !(ts >= options.range.start && ts < options.range.end)) {
      out.outside++;
      continue;
    }
    const key = `${options.keyPrefix ?? ''}${String(keyOf(record))}`;
    for (const field of Object.keys(record)) {
      if (!known.has(field)) report('unknown', field, JSON.stringify(record[field]).slice(0, 200));
    }
    // A field the spec lists that the platform stopped sending: the sample names a record without it.
    for (const field of expected) if (!(field in record)) report('missing', field, key);
    out.load.push({ key, ts, payload });
  }
  return withoutConflicts(out);
}

/**
 * A record the schema refuses, kept with why: under its id when it has one, else under a hash of its payload
 * (the same record refused twice is one entry).
 */
function quarantineEntry(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  rawKey: unknown,
  payload: string,
  keyPrefix: string | undefined,
): QuarantineEntry {
  const key =
    typeof rawKey === 'string' && rawKey !== ''
      ? rawKey
      : `sha256:${createHash('sha256').update(payload).digest('hex').slice(0, 32)}`;
  const error = issues.map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`).join('; ');
  return { key: `${keyPrefix ?? ''}${key}`, payload, error };
}

/**
 * One id twice in one page: copies that are the same are loaded once; copies that differ are loaded not at all,
 * since nothing tells which is right, and go to quarantine together (a JSON array of them) under that id.
 */
function withoutConflicts(out: CheckedRecords): CheckedRecords {
  const byKey = new Map<string, LoadRecord[]>();
  for (const r of out.load) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  if (byKey.size === out.load.length) return out;
  const load: LoadRecord[] = [];
  for (const [key, copies] of byKey) {
    const first = copies[0] as LoadRecord;
    if (copies.every((c) => c.payload === first.payload)) load.push(first);
    else {
      out.quarantine.push({
        key,
        payload: `[${copies.map((c) => c.payload).join(',')}]`,
        error: `the page held ${copies.length} records with this id and different content; none was loaded`,
      });
    }
  }
  return { ...out, load };
}
