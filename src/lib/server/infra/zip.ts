import { posix } from 'node:path';
import yauzl from 'yauzl';

/**
 * Reading an uploaded ZIP (yauzl, from memory): the files it holds by their path inside it,
 * each read on demand and capped in size. A name that leaves the ZIP's folder (`../x`, `/etc/x`,
 * `C:\x`) makes the whole ZIP refused (ZipUnsafe), never written or read anywhere.
 */

export class ZipUnsafe extends Error {
  constructor(readonly entry: string) {
    super(`zip entry outside its folder: ${entry}`);
  }
}
export class ZipUnreadable extends Error {}
export class ZipEntryTooLarge extends Error {}

export interface ZipFiles {
  /** The files' paths inside the ZIP (folders left out). */
  names(): string[];
  /** A file's bytes (at most `maxBytes`: ZipEntryTooLarge), or null when the ZIP has no such file. */
  read(name: string, maxBytes: number): Promise<Uint8Array | null>;
  close(): void;
}

const MAX_ENTRIES = 5000;

function isOutside(name: string): boolean {
  if (name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\0')) return true;
  const normal = posix.normalize(name);
  return normal === '..' || normal.startsWith('../');
}

/** Opens a ZIP held in memory and lists its files; refuses names outside its folder before anything is read. */
export async function openZip(bytes: Uint8Array): Promise<ZipFiles> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, z) => (err || !z ? reject(new ZipUnreadable(String(err))) : resolve(z))),
  );
  const entries = new Map<string, yauzl.Entry>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (isOutside(entry.fileName)) return reject(new ZipUnsafe(entry.fileName));
        if (entries.size >= MAX_ENTRIES) return reject(new ZipUnreadable('too many entries'));
        if (!entry.fileName.endsWith('/')) entries.set(posix.normalize(entry.fileName), entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      // yauzl itself refuses absolute and climbing names ("invalid relative path: ../x").
      zip.on('error', (err: unknown) => {
        const text = String(err);
        const name = /(?:invalid relative path|absolute path): (.*)$/.exec(text)?.[1];
        reject(err instanceof ZipUnsafe ? err : name !== undefined ? new ZipUnsafe(name) : new ZipUnreadable(text));
      });
      zip.readEntry();
    });
  } catch (err) {
    zip.close();
    throw err;
  }
  return {
    names: () => [...entries.keys()],
    async read(name, maxBytes) {
      const entry = entries.get(posix.normalize(name.replace(/^\.\//, '')));
      if (!entry) return null;
      if (entry.uncompressedSize > maxBytes) throw new ZipEntryTooLarge(name);
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => zip.openReadStream(entry, (err, s) => (err || !s ? reject(new ZipUnreadable(String(err))) : resolve(s))));
      const chunks: Buffer[] = [];
      let total = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          total += chunk.length;
          if (total > maxBytes) throw new ZipEntryTooLarge(name);
          chunks.push(chunk);
        }
      } catch (err) {
        throw err instanceof ZipEntryTooLarge ? err : new ZipUnreadable(String(err));
      }
      return new Uint8Array(Buffer.concat(chunks));
    },
    close: () => zip.close(),
  };
}
