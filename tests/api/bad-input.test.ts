import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng, type Rng } from '../support/prng';
import { startServer, type Driver, type RunningServer } from '../support/server';
import { accountClient } from './account-client';

/**
 * Bad input never answers 5xx. A generated set of bad inputs goes to every API
 * route and every form post (enumerated from src/pages, so a new route without an entry below
 * fails this test), and to every page that reads its URL, as an anonymous visitor, a signed-in
 * shopper and a stepped-up owner. Any 5xx (a 503 "database unreachable" included: the database is
 * up here) or any "unexpected error" in the server's log fails the test, listing each input.
 *
 * Every route, method and field is probed in every session, each with a sample of the bad values
 * (PER_SLOT of them, drawn from the run's seed, other ones in each session); the baselines, the extra bodies and the
 * object-or-array bodies are always sent. Another seed samples other values: a run prints its seed,
 * and BAD_INPUT_SEED=<seed> replays it; BAD_INPUT_PER_SLOT=all sends every value everywhere.
 */
const SEED = process.env.BAD_INPUT_SEED ? Number(process.env.BAD_INPUT_SEED) : Math.floor(Math.random() * 2 ** 32);
const PER_SLOT = process.env.BAD_INPUT_PER_SLOT === 'all' ? Infinity : Number(process.env.BAD_INPUT_PER_SLOT ?? 4);
if (!Number.isInteger(SEED) || SEED < 0 || !(PER_SLOT >= 1)) throw new Error('BAD_INPUT_SEED is a whole number 0 or more; BAD_INPUT_PER_SLOT a whole number 1 or more, or all');

const PAGES_DIR = path.resolve('src/pages');
const OWNER = { email: 'owner@maisonluxe.ng', password: 'LuxeOwner2026!' };
const DEMO = { email: 'demo@maisonluxe.ng', password: 'LuxeDemo2026!' };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Who = 'anonymous' | 'customer' | 'owner';
type Ids = Record<'productId' | 'categoryId' | 'variantId' | 'customerId' | 'addressId' | 'cartId' | 'color' | 'size', string>;

/** How to reach one route file: its valid baseline query and body (one field at a time is made bad). */
interface Spec {
  /** Valid values of the path segments ([id] …); each is also replaced by bad values. */
  segments?: (ids: Ids) => Record<string, string>;
  /** The query parameters the route (or page) reads, with a valid value each. */
  query?: (ids: Ids) => Record<string, string>;
  /** The body fields with valid values (JSON, and as a form where the route reads forms). */
  body?: (ids: Ids) => Record<string, unknown>;
  /** Further whole bodies to try (for example the product editor's grid keys). */
  extraBodies?: (ids: Ids) => Record<string, unknown>[];
  /** The body is a multipart upload (only whole-body garbage is sent). */
  upload?: boolean;
  /** Sent last: it ends or changes the session (logout). */
  last?: boolean;
}

const address = { name: 'Ada Obi', country: 'nigeria', state: 'Lagos', city: 'Ikeja', address: '1 Allen Avenue', zipCode: '100001' };
const line = (ids: Ids) => ({ productId: ids.productId, color: ids.color, size: ids.size, quantity: 1 });
const nilUuid = '00000000-0000-4000-8000-000000000000';
const adminOrderQuery = { status: 'pending', from: '2026-01-01', to: '2026-12-31', q: 'ML', page: '1', after: nilUuid };
const pageMessages = { notice: 'Saved', error: 'Oops' };

/** Every route file under src/pages that takes input; keys are paths relative to src/pages. */
const SPECS: Record<string, Spec> = {
  'admin/imports/[id].astro': { segments: () => ({ id: nilUuid }) },
  'admin/pages/[slug].astro': { segments: () => ({ slug: 'about' }), query: () => ({ from: '1', to: '2' }) },
  'admin/reports/vat.astro': { query: () => ({ market: 'ZA', from: '2026-11-01', to: '2026-11-30' }) },
  'api/v1/admin/imports/[id]/apply.ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/admin/imports/[id]/index.ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/admin/imports/index.ts': { upload: true },
  'api/v1/admin/pages/[slug]/index.ts': { segments: () => ({ slug: 'about' }), body: () => ({ title: 'About Maison Luxe', description: 'Who we are', updated: '2026-12-01', body: 'We make bags.', baseRevision: '' }) },
  'api/v1/admin/pages/[slug]/pictures.ts': { segments: () => ({ slug: 'about' }), upload: true },
  'api/v1/admin/pages/[slug]/preview.ts': { segments: () => ({ slug: 'about' }), body: () => ({ title: 'About Maison Luxe', description: 'Who we are', updated: '2026-12-01', body: 'We make bags.', baseRevision: '' }) },
  'api/v1/admin/pages/[slug]/publish.ts': { segments: () => ({ slug: 'about' }), body: () => ({ at: '2030-01-01T08:00:00+01:00' }) },
  'api/v1/admin/pages/[slug]/revisions/[id]/index.ts': { segments: () => ({ slug: 'about', id: '1' }) },
  'api/v1/admin/pages/[slug]/revisions/[id]/restore.ts': { segments: () => ({ slug: 'about', id: '1' }) },
  'api/v1/admin/pages/index.ts': {},
  'api/v1/admin/products/export.csv.ts': {},
  'api/v1/admin/reports/vat.csv.ts': { query: () => ({ market: 'ZA', from: '2026-11-01', to: '2026-11-30' }) },
  'api/v1/admin/reports/vat.ts': { query: () => ({ market: 'ZA', from: '2026-11-01', to: '2026-11-30' }) },
  'api/v1/admin/settings/tax/[market].ts': { segments: () => ({ market: 'ZA' }), body: () => ({ registered: 'on', legalName: 'Maison Luxe (Pty) Ltd (demo)', address: '1 Demo Avenue, Sandton', vatNumber: '4000000000', percent: '15', from: '2018-04-01' }) },
  'api/v1/orders/[id]/documents.ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/orders/[id]/documents/[number].pdf.ts': { segments: () => ({ id: nilUuid, number: 'ZA-2026-000001' }) },
  'api/order/userorders.ts': { body: () => ({}) },
  'api/v1/address/create.ts': { body: () => ({ ...address, active: false }) },
  'api/v1/address/delete/[id].ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/address/edit/[id].ts': { segments: (ids) => ({ id: ids.addressId }), body: () => address },
  'api/v1/address/get-all/[userId].ts': { segments: (ids) => ({ userId: ids.customerId }) },
  'api/v1/admin/audit.ts': { query: () => ({ page: '1' }) },
  'api/v1/admin/categories/[id]/banner.ts': { segments: (ids) => ({ id: ids.categoryId }), upload: true },
  'api/v1/admin/categories/index.ts': { body: () => ({ name: 'Bad input', description: 'Made by a test', position: '1', parentId: '', id: '' }) },
  'api/v1/admin/designers/index.ts': { body: () => ({ name: 'Bad Input House', slug: '', about: 'Made by a test', id: '' }) },
  'api/v1/admin/customers/index.ts': { query: () => ({ q: 'ada', page: '2', before: 'end' }) },
  'api/v1/admin/customers/newsletter.csv.ts': {},
  'api/v1/admin/dashboard.ts': {},
  'api/v1/admin/customers/[id]/release-phone.ts': { segments: (ids) => ({ id: ids.customerId }), body: () => ({ phone: '+2348031234567' }) },
  'api/v1/admin/customers/[id]/pay-on-delivery.ts': { segments: (ids) => ({ id: ids.customerId }), body: () => ({ refusedBefore: '0' }) },
  'api/v1/admin/markets/[market]/pay-on-delivery.ts': { segments: () => ({ market: 'ZA' }), body: () => ({ enabled: 'on', cap: '3000', ceiling: '40000', depositPercent: '30' }) },
  'api/v1/admin/markets/[market]/gift-wrap.ts': { segments: () => ({ market: 'ZA' }), body: () => ({ fee: '150' }) },
  'api/v1/admin/markets/[market]/locker-fee.ts': { segments: () => ({ market: 'ZA' }), body: () => ({ fee: '65' }) },
  'api/v1/admin/markets/[market]/privacy-days.ts': { segments: () => ({ market: 'ZA' }), body: () => ({ days: '30' }) },
  'api/v1/admin/data-requests/index.ts': { body: () => ({ email: 'nobody@example.com', kind: 'export', channel: 'mail', note: 'By letter' }) },
  'api/v1/admin/data-requests/[id]/export.ts': { segments: () => ({ id: nilUuid }), body: () => ({ code: '1234' }) },
  'api/v1/admin/data-requests/[id]/erase.ts': { segments: () => ({ id: nilUuid }), body: () => ({ code: '1234', giveUpCredit: 'on' }) },
  'api/v1/admin/data-requests/[id]/answered.ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/admin/orders/[id]/collection.ts': { segments: () => ({ id: nilUuid }), body: () => ({ outcome: 'paid', method: 'cash', amount: '1500' }), extraBodies: () => [{ outcome: 'refused' }] },
  'api/v1/admin/to-collect.ts': { query: () => ({ market: 'NG', page: '1' }) },
  'api/v1/admin/customers/[id]/credit.ts': { segments: (ids) => ({ id: ids.customerId }), body: () => ({ amount: '100', currency: 'NGN', reason: 'Goodwill' }), extraBodies: () => [{ amount: '-99999999', currency: 'ZAR', reason: 'Too much' }] },
  'api/v1/admin/returns/[id].ts': {
    segments: () => ({ id: nilUuid }),
    body: () => ({ action: 'approve' }),
    extraBodies: () => [{ action: 'receive', 'received-1': '2', 'damaged-1': '9' }, { action: 'refund', cashBy: 'transfer' }, { action: 'ship' }, { action: 'reject', reason: '' }],
  },
  'api/v1/admin/help/[id].ts': { segments: () => ({ id: nilUuid }), body: () => ({ message: 'Hello' }), extraBodies: () => [{ action: 'close' }] },
  'api/v1/admin/orders/[id]/index.ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/admin/shipments/[id]/label.ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/admin/shipments/[id]/retry.ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/admin/shipments/[id]/retry-cancel.ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/admin/shipments/[id]/events.ts': { segments: () => ({ id: nilUuid }), body: () => ({ status: 'out_for_delivery', description: 'On the way', riderName: 'Musa', riderPhone: '+2348031234567' }) },
  'api/v1/admin/orders/[id]/refund.ts': {
    segments: () => ({ id: nilUuid }),
    body: () => ({ amount: '100', refundedBefore: '0' }),
    extraBodies: () => [
      { line: '1', quantity: '1', refundedBefore: '0' },
      { line: '99999999999999999999', quantity: '3000000000' },
    ],
  },
  'api/v1/admin/orders/[id]/status.ts': { segments: () => ({ id: nilUuid }), body: () => ({ status: 'processed', refundTo: 'payment' }) },
  'api/v1/admin/refunds/index.ts': { query: () => ({ status: 'failed' }) },
  'api/v1/admin/refunds/[id]/retry.ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/admin/orders/export.csv.ts': { query: () => adminOrderQuery },
  'api/v1/admin/orders/index.ts': { query: () => adminOrderQuery },
  'api/v1/admin/payments/[reference]/refund.ts': { segments: () => ({ reference: 'ML-NO-SUCH-PAYMENT' }) },
  'api/v1/admin/products/[id]/images/[imageId].ts': { segments: (ids) => ({ id: ids.productId, imageId: '1' }), body: () => ({ op: 'alt', alt: 'A scarf' }) },
  'api/v1/admin/products/[id]/images/index.ts': { segments: (ids) => ({ id: ids.productId }), upload: true },
  'api/v1/admin/products/[id]/index.ts': {
    segments: (ids) => ({ id: ids.productId }),
    body: (ids) => ({ name: 'Silk scarf', description: 'Soft', price: '25000', categoryId: ids.categoryId, active: 'on', designerId: '1', [`stock.${ids.variantId}`]: '5' }),
    extraBodies: (ids) =>
      ['3000000000', '99999999999999999999', '-1', '1.5', '0'].flatMap((bad) => [
        { name: 'Silk scarf', description: 'Soft', price: '25000', categoryId: ids.categoryId, [`stock.${bad}`]: '1' },
        { name: 'Silk scarf', description: 'Soft', price: '25000', categoryId: ids.categoryId, [`stock.${ids.variantId}`]: '1', [`sku.${ids.variantId}`]: 'a\u0000b', [`price.ZA.${bad}`]: '5' },
      ]),
  },
  'api/v1/admin/products/[id]/variants.ts': { segments: (ids) => ({ id: ids.productId }), body: () => ({ colorId: '', sizeId: '', stock: '1', sku: 'BAD-1', price: '1000' }) },
  'api/v1/admin/products/index.ts': {
    query: (ids) => ({ q: 'silk', categoryId: ids.categoryId, status: 'active', lowStock: '1', page: '1' }),
    body: (ids) => ({ name: 'Bad input', description: 'Made by a test', price: '1000', categoryId: ids.categoryId, active: 'on', designerId: '', colorId: '', sizeId: '', stock: '1', sku: '' }),
  },
  'api/v1/admin/promotions/index.ts': {
    body: () => ({ code: 'BAD-INPUT', description: 'Made by a test', kind: 'percent', percentOff: '10', usageLimit: '5', startsAt: '2026-01-01T00:00', endsAt: '2027-01-01T00:00', status: 'active', id: '' }),
  },
  'api/v1/admin/promotions/[id].ts': { segments: () => ({ id: '1' }), body: () => ({ description: 'Newsletter welcome', percentOff: '20', codeValidDays: '30' }) },
  'api/v1/admin/staff.ts': { body: () => ({ email: 'nobody@example.com', role: 'staff' }) },
  'api/v1/admin/stock/index.ts': { query: () => ({ threshold: '3' }), body: (ids) => ({ variantId: ids.variantId, delta: '1', reason: 'Recount' }) },
  'api/v1/back-in-stock.ts': { body: (ids) => ({ productId: ids.productId, variantId: ids.variantId, email: 'back@example.com' }) },
  'api/v1/cart/[userId].ts': { segments: (ids) => ({ userId: ids.customerId }) },
  'api/v1/cart/add-to-cart.ts': { body: line },
  'api/v1/cart/decrease-quantity.ts': { body: line },
  'api/v1/cart/discount/index.ts': { body: () => ({ code: 'SAVE10' }) },
  'api/v1/cart/discount/remove.ts': {},
  'api/v1/cart/delivery-address.ts': { body: () => ({ addressId: '' }) },
  'api/v1/cart/delivery-option/[cartId].ts': { segments: (ids) => ({ cartId: ids.cartId }), body: () => ({ deliveryOption: 'delivery' }) },
  'api/v1/cart/remove-product.ts': { body: (ids) => ({ productId: ids.productId, color: ids.color, size: ids.size }) },
  'api/v1/cart/update-quantity.ts': { body: line },
  'api/v1/categories/[id].ts': { segments: (ids) => ({ id: ids.categoryId }) },
  'api/v1/category/parent-categories.ts': {},
  'api/v1/category/sub-categories/[id].ts': { segments: (ids) => ({ id: ids.categoryId }) },
  'api/v1/dev/outbox.ts': { query: () => ({ to: 'nobody@example.com' }) },
  'api/v1/favourites/add.ts': { body: (ids) => ({ productId: ids.productId }) },
  'api/v1/favourites/index.ts': { query: (ids) => ({ userId: ids.customerId, ids: 'true' }) },
  'api/v1/favourites/remove.ts': { body: (ids) => ({ productId: ids.productId }) },
  'api/v1/health.ts': {},
  'api/v1/gift-returns/[token]/index.ts': { segments: () => ({ token: 'MDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAw.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }) },
  'api/v1/gift-returns/[token]/send-code.ts': { segments: () => ({ token: 'MDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAw.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }) },
  'api/v1/gift-returns/[token]/verify.ts': { segments: () => ({ token: 'MDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAw.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), body: () => ({ code: '1234' }) },
  'api/v1/gift-returns/[token]/account.ts': { segments: () => ({ token: 'MDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAw.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), body: () => ({ firstName: 'Ada', lastName: 'Obi', email: 'ada@example.com', password: 'GiftReturn2026!' }) },
  'api/v1/gift-returns/[token]/returns.ts': {
    segments: () => ({ token: 'MDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAw.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }),
    body: () => ({ 'quantity-1': '1', reason: 'too_small', method: 'drop_off' }),
    extraBodies: () => [{ items: [{ orderItemId: 1, quantity: 99999999999, exchangeVariantId: 'x' }], reason: 'too_small', method: 'collection' }],
  },
  'api/v1/newsletter/subscribe.ts': { body: () => ({ email: 'news@example.com' }) },
  'api/v1/newsletter/preference.ts': { body: () => ({ newsletter: 'yes' }) },
  'api/v1/orders/[id]/cancel.ts': { segments: () => ({ id: nilUuid }) },
  'api/v1/orders/[id]/returns.ts': {
    segments: () => ({ id: nilUuid }),
    body: () => ({ 'quantity-1': '1', reason: 'too_small', resolution: 'refund', method: 'drop_off' }),
    extraBodies: () => [{ items: [{ orderItemId: 1, quantity: 99999999999, exchangeVariantId: 'x' }], reason: 'too_small', resolution: 'exchange', method: 'collection' }],
  },
  'api/v1/orders/[id]/returns/[returnId]/pay-difference.ts': { segments: () => ({ id: nilUuid, returnId: nilUuid }) },
  'api/v1/orders/[id]/help.ts': { segments: () => ({ id: nilUuid }), body: () => ({ topic: 'where', message: 'Where is it?' }) },
  'api/v1/payments/state.ts': { query: () => ({ reference: 'ML-NO-SUCH' }) },
  'api/v1/orders/get-orders.ts': { query: (ids) => ({ userId: ids.customerId, id: nilUuid }) },
  'api/v1/orders/initiate.ts': { body: () => ({ callbackUrl: '', deliveryOption: 'delivery', paymentMethod: 'on_delivery' }) },
  'api/v1/orders/place-order.ts': { body: (ids) => ({ paymentReference: 'ML-NO-SUCH', cartId: ids.cartId }) },
  'api/v1/payments/paystack/webhook.ts': { body: () => ({ event: 'charge.success', data: { reference: 'ML-NO-SUCH' } }) },
  'api/v1/webhooks/courier/[courier].ts': { segments: () => ({ courier: 'manual' }), body: () => ({ tracking_number: 'MLD-NOSUCH', status: 'delivered' }) },
  'api/v1/search/suggestions.ts': { query: () => ({ q: 'leat' }) },
  'api/v1/products/[id].ts': { segments: (ids) => ({ id: ids.productId }) },
  'api/v1/products/index.ts': {
    query: (ids) => ({ categoryId: ids.categoryId, colorId: '1', sizeId: '1', subCategoryId: '1', designer: 'kloof-kin', q: 'silk', sort: 'low-high', page: '1', limit: '10' }),
  },
  'api/v1/products/organised/best-sellers.ts': {},
  'api/v1/products/organised/latest.ts': {},
  'api/v1/user-auth/change-password/[userId].ts': { segments: (ids) => ({ userId: ids.customerId }), body: () => ({ oldPassword: 'Not-The-Password-1', newPassword: 'Another-Pass-2026!' }) },
  'api/v1/user-auth/create.ts': { body: () => ({ firstName: 'Ada', lastName: 'Obi', email: 'bad.input@example.com', password: 'Lagos-2026!', phoneNumber: '+234 803 123 4567', country: 'nigeria' }) },
  'api/v1/user-auth/forgot-password.ts': { body: () => ({ email: 'nobody@example.com' }) },
  'api/v1/user-auth/get-user.ts': { query: (ids) => ({ userId: ids.customerId }) },
  'api/v1/user-auth/login.ts': { query: () => ({ next: '/cart' }), body: () => ({ email: 'nobody@example.com', password: 'Not-The-Password-1' }) },
  'api/v1/user-auth/logout.ts': { last: true },
  'api/v1/user-auth/phone/send-code.ts': { query: () => ({ back: '/place-order?payment=on_delivery' }), body: () => ({ back: '/place-order?payment=on_delivery' }) },
  'api/v1/user-auth/phone/verify.ts': { query: () => ({ back: '/settings' }), body: () => ({ code: '1234', back: '/settings' }) },
  'api/v1/user-auth/profile.ts': { body: () => ({ firstName: 'Ada', lastName: 'Obi', phoneNumber: '+234 803 123 4567', country: 'nigeria' }) },
  'api/v1/user-auth/resend-device-code.ts': {},
  'api/v1/user-auth/resend-otp.ts': { body: () => ({ email: 'nobody@example.com' }) },
  'api/v1/user-auth/reset-password.ts': { body: () => ({ email: 'nobody@example.com', otp: '1234', newPassword: 'Another-Pass-2026!' }) },
  'api/v1/user-auth/text-updates.ts': { body: () => ({ updates: 'whatsapp' }), extraBodies: () => [{ textUpdates: true }] },
  'api/v1/webhooks/whatsapp.ts': { query: () => ({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-token', 'hub.challenge': '1158201444' }), body: () => ({ object: 'whatsapp_business_account', entry: [] }) },
  'api/v1/user-auth/my-data.ts': { body: () => ({ code: '' }) },
  'api/v1/user-auth/confirm-code.ts': { query: () => ({ back: '/settings?delete=account' }) },
  'api/v1/user-auth/delete-account.ts': { query: () => ({ back: '/settings?delete=account' }), body: () => ({ code: '1234', giveUpCredit: 'on' }) },
  'api/v1/user-auth/upload-image.ts': { upload: true },
  'api/v1/user-auth/verify-device.ts': { query: () => ({ next: '/admin' }), body: () => ({ code: '0000' }) },
  'api/v1/user-auth/verify-otp.ts': { body: () => ({ email: 'nobody@example.com', otp: '1234' }) },
  'market.ts': { body: () => ({ market: 'NG', back: '/collection?page=2' }) },
  'media/[hash]/[file].ts': { segments: () => ({ hash: '0123456789abcdef0123456789abcdef', file: '400.webp' }) },
  'robots.txt.ts': {},
  'sw.js.ts': { query: () => ({ v: 'build' }) },
  'metrics.ts': {},
  'sitemap.xml.ts': {},
  'sitemaps/[part].ts': { segments: () => ({ part: 'products-1.xml' }) },
  'feeds/[file].ts': { segments: () => ({ file: 'meta-ZA.csv' }) },
  'media/[hash]/index.ts': { segments: () => ({ hash: '0123456789abcdef0123456789abcdef' }) },
  // Pages that read their URL (path segments, query) or take a form post.
  'pay/simulated/[reference].astro': { segments: () => ({ reference: 'ML-NO-SUCH' }), body: () => ({ outcome: 'pay' }) },
  'collection.astro': {
    query: (ids) => ({ categoryId: ids.categoryId, color: '1', size: '1', subCategory: '1', colorId: '1', sizeId: '1', subCategoryId: '1', designer: 'kloof-kin', q: 'silk', sort: 'low-high', page: '1', limit: '10', ...pageMessages }),
  },
  'product/[productId].astro': { segments: (ids) => ({ productId: ids.productId }), query: () => ({ market: 'ZA', color: 'Gold', size: 'EU 38', ...pageMessages }) },
  'order-details/[orderId]/index.astro': { segments: () => ({ orderId: nilUuid }), query: () => ({ reference: 'ML-NO-SUCH' }) },
  'order-details/[orderId]/return.astro': { segments: () => ({ orderId: nilUuid }) },
  'order-history.astro': { query: () => ({ status: 'pending' }) },
  'add-address.astro': { query: () => ({ next: '/place-order' }) },
  'edit-address/[id].astro': { segments: (ids) => ({ id: ids.addressId }) },
  'address-history.astro': { query: (ids) => ({ delete: ids.addressId }) },
  'delivery/[id].astro': { segments: () => ({ id: 'standard' }) },
  'place-order.astro': { query: () => ({ reference: 'ML-NO-SUCH', trxref: 'ML-NO-SUCH', paid: 'true', payment: 'on_delivery' }) },
  'cart.astro': { query: () => pageMessages },
  'index.astro': { query: () => ({ newsletter: 'subscribed', ...pageMessages }) },
  'gift-return/[token].astro': { segments: () => ({ token: 'MDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAw.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), query: () => pageMessages },
  'back-in-stock/confirm.astro': { query: () => ({ token: 'MQ.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }) },
  'newsletter/confirm.astro': { query: () => ({ token: 'bmV3c0BleGFtcGxlLmNvbQ.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }) },
  'newsletter/unsubscribe.astro': { query: () => ({ token: 'bmV3c0BleGFtcGxlLmNvbQ.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }) },
  'login.astro': { query: () => ({ next: '/cart' }) },
  'login/verify-device.astro': { query: () => ({ next: '/admin' }) },
  'verify-otp.astro': { query: () => ({ email: 'ada@example.com' }) },
  'reset-password.astro': { query: () => ({ email: 'ada@example.com' }) },
  'dev/mailbox.astro': { query: () => ({ to: 'ada@example.com' }) },
  'admin/audit.astro': { query: () => ({ page: '1' }) },
  'admin/customers/[id].astro': { segments: (ids) => ({ id: ids.customerId }) },
  'admin/customers/index.astro': { query: () => ({ q: 'ada', page: '1' }) },
  'admin/orders/[id].astro': { segments: () => ({ id: nilUuid }) },
  'admin/orders/[id]/packing-slip.ts': { segments: () => ({ id: nilUuid }) },
  'admin/orders/index.astro': { query: () => adminOrderQuery },
  'admin/products/[id].astro': { segments: (ids) => ({ id: ids.productId }) },
  'admin/products/index.astro': { query: (ids) => ({ q: 'silk', categoryId: ids.categoryId, status: 'active', lowStock: '1', page: '1' }) },
  'admin/promotions.astro': { query: () => ({ edit: '1' }) },
  'admin/stock.astro': { query: () => ({ threshold: '3' }) },
  'admin/to-collect.astro': { query: () => ({ market: 'NG', page: '1' }) },
  'admin/refunds.astro': { query: () => ({ status: 'failed' }) },
  'admin/returns/index.astro': { query: () => ({ status: 'open', page: '1' }) },
  'admin/data-requests/[id].astro': { segments: () => ({ id: nilUuid }), query: () => ({ erase: '1' }) },
  'admin/returns/[id].astro': { segments: () => ({ id: nilUuid }) },
  'admin/help/index.astro': { query: () => ({ status: 'open', page: '1' }) },
  'admin/help/[id].astro': { segments: () => ({ id: nilUuid }) },
};

// ------------------------------------------------------------------ the routes, from the filesystem

interface RouteFile {
  file: string;
  methods: Method[];
  /**
   * Methods exported as another's handler (`export const POST = PATCH`, the HTML form's way in):
   * they get the form probes, the handler's own method the JSON ones, so one handler is not probed twice.
   */
  aliases: Method[];
  /** Reads form bodies (formEndpoint / readInput, or a page's form post). */
  forms: boolean;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Every endpoint file (.ts) and every page that reads its URL or takes a post. */
function routeFiles(): RouteFile[] {
  const out: RouteFile[] = [];
  for (const abs of walk(PAGES_DIR)) {
    const file = path.relative(PAGES_DIR, abs).split(path.sep).join('/');
    const source = readFileSync(abs, 'utf8');
    if (file.endsWith('.ts')) {
      const methods = [...source.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1] as Method);
      if (methods.length === 0) continue;
      const handlers = new Map<string, Method>();
      const aliases: Method[] = [];
      for (const m of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = (\w+);/g)) {
        const [method, handler] = [m[1] as Method, m[2]!];
        const first = (methods as string[]).includes(handler) ? handler : handlers.get(handler);
        if (first) aliases.push(method);
        else handlers.set(handler, method);
      }
      out.push({ file, methods, aliases, forms: /formEndpoint|readInput|formData\(/.test(source) });
    } else if (file.endsWith('.astro')) {
      const post = /request\.method === 'POST'/.test(source);
      // A page reads its input from the URL or the form (listQuery: the back-office lists).
      if (!post && !/Astro\.url\.searchParams|Astro\.params|echoableUrl\(Astro\.url\)|listQuery\(/.test(source)) continue;
      out.push({ file, methods: post ? ['GET', 'POST'] : ['GET'], aliases: [], forms: post });
    }
  }
  return out;
}

function urlPath(file: string, segments: Record<string, string>): string {
  let p = '/' + file.replace(/\.(ts|astro)$/, '').replace(/(^|\/)index$/, '');
  for (const [k, v] of Object.entries(segments)) p = p.replace(`[${k}]`, v);
  return p === '' ? '/' : p;
}

// ------------------------------------------------------------------ the bad inputs

const long = 'x'.repeat(10_000);
/** Bad text for query strings, path segments and form fields (already percent-encoded where raw bytes are meant). */
const BAD_STRINGS: { label: string; encoded: string }[] = [
  ...['3000000000', '2147483648', '1e30', '9007199254740993', '99999999999999999999', '-1', '0', '1.5', '-0.5', 'NaN', 'Infinity', '0x10', 'abc', '', ' ', 'null', '[]', '{}', '2026-13-45', '2026-02-30', '0000-00-00', 'not-a-known-value', long].map((s) => ({
    label: s.length > 40 ? `${s.length} chars` : JSON.stringify(s),
    encoded: encodeURIComponent(s),
  })),
  { label: 'a NUL b', encoded: 'a%00b' },
  { label: 'NUL', encoded: '%00' },
  { label: 'control characters', encoded: '%01%02%1B%7F' },
  { label: 'invalid UTF-8', encoded: '%FF%FE' },
  { label: 'lone surrogate (CESU)', encoded: '%ED%A0%80' },
  { label: 'id with NUL', encoded: '1%00' },
];

/** Bad JSON values for one body field. */
const BAD_JSON: { label: string; raw: string }[] = [
  ...['3000000000', '1e30', '9007199254740993', '-1', '0', '1.5', '-2147483649', 'true', 'false', 'null', '[]', '[1,2]', '{}', '{"a":1}', '[{"a":1}]'].map((raw) => ({ label: raw, raw })),
  ...['3000000000', '9007199254740993', '1e30', '-1', '1.5', '', 'a\u0000b', '\u0000', '\u0001\u001b\u007f\u0085', '\ud800', '2026-13-45', 'not-a-known-value', long].map((s) => ({
    label: `string ${s.length > 40 ? `${s.length} chars` : JSON.stringify(s)}`,
    raw: JSON.stringify(s),
  })),
];

/** Whole bodies that are not what any route expects. */
const BAD_BODIES: { label: string; type: string; body: string | Uint8Array }[] = [
  { label: 'JSON array', type: 'application/json', body: '[{"productId":1}]' },
  { label: 'JSON string', type: 'application/json', body: '"hello"' },
  { label: 'JSON number', type: 'application/json', body: '3000000000' },
  { label: 'JSON null', type: 'application/json', body: 'null' },
  { label: 'malformed JSON', type: 'application/json', body: '{"a":' },
  { label: 'JSON with invalid UTF-8', type: 'application/json', body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
  { label: 'JSON nested deeply', type: 'application/json', body: '['.repeat(5000) + ']'.repeat(5000) },
  { label: 'form with invalid UTF-8', type: 'application/x-www-form-urlencoded', body: new Uint8Array([0x61, 0x3d, 0xff, 0xfe, 0x26, 0xff, 0x3d, 0x31]) },
  { label: 'form garbage', type: 'application/x-www-form-urlencoded', body: '%%%=%&&==' },
  {
    label: 'multipart with invalid UTF-8 and no file',
    type: 'multipart/form-data; boundary=XyZ',
    body: new Uint8Array([...Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="image"\r\n\r\n'), 0xff, 0xfe, 0x00, ...Buffer.from('\r\n--XyZ--\r\n')]),
  },
  { label: 'multipart without boundary', type: 'multipart/form-data', body: 'abc' },
  { label: 'multipart truncated', type: 'multipart/form-data; boundary=XyZ', body: '--XyZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n\x89PNG' },
  { label: 'text/plain', type: 'text/plain', body: 'a=b' },
];

interface InputSet {
  strings: typeof BAD_STRINGS;
  json: typeof BAD_JSON;
  bodies: typeof BAD_BODIES;
}

const EVERY_INPUT: InputSet = { strings: BAD_STRINGS, json: BAD_JSON, bodies: BAD_BODIES };

/**
 * Where PostgreSQL and PGlite differ (integer overflow, NUL and invalid text, impossible dates):
 * the inputs also sent to a PostgreSQL server.
 */
const DATABASE_CASE = /3000000000|2147483648|2147483649|1e30|9007199254740993|99999999999999999999|NUL|control|UTF-8|surrogate|2026-13-45|2026-02-30|0000-00-00|\\u0000|\\u0001|\\ud800/;
const DATABASE_INPUTS: InputSet = {
  strings: BAD_STRINGS.filter((b) => DATABASE_CASE.test(b.label)),
  json: BAD_JSON.filter((b) => DATABASE_CASE.test(b.label)),
  bodies: BAD_BODIES.filter((b) => DATABASE_CASE.test(b.label)),
};

interface Probe {
  method: Method;
  path: string;
  label: string;
  type?: string;
  body?: string | Uint8Array;
  page: boolean;
  last: boolean;
  /** The method and field (segment, parameter, body) a bad value is one of many for; unset: always sent. */
  slot?: string;
}

function formBody(values: Record<string, unknown>, field?: string, encoded?: string): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${k === field ? encoded : encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');
}

function queryString(values: Record<string, string>, field?: string, encoded?: string): string {
  const parts = Object.entries(values).map(([k, v]) => `${encodeURIComponent(k)}=${k === field ? encoded : encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The generated probes of one route file. */
function probesOf(route: RouteFile, spec: Spec, ids: Ids, inputs: InputSet): Probe[] {
  const page = route.file.endsWith('.astro');
  const segments = spec.segments?.(ids) ?? {};
  const query = spec.query?.(ids) ?? {};
  const body = spec.body?.(ids);
  const base = urlPath(route.file, segments);
  const last = Boolean(spec.last);
  const probes: Probe[] = [];
  const aliased = route.aliases.length > 0;
  for (const method of route.methods) {
    const hasBody = method !== 'GET';
    const alias = route.aliases.includes(method);
    const withBody = (p: Omit<Probe, 'type' | 'body' | 'page' | 'last'>): Probe =>
      hasBody && body ? { ...p, page, last, type: 'application/json', body: JSON.stringify(body) } : { ...p, page, last };
    // the valid baseline, then each path segment made bad
    probes.push(withBody({ method, path: base + queryString(query), label: 'baseline' }));
    for (const seg of alias ? [] : Object.keys(segments)) {
      for (const bad of inputs.strings) {
        if (bad.encoded === '') continue; // an empty segment is another route
        probes.push({ ...withBody({ method, path: urlPath(route.file, { ...segments, [seg]: bad.encoded }) + queryString(query), label: `[${seg}] = ${bad.label}` }), slot: `${method} [${seg}]` });
      }
    }
    // each query parameter made bad (and sent twice, and as an array)
    for (const key of alias ? [] : Object.keys(query)) {
      for (const bad of inputs.strings) probes.push({ ...withBody({ method, path: base + queryString(query, key, bad.encoded), label: `?${key}=${bad.label}` }), slot: `${method} ?${key}` });
      probes.push(withBody({ method, path: `${base}${queryString(query)}&${encodeURIComponent(key)}=3000000000`, label: `?${key} twice` }));
      probes.push(withBody({ method, path: `${base}${queryString(query)}&${encodeURIComponent(key)}[]=1`, label: `?${key}[]` }));
    }
    if (!hasBody) continue;
    const path_ = base + queryString(query);
    // each body field made bad, as JSON and as a form
    for (const field of Object.keys(body ?? {})) {
      for (const bad of alias ? [] : inputs.json) {
        const others = Object.entries(body!).filter(([k]) => k !== field).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
        probes.push({ method, path: path_, label: `JSON ${field}: ${bad.label}`, type: 'application/json', body: `{${[...others, `${JSON.stringify(field)}:${bad.raw}`].join(',')}}`, page, last, slot: `${method} JSON ${field}` });
      }
      if (route.forms && (alias || !aliased)) {
        for (const bad of inputs.strings) probes.push({ method, path: path_, label: `form ${field}=${bad.label}`, type: 'application/x-www-form-urlencoded', body: formBody(body!, field, bad.encoded), page, last, slot: `${method} form ${field}` });
      }
    }
    for (const extra of spec.extraBodies?.(ids) ?? []) {
      probes.push({ method, path: path_, label: `form ${Object.keys(extra).filter((k) => k.includes('.')).join(', ')}`, type: 'application/x-www-form-urlencoded', body: formBody(extra), page, last });
      probes.push({ method, path: path_, label: `JSON ${Object.keys(extra).filter((k) => k.includes('.')).join(', ')}`, type: 'application/json', body: JSON.stringify(extra), page, last });
    }
    // whole bodies of the wrong kind
    for (const bad of alias ? [] : inputs.bodies) probes.push({ method, path: path_, label: `body: ${bad.label}`, type: bad.type, body: bad.body, page, last, slot: `${method} body` });
    // an object or array where the body's text belongs
    if (!alias && body && Object.keys(body).length) {
      probes.push({ method, path: path_, label: 'body: every field an object', type: 'application/json', body: JSON.stringify(Object.fromEntries(Object.keys(body).map((k) => [k, { $gt: '' }]))), page, last });
      probes.push({ method, path: path_, label: 'body: every field an array', type: 'application/json', body: JSON.stringify(Object.fromEntries(Object.keys(body).map((k) => [k, ['a', 'b']]))), page, last });
    }
  }
  if (spec.upload && !route.methods.includes('POST')) throw new Error(`${route.file}: an upload route without POST`);
  return probes;
}

// ------------------------------------------------------------------ the run

/**
 * Requests in flight at once: enough to keep the server busy while the test waits on the
 * network, well under the password queue's 32 waiting sign-ins (a 503 there would be a failure).
 */
const IN_FLIGHT = 8;

/**
 * What each of `sessions` sends: every probe without a slot, and PER_SLOT probes of each route's
 * slot, from one shuffle of its bad values: the first session the first PER_SLOT, the next the
 * following ones, so the sessions together try as many different values as they can.
 */
function plan<P extends Probe>(probes: readonly P[], route: (p: P) => string, rng: Rng, sessions: number): P[][] {
  const slots = new Map<string, P[]>();
  const out: P[][] = Array.from({ length: sessions }, () => []);
  for (const p of probes) {
    if (!p.slot) for (const mine of out) mine.push(p);
    else {
      const key = `${route(p)} ${p.slot}`;
      slots.set(key, [...(slots.get(key) ?? []), p]);
    }
  }
  for (const candidates of slots.values()) {
    const order = [...candidates];
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const take = Math.min(PER_SLOT, order.length);
    out.forEach((mine, k) => {
      // Past the end of the shuffle a session starts it again (a slot with few values).
      for (let n = 0; n < take; n++) mine.push(order[(k * take + n) % order.length]!);
    });
  }
  return out;
}

async function pool<T>(items: readonly T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

describe('every route is listed', () => {
  it('has an entry for every route file that takes input, and no entry without a file', () => {
    const files = routeFiles().map((r) => r.file);
    expect(files.filter((f) => !SPECS[f])).toEqual([]);
    expect(Object.keys(SPECS).filter((f) => !files.includes(f))).toEqual([]);
  });
});

const drivers: Driver[] = process.env.BAD_INPUT_DRIVERS ? (process.env.BAD_INPUT_DRIVERS.split(',') as Driver[]) : ['pglite', 'pg'];

for (const driver of drivers) {
  describe(`bad input never answers 5xx on ${driver}`, () => {
    let server: RunningServer;
    const log: string[] = [];
    const tokens: Partial<Record<Who, string>> = {};
    let ids: Ids;

    beforeAll(async () => {
      // WhatsApp through the Cloud API, so its webhook answers (messages go nowhere: nothing listens on port 9).
      const whatsapp = {
        WHATSAPP: 'cloud',
        WHATSAPP_TOKEN: 'EAAbadinput',
        WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
        WHATSAPP_APP_SECRET: 'bad-input-app-secret',
        WHATSAPP_VERIFY_TOKEN: 'verify-token',
        WHATSAPP_BASE_URL: 'http://127.0.0.1:9',
      };
      server = await startServer(driver, whatsapp, { onOutput: (text) => log.push(text) });
      const api = accountClient(server.baseUrl);
      const customer = await api.call('POST', '/user-auth/login', { body: DEMO });
      expect(customer.status).toBe(200);
      tokens.customer = customer.body.data.token;
      const owner = await api.call('POST', '/user-auth/login', { body: OWNER });
      expect(owner.body.data.stepUp).toBe(true);
      const confirmed = await api.call('POST', '/user-auth/verify-device', { token: owner.body.data.token, body: { code: await api.lastCode(OWNER.email) } });
      expect(confirmed.status).toBe(200);
      tokens.owner = owner.body.data.token;

      const list = await api.call('GET', '/products?limit=1');
      const product = list.body.data.docs[0];
      const detail = await api.call('GET', `/products/${product.id}`);
      const variant = detail.body.data.variants[0];
      const editor = await api.call('GET', `/admin/products/${product.id}`, { token: tokens.owner });
      const created = await api.call('POST', '/address/create', { token: tokens.customer, body: address });
      const cart = await api.call('GET', `/cart/${customer.body.data.user.id}`, { token: tokens.customer });
      expect(created.status).toBe(201);
      const cartId = cart.body.data.cartId ?? cart.body.data.id;
      expect(typeof cartId).toBe('string');
      ids = {
        productId: String(product.id),
        categoryId: String(editor.body.data.product.categoryId),
        variantId: String(variant.id),
        customerId: customer.body.data.user.id,
        addressId: created.body.data.id,
        cartId,
        color: variant.color ?? '',
        size: variant.size ?? '',
      };
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('refuses the inputs the audit found answering 500 with a 400 that names the field', async () => {
      const api = accountClient(server.baseUrl);
      const cases: { what: string; call: () => Promise<{ status: number; body: any }>; field: RegExp }[] = [
        ...['categoryId', 'colorId', 'sizeId', 'subCategoryId'].map((field) => ({ what: `products ?${field}=3000000000`, call: () => api.call('GET', `/products?${field}=3000000000`), field: new RegExp(`^${field} must be a whole number between 1 and 2147483647$`) })),
        { what: 'products ?q=a%00b', call: () => api.call('GET', '/products?q=a%00b'), field: /^q must not contain control characters$/ },
        { what: 'cart productId', call: () => api.call('POST', '/cart/add-to-cart', { token: tokens.customer, body: { productId: 3000000000, quantity: 1 } }), field: /^productId must be a whole number/ },
        { what: 'address name with NUL', call: () => api.call('POST', '/address/create', { token: tokens.customer, body: { ...address, name: 'Ada\u0000Obi' } }), field: /^Full name must not contain control characters$/ },
        { what: 'profile first name with NUL', call: () => api.call('PATCH', '/user-auth/profile', { token: tokens.customer, body: { firstName: 'A\u0000' } }), field: /^First name must not contain control characters$/ },
        { what: 'stock reason with NUL', call: () => api.call('POST', '/admin/stock', { token: tokens.owner, body: { variantId: ids.variantId, delta: 1, reason: 'Re\u0000count' } }), field: /^reason must not contain control characters$/ },
        { what: 'stock variantId 3000000000', call: () => api.call('POST', '/admin/stock', { token: tokens.owner, body: { variantId: 3000000000, delta: 1, reason: 'Recount' } }), field: /^variantId must be a whole number/ },
        { what: 'admin orders ?from=2026-13-45', call: () => api.call('GET', '/admin/orders?from=2026-13-45', { token: tokens.owner }), field: /^from must be a date \(YYYY-MM-DD\) that exists$/ },
        { what: 'admin product 3000000000', call: () => api.call('GET', '/admin/products/3000000000', { token: tokens.owner }), field: /^Product not found$/ },
        {
          what: 'editor grid key stock.3000000000',
          call: () => api.call('POST', `/admin/products/${ids.productId}`, { token: tokens.owner, body: { name: 'Silk scarf', description: 'Soft', price: '25000', categoryId: ids.categoryId, 'stock.3000000000': '1' } }),
          field: /^stock\.3000000000: the variant id must be a whole number between 1 and 2147483647$/,
        },
        { what: 'new variant colorId 3000000000', call: () => api.call('POST', `/admin/products/${ids.productId}/variants`, { token: tokens.owner, body: { colorId: 3000000000, stock: 1 } }), field: /^colorId must be a whole number/ },
      ];
      const wrong: string[] = [];
      for (const c of cases) {
        const res = await c.call();
        if (res.status !== 400 || res.body?.code !== 'invalid' || res.body?.success !== false || !c.field.test(res.body?.message)) wrong.push(`${c.what} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
      expect(wrong).toEqual([]);
      const page = await fetch(`${server.baseUrl}/collection?categoryId=3000000000`);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('categoryId must be a whole number between 1 and 2147483647');
    });

    it('refuses every generated bad input with a 4xx (or serves it), never a 5xx', async () => {
      const routes = routeFiles();
      const probes = routes.flatMap((r) => probesOf(r, SPECS[r.file]!, ids, driver === 'pg' ? DATABASE_INPUTS : EVERY_INPUT).map((p) => ({ ...p, file: r.file })));
      const rng = prng(SEED);
      const failures: string[] = [];
      let sent = 0;
      const started = Date.now();
      const send = (who: Who) => async (p: Probe) => {
        const headers: Record<string, string> = { origin: server.baseUrl, accept: p.page ? 'text/html' : 'application/json' };
        const token = tokens[who];
        if (token) headers.authorization = `Bearer ${token}`;
        if (p.type) headers['content-type'] = p.type;
        let status = 0;
        try {
          const res = await fetch(server.baseUrl + p.path, { method: p.method, headers, body: p.body as BodyInit | undefined, redirect: 'manual' });
          await res.arrayBuffer();
          status = res.status;
        } catch (err) {
          failures.push(`${who} ${p.method} ${p.path.slice(0, 120)} (${p.label}) -> no answer: ${String(err)}`);
        }
        sent++;
        if (status >= 500) failures.push(`${who} ${p.method} ${p.path.slice(0, 120)} (${p.label}) -> ${status}`);
      };
      const sessions: Who[] = ['anonymous', 'customer', 'owner'];
      const planned = plan(probes, (p) => p.file, rng, sessions.length);
      const bySession = new Map(sessions.map((who, k) => [who, planned[k]!] as const));
      console.log(`bad input on ${driver}: seed ${SEED} (BAD_INPUT_SEED=${SEED} replays this run), ${PER_SLOT} values a field a session, ${planned.flat().length} requests planned`);
      for (const who of sessions) await pool(bySession.get(who)!.filter((p) => !p.last), IN_FLIGHT, send(who));
      // The sessions were alive throughout (a dead session would have hidden the routes behind 401s).
      for (const who of ['customer', 'owner'] as const) {
        const res = await fetch(`${server.baseUrl}/api/v1/user-auth/get-user`, { headers: { authorization: `Bearer ${tokens[who]}` } });
        if (res.status !== 200) failures.push(`the ${who} session ended during the run (${res.status})`);
      }
      const dashboard = await fetch(`${server.baseUrl}/api/v1/admin/dashboard`, { headers: { authorization: `Bearer ${tokens.owner}` } });
      if (dashboard.status !== 200) failures.push(`the owner lost the back office during the run (${dashboard.status})`);
      for (const who of sessions) for (const p of bySession.get(who)!.filter((p) => p.last)) await send(who)(p);
      const unexpected = log.join('').split('\n').filter((l) => /unexpected error/.test(l));
      console.log(
        `bad input on ${driver}: ${sent} requests (of ${probes.length} inputs x 3 sessions) over ${routes.length} route files (${routes.reduce((n, r) => n + r.methods.length, 0)} method+route pairs) in ${Math.round((Date.now() - started) / 1000)} s; ${failures.length} answered 5xx; ${unexpected.length} unexpected errors logged`,
      );
      const reasons = new Map<string, number>();
      for (const l of unexpected) {
        let reason = l;
        try {
          const err = JSON.parse(l).err ?? {};
          reason = `${err.name}: ${err.message ?? ''} ${(err.cause?.message as string | undefined) ?? ''}`;
        } catch {
          // not a JSON line
        }
        reason = reason.replace(/\d+/g, 'N').slice(0, 200);
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      }
      if (reasons.size) console.log([...reasons].map(([r, n]) => `${n} x ${r}`).join('\n'));
      expect(failures, `BAD_INPUT_SEED=${SEED} replays this run`).toEqual([]);
      expect(unexpected.map((l) => l.slice(0, 300)), `BAD_INPUT_SEED=${SEED} replays this run`).toEqual([]);
    }, 900_000);
  });
}
