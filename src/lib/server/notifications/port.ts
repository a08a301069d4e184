import { AppError } from '@/lib/domain/errors';

/** The text message (SMS) port: the store talks to this, never to an SMS provider directly. */
export interface TextMessage {
  /** E.164: +2348031234567 (src/lib/domain/phone.ts). */
  to: string;
  /** Plain text; keep it to one SMS (160 GSM characters). */
  body: string;
}

export interface TextSender {
  readonly name: 'outbox' | 'clickatell';
  /**
   * Sends one text; resolves with the provider's id for it (null for the outbox). Throws
   * TextRefused when the provider refuses it, and AppError 'unavailable' when the provider
   * cannot be reached or fails (the text may or may not have gone then).
   */
  send(message: TextMessage): Promise<{ messageId: string | null }>;
}

/** The provider answered and refused the text (a bad number, no credit, a bad key): sending it again will not help. */
export class TextRefused extends AppError {
  constructor(reason: string) {
    super('invalid', `The SMS provider refused the text: ${reason}`);
  }
}
