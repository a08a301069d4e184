import { z } from 'zod';
import { requiredId } from './validation';

export const favouriteSchema = z.object({
  productId: requiredId('productId is required'),
  userId: z.string().max(64).optional(),
});
