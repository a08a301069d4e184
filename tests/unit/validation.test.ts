import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { day, fieldMessage, id, isCalendarDay, isPlainText, MAX_ID, optionalId, text } from '@/lib/domain/validation';

const messageOf = (schema: z.ZodType, input: unknown) => schema.safeParse(input, { error: fieldMessage }).error?.issues[0]?.message;

describe('shared request building blocks', () => {
  it('takes ids the database can hold, and names the field otherwise', () => {
    const schema = z.object({ categoryId: id });
    expect(schema.parse({ categoryId: '12' })).toEqual({ categoryId: 12 });
    expect(schema.parse({ categoryId: MAX_ID })).toEqual({ categoryId: MAX_ID });
    for (const bad of ['3000000000', 2 ** 31, 1e30, '9007199254740993', 0, -1, 1.5, '1.5', '1e3', '0x10', ' 7', 'abc', '', true, [7], {}, null]) {
      expect(messageOf(schema, { categoryId: bad }), String(bad)).toBe('categoryId must be a whole number between 1 and 2147483647');
    }
    expect(z.object({ colorId: optionalId }).parse({ colorId: '' })).toEqual({ colorId: undefined });
  });

  it('refuses NUL, control characters and unpaired surrogates in text (line breaks only where multi-line)', () => {
    expect(isPlainText('Adé Ọbí 😀')).toBe(true);
    for (const bad of ['a\u0000b', '\u0001', 'a\u001bb', '\u007f', 'a\tb', 'a\nb', '\ud800', 'x\udc00']) expect(isPlainText(bad), JSON.stringify(bad)).toBe(false);
    expect(isPlainText('line one\r\nline two\tend', { multiline: true })).toBe(true);
    expect(isPlainText('a\u0000b', { multiline: true })).toBe(false);
    expect(messageOf(z.object({ reason: text('reason', 300) }), { reason: 'a\u0000b' })).toBe('reason must not contain control characters');
    expect(messageOf(z.object({ reason: text('reason', 3) }), { reason: 'abcd' })).toBe('reason must be at most 3 characters');
  });

  it('takes only days that exist', () => {
    for (const good of ['2026-01-31', '2024-02-29', '1970-01-01']) expect(isCalendarDay(good), good).toBe(true);
    for (const bad of ['2026-13-45', '2026-02-30', '2025-02-29', '0000-00-00', '2026-1-1', '2026-01-01T00:00', '']) expect(isCalendarDay(bad), bad).toBe(false);
    expect(messageOf(z.object({ from: day('from') }), { from: '2026-13-45' })).toBe('from must be a date (YYYY-MM-DD) that exists');
  });

  it('names the field in the messages a schema does not give itself', () => {
    const schema = z.object({ sort: z.enum(['a', 'b']), page: z.number().max(10), lines: z.array(z.object({ qty: z.number() })) });
    expect(messageOf(schema, { sort: 'c', page: 1, lines: [] })).toBe('sort must be one of a, b');
    expect(messageOf(schema, { sort: 'a', page: 11, lines: [] })).toBe('page must be at most 10');
    expect(messageOf(schema, { sort: 'a', page: 1, lines: [{ qty: 'x' }] })).toBe('lines.0.qty must be a number');
    expect(messageOf(schema, [])).toBe('The request body must be a JSON object');
    expect(messageOf(z.object({ n: z.number({ error: 'Own message' }) }), { n: 'x' })).toBe('Own message');
  });
});
