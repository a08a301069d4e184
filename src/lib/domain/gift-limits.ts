/** A gift's limits, light enough for the checkout island's bundle (domain/gifts has the rules). */
export const GIFT_MESSAGE_MAX = 250;
export const GIFT_NAME_MAX = 80;
