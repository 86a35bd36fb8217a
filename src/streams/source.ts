import { z } from 'zod';

/**
 * Where a stream's column comes from, declared beside the column (docs/adding-a-stream.md): the record's field it
 * reads, the check the extractor holds that field to, and the cast that makes the column's type of it. The record
 * schema (recordSchema, below) and the typing SQL (`sql/generated/typing.sql`, made by src/warehouse/typing-sql.ts)
 * are both derived from these, so a field is named once.
 */

/**
 * How a field's text becomes the column's value in the typing SQL: as it is (`text`), an exact decimal
 * (`amount`: lp_amount), an instant from Unix milliseconds (`instant`: lp_ms), or JSON kept as received (`json`).
 */
export type Cast = 'text' | 'amount' | 'instant' | 'json';

/** A field of the record that a column reads. */
export interface SourceField {
  /** The field's name in the platform's record, exactly as spelled. */
  name: string;
  /**
   * What the extractor holds it to: a record whose field fails its check is quarantined (extract/records.ts). Absent:
   * the field is read as served, unchecked (and unknown to the drift report). A field read by several columns is
   * checked where it is first declared; the others name it without a check.
   */
  check?: z.ZodType;
  /** The typing SQL reads it as JSON, not text (the fills' feeDetail). */
  json?: boolean;
}

/** A column's source: the typing SQL's expression for it, as data (src/warehouse/typing-sql.ts writes the SQL). */
export type ColumnSource =
  /** A field of the record, cast by the column's type; optionally NULL when empty, or upper-cased. */
  | { kind: 'field'; field: SourceField; cast: Cast; emptyAsNull?: boolean; upper?: boolean }
  /** The partition the record was read under (raw_records.partition); the fields are checked only. */
  | { kind: 'partition'; fields: readonly SourceField[] }
  /** The record's key as raw_records holds it (made by the stream's keyField or keyOf); the fields are checked only. */
  | { kind: 'key'; fields: readonly SourceField[] }
  /** The record's time as raw_records holds it (the stream's `time` of these fields), which are checked here. */
  | { kind: 'time'; fields: readonly SourceField[] }
  /**
   * An expression of the stream's own SQL over the record's fields (`r.<field>`), its partition, key, ts and
   * payload: a rule beyond renaming and casting, whose macros live in the stream's SQL (sql/models/).
   */
  | { kind: 'expression'; sql: string; fields: readonly SourceField[] };

/** How a field is read: NULL when empty, upper-cased, or as JSON (src/warehouse/typing-sql.ts). */
export interface FieldOptions {
  emptyAsNull?: boolean;
  upper?: boolean;
  json?: boolean;
}

/** A field a column reads, before its column says the cast. */
export interface FieldRead {
  kind: 'read';
  field: SourceField;
  emptyAsNull?: boolean;
  upper?: boolean;
}

/** What a column helper takes as its source: a field to cast by the column's type, or a source as it is. */
export type From = FieldRead | Exclude<ColumnSource, { kind: 'field' }>;

/**
 * A field of the record, with its check (absent: unchecked); `emptyAsNull` reads an empty string as NULL, `upper`
 * upper-cases it.
 *
 * @example
 * text('trade_id', 'The chain transaction hash (`tradeId`); NULL when empty.', field('tradeId', optionalText, { emptyAsNull: true }))
 */
export function field(name: string, check?: z.ZodType, options: FieldOptions = {}): FieldRead {
  return {
    kind: 'read',
    field: { name, ...(check === undefined ? {} : { check }), ...(options.json === true ? { json: true } : {}) },
    ...(options.emptyAsNull === true ? { emptyAsNull: true } : {}),
    ...(options.upper === true ? { upper: true } : {}),
  };
}

/** The record's partition, as a column; `fields` checked (a field that says what the partition says). */
export const partition = (...fields: readonly FieldRead[]): From => ({
  kind: 'partition',
  fields: fields.map(fieldOf),
});
/** The record's key, as a column; `fields` checked (the field the key is made of). */
export const key = (...fields: readonly FieldRead[]): From => ({ kind: 'key', fields: fields.map(fieldOf) });

/** The record's time (raw_records.ts) from `fields`, each checked as given. */
export const time = (...fields: readonly FieldRead[]): From => ({ kind: 'time', fields: fields.map(fieldOf) });

/** An expression of the stream's SQL over the fields it reads (`r.<field>`), for a rule beyond a cast. */
export const expression = (sql: string, ...fields: readonly FieldRead[]): From => ({
  kind: 'expression',
  sql,
  fields: fields.map(fieldOf),
});

function fieldOf(read: FieldRead): SourceField {
  return read.field;
}

/** The source a column of `cast` makes of `from`. */
export function sourceOf(from: From, cast: Cast): ColumnSource {
  if (from.kind !== 'read') return from;
  const { field: read, emptyAsNull, upper } = from;
  return {
    kind: 'field',
    field: read,
    cast,
    ...(emptyAsNull === true ? { emptyAsNull } : {}),
    ...(upper === true ? { upper } : {}),
  };
}

/** The record fields a source reads or checks. */
export function fieldsOf(source: ColumnSource): readonly SourceField[] {
  switch (source.kind) {
    case 'field':
      return [source.field];
    default:
      return source.fields;
  }
}

/** A check of the whole record beyond its fields' own (one of two fields must be there). */
export interface RecordCheck {
  check(record: Record<string, unknown>): boolean;
  message: string;
  path: readonly string[];
}

/**
 * The record schema of columns' sources: each checked field with its check, in the order the columns first read
 * them, unknown fields kept (`looseObject`); and the record's own checks. A field checked twice is a mistake of
 * the stream's declaration.
 */
export function recordSchema(
  columns: readonly { name: string; from?: ColumnSource }[],
  checks: readonly RecordCheck[] = [],
): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const column of columns) {
    for (const f of column.from === undefined ? [] : fieldsOf(column.from)) {
      if (f.check === undefined) continue;
      if (f.name in shape) {
        throw new Error(
          `the field ${f.name} is checked twice (column ${column.name}): check it where it is first read`,
        );
      }
      shape[f.name] = f.check;
    }
  }
  let schema = z.looseObject(shape);
  for (const c of checks) schema = schema.refine((r) => c.check(r), { message: c.message, path: [...c.path] });
  return schema;
}
