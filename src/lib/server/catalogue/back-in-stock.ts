import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { STORE_NAME } from '@/lib/domain/brand';
import { Invalid, NotFound, RateLimited } from '@/lib/domain/errors';
import { variantLabel } from '@/lib/domain/cart';
import type { MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { backInStockRequests, colors, products, sizes, variants } from '@/lib/server/catalogue/tables';
import { escapeHtml, mailButton, mailHtml, type Mailer } from '@/lib/server/infra/mail';
import type { Logger } from '@/lib/server/infra/log';
import { describeWait, LIMITS, type Limit, type RateLimiter } from '@/lib/server/infra/rate-limit';
import type { LinkSigner } from '@/lib/server/infra/signing';

export interface BackInStockDeps {
  db: Db;
  clock: () => Date;
  log: Logger;
  mailer: Mailer;
  limiter: RateLimiter;
  signer: LinkSigner;
  /** The configured site, for links built outside a request (the worker's mails). */
  siteUrl: string;
}

/** What the form names: the product and its sold-out variant the shopper wants. */
export interface BackInStockAsk {
  productId: number;
  variantId: number;
}

const normalise = (email: string) => email.trim().toLowerCase();
/** Due requests a worker run mails at most (the rest wait for the next run). */
const BATCH = 50;

/**
 * A restock's transaction makes the confirmed requests for the variants that came back from 0
 * due (applyStockMoves calls it for every move, so a staff adjustment, a cancellation and a
 * returned unit all count). The mail goes out after the commit, from the worker.
 */
export async function markRestocked(tx: Db | Tx, variantIds: number[], at: Date): Promise<void> {
  if (variantIds.length === 0) return;
  await tx
    .update(backInStockRequests)
    .set({ status: 'due', dueAt: at })
    .where(and(inArray(backInStockRequests.variantId, variantIds), eq(backInStockRequests.status, 'confirmed')));
}

/** An account's deletion forgets the address's waiting requests. */
export async function eraseBackInStockOf(tx: Db | Tx, email: string): Promise<void> {
  await tx.delete(backInStockRequests).where(eq(backInStockRequests.email, normalise(email)));
}

/**
 * "Email me when it is back" on a sold-out size or colour, with the newsletter's double opt-in:
 * asking stores a pending request and mails a signed one-click confirm link (the same signer,
 * its own purpose, the same per-recipient mail limits and per-network limits as the newsletter's
 * box); the answer is the same whoever asks, so it never tells whether an address already asked.
 * Following the link confirms the request. A restock makes confirmed requests due
 * (markRestocked, in the restock's transaction) and the worker claims each due request once,
 * marking it notified before its mail goes out: a request mails once, then it is done (asking
 * again after that starts a new one). The only writer of back_in_stock_requests.
 */
export function createBackInStock(deps: BackInStockDeps) {
  const { db, clock, log, mailer, limiter, signer, siteUrl } = deps;

  async function resolve(ask: BackInStockAsk) {
    const rows = await db
      .select({ id: variants.id, stock: variants.stock, productName: products.name, color: colors.name, size: sizes.name })
      .from(variants)
      .innerJoin(products, and(eq(products.id, variants.productId), eq(products.active, true)))
      .leftJoin(colors, eq(colors.id, variants.colorId))
      .leftJoin(sizes, eq(sizes.id, variants.sizeId))
      .where(and(eq(variants.productId, ask.productId), eq(variants.id, ask.variantId)));
    if (!rows[0]) throw new NotFound(message('variant-not-found'));
    return rows[0];
  }

  /** Takes a place in each window, or none: a full one gives back the places taken and throws. */
  async function reserveAll(keys: [string, Limit][], error?: (retryAfterSeconds: number) => RateLimited): Promise<boolean> {
    const taken: string[] = [];
    try {
      for (const [key, limit] of keys) {
        await limiter.reserve(key, limit, error);
        taken.push(key);
      }
      return true;
    } catch (err) {
      for (const key of taken) await limiter.release(key);
      if (err instanceof RateLimited && !error) return false;
      throw err;
    }
  }

  function productUrl(productId: number, color: string | null, size: string | null, site: string | undefined) {
    const url = new URL(`/product/${productId}`, site ?? siteUrl);
    if (color) url.searchParams.set('color', color);
    if (size) url.searchParams.set('size', size);
    return url.toString();
  }

  async function sendConfirmMail(email: string, requestId: number, label: string, site: string | undefined) {
    const url = new URL('/back-in-stock/confirm', site ?? siteUrl);
    url.searchParams.set('token', signer.token('back-in-stock-confirm', String(requestId)));
    const confirmUrl = url.toString();
    await mailer.send({
      to: email,
      subject: `Confirm: e-mail me when ${label} is back`,
      text:
        `Confirm your request\n\nYou asked ${STORE_NAME} to e-mail you when ${label} is back in stock. ` +
        `Please confirm with one click, and we will write to you once, when it is back:\n\n${confirmUrl}\n\n` +
        `If you did not ask, ignore this mail: you will not hear from us about it.`,
      html: mailHtml(
        'Confirm your request',
        `<p>You asked ${escapeHtml(STORE_NAME)} to e-mail you when ${escapeHtml(label)} is back in stock. Please confirm with one click, and we will write to you once, when it is back.</p>` +
          mailButton(confirmUrl, 'Confirm') +
          `<p>If you did not ask, ignore this mail: you will not hear from us about it.</p>`,
      ),
    });
  }

  async function sendBackMail(email: string, label: string, url: string) {
    await mailer.send({
      to: email,
      subject: `${label} is back in stock`,
      text: `It is back\n\n${label} is back in stock at ${STORE_NAME}, while it lasts:\n\n${url}\n\nThis is the one mail you asked for; we will not write about it again.`,
      html: mailHtml(
        'It is back',
        `<p>${escapeHtml(label)} is back in stock at ${escapeHtml(STORE_NAME)}, while it lasts.</p>` +
          mailButton(url, 'See it') +
          `<p>This is the one mail you asked for; we will not write about it again.</p>`,
      ),
    });
  }

  return {
    /**
     * Asks to be mailed when a sold-out variant is back: a pending request and its confirm mail.
     * Asking again while pending sends the link again (within the mail limits); while confirmed it
     * does nothing; after the one mail it starts a new request. A choice in stock is refused (it
     * can be bought now).
     */
    async request(ask: BackInStockAsk, rawEmail: string, opts: { market: MarketCode; site?: string; clientIp?: string | null }): Promise<void> {
      const email = normalise(rawEmail);
      const variant = await resolve(ask);
      if (variant.stock > 0) throw new Invalid(message('back-in-stock-in-stock'));
      if (opts.clientIp) {
        await reserveAll(
          [
            [`back-in-stock-ip:minute:${opts.clientIp}`, LIMITS.newsletterSubscribesPerAddressPerMinute],
            [`back-in-stock-ip:hour:${opts.clientIp}`, LIMITS.newsletterSubscribesPerAddressPerHour],
          ],
          (wait) => new RateLimited(fill('back-in-stock-too-many', describeWait(wait)), wait),
        );
      }
      const now = clock();
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(backInStockRequests)
          .values({ variantId: variant.id, email, market: opts.market, status: 'pending', createdAt: now })
          .onConflictDoNothing({ target: [backInStockRequests.variantId, backInStockRequests.email] })
          .returning({ id: backInStockRequests.id });
        if (inserted) return { id: inserted.id, status: 'pending' as const };
        // Done once: asking again is a new request, confirmed anew.
        const [again] = await tx
          .update(backInStockRequests)
          .set({ status: 'pending', market: opts.market, confirmedAt: null, dueAt: null, notifiedAt: null, createdAt: now })
          .where(and(eq(backInStockRequests.variantId, variant.id), eq(backInStockRequests.email, email), eq(backInStockRequests.status, 'notified')))
          .returning({ id: backInStockRequests.id });
        if (again) return { id: again.id, status: 'pending' as const };
        const [existing] = await tx
          .select({ id: backInStockRequests.id, status: backInStockRequests.status })
          .from(backInStockRequests)
          .where(and(eq(backInStockRequests.variantId, variant.id), eq(backInStockRequests.email, email)));
        return existing!;
      });
      if (row.status !== 'pending') return;
      // The newsletter's per-recipient limits, under this feature's keys: an address is not flooded with links.
      const mayMail = await reserveAll([
        [`back-in-stock-mail:minute:${email}`, LIMITS.newsletterConfirmMailsPerMinute],
        [`back-in-stock-mail:hour:${email}`, LIMITS.newsletterConfirmMailsPerHour],
      ]);
      if (!mayMail) return;
      await sendConfirmMail(email, row.id, variantLabel(variant.productName, variant.color, variant.size), opts.site);
    },

    /**
     * Follows a confirm link (a GET any prefetcher may repeat): pending becomes confirmed; when the
     * variant came back meanwhile it is due at once. False for a token that is not valid or a request
     * that no longer waits.
     */
    async confirm(token: string | null | undefined): Promise<boolean> {
      const subject = signer.verify('back-in-stock-confirm', token);
      const id = subject && /^\d{1,12}$/.test(subject) ? Number(subject) : null;
      if (id === null) return false;
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ status: backInStockRequests.status, stock: variants.stock })
          .from(backInStockRequests)
          .innerJoin(variants, eq(variants.id, backInStockRequests.variantId))
          .where(eq(backInStockRequests.id, id))
          .for('update', { of: backInStockRequests });
        if (!row || row.status === 'notified') return false;
        if (row.status !== 'pending') return true;
        const now = clock();
        await tx
          .update(backInStockRequests)
          .set(row.stock > 0 ? { status: 'due', confirmedAt: now, dueAt: now } : { status: 'confirmed', confirmedAt: now })
          .where(eq(backInStockRequests.id, id));
        return true;
      });
    },

    /**
     * Mails every due request once: each is claimed (due -> notified, skipping rows another
     * server holds) in a short transaction before its mail; a mail that fails is due again for the
     * next run. Returns how many were mailed.
     */
    async sendDue(): Promise<number> {
      const claimed = await db.transaction(async (tx) => {
        const due = await tx
          .select({ id: backInStockRequests.id })
          .from(backInStockRequests)
          .where(eq(backInStockRequests.status, 'due'))
          .orderBy(asc(backInStockRequests.dueAt), asc(backInStockRequests.id))
          .limit(BATCH)
          .for('update', { skipLocked: true });
        if (due.length === 0) return [];
        const ids = due.map((d) => d.id);
        await tx
          .update(backInStockRequests)
          .set({ status: 'notified', notifiedAt: clock() })
          .where(and(inArray(backInStockRequests.id, ids), isNull(backInStockRequests.notifiedAt)));
        return tx
          .select({
            id: backInStockRequests.id,
            email: backInStockRequests.email,
            productId: variants.productId,
            productName: products.name,
            color: colors.name,
            size: sizes.name,
          })
          .from(backInStockRequests)
          .innerJoin(variants, eq(variants.id, backInStockRequests.variantId))
          .innerJoin(products, eq(products.id, variants.productId))
          .leftJoin(colors, eq(colors.id, variants.colorId))
          .leftJoin(sizes, eq(sizes.id, variants.sizeId))
          .where(inArray(backInStockRequests.id, ids));
      });
      let sent = 0;
      for (const r of claimed) {
        try {
          await sendBackMail(r.email, variantLabel(r.productName, r.color, r.size), productUrl(r.productId, r.color, r.size, undefined));
          sent++;
        } catch (err) {
          log.error('back-in-stock mail failed', { err, requestId: r.id });
          await db
            .update(backInStockRequests)
            .set({ status: 'due', notifiedAt: null })
            .where(eq(backInStockRequests.id, r.id))
            .catch(() => undefined);
        }
      }
      return sent;
    },

    /** How many requests wait for a variant (confirmed or due), for staff and tests. */
    async waitingFor(variantId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(backInStockRequests)
        .where(and(eq(backInStockRequests.variantId, variantId), inArray(backInStockRequests.status, ['confirmed', 'due'])));
      return row?.n ?? 0;
    },
  };
}

export type BackInStock = ReturnType<typeof createBackInStock>;
