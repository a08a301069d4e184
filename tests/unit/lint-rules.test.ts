import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering and ownership rules of eslint.config.js, run as `npm run lint` runs them (the
 * project's own configuration) on small snippets named as files of the tree.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint: infra holds only infrastructure', () => {
  it('refuses an import from infra/ into a feature, the composition root, a component or a page', async () => {
    for (const [file, spec] of [
      ['src/lib/server/infra/x.ts', '@/lib/server/cart/cart'],
      ['src/lib/server/infra/x.ts', '../accounts/sessions'],
      ['src/lib/server/infra/db/x.ts', '../../catalogue/tables'],
      ['src/lib/server/infra/x.ts', '../services'],
      ['src/lib/server/infra/x.ts', '@/components/personal-parts'],
      ['src/lib/server/infra/x.ts', '@/pages/index.astro'],
    ] as const) {
      const found = await problems(file, `import { a } from '${spec}';\nexport const b = a;\n`);
      expect(found, `${file} importing ${spec}`).toEqual([expect.stringMatching(/^house\/infra-imports: /)]);
    }
    expect(await problems('src/lib/server/infra/x.ts', "export async function f() { return import('@/lib/server/orders/orders'); }\n")).toHaveLength(1);
    expect(await problems('src/lib/server/infra/x.ts', "import type { T } from '../cart/cart';\nexport type U = T;\n")).toHaveLength(1);
  });

  it('lets infra import infra, the domain and packages, and a feature import infra', async () => {
    const code = "import { sql } from 'drizzle-orm';\nimport { z } from 'zod';\nimport { createLogger } from './log';\nimport { openDatabase } from '@/lib/server/infra/db/client';\nimport { message } from '@/lib/domain/messages';\nexport const all = [sql, z, createLogger, openDatabase, message];\n";
    expect(await problems('src/lib/server/infra/x.ts', code)).toEqual([]);
    expect(await problems('src/lib/server/infra/db/x.ts', "import { media } from '../tables';\nexport const m = media;\n")).toEqual([]);
    expect(await problems('src/lib/server/cart/x.ts', "import { createLogger } from '@/lib/server/infra/log';\nexport const l = createLogger;\n")).toEqual([]);
  });
});

describe('lint: a feature’s tables are written only by the feature', () => {
  const write = (imports: string, body: string) => `${imports}\nexport async function f(db: any) {\n  ${body}\n}\n`;

  it('refuses a write to a table from outside its feature, through db or a transaction', async () => {
    const cases = [
      ['src/lib/server/cart/cart.ts', "import { orders } from '@/lib/server/orders/tables';", 'await db.insert(orders).values({});'],
      ['src/lib/server/orders/order-placing.ts', "import { carts } from '../cart/tables';", "await db.transaction(async (tx: any) => tx.delete(carts).where('x'));"],
      ['src/lib/server/privacy/erasure.ts', "import { users as u } from '@/lib/server/accounts/tables';", 'await db.update(u).set({ email: "x" });'],
      ['src/lib/server/catalogue/search.ts', "import { rateLimits } from '@/lib/server/infra/tables';", 'await db.delete(rateLimits);'],
    ] as const;
    for (const [file, imports, body] of cases) {
      expect(await problems(file, write(imports, body)), `${file}: ${body}`).toEqual([expect.stringMatching(/^house\/table-writes: .* belongs to the \w+ feature/)]);
    }
  });

  it('refuses a write inside the feature by a module the owner map does not name, and a kept-apart column written by another', async () => {
    expect(await problems('src/lib/server/cart/shipping.ts', write("import { carts } from './tables';", 'await db.update(carts).set({ market: "NG" });'))).toEqual([
      expect.stringMatching(/^house\/table-writes: carts is written only by cart\/cart\.ts/),
    ]);
    expect(await problems('src/lib/server/catalogue/admin/variants.ts', write("import { variants } from '../tables';", 'await db.update(variants).set({ sku: "A", stock: 3 });'))).toEqual([
      expect.stringMatching(/^house\/table-writes: variants\.stock is written only by catalogue\/stock\.ts/),
    ]);
  });

  it('lets the owner write, a column owner write its column across features, and reads go anywhere', async () => {
    expect(await problems('src/lib/server/cart/cart.ts', write("import { carts, cartItems } from './tables';", 'await db.insert(carts).values({}); await db.delete(cartItems);'))).toEqual([]);
    expect(await problems('src/lib/server/catalogue/admin/variants.ts', write("import { variants } from '../tables';", 'await db.update(variants).set({ sku: "A" });'))).toEqual([]);
    expect(await problems('src/lib/server/backoffice/staff.ts', write("import { users } from '@/lib/server/accounts/tables';", 'await db.update(users).set({ role: "owner" });'))).toEqual([]);
    expect(await problems('src/lib/server/cart/cart.ts', write("import { orders } from '@/lib/server/orders/tables';", 'return db.select().from(orders);'))).toEqual([]);
  });

  it('lets the seeds write the catalogue and the accounts, and the dump every table', async () => {
    expect(await problems('src/lib/server/demo/seed.ts', write("import { products } from '@/lib/server/catalogue/tables';\nimport { users } from '@/lib/server/accounts/tables';", 'await db.insert(products).values({}); await db.insert(users).values({});'))).toEqual([]);
    expect(await problems('src/lib/server/demo/seed.ts', write("import { orders } from '@/lib/server/orders/tables';", 'await db.insert(orders).values({});'))).toHaveLength(1);
    expect(await problems('src/lib/server/operations/dump.ts', write("import { orders } from '@/lib/server/orders/tables';", 'await db.insert(orders).values({});'))).toEqual([]);
  });
});
