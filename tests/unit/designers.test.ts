import { describe, expect, it } from 'vitest';
import { byInitial, designerKey, designerSchema, designerSlug, initialOf, slugify } from '@/lib/domain/designers';

describe('designers', () => {
  it('makes a slug from a name: accents and tone marks dropped, signs a hyphen, never empty', () => {
    expect(designerSlug('Adébáyọ̀ Atelier')).toBe('adebayo-atelier');
    expect(designerSlug('Ọ̀ṣun & Ivory')).toBe('osun-ivory');
    expect(designerSlug('  Bo-Kaap Loom. ')).toBe('bo-kaap-loom');
    expect(designerSlug('€€€')).toBe('designer');
    expect(slugify('€€€')).toBe('product');
    const long = designerSlug(`${'a'.repeat(79)} b`);
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith('-')).toBe(false);
  });

  it('knows one designer however its name is typed', () => {
    expect(designerKey('  adébáyọ̀   ATELIER ')).toBe(designerKey('Adébáyọ̀ Atelier'));
  });

  it('groups the A–Z by unaccented initial, digits and signs last', () => {
    expect(initialOf('Ọ̀ṣun & Ivory')).toBe('O');
    const groups = byInitial([{ name: 'Ọ̀ṣun & Ivory' }, { name: '1961 Studio' }, { name: 'Atelier Nomvula' }, { name: 'Adébáyọ̀ Atelier' }, { name: 'Osu Salon' }]);
    expect(groups.map((g) => [g.letter, g.designers.map((d) => d.name)])).toEqual([
      ['A', ['Adébáyọ̀ Atelier', 'Atelier Nomvula']],
      ['O', ['Osu Salon', 'Ọ̀ṣun & Ivory']],
      ['#', ['1961 Studio']],
    ]);
  });

  it('takes a name, a slug or none (made from the name) and a short text', () => {
    expect(designerSchema.parse({ name: ' Kloof & Kin ', slug: '', about: '' })).toEqual({ name: 'Kloof & Kin', slug: '', about: '' });
    expect(designerSchema.safeParse({ name: 'Kloof & Kin', slug: 'Kloof Kin' }).success).toBe(false);
    expect(designerSchema.safeParse({ name: 'K' }).success).toBe(false);
  });
});
