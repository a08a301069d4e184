import { randomUUID } from 'node:crypto';

/**
 * This process's own random id. /api/v1/health answers it and the server reports it when it
 * listens (src/server/server.ts), so whoever started a server can tell it from any other that
 * answers on the same address (a port taken between being chosen and being bound).
 */
export const INSTANCE_ID = randomUUID();
