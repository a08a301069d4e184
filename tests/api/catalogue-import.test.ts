import http from 'node:http';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvLines } from '@/lib/server/infra/csv';
import { startServer, type RunningServer } from '../support/server';
import { accountClient } from './account-client';

const HEADER = ['Handle', 'Title', 'Description', 'Category', 'Status', 'Option1 Colour', 'Option2 Size', 'SKU', 'Inventory', 'Price NG', 'Price ZA', 'Image Src'];

/** The catalogue's spreadsheet import through the API: dry run with every problem, apply whole, idempotent, export then import unchanged, bad uploads refused. */
for (const driver of ['pglite', 'pg'] as const) {
  describe(`catalogue import on ${driver}`, () => {
    let server: RunningServer;
    let owner: string;
    let api: ReturnType<typeof accountClient>;

    beforeAll(async () => {
      server = await startServer(driver);
      api = accountClient(server.baseUrl);
      owner = await api.signInOwner();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    async function upload(csv: string | Uint8Array, images?: Uint8Array, name = 'season.csv') {
      const form = new FormData();
      form.set('file', new File([typeof csv === 'string' ? csv : new Uint8Array(csv)], name, { type: 'text/csv' }));
      if (images) form.set('images', new File([new Uint8Array(images)], 'pictures.zip', { type: 'application/zip' }));
      const res = await fetch(`${server.baseUrl}/api/v1/admin/imports`, { method: 'POST', body: form, headers: { authorization: `Bearer ${owner}`, accept: 'application/json', origin: server.baseUrl } });
      return { status: res.status, body: (await res.json()) as any };
    }

    async function settled(id: string) {
      for (let i = 0; i < 240; i++) {
        const got = await api.call('GET', `/admin/imports/${id}`, { token: owner });
        if (!['checking', 'applying'].includes(got.body.data.status)) return got.body.data;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error('import did not settle');
    }

    async function checkAndApply(csv: string, images?: Uint8Array) {
      const up = await upload(csv, images);
      expect(up.status, JSON.stringify(up.body)).toBe(202);
      const checked = await settled(up.body.data.id);
      expect(checked.errors, JSON.stringify(checked.errors)).toEqual([]);
      const applied = await api.call('POST', `/admin/imports/${up.body.data.id}/apply`, { token: owner });
      expect(applied.status, JSON.stringify(applied.body)).toBe(202);
      return { checked, applied: await settled(up.body.data.id) };
    }

    it('a dry run lists every problem by row and column and writes nothing; the corrected file applies whole, once', async () => {
      const png = await sharp({ create: { width: 40, height: 50, channels: 3, background: '#a08060' } }).png().toBuffer();
      const zip = zipSync({ 'amara.png': new Uint8Array(png) });
      const wrong = csvLines([
        HEADER,
        ['amara-import-pumps', 'Amara Import Pumps', 'Patent pumps', 'Shoes > Heels', 'active', 'Black', 'EU 37', 'AIP-37', '3', '250000', '3200', 'amara.png'],
        ['amara-import-pumps', 'Amara Other', '', '', '', 'black', 'EU 38', 'AIP-38', '2', 'ten', '', ''],
        ['amara-import-pumps', '', '', '', '', 'Black', 'EU 99', 'AIP-37', '1', '250000', '', 'missing.png'],
        ['', 'No Handle', '', '', '', '', '', '', '', '', '', ''],
        ['zuri-import-tote', '', '', 'Bags > Totes', '', '', '', 'ZIT-1', '1', '90000', '', 'https://localhost/secret.png'],
      ]);
      const up = await upload(wrong, zip);
      expect(up.status, JSON.stringify(up.body)).toBe(202);
      const checked = await settled(up.body.data.id);
      expect(checked.status).toBe('rejected');
      expect(checked.errors.map((e: any) => `${e.row}:${e.column}`)).toEqual(['3:Title', '3:Option1 Colour', '3:Price NG', '4:Option2 Size', '4:SKU', '4:Image Src', '5:Handle', '6:Title', '6:Image Src']);
      expect(checked.errors.find((e: any) => e.column === 'Image Src' && e.row === 6).message).toContain('only https:// addresses outside private networks');
      expect((await api.call('POST', `/admin/imports/${up.body.data.id}/apply`, { token: owner })).status).toBe(409);
      const search = await api.call('GET', '/admin/products?q=Amara%20Import', { token: owner });
      expect(JSON.stringify(search.body)).not.toContain('Amara Import Pumps');

      const right = csvLines([
        HEADER,
        ['amara-import-pumps', 'Amara Import Pumps', 'Patent pumps', 'Shoes > Heels', 'active', 'Black', 'EU 37', 'AIP-37', '3', '250000', '3200', 'amara.png'],
        ['amara-import-pumps', '', '', '', '', 'Black', 'EU 38', 'AIP-38', '2', '250000', '3200', ''],
      ]);
      const t0 = Date.now();
      const { checked: dry, applied } = await checkAndApply(right, zip);
      expect(dry.summary).toMatchObject({ products: { created: 1 }, variants: { created: 2 }, stockSet: 2, imagesAdded: 1 });
      expect(applied.status).toBe('applied');
      console.log(`${driver}: small file checked and applied in ${Date.now() - t0} ms`);

      // Idempotent: the same file again changes nothing and says so.
      const again = await upload(right, zip);
      const second = await settled(again.body.data.id);
      expect(second.nothingChanges).toBe(true);

      // The stock came through the ledger as an import, with the file's name and who.
      const listed = await api.call('GET', '/admin/products?q=Amara%20Import', { token: owner });
      expect(JSON.stringify(listed.body)).toContain('Amara Import Pumps');
    }, 180_000);

    it('the Brand column names each product’s designer: an existing one in any case, a new one added', async () => {
      const header = ['Handle', 'Title', 'Brand', 'Category', 'Option1 Colour', 'SKU', 'Inventory', 'Price NG'];
      const csv = csvLines([
        header,
        ['kin-import-tote', 'Kin Import Tote', 'kloof & KIN', 'Bags > Totes', 'Black', 'KIT-1', '2', '90000'],
        ['accra-import-slide', 'Accra Import Slide', 'Jamestown Cobblers', 'Bags > Totes', 'Black', 'AIS-1', '1', '80000'],
      ]);
      const { checked, applied } = await checkAndApply(csv);
      expect(checked.summary).toMatchObject({ products: { created: 2 }, designersCreated: ['Jamestown Cobblers'], notApplied: [] });
      expect(applied.status).toBe('applied');
      const found = await api.call('GET', '/products?q=Import%20Tote%20Kin&limit=5');
      const tote = (found.body.data.docs as { name: string; designer: { name: string; slug: string } }[]).find((p) => p.name === 'Kin Import Tote');
      expect(tote?.designer).toMatchObject({ name: 'Kloof & Kin', slug: 'kloof-kin' });
      const byNew = await api.call('GET', '/products?designer=jamestown-cobblers');
      expect(byNew.body.data.docs.map((p: { name: string }) => p.name)).toEqual(['Accra Import Slide']);
      // The same designer however the file cases it: nothing changes.
      const again = await upload(csvLines([header, ['kin-import-tote', 'Kin Import Tote', 'KLOOF & kin', 'Bags > Totes', 'Black', 'KIT-1', '2', '90000']]));
      expect((await settled(again.body.data.id)).nothingChanges).toBe(true);
    }, 180_000);

    it('export, then import unchanged, changes nothing and says so', async () => {
      const res = await fetch(`${server.baseUrl}/api/v1/admin/products/export.csv`, { headers: { authorization: `Bearer ${owner}` } });
      expect(res.status).toBe(200);
      const csv = await res.text();
      expect(csv.split('\r\n')[0]).toBe('Handle,Title,Description,Brand,Category,Tags,Status,Option1 Colour,Option2 Size,SKU,Inventory,Price NG,Price ZA,Compare-at NG,Compare-at ZA,Image Src,Image Alt Text');
      const t0 = Date.now();
      const up = await upload(csv, undefined, 'export.csv');
      expect(up.status, JSON.stringify(up.body)).toBe(202);
      const checked = await settled(up.body.data.id);
      console.log(`${driver}: the demo export (${checked.rows} rows) checked in ${Date.now() - t0} ms`);
      expect(checked.errors.slice(0, 5)).toEqual([]);
      expect(checked.nothingChanges).toBe(true);
      // The export names each product's designer in its Brand column.
      expect(csv).toContain(',Kloof & Kin,');
    }, 180_000);

    it('refuses a ZIP with a path outside its folder, a CSV of 2 million rows and a 100 MB upload with a 4xx', async () => {
      const slip = zipSync({ '../evil.png': new Uint8Array([1, 2, 3]) });
      const zipped = await upload(csvLines([HEADER]), slip);
      expect([zipped.status, zipped.body.message]).toEqual([400, 'The ZIP holds a file outside its folder (../evil.png). It was not read.']);
      const rows = 'Handle\n' + 'a\n'.repeat(2_000_000);
      const many = await upload(rows);
      expect(many.status).toBe(400);
      expect(many.body.message).toContain('more than 50000 rows');
      // A 100 MB body declared: refused before it is read.
      const big = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${server.baseUrl}/api/v1/admin/imports`, { method: 'POST', headers: { authorization: `Bearer ${owner}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(100 * 1024 * 1024), accept: 'application/json', origin: server.baseUrl } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.write('--x\r\n');
      });
      expect(big).toBe(413);
      expect((await api.call('GET', '/admin/imports/not-an-id', { token: owner })).status).toBe(404);
      expect((await api.call('POST', '/admin/imports/00000000-0000-4000-8000-000000000000/apply', { token: owner })).status).toBe(404);
    }, 120_000);
  });
}
