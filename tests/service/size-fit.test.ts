import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProductForm } from '@/lib/domain/admin';
import { formatDimensions, parseDimensions, productQuerySchema } from '@/lib/domain/catalogue';
import type { Services } from '@/lib/server/services';
import { servicesFor } from '../support/services';

const staff = { id: null, email: 'catalogue@maisonluxe.ng' };

describe('a bag states its size (Size & fit)', () => {
  let services: Services;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ services, close } = await servicesFor('pglite'));
  });
  afterAll(async () => close?.());

  it('staff type it in the product form; the product page reads it in cm', async () => {
    const { docs } = await services.catalogue.listProducts(productQuerySchema.parse({ q: 'Tote', limit: 5 }), 'NG');
    const bag = await services.catalogue.getProduct(docs[0]!.id, 'NG');
    // The seed states every bag's size.
    expect(bag.dimensionsCm).toMatch(/^\d+(\.\d)? × \d+(\.\d)? × \d+(\.\d)?$/);

    const { product: current } = await services.catalogueAdmin.getProduct(bag.id);
    const form = { name: current.name, description: current.description, categoryId: String(current.categoryId), active: 'on', dimensionsCm: '44,5 x 33 X 16 cm' };
    const { product, grid } = parseProductForm(form);
    expect(product.dimensionsCm).toBe('44.5 × 33 × 16');
    await services.catalogueAdmin.saveProduct(staff, bag.id, { ...product, priceMinor: product.price }, grid);
    const after = await services.catalogue.getProduct(bag.id, 'NG');
    expect(after.dimensionsCm).toBe('44.5 × 33 × 16');
    expect(formatDimensions(after.dimensionsCm!)).toBe('Width 44.5 cm × height 33 cm × depth 16 cm');

    // An empty field states none; a field the form does not send leaves it.
    await services.catalogueAdmin.saveProduct(staff, bag.id, { ...parseProductForm({ ...form, dimensionsCm: '' }).product }, []);
    expect((await services.catalogue.getProduct(bag.id, 'NG')).dimensionsCm).toBeNull();
  });

  it('refuses what is not three measures in cm', () => {
    for (const bad of ['38 x 30', '38 x 30 x 14 x 2', 'big', '0 x 30 x 14', '38 x 30 x 1400', '38.25 x 30 x 14']) {
      expect(parseDimensions(bad), bad).toBeUndefined();
      expect(() => parseProductForm({ name: 'Tote bag', description: 'A tote.', categoryId: '1', dimensionsCm: bad }), bad).toThrow();
    }
    expect(parseDimensions('  ')).toBeNull();
  });
});
