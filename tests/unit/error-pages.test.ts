import { describe, expect, it } from 'vitest';
import { STORE_NAME } from '@/lib/domain/brand';
import { Forbidden, TooLarge } from '@/lib/domain/errors';
import { crossSiteAnswer, formExpiredAnswer, notAllowedPage, tooLargeAnswer, unavailablePage } from '@/lib/server/infra/error-pages';
import { errorResponse } from '@/lib/server/infra/http';
import { createLogger } from '@/lib/server/infra/log';

const log = createLogger('silent');
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the small error pages (one module)', () => {
  it('give a browser a plain page that names the store and leads back to it, never cached', () => {
    const expired = formExpiredAnswer(BROWSER);
    expect(expired.status).toBe(403);
    expect(expired.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    expect(expired.body).toContain(`<title>${STORE_NAME}</title>`);
    expect(expired.body).toContain('<p>This form has expired. Please go back, reload the page and try again.</p>');
    expect(expired.body).toMatch(new RegExp(`<a href="/"[^>]*>${STORE_NAME}</a>`));

    const large = tooLargeAnswer(BROWSER);
    expect(large.status).toBe(413);
    expect(large.body).toContain('<p>The request is too large. Please go back and choose a smaller file.</p>');
  });

  it('give API clients the JSON error shape errorResponse writes for the same error', async () => {
    const expired = formExpiredAnswer('*/*');
    expect(expired.status).toBe(403);
    expect(expired.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    const mapped = errorResponse(new Forbidden('This form has expired. Please go back, reload the page and try again.'), 'r', log);
    expect(JSON.parse(expired.body)).toEqual(await mapped.json());

    const large = tooLargeAnswer(null);
    expect(large.status).toBe(413);
    expect(JSON.parse(large.body)).toEqual(await errorResponse(new TooLarge('The request is too large.'), 'r', log).json());

    const crossSite = crossSiteAnswer();
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(crossSite.body)).toEqual({ status: false, success: false, code: 'forbidden', message: 'Cross-site requests are not allowed' });
  });

  it('ask to try the same page again while the database is away, its address escaped', () => {
    const away = unavailablePage('/collection?q="<b>"&page=2');
    expect(away.status).toBe(503);
    expect(away.headers).toMatchObject({ 'retry-after': '5', 'cache-control': 'no-store' });
    expect(away.body).toContain(`<title>${STORE_NAME}: back in a moment</title>`);
    expect(away.body).toContain('<h1>Back in a moment</h1><p>The store is busy right now. Please try again in a moment.</p>');
    expect(away.body).toContain('href="/collection?q=%22%3Cb%3E%22&amp;page=2"');
    expect(away.body).not.toContain('<b>');
  });

  it('tell a signed-in visitor a back-office page is not for them', () => {
    const refused = notAllowedPage('Only an owner can do that');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain(`<title>Not allowed · ${STORE_NAME}</title>`);
    expect(refused.body).toContain('<h1>Not allowed</h1><p>Only an owner can do that.</p>');
    expect(refused.body).toMatch(/<a href="\/"[^>]*>Back to the store<\/a>/);
  });
});
