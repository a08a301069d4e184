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
  | 'method_not_allowed'
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

/** An AppError whose code comes with its class (`throw new NotFound(message('…'))`). */
const coded = (code: ErrorCode) =>
  class extends AppError {
    constructor(message: string, details?: Record<string, unknown>) {
      super(code, message, details);
    }
  };

export class Invalid extends coded('invalid') {}
export class Unauthorized extends coded('unauthorized') {}
export class Forbidden extends coded('forbidden') {}
export class NotFound extends coded('not_found') {}
export class Conflict extends coded('conflict') {}
export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message, { retryAfter: retryAfterSeconds });
  }
}
export class PaymentFailed extends coded('payment_failed') {}
export class TooLarge extends coded('too_large') {}
export class UnsupportedMediaType extends coded('unsupported_media_type') {}
/** The route takes other methods only (405); `allow` lists them for the Allow header. */
export class MethodNotAllowed extends AppError {
  constructor(message: string, allow: readonly string[]) {
    super('method_not_allowed', message, { allow: allow.join(', ') });
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
  method_not_allowed: 405,
  unavailable: 503,
};
