import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUS_LIST, PAYMENT_STATUSES } from '@/lib/domain/payments';
import { payments } from '@/lib/server/payments/tables';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sources(path);
    return /\.(ts|tsx|astro)$/.test(name) ? [path] : [];
  });
}

describe('a payment’s states, one enum', () => {
  it('is the column’s enum, each state named as itself', () => {
    expect(payments.status.enumValues).toEqual(PAYMENT_STATUS_LIST);
    for (const [name, value] of Object.entries(PAYMENT_STATUSES)) expect(value).toBe(name);
  });

  it('is the only place the states are spelled: code says PAYMENT_STATUSES.x', () => {
    // The states no other vocabulary of the store shares (orders, refunds owed and the provider's answers also say paid, pending, failed…).
    const own = /'(initialized|fulfilled|needs_refund|partially_refunded)'/;
    const spelled = [...sources('src'), ...sources('scripts')].filter((file) => file !== join('src', 'lib', 'domain', 'payments.ts') && own.test(readFileSync(file, 'utf8')));
    expect(spelled).toEqual([]);
  });
});
