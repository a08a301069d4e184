import { META_COLUMNS, metaRecord, type FeedItem } from '@/lib/domain/feeds';
import { csvLine } from '@/lib/server/infra/csv';

/** Meta's catalogue CSV, through the store's one CSV writer: lines end in `\n`, as Meta reads them. */
export const META_HEAD = csvLine(META_COLUMNS, '\n');

/** A variant's line of Meta's CSV. */
export const metaRow = (item: FeedItem): string => csvLine(metaRecord(item), '\n');
