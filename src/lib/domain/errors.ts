/**
 * Typed errors with a stable code. Services throw them; one function
 * (src/lib/server/infra/http.ts: errorResponse) maps them to HTTP responses.
 */
export type ErrorCode =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'payment_failed'
  | 'too_large'
  | 'unsupported_media_type'
  | 'unavailable';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields merged into the JSON error body. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class Invalid extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('invalid', message, details);
  }
}
export class Unauthorized extends AppError {
  constructor(message: string) {
    super('unauthorized', message);
  }
}
export class Forbidden extends AppError {
  constructor(message: string) {
    super('forbidden', message);
  }
}
export class NotFound extends AppError {
  constructor(message: string) {
    super('not_found', message);
  }
}
export class Conflict extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('conflict', message, details);
  }
}
export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message, { retryAfter: retryAfterSeconds });
  }
}
export class PaymentFailed extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('payment_failed', message, details);
  }
}

export class TooLarge extends AppError {
  constructor(message: string) {
    super('too_large', message);
  }
}
export class UnsupportedMediaType extends AppError {
  constructor(message: string) {
    super('unsupported_media_type', message);
  }
}
/** The server is too busy for this request right now (503); `retryAfter` says when to try again. */
export class Unavailable extends AppError {
  constructor(message: string, retryAfterSeconds = 1) {
    super('unavailable', message, { retryAfter: retryAfterSeconds });
  }
}

export const httpStatusOf: Record<ErrorCode, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  payment_failed: 402,
  too_large: 413,
  unsupported_media_type: 415,
  unavailable: 503,
};
