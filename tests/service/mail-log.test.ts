import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '@/lib/server/infra/log';
import { createMailer } from '@/lib/server/infra/mail';
import { servicesFor } from '../support/services';

/** What a mail leaves in the log: its id, the address masked, never the address itself. */
describe('the mail log', () => {
  let ctx: Awaited<ReturnType<typeof servicesFor>>;
  beforeAll(async () => {
    ctx = await servicesFor('pglite', { seed: false });
  });
  afterAll(async () => ctx?.close());

  it('names a stored mail by its id and masks its address', async () => {
    const lines: string[] = [];
    const log: Logger = {
      debug: (msg, f) => void lines.push(JSON.stringify({ msg, ...f })),
      info: (msg, f) => void lines.push(JSON.stringify({ msg, ...f })),
      warn: (msg, f) => void lines.push(JSON.stringify({ msg, ...f })),
      error: (msg, f) => void lines.push(JSON.stringify({ msg, ...f })),
      child: () => log,
    };
    const mailer = createMailer({ config: ctx.services.config, db: ctx.services.db, log });
    await mailer.send({ to: 'deleted.person@example.com', subject: 'Your code', text: 'x', html: '<p>x</p>' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('deleted.person');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'mail stored in dev outbox', to: 'd•••@example.com', mailId: expect.any(Number) });
  });
});
