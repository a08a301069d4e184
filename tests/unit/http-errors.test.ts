import { describe, expect, it } from 'vitest';
import { NotFound } from '@/lib/domain/errors';
import { isDatabaseUnreachable, unreachableReason } from '@/lib/server/infra/db/unreachable';
import { errorResponse } from '@/lib/server/infra/http';
import { createLogger } from '@/lib/server/infra/log';

const log = createLogger('silent');

describe('errors become HTTP in one place', () => {
  it('knows a database out of reach from a bug, through wrapped causes', () => {
    expect(isDatabaseUnreachable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnreachable(new Error('Failed query: select 1', { cause: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }) }))).toBe(true);
    expect(isDatabaseUnreachable(new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') }))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnreachable(new TypeError('x is undefined'))).toBe(false);
    // The log line names the driver's reason, not the failed query and its parameters.
    expect(unreachableReason(new Error('Failed query: select * from sessions where token_hash = $1', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }))).toBe('ECONNREFUSED: connect ECONNREFUSED');
    expect(unreachableReason(new Error('database "x" is not currently accepting connections'))).toMatch(/not currently accepting/);
  });

  it('answers 503 with Retry-After while the database is away, 500 for a bug, and typed errors by their code', async () => {
    const away = errorResponse(new Error('Failed query', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) }), 'req-1', log);
    expect(away.status).toBe(503);
    expect(away.headers.get('retry-after')).toBe('5');
    expect(await away.json()).toMatchObject({ status: false, code: 'unavailable', requestId: 'req-1' });
    const bug = errorResponse(new TypeError('x is undefined'), 'req-2', log);
    expect(bug.status).toBe(500);
    expect(await bug.json()).toMatchObject({ code: 'internal', message: 'Something went wrong. Please try again.' });
    expect(errorResponse(new NotFound('Product not found'), 'req-3', log).status).toBe(404);
  });
});
