import { z } from 'zod';

/**
 * A numeric id from a path. A malformed id names nothing that exists, so it answers
 * with the same message as an unknown one (but status 400, as bad input).
 */
export function idParam(message: string) {
  return z.coerce.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);
}
