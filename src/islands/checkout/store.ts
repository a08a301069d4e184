import { map, type MapStore } from 'nanostores';
import type { CartDto } from '@/lib/domain/cart';
import type { CheckoutPaymentChoice } from '@/lib/domain/payment-methods';
import type { ApiDeliveryOption, DeliverySpeedId } from '@/lib/domain/shipping';
import type { GiftState } from '@/components/GiftFields';
import type { Waiting } from './types';

/** The checkout island's state: what the shopper chose, and where paying and placing stand. */
export interface CheckoutState {
  /** The cart as the server last priced it (its quote in minor units is what the totals start from). */
  cart: CartDto;
  option: ApiDeliveryOption;
  speed: DeliverySpeedId;
  /** A PUDO locker's code while one is ticked (it counts only while Delivery is chosen). */
  locker: string | null;
  method: CheckoutPaymentChoice;
  /** "Use my store credit". */
  useCredit: boolean;
  /** "This is a gift" and its wrapping (wrapping adds the market's fee). */
  gift: GiftState;
  /** Paying or placing: the form's controls wait for the answer. */
  busy: boolean;
  /** A delivery choice is being priced by the server. */
  switching: boolean;
  /** The provider's payment reference once a payment has started: the button places the order. */
  reference: string | null;
  /** This attempt's key, kept until the server answers: a send lost and tried again is the same attempt. */
  attemptKey: string | null;
  /** Scripts run: the controls only a page without scripts needs are gone. */
  hydrated: boolean;
  /** A payment still pending (a bank transfer on its way). */
  waiting: Waiting | null;
}

/**
 * One store per checkout island (never module-wide: the server renders many checkouts), changed
 * only through the named actions below.
 */
export function createCheckout(initial: Pick<CheckoutState, 'cart' | 'method' | 'locker' | 'attemptKey' | 'waiting'>) {
  const $checkout: MapStore<CheckoutState> = map<CheckoutState>({
    ...initial,
    option: initial.cart.deliveryOption,
    speed: initial.cart.deliverySpeed,
    useCredit: false,
    gift: { on: false, wrap: false },
    busy: false,
    switching: false,
    reference: null,
    hydrated: false,
  });
  // setKey per field, so a change to one choice never rewrites another's.
  const set = (patch: Partial<CheckoutState>) => {
    for (const [key, value] of Object.entries(patch) as [keyof CheckoutState, CheckoutState[keyof CheckoutState]][]) $checkout.setKey(key, value);
  };
  return {
    $checkout,
    hydrated: (reference: string | null) => set({ hydrated: true, reference }),
    /** Delivery or pickup and the speed, shown at once while the server prices them. */
    deliveryChosen: (option: ApiDeliveryOption, speed: DeliverySpeedId) => set({ option, speed, switching: true }),
    /** The server's price for the choice, or (null) the choice undone. */
    deliveryPriced: (cart: CartDto | null, undo?: { option: ApiDeliveryOption; speed: DeliverySpeedId }) =>
      set({ switching: false, ...(cart ? { cart } : {}), ...(undo ?? {}) }),
    lockerChosen: (locker: string | null) => set({ locker }),
    paymentChosen: (method: CheckoutPaymentChoice) => set({ method }),
    creditTicked: (useCredit: boolean) => set({ useCredit }),
    giftChanged: (gift: GiftState) => set({ gift }),
    /** The cart the server answered with (a discount code applied or removed). */
    cartReplaced: (cart: CartDto) => set({ cart }),
    busy: (busy: boolean) => set({ busy }),
    referenceSet: (reference: string | null) => set({ reference }),
    /** The server answered the last attempt: a new one may ask for other choices. */
    attemptRenewed: (attemptKey: string) => set({ attemptKey }),
    waitingFor: (waiting: Waiting | null) => set({ waiting }),
  };
}

export type Checkout = ReturnType<typeof createCheckout>;
