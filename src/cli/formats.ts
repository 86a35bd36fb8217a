import { UsageError } from '../errors/usage-error.js';
import { EXPORT_FORMATS, type ExportFormat } from '../export/exporter.js';

/** The formats named by --format. */
export function parseFormats(list: string): ExportFormat[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !(EXPORT_FORMATS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(
      `unknown --format ${unknown.join(', ') || '(empty)'}; choose from ${EXPORT_FORMATS.join(', ')}`,
    );
  }
  return names as ExportFormat[];
}
