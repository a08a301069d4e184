/**
 * The one CSV writer of the store: the shopping feeds, the back office's exports and any report
 * go through it, so every CSV is quoted alike (RFC 4180: a cell with a comma, a quote or a line
 * break is quoted, its quotes doubled) and defused alike. A text cell beginning with `=`, `+`,
 * `-`, `@`, a tab or a carriage return (or their full-width forms) gets a leading `'`, so a
 * spreadsheet shows it as text instead of running it as a formula: a product named
 * `=HYPERLINK(…)` by a staff account, or an e-mail address typed as `@SUM(…)`, stays words.
 * Numbers are written as they are (a negative amount stays a number).
 *
 * It is also the one CSV reader (`csvRecords`): csv-parse, streaming, for files as Excel and Google
 * Sheets save them (UTF-8 with or without its byte order mark, commas or semicolons).
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';

/** A cell: text, a number, or nothing (an empty cell). */
export type CsvCell = string | number | null | undefined;

/** How lines end: `\r\n` (RFC 4180, what spreadsheets expect) or `\n` (what Meta's catalogue reads). */
export type LineEnd = '\r\n' | '\n';

/** Lines of CSV, each row ended by `lineEnd`. */
export function csvLines(rows: readonly (readonly CsvCell[])[], lineEnd: LineEnd = '\r\n'): string {
  if (rows.length === 0) return '';
  return stringify(rows as CsvCell[][], { record_delimiter: lineEnd === '\n' ? 'unix' : 'windows', escape_formulas: true, quote_record_delimiter: true, eof: true });
}

/** One line of CSV, ended by `lineEnd`. */
export function csvLine(row: readonly CsvCell[], lineEnd: LineEnd = '\r\n'): string {
  return csvLines([row], lineEnd);
}

/**
 * A CSV as chunks of text: the header line, then one chunk per batch of rows, as the batches
 * come (a million orders stream out in the memory of one batch).
 */
export async function* csvChunks(header: readonly string[], batches: AsyncIterable<readonly (readonly CsvCell[])[]>, lineEnd: LineEnd = '\r\n'): AsyncGenerator<string> {
  yield csvLine(header, lineEnd);
  for await (const rows of batches) if (rows.length > 0) yield csvLines(rows, lineEnd);
}

/** The separator a file uses: the one its first line has more of outside quotes (a semicolon where Excel's locale writes decimal commas). */
export function csvDelimiter(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of text.slice(0, 64 * 1024)) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** The file is not UTF-8 text a CSV reader can read. */
export class CsvUnreadable extends Error {}

/**
 * A CSV's records (the header first), streamed from its bytes: at most `maxRecords`, then it
 * stops reading. Not UTF-8, or quotes left open: CsvUnreadable.
 */
export async function* csvRecords(bytes: Uint8Array, { maxRecords }: { maxRecords: number }): AsyncGenerator<string[]> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new CsvUnreadable('not UTF-8');
  }
  const parser = Readable.from([text]).pipe(parse({ delimiter: csvDelimiter(text), bom: true, relax_column_count: true, skip_empty_lines: true, to: maxRecords }));
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (err) {
    throw new CsvUnreadable(err instanceof Error ? err.message : String(err));
  } finally {
    parser.destroy();
  }
}
