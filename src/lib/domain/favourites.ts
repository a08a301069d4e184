import { z } from 'zod';

export const favouriteSchema = z.object({
  productId: z.coerce.number({ error: 'productId is required' }).int('productId is required').positive('productId is required'),
  userId: z.string().max(64).optional(),
});
