import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { accountClient } from './account-client';

const lagos = { name: 'Ada Obi', country: 'nigeria', state: 'Lagos', city: 'Ikeja', address: '12 Allen Avenue', zipCode: '100271' };
const abuja = { name: 'Ada Obi', country: 'nigeria', state: 'Federal Capital Territory', city: 'Garki', address: '3 Aso Drive', zipCode: '900211' };
const capeTown = { name: 'Ada Obi', country: 'south_africa', state: 'Western Cape', city: 'Cape Town', address: '8 Long Street', zipCode: '8001' };

for (const driver of ['pglite', 'pg'] as const) {
  describe(`addresses API on ${driver}`, () => {
    let server: RunningServer;
    let c: ReturnType<typeof accountClient>;
    let a: { id: string; token: string };
    let b: { id: string; token: string };

    const list = async (user: { id: string; token: string }) =>
      (await c.call('GET', `/address/get-all/${user.id}`, { token: user.token })).body.list as Array<typeof lagos & { id: string; active: boolean }>;

    beforeAll(async () => {
      server = await startServer(driver);
      c = accountClient(server.baseUrl);
      a = await c.verifiedUser('addr-a');
      b = await c.verifiedUser('addr-b');
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('starts empty with the spec list shape', async () => {
      const res = await c.call('GET', `/address/get-all/${a.id}`, { token: a.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: true, message: expect.any(String), list: [] });
    });

    it('creates addresses: the first is the default; a later active:true moves the default', async () => {
      const first = await c.call('POST', '/address/create', { body: { ...lagos, userId: a.id }, token: a.token });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ status: true, message: 'Address saved successfully!', data: { ...lagos, active: true } });
      const second = await c.call('POST', '/address/create', { body: abuja, token: a.token });
      expect(second.body.data.active).toBe(false);
      let all = await list(a);
      expect(all).toHaveLength(2);
      expect(all.filter((x) => x.active).map((x) => x.city)).toEqual(['Ikeja']);
      // the spec's fields, plus the courier's two optional ones
      for (const x of all) expect(Object.keys(x).sort()).toEqual(['active', 'address', 'city', 'country', 'deliveryPhone', 'id', 'landmark', 'name', 'state', 'zipCode']);

      const third = await c.call('POST', '/address/create', { body: { ...capeTown, active: true }, token: a.token });
      expect(third.body.data.active).toBe(true);
      all = await list(a);
      expect(all.filter((x) => x.active).map((x) => x.city)).toEqual(['Cape Town']);
      expect(all[0]!.active).toBe(true);
    });

    it('validates every field and that the state belongs to the country', async () => {
      for (const field of Object.keys(lagos).filter((f) => f !== 'zipCode')) {
        const res = await c.call('POST', '/address/create', { body: { ...lagos, [field]: '' }, token: a.token });
        expect(res.status, field).toBe(400);
        expect(res.body.status).toBe(false);
      }
      const missing = await c.call('POST', '/address/create', { body: { name: 'X' }, token: a.token });
      expect(missing.status).toBe(400);
      const wrongState = await c.call('POST', '/address/create', { body: { ...lagos, state: 'Gauteng' }, token: a.token });
      expect(wrongState.status).toBe(400);
      expect(wrongState.body.message).toBe('Please choose a state or province of the selected country');
      const wrongCountry = await c.call('POST', '/address/create', { body: { ...lagos, country: 'ghana' }, token: a.token });
      expect(wrongCountry.status).toBe(400);
      expect((await list(a)).length).toBe(3);
    });

    it('takes no zip code in Nigeria but requires one in South Africa; keeps the courier\'s landmark and phone', async () => {
      const { zipCode: _zip, ...lagosNoZip } = lagos;
      const ng = await c.call('POST', '/address/create', { body: { ...lagosNoZip, landmark: 'Opposite the blue mosque', deliveryPhone: '+234 803 123 4567' }, token: b.token });
      expect(ng.status).toBe(201);
      expect(ng.body.data).toMatchObject({ zipCode: '', landmark: 'Opposite the blue mosque', deliveryPhone: '+234 803 123 4567' });
      const ngEmpty = await c.call('POST', '/address/create', { body: { ...lagos, zipCode: '' }, token: b.token });
      expect(ngEmpty.status).toBe(201);
      expect(ngEmpty.body.data).toMatchObject({ zipCode: '', landmark: '', deliveryPhone: '' });
      for (const zipCode of ['', undefined]) {
        const za = await c.call('POST', '/address/create', { body: { ...capeTown, zipCode }, token: b.token });
        expect(za.status, String(zipCode)).toBe(400);
        expect(za.body.message).toBe('Postcode is required');
      }
      const badPhone = await c.call('POST', '/address/create', { body: { ...lagos, deliveryPhone: 'call me' }, token: b.token });
      expect(badPhone.status).toBe(400);
      const long = await c.call('POST', '/address/create', { body: { ...lagos, landmark: 'x'.repeat(201) }, token: b.token });
      expect(long.status).toBe(400);
      expect((await list(b)).map((x) => x.zipCode)).toEqual(['', '']);
      for (const x of await list(b)) await c.call('DELETE', `/address/delete/${x.id}`, { token: b.token });
    });

    it('edits fields, makes another the default with active:true, never leaves zero defaults', async () => {
      const all = await list(a);
      const abujaRow = all.find((x) => x.city === 'Garki')!;
      const edited = await c.call('PATCH', `/address/edit/${abujaRow.id}`, {
        body: { ...abuja, city: 'Maitama', userId: a.id },
        token: a.token,
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ status: true, message: 'Address updated successfully!', data: { city: 'Maitama', active: false } });

      const made = await c.call('PATCH', `/address/edit/${abujaRow.id}`, { body: { active: true }, token: a.token });
      expect(made.status).toBe(200);
      expect(made.body.message).toBe('Default address updated!');
      let now = await list(a);
      expect(now.filter((x) => x.active).map((x) => x.id)).toEqual([abujaRow.id]);

      // Saving the default with the box unticked keeps it the default.
      await c.call('PATCH', `/address/edit/${abujaRow.id}`, { body: { ...abuja, active: false }, token: a.token });
      now = await list(a);
      expect(now.filter((x) => x.active).map((x) => x.id)).toEqual([abujaRow.id]);

      const bad = await c.call('PATCH', `/address/edit/${abujaRow.id}`, { body: { ...abuja, state: 'Lagoss' }, token: a.token });
      expect(bad.status).toBe(400);
      expect((await c.call('PATCH', '/address/edit/not-a-uuid', { body: { active: true }, token: a.token })).status).toBe(400);
      const unknown = await c.call('PATCH', '/address/edit/00000000-0000-4000-8000-000000000000', { body: { active: true }, token: a.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Address not found');
    });

    it('makes concurrent default changes safely: exactly one default remains', async () => {
      const ids = (await list(a)).map((x) => x.id);
      const results = await Promise.all(ids.map((id) => c.call('PATCH', `/address/edit/${id}`, { body: { active: true }, token: a.token })));
      for (const r of results) expect(r.status).toBe(200);
      expect((await list(a)).filter((x) => x.active)).toHaveLength(1);
    });

    it('deleting the default promotes another; deleting the last leaves none', async () => {
      let all = await list(a);
      const def = all.find((x) => x.active)!;
      const del = await c.call('DELETE', `/address/delete/${def.id}`, { token: a.token });
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ status: true, message: 'Address deleted successfully!' });
      all = await list(a);
      expect(all).toHaveLength(2);
      expect(all.filter((x) => x.active)).toHaveLength(1);
      const nonDefault = all.find((x) => !x.active)!;
      await c.call('DELETE', `/address/delete/${nonDefault.id}`, { token: a.token });
      all = await list(a);
      expect(all).toHaveLength(1);
      expect(all[0]!.active).toBe(true);
      expect((await c.call('DELETE', `/address/delete/${nonDefault.id}`, { token: a.token })).status).toBe(404);
    });

    it('401 without a session and 403 for another user on every address call', async () => {
      const mine = (await list(a))[0]!;
      expect((await c.call('GET', `/address/get-all/${a.id}`)).status).toBe(401);
      expect((await c.call('POST', '/address/create', { body: lagos })).status).toBe(401);
      expect((await c.call('PATCH', `/address/edit/${mine.id}`, { body: { active: true } })).status).toBe(401);
      expect((await c.call('DELETE', `/address/delete/${mine.id}`)).status).toBe(401);

      expect((await c.call('GET', `/address/get-all/${a.id}`, { token: b.token })).status).toBe(403);
      expect((await c.call('POST', '/address/create', { body: { ...lagos, userId: a.id }, token: b.token })).status).toBe(403);
      expect((await c.call('PATCH', `/address/edit/${mine.id}`, { body: { active: true }, token: b.token })).status).toBe(403);
      expect((await c.call('PATCH', `/address/edit/${mine.id}`, { body: capeTown, token: b.token })).status).toBe(403);
      expect((await c.call('DELETE', `/address/delete/${mine.id}`, { token: b.token })).status).toBe(403);
      const still = await list(a);
      expect(still).toEqual([mine]);
      expect(await list(b)).toEqual([]);
    });
  });
}
