/** A kept feed as this process holds it: its segments, and the copy answered. */

/** A gzip segment of a copy, named by the hash of its bytes; the bytes are in memory once read or written here, else in `feed_pieces`. */
export interface Piece {
  hash: string;
  crc: number;
  /** Bytes of text it holds. */
  size: number;
  /** Bytes of deflate. */
  length: number;
  deflate?: Buffer;
  /** Whether `feed_pieces` holds it. */
  saved?: boolean;
}

/** A page of products' items: the products with ids in (after, last]; the last segment's `last` is null (to the end). */
export interface BodyPiece extends Piece {
  after: number;
  last: number | null;
  /** A hash of everything the range read (products.ts order aside), taken before it was read. */
  fp: string;
}

/** What is answered: a finished feed, as its segments in order. */
export interface FeedCopy {
  etag: string;
  builtAt: Date;
  pieces: readonly Piece[];
}

/** A feed's segments, that can be read again one by one. */
export interface FeedEntry {
  head: Piece;
  body: BodyPiece[];
  tail: Piece;
  /** Body segments whose products changed since they were read. */
  stale: Set<number>;
  /** Something changed that any item may show (the categories): read it all again. */
  whole: boolean;
  /** Taken from the database at a start: each range's fingerprint is to be compared with the catalogue's. */
  unverified: boolean;
}

/** A copy's layout as `feed_copies.pieces` keeps it. */
export type SavedPiece = Omit<Piece, 'deflate' | 'saved'> & Partial<Pick<BodyPiece, 'after' | 'last' | 'fp'>>;

/** What this process holds of each feed (by key, `google:NG`), shared by the feed service's modules. */
export interface FeedMemory {
  /** The copy answered, per feed (`google:NG`). */
  copies: Map<string, FeedCopy>;
  /** Its segments, once this process has read the feed or its layout. */
  entries: Map<string, FeedEntry>;
  /** The background work bringing a feed up to date, while it runs. */
  working: Map<string, Promise<void>>;
}
