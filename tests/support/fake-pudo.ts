/**
 * A local stand-in for PUDO's locker list (https://api-pudo.co.za): `GET /api/v1/lockers-data`
 * with `Authorization: Bearer <apiKey>` (401 otherwise) answers every locker, as the API does:
 * [{code, name, latitude, longitude, address, place:{town}, type:{name}}]. `calls` counts the
 * requests (the adapter keeps the list for a while); `behaviour.status` makes it fail.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export const FAKE_LOCKERS = [
  { code: 'CG54', name: 'Rosebank Mall', latitude: -26.1456, longitude: 28.0416, address: '50 Bath Ave, Rosebank', place: { town: 'Johannesburg' }, type: { name: 'Locker' } },
  { code: 'CG12', name: 'Sandton City', latitude: -26.1076, longitude: 28.0567, address: '83 Rivonia Rd, Sandhurst', place: { town: 'Johannesburg' }, type: { name: 'Locker' } },
  { code: 'CG77', name: 'Menlyn Maine Kiosk', latitude: -25.7836, longitude: 28.2772, address: 'Amarand Ave, Menlyn', place: { town: 'Pretoria' }, type: { name: 'Kiosk' } },
  { code: 'CG03', name: 'V&A Waterfront', latitude: -33.9036, longitude: 18.4208, address: '19 Dock Rd, Waterfront', place: { town: 'Cape Town' }, type: { name: 'Locker' } },
];

export interface FakePudo {
  baseUrl: string;
  apiKey: string;
  calls: { path: string; auth: string | null }[];
  behaviour: { status: number };
  close(): Promise<void>;
}

export async function startFakePudo(apiKey = `pudo_${randomBytes(12).toString('hex')}`): Promise<FakePudo> {
  const calls: FakePudo['calls'] = [];
  const behaviour = { status: 200 };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const auth = req.headers.authorization ?? null;
    calls.push({ path: url.pathname, auth });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (behaviour.status !== 200) return send(behaviour.status, { message: 'Server Error' });
    if (auth !== `Bearer ${apiKey}`) return send(401, { message: 'Unauthenticated.' });
    if (req.method === 'GET' && url.pathname === '/api/v1/lockers-data') return send(200, FAKE_LOCKERS);
    return send(404, { message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  return {
    baseUrl: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
    apiKey,
    calls,
    behaviour,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
