import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureText, fill, message, MESSAGES, messageRef, messageText } from '@/lib/domain/messages';
import { TOASTS } from '@/lib/domain/toasts';
import { describeWait } from '@/lib/server/infra/rate-limit';

function sources(dir: string, names = /\.(ts|astro)$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path, names) : names.test(name) ? [path] : [];
  });
}

describe('the store messages a link may show, by code', () => {
  it('shows the text of a known code, and nothing for text or an unknown code', () => {
    expect(messageText('email-verified')).toBe('Email verified successfully!');
    expect(messageText('Your account is suspended. Call +234 800 000 0000')).toBeNull();
    expect(messageText('no-such-code')).toBeNull();
    expect(messageText('toString')).toBeNull();
    expect(messageText('__proto__')).toBeNull();
    expect(messageText('')).toBeNull();
    expect(messageText(null)).toBeNull();
  });

  it('shows a parameter only when it is valid for its kind', () => {
    expect(messageText('market-chosen:ZA')).toBe('You are now shopping in South Africa (R ZAR).');
    expect(messageText('market-chosen:Call +234')).toBeNull();
    expect(messageText('market-chosen')).toBeNull();
    expect(messageText('market-chosen:ZA:NG')).toBeNull();
    expect(messageText('stock-now:12')).toBe('Stock is now 12');
    expect(messageText('stock-now:12 call +234')).toBeNull();
    expect(messageText('order-now:delivered')).toBe('Order is now delivered');
    expect(messageText('order-now:suspended')).toBeNull();
    expect(messageText('upload-failed:image-too-large')).toBe('Failed to upload image: Image size should be less than 5MB');
    expect(messageText('upload-failed:upload-failed')).toBeNull();
    expect(messageText('staff-role-changed:ada@example.com:staff')).toBe('ada@example.com is now staff');
    expect(messageText('staff-role-changed:Call +234 now@x.y:staff')).toBeNull();
  });

  it('finds the code of every text the server writes, parameters included', () => {
    for (const text of ['Login successful!', 'Invalid email or password', 'Product added to cart successfully!']) {
      expect(messageText(messageRef(text)), text).toBe(text);
    }
    expect(messageRef('You are now shopping in South Africa (R ZAR). Your cart has been re-priced in ZAR.')).toBe('market-chosen-repriced:ZA:ZAR');
    expect(messageRef(`Too many attempts. Please try again in ${describeWait(90)}.`)).toBe('too-many-attempts:2 minutes');
    expect(messageRef('Invalid OTP. Please check the code and try again. 3 tries left.')).toBe('otp-wrong:3');
    expect(messageRef('Failed to upload image: The file is not a valid image')).toBe('upload-failed:image-invalid');
    expect(messageRef('Your account is suspended. Call +234')).toBeNull();
    // A discount code's refusals and the market switch that takes a code off.
    expect(messageRef('Spend at least ₦50,000 to use this code.')).toBe('code-min-spend:₦50,000');
    expect(messageText('code-min-spend:₦50,000')).toBe('Spend at least ₦50,000 to use this code.');
    expect(messageText('code-min-spend:Call +234')).toBeNull();
    const dropped = message('market-chosen-code-dropped', 'ZA', 'ZAR', 'ZA');
    expect(dropped).toBe('You are now shopping in South Africa (R ZAR). Your cart has been re-priced in ZAR. Your discount code no longer applies in South Africa (R ZAR), so it was removed.');
    expect(messageText(messageRef(dropped))).toBe(dropped);
    // A product's name (or an option the shopper typed) is never carried: the message says it without.
    expect(messageRef('Only 3 of Quilted Bag (Black, M) left in stock')).toBe('item-few-left:3');
    expect(messageText('item-few-left:3')).toBe('Only 3 of this item left in stock');
    expect(messageRef('Your account is suspended. Call +234 is out of stock')).toBe('item-out-of-stock');
    expect(messageRef('Quilted Bag is not sold in South Africa')).toBe('item-not-sold:ZA');
    expect(messageRef('Quilted Bag is not sold in South Africa. Please remove it to continue.')).toBe('item-not-sold-remove:ZA');
    expect(messageRef('Colour Call +234 is not available for this product')).toBe('colour-unavailable');
    expect(messageRef('Please select a colour')).toBe('option-required:colour');
    expect(messageText('item-out-of-stock:Call +234')).toBeNull();
    // A failure's reason that has parameters of its own is carried whole, so a page without
    // scripts says what the island's toast says.
    const wrongMarket = fill('delivery-address-other-market', 'South Africa', 'Nigeria', 'South Africa (R ZAR)', 'Lagos', 'Nigeria');
    const refusal = failureText('payment-init-failed', wrongMarket);
    expect(messageRef(refusal)).toBe('payment-init-failed:delivery-address-other-market~ZA~NG~ZA~NG~NG');
    expect(messageText(messageRef(refusal))).toBe(refusal);
    expect(messageText(messageRef(failureText('payment-init-failed', fill('delivery-address-no-market', 'South Africa', 'Johannesburg', 'South Africa'))))).toMatch(/^Failed to initialize payment\. Your delivery address is in another country/);
    // A reason naming a product goes without the name; only a valid message stands as a reason (no nesting twice).
    expect(messageRef(failureText('payment-init-failed', 'Only 3 of Quilted Bag left in stock'))).toBe('payment-init-failed:item-few-left~3');
    expect(messageText('payment-init-failed:item-few-left~3')).toBe('Failed to initialize payment. Only 3 of this item left in stock');
    expect(messageText('payment-init-failed:delivery-address-other-market~ZA~NG~ZA~XX~NG')).toBeNull();
    expect(messageText('payment-init-failed:payment-init-failed~email-verified')).toBeNull();
    expect(messageRef(failureText('payment-init-failed', 'Call +234 now'))).toBeNull();
    // Every text round-trips.
    for (const code of Object.keys(MESSAGES) as (keyof typeof MESSAGES)[]) {
      if (!MESSAGES[code].includes('{')) expect(messageRef(message(code)), code).toBe(code);
    }
    expect(() => message('market-chosen', 'XX')).toThrow();
  });

  it('knows the account and code messages, and every message a form post answers with', () => {
    // (A wrong code is only ever answered with the tries left, checked above.)
    const codeTexts = ['This code has expired or was already used. Please request a new one.', 'Too many wrong attempts. Please request a new code.'];
    const accountTexts = ['Please enter a valid 4-digit OTP', 'Passwords do not match!', 'Please fill in both password fields.', 'Please select an image file', 'Image size should be less than 5MB', 'Invalid email or password', 'Please verify your email before logging in.', 'Password must be at least 8 characters', 'Password must be at most 128 characters', 'Please enter a valid email address', 'Email not found'];
    for (const text of [...accountTexts, ...codeTexts]) expect(messageRef(text), text).not.toBeNull();
    // Every fixed success message of a form endpoint (a no-script form post shows it inline).
    const missing: string[] = [];
    for (const file of sources('src/pages')) {
      const code = readFileSync(file, 'utf8');
      if (!code.includes('formEndpoint(')) continue;
      for (const m of code.matchAll(/message: (?:[^,]*\? )?'([^']+)'(?: : '([^']+)')?/g)) {
        // (The payment's answer goes to the provider's page, with no notice.)
        for (const text of [m[1], m[2]]) if (text && text !== 'Authorization URL created' && !messageRef(text)) missing.push(`${file}: ${text}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is where every thrown text comes from: no error of the store is made with a literal text', () => {
    const files = ['src/lib', 'src/pages'].flatMap((dir) => sources(dir)).concat('src/middleware.ts');
    const code = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
    // The store's error classes: AppError, the classes of errors.ts, and every class that extends one of them.
    const parents = new Map<string, string>([['AppError', '']]);
    for (let grown = true; grown; ) {
      grown = false;
      for (const text of code.values()) {
        for (const m of text.matchAll(/class (\w+) extends (\w+)/g)) {
          if ((parents.has(m[2]!) || m[2] === 'coded') && !parents.has(m[1]!)) grown = !!parents.set(m[1]!, m[2]!);
        }
      }
    }
    expect([...parents.keys()]).toEqual(expect.arrayContaining(['Invalid', 'NotFound', 'RateLimited', 'CourierRefused']));
    const literal: string[] = [];
    const at = (file: string, index: number) => `${file}:${code.get(file)!.slice(0, index).split('\n').length}`;
    for (const [file, text] of code) {
      const calls: { index: number; textArg: number }[] = [];
      for (const m of text.matchAll(/new (\w+)\(/g)) if (parents.has(m[1]!)) calls.push({ index: m.index + m[0].length, textArg: m[1] === 'AppError' ? 1 : 0 });
      // A class of the store's own passes its text up to its parent's constructor.
      for (const m of text.matchAll(/class (\w+) extends (\w+) \{/g)) {
        if (!parents.has(m[1]!)) continue;
        const end = text.indexOf('\n}', m.index);
        for (const call of text.slice(m.index, end).matchAll(/super\(/g)) calls.push({ index: m.index + call.index + call[0].length, textArg: m[2] === 'AppError' ? 1 : 0 });
      }
      // The text argument holds no string of its own: its words come from message(), fill() or named().
      for (const { index, textArg } of calls) {
        let depth = 0;
        let arg = 0;
        for (let i = index; i < text.length; i++) {
          const c = text[i]!;
          if (c === "'" || c === '"' || c === '`') {
            if (depth === 0 && arg === textArg) {
              literal.push(at(file, index));
              break;
            }
            const close = c === '`' ? /`/g : new RegExp(`(?<!\\\\)${c}`, 'g');
            close.lastIndex = i + 1;
            i = close.exec(text)?.index ?? text.length;
          } else if ('([{'.includes(c)) depth++;
          else if (')]}'.includes(c)) {
            if (depth === 0) break;
            depth--;
          } else if (c === ',' && depth === 0 && ++arg > textArg) break;
        }
      }
    }
    expect(literal).toEqual([]);
  });

  it('fills a server text with free text, and says a failure with or without its reason', () => {
    expect(fill('stock-now', 12)).toBe('Stock is now 12');
    expect(failureText('quantity-update-failed', 'Only 2 of this item left in stock')).toBe('Failed to update quantity: Only 2 of this item left in stock');
    expect(failureText('quantity-update-failed')).toBe('Failed to update quantity');
    expect(failureText('payment-init-failed', null)).toBe('Failed to initialize payment.');
    expect(failureText('order-place-failed')).toBe('Error placing order.');
    expect(failureText('upload-failed', 'network error')).toBe('Failed to upload image: network error');
  });

  it('is the one place a message is written: islands, pages, endpoints and the browser code repeat none of its texts', () => {
    const texts = new Set<string>(Object.values(MESSAGES).filter((t) => !t.includes('{') && t.length >= 12));
    const repeated: string[] = [];
    const files = ['src/pages', 'src/islands', 'src/lib/client', 'src/components', 'src/layouts'].flatMap((dir) => sources(dir, /\.(tsx?|astro)$/)).concat('src/middleware.ts');
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      for (const m of code.matchAll(/'((?:[^'\\\n]|\\.)+)'|"([^"\n]+)"|`([^`$]+)`/g)) {
        const text = (m[1] ?? m[2] ?? m[3])!.replace(/\\(.)/g, '$1');
        if (texts.has(text)) repeated.push(`${file}: ${text}`);
      }
    }
    expect(repeated).toEqual([]);
  });

  it("keeps a phone's bundle light: islands and browser code take their texts from toasts.ts, never the whole messages.ts", () => {
    const heavy = ['src/islands', 'src/lib/client'].flatMap((dir) => sources(dir, /\.tsx?$/)).filter((file) => /domain\/messages'/.test(readFileSync(file, 'utf8')));
    expect(heavy).toEqual([]);
    for (const [code, text] of Object.entries(TOASTS)) expect(MESSAGES[code as keyof typeof MESSAGES], code).toBe(text);
  });
});
