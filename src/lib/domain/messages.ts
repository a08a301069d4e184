import { ROLES } from './account-rules';
import { TOASTS } from './toasts';
import { ALL_MARKETS, isMarketCode, marketLabel, MARKETS } from './markets';
import { ORDER_STATUSES } from './orders';
import { STORE_NAME } from './brand';
import type { ShopperUpdate, ShopperUpdateParams } from './order-updates';

/**
 * The store's own messages, by code: the texts a page may show from a link (`?notice=` and
 * `?error=`, the answers to forms posted without scripts, src/lib/server/infra/form-posts.ts). A link
 * carries a code and, for a message with a variable part, only parameters of a known kind that are
 * valid for it (a market code, a number, an order status…), never text: a link that says "Your
 * account is suspended. Call +234…" shows nothing.
 *
 * The texts are the ones the JSON answers carry (what islands toast), word for word: a text
 * written by the server finds its code here (messageRef), and the page shows it back (messageText).
 *
 * A template's `{kind}` placeholders are its parameters, in order; each kind says what values it
 * accepts and how it shows them.
 */
export const MESSAGES = {
  // The texts islands show themselves, light enough for a phone's bundle (src/lib/domain/toasts.ts).
  ...TOASTS,

  // Generic outcomes: what a page shows when a server text is missing below (a bug, logged).
  done: 'Done.',
  'form-unreadable': 'The form could not be read',
  'something-went-wrong': 'Something went wrong. Please try again.',
  'not-found': 'Not found',
  'method-not-allowed': 'This address does not take that kind of request.',
  'too-large': 'The request is too large.',
  'json-required': 'Send the request body as JSON (Content-Type: application/json).',
  'json-malformed': 'The request body must be JSON',

  // Accounts
  'registered': 'Registration successful! Please verify your email.',
  'otp-resent': 'OTP resent successfully!',
  'otp-sent': 'OTP sent to your email!',
  'email-verified': 'Email verified successfully!',
  'device-code-sent': 'We e-mailed you a code to confirm this browser',
  'device-code-resent': 'We sent you a new code',
  'device-confirmed': 'This browser is confirmed',
  'password-changed': 'Password changed successfully!',
  'password-reset': 'Password reset successful!',
  'profile-updated': 'Profile saved.',
  'picture-updated': 'Profile picture saved.',
  'invalid-credentials': 'Invalid email or password',
  'verify-first': 'Please verify your email before logging in.',
  'email-taken': 'An account with this email already exists',
  'already-verified': 'This email is already verified. Please log in.',
  'otp-wrong': 'Invalid OTP. Please check the code and try again. {count} tries left.',
  'otp-wrong-last': 'Invalid OTP. Please check the code and try again. 1 try left.',
  'otp-expired': 'This code has expired or was already used. Please request a new one.',
  'otp-exhausted': 'Too many wrong attempts. Please request a new code.',
  'code-wait': 'Please wait {wait} before requesting another code.',
  'code-entry-paused': 'Too many wrong codes were entered for this account, so code entry and password reset are paused. Please try again in {wait}.',
  'too-many-attempts': 'Too many attempts. Please try again in {wait}.',
  'password-incorrect': 'Current password is incorrect',
  'password-unchanged': 'The new password must be different from the current one',
  'invalid-email': 'Please enter a valid email address',
  'email-required': 'Email is required',
  'password-required': 'Password is required',
  'phone-required': 'Phone number is required',
  'phone-invalid': 'Please enter a valid phone number',
  'phone-invalid-ng': 'Please enter a valid Nigerian phone number, e.g. 0803 123 4567',
  'phone-invalid-za': 'Please enter a valid South African phone number, e.g. 082 123 4567',
  'phone-other-country': 'Please enter a Nigerian (+234) or South African (+27) phone number',
  'text-updates-on': 'We will text you when your orders are placed, on their way and delivered.',
  'text-updates-off': 'We will no longer text you about your orders.',
  'text-updates-need-phone': 'Add a valid mobile number in your profile to get text messages.',
  'whatsapp-updates-on': `We will send your order updates on WhatsApp from ${STORE_NAME}. Reply STOP there to end them.`,
  'whatsapp-updates-need-phone': 'Add a valid mobile number in your profile to get WhatsApp messages.',
  'whatsapp-updates-unavailable': 'Order updates on WhatsApp are not available at the moment. Please choose text messages.',
  'webhook-signature-invalid': 'Invalid signature',
  'whatsapp-verify-refused': 'The verify token does not match',
  // Phone verification: a code texted to the shopper's mobile number.
  'phone-code-sent': 'We sent a code to {phone}.',
  'phone-verified': 'Your phone is verified.',
  'phone-already-verified': 'Your phone is already verified.',
  'phone-verified-elsewhere': 'This number is already verified on another account. Please contact us to use it on this account.',
  'phone-released': 'The number was released: another account may verify it now',
  'phone-release-unknown': 'This customer does not hold that number',
  'phone-verify-need-phone': 'Save a valid mobile number in your profile to verify it.',
  'phone-code-not-sent': 'We could not send the text just now. Please try again in a minute.',
  'phone-code-refused': 'We could not send a text to this number. Please check the mobile number in your profile, or try again later.',
  'phone-changed-since-code': 'Your phone number has changed since we sent the code. Please request a new one.',
  'nothing-to-update': 'Nothing to update',
  'country-invalid': 'Country must be Nigeria or South Africa',
  'image-invalid': 'The file is not a valid image',
  'image-too-many-pixels': 'Image dimensions are too large (at most 40 megapixels)',
  'upload-not-multipart': 'Send the picture as multipart/form-data in the field "image"',
  'not-allowed': 'You are not allowed to do that',
  'own-account-only': 'You can only access your own account',
  'form-expired': 'This form has expired. Please go back, reload the page and try again.',
  'cross-site': 'Cross-site requests are not allowed',
  'busy': 'The store is busy right now. Please try again in a moment.',
  'signups-too-many': 'Too many accounts were created from your network just now. Please try again in {wait}.',
  'picture-changes-too-many': 'You can change your profile picture up to {count} times a day. Please try again in {wait}.',
  'request-invalid': 'Invalid request',
  'field-invalid': '{item}: {reason}',
  // What an API client sent that no form sends: named as the API names it.
  'updates-channel-invalid': 'updates must be text, whatsapp or none',
  'text-updates-invalid': 'textUpdates must be true or false',
  'sort-invalid': 'sort must be relevant, low-high or high-low',
  'page-invalid': 'page must be 1 or more',
  'limit-too-high': 'limit must be at most 100',
  'product-id-required': 'productId is required',
  'delivery-option-invalid': 'deliveryOption must be {item}',
  'delivery-speed-invalid': 'deliverySpeed must be {item}',
  // Text messages and WhatsApp: the provider's state, told to staff (and in the log) when an update was not sent.
  'sms-unreachable': 'The SMS provider could not be reached.',
  'sms-unavailable': 'The SMS provider is not available (HTTP {count}).',
  'sms-refused': 'The SMS provider refused the text: {reason}',
  'whatsapp-unreachable': 'The WhatsApp Cloud API could not be reached.',
  'whatsapp-unavailable': 'The WhatsApp Cloud API is not available (HTTP {count}).',
  'whatsapp-refused': 'WhatsApp refused the message: {reason}',
  'provider-http-status': 'HTTP {count}',

  // Markets
  'market-chosen': 'You are now shopping in {market}.',
  'market-chosen-repriced': 'You are now shopping in {market}. Your cart has been re-priced in {currency}.',
  'market-chosen-code-dropped': 'You are now shopping in {market}. Your cart has been re-priced in {currency}. Your discount code no longer applies in {market}, so it was removed.',
  'market-invalid': 'Choose Nigeria or South Africa',

  // Newsletter
  'newsletter-already': 'You are already subscribed to our newsletter.',
  'email-missing': 'Please enter your email address',

  // Promotions
  'discount-applied': 'Discount applied!',
  'discount-removed': 'Discount removed',
  'code-not-valid': 'This code is not valid.',
  'code-expired': 'This code has expired.',
  'code-used': 'This code has already been used.',
  'code-min-spend': 'Spend at least {amount} to use this code.',
  'code-tries-paused': 'Too many discount codes were tried. Please try again in {wait}.',
  'code-no-longer-applies': 'Your discount code no longer applies in {market}, so it was removed.',
  'newsletter-confirmed': 'Your subscription is confirmed. Your 20% off code is on its way to your inbox.',
  'newsletter-unsubscribed': 'You have been unsubscribed from our newsletter.',
  'newsletter-link-invalid': 'This link is not valid. Please subscribe again from the home page.',
  'newsletter-confirm-sent': 'Almost done: we e-mailed you a link to confirm your subscription.',
  'newsletter-not-subscribed': 'You are not subscribed to our newsletter.',
  'newsletter-too-many': 'Too many subscriptions came from your network just now. Please try again in {wait}.',
  'newsletter-limited': 'Too many subscriptions came from your network just now. Please try again later.',
  // "Email me when it is back" (a sold-out size or colour): double opt-in, like the newsletter.
  'back-in-stock-confirmed': 'Confirmed: we will e-mail you once when it is back in stock.',
  'back-in-stock-link-invalid': 'This link is not valid. Please ask again from the product page.',
  'back-in-stock-in-stock': 'This choice is in stock: you can add it to your cart now.',
  'back-in-stock-too-many': 'Too many requests came from your network just now. Please try again in {wait}.',

  // Favourites
  'favourite-added': 'Added to favourites',
  // Returns and exchanges.
  'delivered-on-range': 'The delivery day must be between the order day and today.',
  'return-requested': 'Return requested',
  'gift-return-link-invalid': 'This return link is not valid.',
  'gift-return-code-sent': 'We texted a code to the number this gift was sent to.',
  'gift-return-phone-proven': 'Thank you: your number is confirmed.',
  'gift-return-prove-first': 'Please confirm your number with the code we text you first.',
  'gift-return-account-first': 'Please create your account first: the store credit goes there.',
  'gift-return-account-exists': 'This number already has an account: the store credit goes there.',
  'gift-return-confirm-email-first': 'Please confirm your e-mail with the code we sent you first: the store credit goes to that account.',
  'gift-return-account-created': 'Your account is ready. We e-mailed you a code: enter it to confirm your e-mail before you sign in.',
  'gift-return-requested': 'Return requested. Once we receive the pieces, their value is added to your account as store credit.',
  'return-not-found': 'Return not found',
  'return-settling': 'This return is already being refunded.',
  'return-action-refused': 'This step does not apply to this return now.',
  'return-not-delivered': 'Only delivered orders can be returned.',
  'return-window-closed': 'The 3-day return window for this order closed on {date}.',
  'return-line-unknown': 'Choose the items to return from this order.',
  'return-nothing-chosen': 'Choose at least one item to return.',
  'return-too-many': 'You can return at most {count} of this item.',
  'return-line-taken': 'This item is already being returned.',
  'return-exchange-unavailable': 'Choose another size or colour that is in stock.',
  'return-exchange-only': 'Choose an exchange only when you ask for one.',
  'return-reason-required': 'Please choose a reason.',
  'return-resolution-required': 'Please choose what you would like.',
  'return-method-required': 'Please choose how you will send it back.',
  'return-difference-unpaid': 'The shopper has not paid the difference yet.',
  'return-difference-paid': 'Thank you: the difference is paid. We will review your exchange shortly.',
  'return-difference-not-needed': 'This exchange no longer needs the difference. Your payment will be refunded.',
  'return-difference-none': 'This return has no difference to pay.',
  'return-received-range': 'Received and damaged units must be whole numbers within what was sent back.',
  'return-transfer-reference': 'Enter the bank transfer reference.',
  'return-action-required': 'Choose what to do with this return.',
  'return-update': 'Your return',
  'return-approved': 'Return approved',
  'return-rejected': 'Return rejected',
  'return-received': 'Return received',
  'return-refunded': 'Refund sent',
  'return-credited': 'Store credit added',
  'return-shipped': 'Exchange shipped',
  // Help with an order.
  'help-sent': 'Your message has been sent. We will answer by e-mail.',
  'help-answered': 'Answer sent',
  'help-closed': 'Request closed',
  'help-not-found': 'Help request not found',
  'help-too-many': 'You already have open requests about this order. We will answer them soon.',
  'help-topic-required': 'Please choose a topic.',
  'help-message-required': 'Please write your message.',
  // Store credit.
  'credit-change-whole': 'A store credit change must be a whole, non-zero amount',
  'credit-not-enough': 'There is not enough store credit for this.',
  'credit-changed': 'Your store credit has changed. Please review your order and try again.',
  'credit-below-zero': 'The credit cannot go below zero.',
  'reason-required': 'Please give a reason.',
  'credit-updated': 'Store credit updated',
  'credit-amount-required': 'Enter an amount other than zero.',
  'credit-currency-required': 'Choose the currency: NGN or ZAR.',
  'favourites-sign-in': 'Sign in to keep your favourites. You will come back to this piece afterwards.',
  'favourite-removed': 'Removed from favourites',

  // Cart and checkout
  'cart-item-removed': 'Item removed',
  'quantity-updated': 'Quantity updated',
  'delivery-updated': 'Delivery option updated',
  'search-too-long': 'Search text is too long',
  'product-not-found': 'Product not found',
  'item-not-in-cart': 'Item not found in cart',
  'cart-not-found': 'Cart not found',
  'combination-unavailable': 'This size and colour combination is not available',
  'quantity-min': 'Quantity must be at least 1',
  'quantity-not-number': 'Quantity must be a number',
  'quantity-not-whole': 'Quantity must be a whole number',
  'quantity-below-one': 'Quantity cannot go below 1',
  'quantity-max': 'You can buy at most {count} of one item',
  'cart-full': 'Your cart can hold up to {count} different items.',
  'option-none': 'This product has no {option} to choose',
  'option-required': 'Please select a {option}',
  'colour-unavailable': 'This colour is not available for this product',
  'size-unavailable': 'This size is not available for this product',
  'item-out-of-stock': 'This item is out of stock',
  'item-few-left': 'Only {count} of this item left in stock',
  'item-most-in-cart': 'You already have the most you can buy of this item in your cart',
  'item-unavailable': 'An item in your cart is no longer available',
  'item-not-sold': 'This product is not sold in {country}',
  'item-not-sold-remove': 'An item in your cart is not sold in {country}. Please remove it to continue.',
  'quantity-in-cart': 'You already have {count} in your cart; you can add {count} more',
  'cart-other-account': 'This cart belongs to another account',
  'delivery-needs-address': 'Add a default shipping address to choose delivery',
  'delivery-address-chosen': 'This order will be delivered to the address you chose.',
  'payments-unavailable': 'Card payments in {currency} are not available at the moment.',
  'provider-unreachable': 'The payment provider could not be reached. Please try again.',
  'provider-unavailable': 'The payment provider is not available. Please try again.',
  'courier-unreachable': 'The courier could not be reached. Please try again.',
  'courier-unavailable': 'The courier is not available. Please try again.',
  // A courier's refusal, shown on the back office order page as "Courier's last answer": 'courier-refused' with its reason.
  'courier-refused': 'The courier refused: {reason}',
  'courier-webhook-rejected': 'Courier webhook rejected: {reason}',
  'courier-answer-shape': '{item} answered {item} in an unexpected shape',
  'courier-shipment-unknown': '{item} knows no shipment {item}',
  'courier-not-configured': 'no courier named {item} is configured',
  'courier-no-rate': 'the courier offered no rate for this address',
  'courier-label-unfetched': 'the label could not be fetched (HTTP {count})',
  'courier-order-gone': 'the order is gone',
  'courier-webhook-not-json': 'the body is not JSON',
  'courier-webhook-not-event': 'the body is not {item}',
  'courier-signature-mismatch': 'the {item} does not match',
  'courier-manual-no-webhooks': 'the store’s own courier sends no webhooks',
  'shipbubble-no-courier': 'Shipbubble offered no courier for this address',
  'shipbubble-rate-foreign': 'the rate is not a Shipbubble rate',
  'shipbubble-no-waybill': 'Shipbubble has no waybill for this shipment yet',
  'shiplogic-no-service-level': 'ShipLogic offered no service level for this address',
  'shiplogic-webhook-secret-missing': 'no SHIPLOGIC_WEBHOOK_SECRET is set',
  'pudo-lockers-only': 'PUDO books parcels to its lockers only',
  'pudo-quotes-lockers-only': 'PUDO quotes to its lockers only',
  'pudo-no-cash': 'a PUDO locker cannot collect money on delivery',
  'pudo-no-box': 'PUDO has no locker box this parcel fits',
  'pudo-no-webhooks': 'PUDO sends no tracking webhooks; its parcels are polled',
  'payment-init-refused': 'Failed to initialize payment.',
  'payment-declined': 'The payment was declined.',
  'payment-unknown': 'Payment not found',
  'payment-other-account': 'This payment belongs to another account',
  'payment-other-market': "This payment belongs to another market's account",
  'payment-already-answered': 'This payment has already been answered',
  'payment-not-processed-yet': 'The payment could not be processed yet. Please retry.',
  'callback-url-foreign': 'callbackUrl must be a URL on this site',
  'delivery-address-other-market': 'Your delivery address is in {country}, but you are shopping in {country}. Shop in {market} instead, choose pickup in {city}, or use an address in {country}.',
  'delivery-address-no-market': 'Your delivery address is in another country, but you are shopping in {country}. Shop in that country instead, choose pickup in {city}, or use an address in {country}.',
  'payment-incomplete': 'The payment has not been completed.',
  'payment-channel-not-offered': 'This payment method is not offered for this payment',
  'payment-amount-mismatch': 'The amount paid does not match the order. The payment will be refunded.',
  // One order per checkout: a resend of the same attempt answers the first; a cart changed meanwhile is looked at again.
  'checkout-key-invalid': 'The idempotency key must be 8 to 100 letters, digits, dots, dashes or underscores.',
  'checkout-key-reused': 'This checkout was already sent with other choices. Please reload the page and try again.',
  'checkout-in-progress': 'Your order is already being placed. Please check your orders before trying again.',
  'checkout-still-starting': 'Your payment is still being started. Please wait a moment and try again.',
  'cart-changed-at-checkout': 'Your cart changed while you were checking out. Please review it and try again.',

  // Addresses
  'address-saved': 'Address saved successfully!',
  'address-updated': 'Address updated successfully!',
  'address-default': 'Default address updated!',
  'address-deleted': 'Address deleted successfully!',
  'address-not-found': 'Address not found',
  'address-other-account': 'This address belongs to another account',
  'state-required': 'Please choose a state or province of the selected country',
  'zip-required': 'Postcode is required',
  'landmark-invalid': 'Landmark or directions is not valid',

  // Back office
  'staff-only': 'This page is for store staff',
  'owner-only': 'Only an owner can do that',
  'editors-pages-only': 'Editors work on the pages only',

  // Content pages (About, Privacy, Contact) and their editor
  'page-not-found': 'There is no such page',
  'page-revision-not-found': 'This page has no such revision',
  'page-title-required': 'Enter a title',
  'page-title-long': 'Keep the title to 120 characters',
  'page-description-short': 'Write the description as a sentence of 20 characters or more',
  'page-description-long': 'Keep the description to 170 characters',
  'page-updated-invalid': 'Enter the Last updated day as a date',
  'page-body-large': 'The page is longer than 200 KB',
  'page-contact-required': "The Contact page needs customer care's phone and e-mail",
  'page-contact-phone': "Enter customer care's phone number",
  'page-contact-email': "Enter customer care's e-mail address",
  'page-contact-hours': 'Keep the hours to 120 characters',
  'page-raw-html': 'Write the page in markdown: HTML tags are not allowed',
  'page-link-refused': 'A link may open a web page, an e-mail or a phone number, never a script or data',
  'page-fixed-sentence': 'The Privacy page must keep this sentence: {item}',
  'page-conflict': 'This page was changed by {item} at {item}; your text is kept below',
  'page-schedule-invalid': 'Enter the day and time to publish',
  'page-schedule-past': 'Choose a time in the future to publish',
  'page-draft-saved': 'Draft saved',
  'page-published': 'Page published',
  'page-scheduled': 'Page scheduled',
  'page-restored': 'The revision is restored as a draft',
  'page-nothing-to-publish': 'Save a draft before publishing',
  'page-picture-alt': 'Describe the picture in a few words (its alt text)',
  'page-picture-added': 'Picture added to the text: save or publish to keep it',
  'page-picture-format': 'Choose a JPEG, PNG or WebP picture',
  'page-picture-missing': 'Choose a picture to add',
  'staff-role-changed': '{email} is now {role}',
  'no-account-for': 'No account for {email}',
  'staff-email-required': 'Enter an e-mail address',
  'no-such-account': 'No such account',
  'choose-listed-colour': 'Choose a colour from the list',
  'choose-listed-size': 'Choose a size from the list',
  'last-owner': 'This is the last owner of the store. Make another account an owner first, so someone can still run the back office.',
  'staff-step-up-required': 'Confirm this browser with the code we e-mailed you before using the back office',
  'no-back-office-access': 'This account has no back-office access',
  'verify-email-first': 'The account must verify its e-mail address first',
  saved: 'Saved',
  'product-created': 'Product created',
  'variant-added': 'Variant added',
  'image-uploaded': 'Image uploaded',
  'image-deleted': 'Image deleted',
  'image-moved': 'Image moved',
  'alt-saved': 'Alt text saved',
  'banner-uploaded': 'Banner uploaded',
  'category-created': 'Category created',
  'category-saved': 'Category saved',
  'category-not-found': 'Category not found',
  'category-required': 'Choose a category',
  'category-name-required': 'Give the category a name',
  'product-name-required': 'Give the product a name',
  'product-description-required': 'Describe the product',
  'market-price-invalid': '{country} price: {reason}',
  'variant-id-invalid': '{item}: the variant id must be a whole number between 1 and {count}',
  'market-unknown': 'Unknown market {item}',
  'sub-category-required': 'Choose a sub-category (the parent category follows from it)',
  'sub-category-parent': 'A sub-category belongs to a parent category',
  'category-own-parent': 'A category cannot be its own parent',
  'category-has-children': 'This category has sub-categories, so it stays a parent',
  'designer-created': 'Designer added',
  'designer-saved': 'Designer saved',
  'designer-not-found': 'Designer not found',
  'designer-name-required': 'Give the designer a name',
  'designer-slug-shape': 'A slug is lower-case letters, digits and hyphens, at most 80 characters (adebayo-atelier)',
  'designer-taken': 'Another designer already has this name or slug',
  'alt-required': 'Describe the picture (alt text)',
  'image-colour-saved': 'Image colour saved',
  'image-colour-not-offered': 'This product does not come in that colour',
  'image-not-found': 'Image not found',
  'variant-not-found': 'Variant not found',
  'product-dimensions-invalid': 'Size & fit: give width, height and depth in cm, as 38 x 30 x 14',
  'sku-taken': 'Another variant already has this SKU',
  'variant-taken': 'This product already has a variant in that colour and size',
  'sku-too-long': 'A SKU has at most 64 characters',
  // ---- the catalogue's import: each problem names its row and column beside it
  'import-column-missing': 'The file has no {item} column.',
  'import-required': 'The {item} cell is empty.',
  'import-handle-shape': 'A handle is lower-case letters, digits and hyphens, at most 80 characters (silk-midi-dress).',
  'import-title-long': 'A title has at most 200 characters.',
  'import-brand-long': 'A designer name has at most 100 characters.',
  'import-description-long': 'A description has at most 10,000 characters.',
  'import-category-unknown': 'There is no category "{item}". Write it as the back office names it: "Shoes > Heels".',
  'import-status-unknown': 'The status "{item}" is none of active, draft or archived.',
  'import-title-differs': 'The handle {item} is titled "{item}" on an earlier row. Rows sharing a handle are one product.',
  'import-image-src': 'An image cell names a file in the ZIP or an https:// address, of at most 2,000 characters.',
  'import-sku-twice': 'The SKU {item} is already on row {count}.',
  'import-sku-taken': 'The SKU {item} belongs to another product ({item}).',
  'import-colour-two-ways': 'The colour "{item}" is written "{item}" on row {count}. Write a colour one way.',
  'import-colour-unknown': 'There is no colour "{item}" in the catalogue.',
  'import-size-unknown': 'There is no size "{item}" in the catalogue.',
  'import-size-none': 'Pieces in {item} come in one size. Leave the size empty.',
  'import-size-not-in-guide': 'The size "{item}" is not in the {item} size guide.',
  'import-inventory-whole': 'The inventory "{item}" is not a whole number of pieces.',
  'import-price-number': 'The {item} "{item}" is not a number.',
  'import-compare-above': 'The {item} must be above the {item}.',
  'import-price-required': 'A variant needs a price in at least one market (Price NG or Price ZA).',
  'import-variant-twice': 'This colour and size are already on row {count}.',
  'import-no-variants': 'The product has no variant row: a SKU with its colour, size, inventory and price.',
  'import-image-unreachable': 'The picture {item} could not be fetched.',
  'import-image-refused': 'The picture {item} is not fetched: only https:// addresses outside private networks are.',
  'import-image-not-in-zip': 'There is no file {item} in the ZIP of pictures.',
  'import-image-too-large': 'The picture {item} is larger than 10 MB.',
  'import-image-not-picture': 'The file {item} is not a picture the store takes (JPEG, PNG, WebP, GIF, AVIF).',
  'import-file-required': 'Choose a CSV file to import.',
  'import-csv-too-large': 'The CSV is larger than 20 MB. Split it into smaller files.',
  'import-zip-too-large': 'The ZIP of pictures is larger than 40 MB. Split it, or give the pictures as https:// addresses.',
  'import-too-many-rows': 'The file has more than {count} rows. Split it into smaller files.',
  'import-csv-unreadable': 'The file is not a CSV the import reads (UTF-8, separated by commas or semicolons).',
  'import-zip-unsafe': 'The ZIP holds a file outside its folder ({item}). It was not read.',
  'import-zip-unreadable': 'The ZIP of pictures could not be read.',
  'import-not-found': 'Import not found',
  'import-not-ready': 'Only a checked file without problems can be applied.',
  'import-failed': 'The import stopped before it finished. Nothing was changed; upload the file again.',
  'stock-reason-import': 'Import of {item} by {item}',
  'import-checking': 'File received. Its check follows on this page.',
  'import-applying': 'Sent to be applied. The outcome follows on this page.',
  'price-minor-units': 'The price must be a whole number of minor units, 0 or more',
  'price-required': 'Enter a price of 0 or more',
  'no-variants-to-price': 'This product has no variants to price yet',
  'first-variant-first': 'Add the first variant: prices are set per variant',
  'stock-whole': 'Stock must be a whole number, 0 or more',
  'stock-not-whole': 'Stock must be a whole number',
  'stock-negative': 'Stock cannot be negative',
  'stock-change-whole': 'A stock change must be a whole number',
  'stock-change-required': 'Enter the change, e.g. 5 or -2',
  'stock-change-not-whole': 'The change is a whole number',
  'stock-change-nonzero': 'Enter a change other than 0',
  'stock-change-zero': 'The change must not be 0',
  'stock-below-zero': 'Stock cannot go below 0',
  'stock-reason-required': 'Give a reason for the adjustment',
  'stock-now': 'Stock is now {count}',
  // The reasons the stock ledger records for the catalogue's own moves.
  'stock-reason-count': 'Stock count',
  'stock-reason-new-variant': 'New variant',
  'stock-reason-editor': 'Set in the product editor',
  'order-not-found': 'Order not found',
  'order-other-account': 'This order belongs to another account',
  'order-now': 'Order is now {status}',
  'order-cancelled': 'Order cancelled; stock returned',
  'order-transition-refused': 'An order that is {status} cannot become {status}',
  'order-status-unknown': 'Unknown status {item}: use {item}',
  'customer-not-found': 'Customer not found',
  'refund-to-required': 'Choose the payment or store credit',
  'owed-refund-status-invalid': 'Choose owed, paid, failed or stuck',
  // Pay on delivery: why it is not offered, a shopper's cancel, the market's rules.
  'pod-disabled': 'Pay on delivery is not available in {country}.',
  'pod-above-ceiling': 'Pay on delivery is not available for orders above {amount}.',
  'pod-refused-deliveries': 'Pay on delivery is not available on this account after {count} refused deliveries. Please contact us to have it restored.',
  'phone-not-verified': 'Verify your phone to pay on delivery.',
  'pod-open-orders': 'You have {count} orders to pay on delivery that are not yet delivered. Pay online now, or pay on delivery again once one of them is delivered or cancelled.',
  'pod-open-above-ceiling': 'Pay on delivery is available for up to {amount} in orders not yet delivered, and this order would take you above it. Pay online now, or pay on delivery again once an order is delivered or cancelled.',
  'pod-terms-changed': 'Your pay-on-delivery terms changed while your order was being placed. Please review them and try again.',
  'pod-max-open-range': 'Open orders must be a whole number from 1 to 100',
  'pod-rules-saved': 'Pay on delivery settings saved',
  'pod-rules-cap-above-ceiling': 'The amount paid wholly on delivery cannot be above the most an order may be',
  'locker-unknown': 'We cannot find this PUDO locker. Please choose another.',
  'locker-needs-address': 'To collect from a PUDO locker, choose Delivery with an address in South Africa.',
  'locker-pays-online': 'A PUDO locker cannot take payment at the door. Please pay now, or choose delivery to your address.',
  'lockers-none-near': 'No PUDO locker found for "{item}". Try a suburb, a town or a postcode.',
  'lockers-unavailable': 'PUDO lockers cannot be listed just now. Please choose delivery to your address, or try again shortly.',
  'gift-name-required': "Please enter the recipient's name",
  'gift-name-too-long': "The recipient's name can be at most {count} characters",
  'gift-phone-required': "Please enter the recipient's phone number, so the courier can call them",
  'gift-message-too-long': 'The gift message can be at most {count} characters',
  'gift-wrap-range': 'Gift wrapping must cost a whole amount from 0 up',
  'gift-wrap-saved': 'Gift wrapping fee saved',
  'locker-fee-range': 'The locker fee must be a whole amount from 0 up',
  'locker-fee-saved': 'Locker delivery fee saved',
  'tax-vat-number-shape': 'A South African VAT number is 10 digits starting with 4',
  'tax-tin-shape': 'A Nigerian TIN is 8 digits, a hyphen and 4 digits (12345678-0001), or 10 digits',
  'buyer-company-required': 'Please enter the company name the tax number belongs to',
  'buyer-company-too-long': 'The company name can be at most {count} characters',
  'tax-rate-range': 'The VAT rate must be from 0 to 100 percent',
  'tax-rate-date': 'Give the date the rate applies from (YYYY-MM-DD)',
  'tax-legal-name-required': 'Please enter the legal name printed on invoices',
  'tax-address-required': 'Please enter the address printed on invoices',
  'tax-period-months': 'A VAT period is one month or two',
  'tax-settings-saved': 'Tax settings saved',
  'tax-period-unknown': 'Give a period from one date to another (YYYY-MM-DD), the first not after the last, at most a year apart',
  'tax-market-unknown': 'Choose a market: NG or ZA',
  'tax-document-not-found': 'No such document for this order',
  'tax-buyer-company-too-long': 'The company name can be at most {count} characters',
  'pod-order-unavailable': 'Your order could not be placed. Please review your cart and try again.',
  'order-cancelled-by-shopper': 'Your order has been cancelled.',
  'order-not-cancellable': 'This order can no longer be cancelled.',
  'order-cancel-reason': 'Cancelled by the shopper',
  'already-refunded': 'Already refunded in full',
  'refund-retry-queued': 'The refund will be tried again',
  'owed-refund-not-found': 'No failed or stuck refund with this id',
  'shipment-not-found': 'Shipment not found',
  'shipment-retry-refused': 'This booking cannot be tried again: it is booked, being booked, or its order is cancelled.',
  'shipment-retry-queued': 'The booking will be tried again now.',
  'shipment-cancel-retry-refused': 'This parcel cannot be cancelled again: the courier has not refused to cancel it.',
  'shipment-cancel-retry-queued': 'The courier will be asked to cancel it again now.',
  'shipment-not-manual': 'Only the store’s own deliveries take events typed here: this courier reports its own.',
  'shipment-event-added': 'Delivery update added.',
  'collection-failed-next': 'The courier could not collect your parcel and will call to arrange another time. To change it, call us or write to us with “Get help with this order” below.',
  'delivery-failed-next': 'The courier will try again on the next working day. To choose another time or address, call us or write to us with “Get help with this order” below.',
  'courier-not-found': 'No such courier',
  'courier-webhook-shipment-unknown': 'No shipment matches this update.',
  'rider-phone-invalid': 'Enter the rider’s mobile number, such as +234 803 123 4567.',
  'owed-refund-payment-gone': 'The payment of this refund is gone',
  'refund-amount-required': 'Enter the amount to refund',
  'refund-amount-positive': 'The refund amount must be more than 0',
  'refund-amount-invalid': 'The refund amount must be a positive whole number of minor units',
  'refund-in-progress': 'A refund of this payment is already in progress',
  'refund-changed': 'This payment has been refunded since the page was opened. Check the amounts and try again.',
  'no-payment-to-refund': 'This order has no payment to refund',
  'refund-no-such-line': 'This order has no such line',
  'refund-line-units': 'You can refund at most {count} of this line',
  'refund-nothing-paid': 'Nothing was paid for these units',
  'refund-amount-or-line': 'Refund an amount or a line, not both',
  'refund-line-required': 'Choose a line of the order',
  'refund-quantity-required': 'Enter how many to refund',
  'refund-order-left': 'This order has {amount} left to give back, in refunds and store credit together.',
  'refund-order-nothing-left': 'Everything paid for this order has already been given back.',
  'refund-at-most': 'At most {count} (minor units) of this payment can still be refunded',
  'payment-not-refundable': 'A payment that is {item} cannot be refunded',
  'refund-refused': 'The payment provider refused the refund.',
  'refund-refused-because': 'The payment provider refused the refund: {reason}',
  'promotion-created': 'Promotion created',
  'promotion-saved': 'Promotion saved',
  'promotion-not-found': 'Promotion not found',
  'promo-code-format': 'A code has 3 to 40 letters, digits, - or _',
  'promo-code-taken': 'Another promotion already has this code',
  'promo-code-required': 'Give the promotion a code',
  'promo-kind-required': 'Give a percentage off or an amount off',
  'promo-percent-required': 'Give the percentage off (1 to 100)',
  'promo-amount-required': 'Give the amount off in at least one market',
  'promo-percent-range': 'The percentage must be a whole number from 1 to 100',
  'promo-limit-range': 'The usage limit must be a whole number of 1 or more',
  'promo-days-range': 'Days a code is valid must be a whole number from 1 to 365',
  'promo-amount-invalid': 'Enter amounts of 0 or more, with at most 2 decimals',
  'promo-markets': 'Amounts are per market: NG and ZA',
  'promo-date-invalid': 'Enter dates as a date and time, e.g. 2026-12-01T09:00',
  'promo-unknown-field': 'The promotion has a field the store does not know',
  'promo-end-after-start': 'The end must be after the start',
  'promo-welcome-percent': 'The newsletter welcome promotion is a percentage off',
  'promo-welcome-no-code': 'The newsletter welcome promotion has no shared code: each subscriber gets their own',
  'promo-limit-below-uses': 'The usage limit cannot be below the uses so far ({count})',

  // Pay on delivery: staff settle at the door
  'collection-outcome-required': 'Choose the outcome: paid or refused',
  'collection-method-required': 'Choose how it was paid: cash, card at the door or transfer',
  'collection-amount-required': 'Enter the amount collected',
  'collection-amount-mismatch': 'The amount must equal what is due: {amount}.',
  'collection-settled': 'This order has already been settled.',
  'collection-cancelled': 'This order has been cancelled, so there is nothing to collect.',
  'collection-not-on-delivery': 'This order is not paid on delivery.',
  'collection-paid': 'Recorded as delivered and paid',
  'collection-refused': 'Recorded as refused at the door; stock returned',
  'collection-refused-refunded': 'Recorded as refused at the door; stock returned and {amount} refunded',
  'collection-refund-failed': 'Recorded as refused at the door; stock returned. The deposit refund is owed and will be tried again: see Refunds.',
  'refusals-lifted': 'Pay on delivery is available to this customer again',
  'refusals-before-required': 'Send the refused deliveries the page showed (refusedBefore)',
  'refusals-changed': 'The customer’s refused deliveries changed since the page was opened. Check and try again.',
  'pod-deposit-range': 'The deposit must be a whole percentage from 1 to 100',

  // Your data: the download, the account's deletion, staff data requests
  'confirm-code-sent': 'We e-mailed a 4-digit code to {email}. Enter it to continue.',
  'confirm-code-needed': 'For your security, enter the 4-digit code we e-mailed to {email}.',
  'data-downloads-paused': 'You have downloaded your data several times today. Please try again in {wait}.',
  'account-deleted': 'Your account has been deleted.',
  'account-delete-wait-order': 'You have an order that is not delivered yet. You can delete your account once it has been delivered or cancelled.',
  'account-delete-wait-return': 'You have a return that is still open. You can delete your account once it is settled.',
  'account-delete-wait-payment': 'A payment of yours is still being confirmed. You can delete your account once it has been settled.',
  'account-delete-credit': 'You still have store credit of {amount}. Tick the box to confirm you give it up.',
  'account-delete-staff': 'Staff accounts are closed by an owner, not from Settings.',
  'account-already-deleted': 'This account has already been deleted.',
  'data-request-recorded': 'The request has been recorded.',
  'data-request-no-account': 'No shopper has an account with this e-mail address.',
  'data-request-done': 'This request has already been answered.',
  'data-request-erased': 'The account has been deleted and the request closed.',
  'data-request-not-found': 'Data request not found',
  'privacy-days-saved': 'Days to answer data requests saved.',
} as const satisfies Record<string, string>;

export type MessageCode = keyof typeof MESSAGES;

/**
 * The words of each order update (SHOPPER_UPDATES in order-updates.ts): the body of its WhatsApp
 * template as registered with Meta, and the text message (SMS) sent to shoppers who chose texts or
 * whose WhatsApp message failed. Short, plain, signed with the store's name; `{name}` is a parameter.
 */
export const SHOPPER_UPDATE_TEXTS: Record<ShopperUpdate, string> = {
  order_confirmed: `${STORE_NAME}: your order {order} has been placed.`,
  order_on_its_way: `${STORE_NAME}: your order {order} is on its way. Follow it: {link}`,
  order_out_for_delivery: `${STORE_NAME}: your order {order} is out for delivery today. Your rider {rider} is on {rider_phone}.`,
  order_delivered: `${STORE_NAME}: your order {order} has been delivered.`,
  order_delivery_failed: `${STORE_NAME}: the courier could not deliver your order {order}. They will try again on the next working day; to change the time or address, call us on {store_phone}.`,
};

/** An update's words with its parameters filled in. */
export function shopperUpdateText<U extends ShopperUpdate>(update: U, params: ShopperUpdateParams<U>): string {
  const values = params as Record<string, string>;
  return SHOPPER_UPDATE_TEXTS[update].replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);
}

/**
 * What a shopper is told as the courier reports: by text (signed with the store's name) and in the
 * mail. `{order}` is the order's tracking number; the rider, the store's phone and the amount due
 * are filled in where the event has them.
 */
const DELIVERY_TEXTS = {
  on_its_way: 'Your order {order} is on its way.',
  out_for_delivery: 'Your order {order} is out for delivery today.',
  delivered: 'Your order {order} has been delivered. You have 3 days to ask for a return from your order page.',
  failed_attempt:
    'The courier could not deliver your order {order}. They will try again on the next working day. To choose another time or address, reply to this message or call us on {storePhone}.',
  rider: 'Your rider is {rider}: {riderPhone}.',
  amount_due: 'Please have {amount} ready to pay at the door.',
} as const;
export type DeliveryTextEvent = keyof typeof DELIVERY_TEXTS;

/** A delivery text with its values filled in (a value not given leaves its place empty). */
export function deliveryText(event: DeliveryTextEvent, values: Partial<Record<'order' | 'storePhone' | 'rider' | 'riderPhone' | 'amount', string>>): string {
  return DELIVERY_TEXTS[event].replace(/\{(\w+)\}/g, (_, k: string) => values[k as keyof typeof values] ?? '');
}

/**
 * The texts a gift's recipient gets about the order on its way to them (the courier's texts, not the
 * buyer's order mail): no prices, no buyer's details beyond their name.
 */
const GIFT_TEXTS = {
  placed: `${STORE_NAME}: {name} has sent you a gift (order {order}). Our courier will call this number to deliver it.`,
  // At the courier's pick-up, as the buyer's "on its way" (Ready to ship tells nobody).
  on_its_way: `${STORE_NAME}: your gift (order {order}) is on its way. Our courier will call this number.`,
  out_for_delivery: `${STORE_NAME}: your gift (order {order}) is out for delivery today. The rider will call this number.`,
  delivered: `${STORE_NAME}: your gift (order {order}) has been delivered. Enjoy it.`,
} as const;

/** What "delivered" adds when the gift has a returns link (ADR 0045): the recipient's own way to a return. */
const GIFT_RETURN_SENTENCE = 'To return a piece within 3 days, for store credit: {link}';

/**
 * The text a gift's recipient gets for an order's event, or null for events they are not told of;
 * "delivered" carries the gift's returns link when one is given.
 */
export function giftRecipientText(event: string, trackingNumber: string, senderName: string, returnLink?: string): string | null {
  if (!Object.hasOwn(GIFT_TEXTS, event)) return null;
  const text = GIFT_TEXTS[event as keyof typeof GIFT_TEXTS].replace('{order}', trackingNumber).replace('{name}', senderName);
  return event === 'delivered' && returnLink ? `${text} ${GIFT_RETURN_SENTENCE.replace('{link}', returnLink)}` : text;
}

/** The text message that carries a phone verification code (4 digits), valid for `minutes`. */
export function phoneCodeText(code: string, minutes: number): string {
  return `${STORE_NAME}: your code is ${code}. It expires in ${minutes} minutes.`;
}

/**
 * Server texts that name a product or an option the shopper typed (free text no link may carry),
 * by the code of the message that says the same without it. `{item}` stands for the name.
 */
const NAMING_TEXTS = {
  'item-out-of-stock': '{item} is out of stock',
  'item-few-left': 'Only {count} of {item} left in stock',
  'item-most-in-cart': 'You already have the most you can buy of {item} in your cart',
  'item-unavailable': '{item} is no longer available',
  'item-not-sold': '{item} is not sold in {country}',
  'item-not-sold-remove': '{item} is not sold in {country}. Please remove it to continue.',
  'colour-unavailable': 'Colour {item} is not available for this product',
  'size-unavailable': 'Size {item} is not available for this product',
} as const satisfies Partial<Record<MessageCode, string>>;

/**
 * A text that names a product or an option (NAMING_TEXTS): `{item}` is `item`, the other
 * placeholders take `values` in order, as shown (a count, a country's name).
 */
export function named(code: keyof typeof NAMING_TEXTS, item: string, ...values: (string | number)[]): string {
  let i = 0;
  return NAMING_TEXTS[code].replace(PLACEHOLDER, (_, kind: string) => (kind === 'item' ? item : String(values[i++] ?? '')));
}

/** What each kind of parameter accepts in a link, and how the message shows it. */
interface ParamKind {
  /** The shown form, as a regular expression source (for finding the parameter in a server text). */
  pattern: () => string;
  /** The link's value for a shown form, or null. */
  fromShown(shown: string): string | null;
  /** The shown form for a link's value, or null when the value is not valid for this kind. */
  show(value: string): string | null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const oneOf = (values: readonly string[]) => values.map(escape).join('|');
const exactly = (re: RegExp) => (value: string) => (re.test(value) ? value : null);
const ofList = (values: readonly string[]) => (value: string) => (values.includes(value) ? value : null);

const COUNT = /^\d{1,9}$/;
// A day as formatOrderDate shows it: 24 Nov 2026.
const DATE_SOURCE = '\\d{1,2} [A-Z][a-z]{2,8} \\d{4}';
const DATE = new RegExp(`^${DATE_SOURCE}$`);
const WAIT = /^\d{1,6} (?:seconds?|minutes?|hours|days)$/;
// A plain address: no spaces, no markup, one @, a host of letters, digits, dots and hyphens.
const EMAIL = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$/;
const CURRENCIES = ALL_MARKETS.map((m) => m.currency);
// An amount as formatMoney shows it: ₦250,000 or R 12 500,50 (grouping and decimal marks of the market's locale).
const AMOUNT_SOURCE = '(?:₦|R)[ \\u00a0\\u202f]?\\d{1,3}(?:[, \\u00a0\\u202f]\\d{3}){0,4}(?:[.,]\\d{2})?';
const AMOUNT = new RegExp(`^${AMOUNT_SOURCE}$`);
const OPTIONS = ['size', 'colour'] as const;
// A mobile number of one of the store's markets in E.164 (the shopper's own, as a code was texted to it).
const PHONE = /^\+(?:234\d{8,10}|27\d{9})$/;

const KINDS: Record<string, ParamKind> = {
  market: {
    pattern: () => oneOf(ALL_MARKETS.map((m) => marketLabel(m.code))),
    fromShown: (shown) => ALL_MARKETS.find((m) => marketLabel(m.code) === shown)?.code ?? null,
    show: (value) => (isMarketCode(value) ? marketLabel(value) : null),
  },
  currency: { pattern: () => oneOf(CURRENCIES), fromShown: ofList(CURRENCIES), show: ofList(CURRENCIES) },
  count: { pattern: () => '\\d{1,9}', fromShown: exactly(COUNT), show: exactly(COUNT) },
  date: { pattern: () => DATE_SOURCE, fromShown: exactly(DATE), show: exactly(DATE) },
  wait: { pattern: () => '\\d{1,6} (?:seconds?|minutes?|hours|days)', fromShown: exactly(WAIT), show: exactly(WAIT) },
  email: { pattern: () => '[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\\.[A-Za-z]{2,24}', fromShown: exactly(EMAIL), show: exactly(EMAIL) },
  amount: { pattern: () => AMOUNT_SOURCE, fromShown: exactly(AMOUNT), show: exactly(AMOUNT) },
  phone: { pattern: () => '\\+(?:234\\d{8,10}|27\\d{9})', fromShown: exactly(PHONE), show: exactly(PHONE) },
  option: { pattern: () => 'size|colour', fromShown: ofList(OPTIONS), show: ofList(OPTIONS) },
  country: {
    pattern: () => oneOf(ALL_MARKETS.map((m) => m.countryName)),
    fromShown: (shown) => ALL_MARKETS.find((m) => m.countryName === shown)?.code ?? null,
    show: (value) => (isMarketCode(value) ? MARKETS[value].countryName : null),
  },
  // A name in a server text, matched and dropped (NAMING_TEXTS): never a parameter of a link.
  item: { pattern: () => '.{1,300}?', fromShown: () => null, show: () => null },
  role: { pattern: () => oneOf(ROLES), fromShown: ofList(ROLES), show: ofList(ROLES) },
  status: { pattern: () => oneOf(ORDER_STATUSES), fromShown: ofList(ORDER_STATUSES), show: ofList(ORDER_STATUSES) },
  // A market's pickup city ("choose pickup in Lagos"), carried as the market's code.
  city: {
    pattern: () => oneOf(ALL_MARKETS.map((m) => m.pickupCity)),
    fromShown: (shown) => ALL_MARKETS.find((m) => m.pickupCity === shown)?.code ?? null,
    show: (value) => (isMarketCode(value) ? MARKETS[value].pickupCity : null),
  },
  // Another message of this module ("Failed to initialize payment. {reason}"): a plain one by its
  // code, one with parameters by its own link form with `~` for `:` (so it stays one parameter).
  reason: {
    pattern: () =>
      (reasonSource ??= [
        ...PLAIN_CODES.map((c) => escape(MESSAGES[c])),
        ...NESTABLE_CODES.map((c) => templateSource(MESSAGES[c], false)),
        // A text naming a product is carried as its form without the name ("Only 3 of this item left in stock").
        ...Object.values(NAMING_TEXTS).map((t) => templateSource(t, false)),
      ].join('|')),
    fromShown: (shown) => PLAIN_BY_TEXT.get(shown) ?? messageRef(shown)?.replaceAll(':', NESTED) ?? null,
    show: (value) => {
      if (isPlainCode(value)) return MESSAGES[value];
      const [code = ''] = value.split(NESTED);
      return !value.includes(':') && (NESTABLE_CODES as string[]).includes(code) ? messageText(value.replaceAll(NESTED, ':')) : null;
    },
  },
};

const PLACEHOLDER = /\{(\w+)\}/g;
const kindsOf = (template: string): string[] => [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
const CODES = Object.keys(MESSAGES) as MessageCode[];
const PLAIN_CODES = CODES.filter((c) => kindsOf(MESSAGES[c]).length === 0);
const PLAIN_BY_TEXT = new Map<string, MessageCode>(PLAIN_CODES.map((c) => [MESSAGES[c], c]));
const isCode = (value: string): value is MessageCode => Object.hasOwn(MESSAGES, value);
const isPlainCode = (value: string): value is MessageCode => isCode(value) && kindsOf(MESSAGES[value]).length === 0;
/** Messages with parameters that may stand as another's {reason}: none that names free words or holds a reason itself. */
const NESTABLE_CODES = CODES.filter((c) => {
  const kinds = kindsOf(MESSAGES[c]);
  return kinds.length > 0 && !kinds.includes('reason') && !kinds.includes('item');
});
/** What stands for `:` inside a nested message's link form. */
const NESTED = '~';
let reasonSource: string | undefined;

/** A template's text as a regular expression source: each parameter its kind's pattern, captured or not. */
function templateSource(template: string, capture: boolean): string {
  return template
    .split(PLACEHOLDER)
    .map((part, i) => (i % 2 === 1 ? `(${capture ? '' : '?:'}${KINDS[part]!.pattern()})` : escape(part)))
    .join('');
}

/** The message's text with its parameters, or null when a parameter is missing or not valid for its kind. */
function render(code: MessageCode, params: readonly string[]): string | null {
  const kinds = kindsOf(MESSAGES[code]);
  if (params.length !== kinds.length) return null;
  const shown = kinds.map((kind, i) => KINDS[kind]!.show(params[i]!));
  if (shown.some((s) => s === null)) return null;
  let i = 0;
  return MESSAGES[code].replace(PLACEHOLDER, () => shown[i++]!);
}

/** A message of the store, with its parameters (their link values: a market code, a number…). */
export function message(code: MessageCode, ...params: string[]): string {
  const text = render(code, params);
  if (text === null) throw new Error(`message ${code}: invalid parameters ${JSON.stringify(params)}`);
  return text;
}

/** The failure texts islands also show (src/lib/domain/toasts.ts), for endpoints' failure answers. */
export { failureText } from './toasts';

/**
 * A message with its placeholders filled in as given, unchecked: for texts the server writes and
 * islands show (a link carries `message`'s checked parameters instead).
 */
export function fill(code: MessageCode, ...values: (string | number)[]): string {
  let i = 0;
  return MESSAGES[code].replace(PLACEHOLDER, () => String(values[i++] ?? ''));
}

let templates: { code: MessageCode; re: RegExp; kinds: string[] }[] | undefined;

function templateOf(code: MessageCode, template: string): { code: MessageCode; re: RegExp; kinds: string[] } {
  return { code, re: new RegExp(`^${templateSource(template, true)}$`), kinds: kindsOf(template) };
}

/**
 * The link form (`code` or `code:param:param`) of a text the server wrote, or null when the text
 * is not one of the store's messages. Links carry this, never the text.
 */
export function messageRef(text: string): string | null {
  const plain = PLAIN_BY_TEXT.get(text);
  if (plain) return plain;
  templates ??= [
    ...CODES.filter((c) => kindsOf(MESSAGES[c]).length > 0).map((code) => templateOf(code, MESSAGES[code])),
    ...Object.entries(NAMING_TEXTS).map(([code, template]) => templateOf(code as MessageCode, template)),
  ];
  for (const { code, re, kinds } of templates) {
    const m = re.exec(text);
    if (!m) continue;
    const params = kinds.flatMap((kind, i) => (kind === 'item' ? [] : [KINDS[kind]!.fromShown(m[i + 1]!)]));
    // Only a link the page can show again: a text naming free words (an {item}) has none.
    if (params.every((p): p is string => p !== null) && render(code, params) !== null) return [code, ...params].join(':');
  }
  return null;
}

/** The text for a link's message (`?notice=` / `?error=`), or null for anything that is not a valid one. */
export function messageText(ref: string | null | undefined): string | null {
  if (!ref || ref.length > 300) return null;
  const [code, ...params] = ref.split(':');
  return code && isCode(code) ? render(code, params) : null;
}
