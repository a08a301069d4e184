import { createCategoryEditing } from './categories';
import { adminContext, type CatalogueAdminDeps } from './context';
import { createDesignerEditing } from './designers';
import { createImageEditing } from './images';
import { createProductEditing } from './products';
import { createProductReading } from './product-reading';
import { createVariantEditing } from './variants';

/**
 * Staff changes to the catalogue (the staff command and the back office), one module per job, each
 * the one writer of its table:
 * - products.ts: create, save (with its variant grid) and price a product (`products`);
 * - variants.ts: the grid's cells, a new one, their SKU and stock through the stock ledger (`variants`);
 * - prices.ts: prices per market on variants (`variant_prices`, and so the "from" prices);
 * - images.ts: a product's pictures (`product_images`);
 * - categories.ts: categories, sub-categories and their banners (`categories`);
 * - designers.ts: the designers, their names, slugs and short texts (`designers`);
 * - product-reading.ts: the back office's product list, the form's choices, a product as staff edit it.
 * Every change is audited and invalidates the cached pages that show it, on every app server.
 * Nothing is decided here.
 */
export function createCatalogueAdmin(deps: CatalogueAdminDeps) {
  const context = adminContext(deps);
  return {
    ...createProductReading({ db: deps.db }),
    ...createProductEditing(context),
    ...createVariantEditing(context),
    ...createImageEditing(context),
    ...createCategoryEditing(context),
    ...createDesignerEditing(context),
  };
}
export type CatalogueAdmin = ReturnType<typeof createCatalogueAdmin>;
