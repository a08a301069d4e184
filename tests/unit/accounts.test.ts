import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { avatarFileProblem, isValidOtp, passwordProblem } from '@/lib/domain/account-rules';
import {
  addressInputSchema,
  changePasswordSchema,
  isMakeDefaultEdit,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  verifyOtpSchema,
} from '@/lib/domain/accounts';
import { COUNTRIES, isStateOf, STATES } from '@/lib/domain/geo';
import { processAvatar } from '@/lib/server/accounts/avatars';
import { describeWait } from '@/lib/server/infra/rate-limit';

const messageOf = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('geo', () => {
  it('has Nigeria’s 36 states plus FCT and South Africa’s 9 provinces, without duplicates', () => {
    expect(COUNTRIES).toEqual(['nigeria', 'south_africa']);
    expect(STATES.nigeria).toHaveLength(37);
    expect(STATES.nigeria).toContain('Federal Capital Territory');
    expect(STATES.south_africa).toHaveLength(9);
    for (const c of COUNTRIES) expect(new Set(STATES[c]).size).toBe(STATES[c].length);
    expect(isStateOf('nigeria', 'Lagos')).toBe(true);
    expect(isStateOf('nigeria', 'Gauteng')).toBe(false);
    expect(isStateOf('south_africa', 'KwaZulu-Natal')).toBe(true);
  });
});

describe('account rules', () => {
  it('accepts exactly 4 digits as a code', () => {
    expect(isValidOtp('0042')).toBe(true);
    for (const bad of ['', '123', '12345', '12a4', ' 123']) expect(isValidOtp(bad)).toBe(false);
  });
  it('bounds passwords to 8..128 characters', () => {
    expect(passwordProblem('1234567')).toBe('Password must be at least 8 characters');
    expect(passwordProblem('12345678')).toBeNull();
    expect(passwordProblem('x'.repeat(128))).toBeNull();
    expect(passwordProblem('x'.repeat(129))).toBe('Password must be at most 128 characters');
  });
  it('checks a picture’s type and size in the browser', () => {
    expect(avatarFileProblem({ type: 'application/pdf', size: 10 })).toBe('Please select an image file');
    expect(avatarFileProblem({ type: 'image/png', size: 5 * 1024 * 1024 })).toBe('Image size should be less than 5MB');
    expect(avatarFileProblem({ type: 'image/jpeg', size: 5 * 1024 * 1024 - 1 })).toBeNull();
  });
  it('describes waits in words', () => {
    expect(describeWait(1)).toBe('1 second');
    expect(describeWait(45)).toBe('45 seconds');
    expect(describeWait(60)).toBe('1 minute');
    expect(describeWait(61)).toBe('2 minutes');
  });
});

describe('account schemas', () => {
  const reg = { firstName: 'Ada', lastName: 'Obi', email: ' ADA@Example.COM ', password: 'Lagos-2026', phoneNumber: '08031234567' };
  it('normalises the e-mail and defaults the country to nigeria', () => {
    expect(registerSchema.parse(reg)).toMatchObject({ email: 'ada@example.com', country: 'nigeria' });
  });
  it('uses the spec’s messages', () => {
    expect(messageOf(verifyOtpSchema.safeParse({ email: 'a@b.co', otp: '12' }))).toBe('Please enter a valid 4-digit OTP');
    expect(messageOf(resetPasswordSchema.safeParse({ email: 'a@b.co', otp: '1234', newPassword: 'Password-1', confirmPassword: 'Password-2' }))).toBe(
      'Passwords do not match!',
    );
    expect(messageOf(changePasswordSchema.safeParse({ oldPassword: '', newPassword: 'Password-1' }))).toBe('Please fill in both password fields.');
    expect(messageOf(changePasswordSchema.safeParse({ oldPassword: 'x' }))).toBe('Please fill in both password fields.');
    expect(messageOf(loginSchema.safeParse({ email: 'nope', password: 'x' }))).toBe('Please enter a valid email address');
  });
  it('requires every address field and a state of the chosen country', () => {
    const ok = { name: 'Ada', country: 'south_africa', state: 'Gauteng', city: 'Sandton', address: '1 Rivonia Rd', zipCode: '2196' };
    expect(addressInputSchema.safeParse(ok).success).toBe(true);
    expect(messageOf(addressInputSchema.safeParse({ ...ok, state: 'Lagos' }))).toBe('Please choose a state or province of the selected country');
    expect(messageOf(addressInputSchema.safeParse({ ...ok, city: ' ' }))).toBe('City is required');
    expect(isMakeDefaultEdit({ active: true })).toBe(true);
    expect(isMakeDefaultEdit({ active: true, userId: 'u' })).toBe(true);
    expect(isMakeDefaultEdit({ ...ok, active: true })).toBe(false);
    expect(isMakeDefaultEdit({})).toBe(false);
  });
});

describe('processAvatar', () => {
  it('makes a 512 px square WebP and drops metadata', async () => {
    const input = await sharp({ create: { width: 300, height: 800, channels: 3, background: '#c9a14a' } })
      .jpeg()
      .withExif({ IFD0: { Artist: 'someone' } })
      .toBuffer();
    const out = await processAvatar(input);
    const meta = await sharp(out.bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 512, height: 512 });
    expect(meta.exif).toBeUndefined();
  });
  it('refuses more than 40 megapixels with a clear message', async () => {
    const png = await sharp({ create: { width: 7000, height: 6000, channels: 3, background: '#fff' } }).png().toBuffer();
    await expect(processAvatar(new Uint8Array(png))).rejects.toThrow('Image dimensions are too large (at most 40 megapixels)');
  });
  it('refuses text, SVG and empty input by content', async () => {
    await expect(processAvatar(new TextEncoder().encode('hello, not an image'))).rejects.toThrow('The file is not a valid image');
    await expect(processAvatar(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'))).rejects.toThrow(
      'The file is not a valid image',
    );
    await expect(processAvatar(new Uint8Array())).rejects.toThrow('Please select an image file');
  });
});
