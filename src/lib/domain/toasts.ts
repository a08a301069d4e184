/**
 * The store's messages that islands show themselves: the server's answer when one is missing (a
 * network failure, an empty body) and what a page says before it asks the server. Their words are
 * fixed (shoppers and testers know them; never reworded); src/lib/domain/messages.ts registers them with every other message,
 * so endpoints, links and islands use the same words. Kept apart so a phone's bundle carries only
 * these (islands never import messages.ts, with its link machinery and every server text).
 */
export const TOASTS = {
  // Accounts
  'session-expired': 'Session expired. Please log in again.',
  'logged-in': 'Login successful!',
  'login-failed': 'Login failed',
  'error-try-again': 'An error occurred. Please try again.',
  'otp-resend-failed': 'Failed to resend OTP',
  'otp-verify-failed': 'OTP verification failed',
  'registration-failed': 'Registration failed',
  'password-reset-failed': 'Failed to reset password',
  'profile-update-failed': 'Failed to update profile',
  'text-updates-failed': 'Failed to save your order updates choice',
  'password-change-failed': 'Failed to change password',
  'password-change-error': 'An error occurred while changing password.',
  'auth-error': 'Authentication error. Please login again.',
  'went-wrong': 'Something went wrong',
  // Checked in the browser before the server is asked (account-rules.ts), and by the server alike.
  'invalid-otp': 'Please enter a valid 4-digit OTP',
  'passwords-differ': 'Passwords do not match!',
  'fill-both-passwords': 'Please fill in both password fields.',
  'password-too-short': 'Password must be at least {count} characters',
  'password-too-long': 'Password must be at most {count} characters',
  'not-an-image': 'Please select an image file',
  'image-too-large': 'Image size should be less than 5MB',
  'email-not-found': 'Email not found',

  // Shopping
  'login-required': 'Please create an account or login',
  'newsletter-subscribed': 'Thank you for subscribing. Our e-mail has the next step.',
  'newsletter-failed': 'Subscription failed. Please try again.',
  'back-in-stock-sent': 'Almost done: we e-mailed you a link to confirm. We will write once when it is back.',
  'back-in-stock-failed': 'Your request could not be sent. Please try again.',

  // Cart and checkout
  'cart-added': 'Product added to cart successfully!',
  'size-required': 'Please select a size',
  'cart-add-failed': 'Failed to add product to cart',
  'cart-add-error': 'Error adding product to cart',
  'cart-remove-failed': 'Failed to remove item',
  'quantity-update-failed': 'Failed to update quantity: {reason}',
  'cart-empty': 'Your cart is empty',
  'delivery-update-failed': 'Failed to update delivery option.',
  'discount-failed': 'The code could not be applied. Please try again.',
  'payment-init-failed': 'Failed to initialize payment. {reason}',
  'payment-init-error': 'Error initializing payment.',
  'payment-not-found': 'Payment reference not found.',
  'order-placed': 'Order placed successfully!',
  'order-place-failed': 'Error placing order. {reason}',
  'transfer-waiting': 'Waiting for your transfer',
  'transfer-waiting-note': 'Your order appears in your orders, and we e-mail it to you, once the bank confirms the transfer.',
  'upload-failed': 'Failed to upload image: {reason}',

  // Offline (src/lib/client/offline-forms.ts and the service worker, ADR 0030)
  'offline-will-send': "You're offline. We'll send this when you're back.",
  'offline-not-sent': "You're offline. Nothing was sent: press Retry when you're back.",
  'offline-retry': 'Retry',
  'offline-saved': "You're offline. This page was saved {reason}.",
  'offline-heading': "You're offline",
  'offline-lead': 'This page needs a connection. These pages were saved on this phone and can still be read:',
  'offline-none': 'This page needs a connection, and no pages are saved on this phone yet.',
  'offline-again': 'Try again',

  // Addresses
  'address-save-failed': 'Failed to save address',
  'addresses-fetch-failed': 'Failed to fetch addresses',
  'address-default-failed': 'Failed to update default address',
  'address-delete-failed': 'Failed to delete address',
} as const satisfies Record<string, string>;

export type ToastCode = keyof typeof TOASTS;

type FailureCode = { [C in ToastCode]: (typeof TOASTS)[C] extends `${string}{reason}` ? C : never }[ToastCode];

/**
 * A failure with its reason after it (quantity-update-failed with "Only 2 of this item left in
 * stock"), or the failure alone when there is no reason (the template's text before `{reason}`).
 */
export function failureText(code: FailureCode, reason?: string | null): string {
  return reason ? TOASTS[code].replace('{reason}', reason) : TOASTS[code].replace(/:? ?\{reason\}$/, '');
}
