import { z } from 'zod';
import { message } from './messages';
import { requiredId } from './validation';

export const favouriteSchema = z.object({
  productId: requiredId(message('product-id-required')),
  userId: z.string().max(64).optional(),
});
