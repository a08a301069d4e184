import { AppError } from '@/lib/domain/errors';
import { fill } from '@/lib/domain/messages';

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
    super('invalid', fill('sms-refused', reason));
  }
}

/** One WhatsApp template message: a utility template registered with Meta, with its body parameters. */
export interface WhatsAppMessage {
  /** E.164: +2348031234567. */
  to: string;
  /** The template's name (SHOPPER_UPDATES in src/lib/domain/order-updates.ts). */
  template: string;
  /** The template's body parameters, in order ({{1}}, {{2}}, …). */
  params: string[];
  /** The body as the shopper reads it (what the outbox keeps; the Cloud API fills in its own copy). */
  body: string;
}

export interface WhatsAppSender {
  readonly name: 'outbox' | 'cloud';
  /**
   * Sends one template message; resolves with the provider's id for it (null for the outbox).
   * Throws WhatsAppRefused when the provider refuses it, and AppError 'unavailable' when the
   * provider cannot be reached or fails.
   */
  send(message: WhatsAppMessage): Promise<{ messageId: string | null }>;
}

/** The WhatsApp Cloud API answered and refused the message (not a WhatsApp number, a template not approved, a bad token). */
export class WhatsAppRefused extends AppError {
  constructor(reason: string) {
    super('invalid', fill('whatsapp-refused', reason));
  }
}
