import { checkRows, IMPORT_MAX_ROWS, readHeader, recordOf, summarise, type ExistingProduct, type ImportColumn, type ImportProblem, type ImportSummary, type PlannedProduct } from '@/lib/domain/catalogue-import';
import { fill, message } from '@/lib/domain/messages';
import { csvRecords, CsvUnreadable } from '@/lib/server/infra/csv';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { loadCatalogueView, loadExisting } from './catalogue-view';

/**
 * The one check of a file, shared by the dry run and the apply (which runs it again inside its
 * transaction): read the CSV, check every row against the catalogue as it is, add the pictures'
 * problems, and say what applying would change. Nothing here writes the catalogue.
 */

export interface CheckOutcome {
  problems: ImportProblem[];
  products: PlannedProduct[];
  existing: Map<string, ExistingProduct>;
  summary: ImportSummary;
  rows: number;
}

/** The file's data rows with their spreadsheet row numbers (the header is row 1), its columns, and problems of the file itself. */
export async function readImportFile(csv: Uint8Array): Promise<{ records: { row: number; cells: Partial<Record<ImportColumn, string>> }[]; present: Set<ImportColumn>; filled: Set<string>; problems: ImportProblem[] }> {
  const records: { row: number; cells: Partial<Record<ImportColumn, string>> }[] = [];
  const problems: ImportProblem[] = [];
  const filled = new Set<string>();
  let columns: (ImportColumn | null)[] | null = null;
  let row = 0;
  try {
    for await (const cells of csvRecords(csv, { maxRecords: IMPORT_MAX_ROWS + 2 })) {
      row++;
      if (!columns) {
        const header = readHeader(cells);
        columns = header.columns;
        problems.push(...header.problems);
        continue;
      }
      if (row > IMPORT_MAX_ROWS + 1) {
        problems.push({ row, column: '', message: fill('import-too-many-rows', IMPORT_MAX_ROWS) });
        break;
      }
      const record = recordOf(columns, cells);
      for (const [k, v] of Object.entries(record)) if (v) filled.add(k);
      records.push({ row, cells: record });
    }
  } catch (err) {
    if (!(err instanceof CsvUnreadable)) throw err;
    problems.push({ row: row + 1, column: '', message: message('import-csv-unreadable') });
  }
  if (!columns) problems.push({ row: 1, column: '', message: message('import-csv-unreadable') });
  return { records, present: new Set((columns ?? []).filter((c): c is ImportColumn => c !== null)), filled, problems };
}

/**
 * Checks a file against the catalogue read through `db` (the apply's transaction, or the database).
 * `pictures` turns the planned products' image cells into stored pictures and their problems.
 */
export async function checkImport(
  db: Db | Tx,
  csv: Uint8Array,
  pictures: (products: PlannedProduct[]) => Promise<{ hashes: Record<string, string>; problems: ImportProblem[] }>,
): Promise<CheckOutcome & { hashes: Record<string, string> }> {
  const file = await readImportFile(csv);
  const skus = file.records.map((r) => r.cells.SKU ?? '').filter(Boolean);
  const view = await loadCatalogueView(db, skus);
  const { products, problems } = checkRows(file.records, file.present, view);
  const found = file.problems.length ? { hashes: {}, problems: [] } : await pictures(products);
  const existing = await loadExisting(db, products.map((p) => p.handle));
  const all = [...file.problems, ...problems, ...found.problems].sort((a, b) => a.row - b.row);
  return { problems: all, products, existing, summary: summarise(products, existing, new Map(Object.entries(found.hashes)), file.filled, view.designers), rows: file.records.length, hashes: found.hashes };
}
