import { Toaster as HotToaster, toast } from 'react-hot-toast';
import { setErrorNotifier } from '@/lib/client/api';

// Plain modules (the API client's 401 handling) show their errors through this toaster.
setErrorNotifier((message) => toast.error(message));

/** The one toaster of the store: top-right, 5000 ms unless a toast says otherwise. */
export default function Toaster() {
  return (
    <HotToaster
      position="top-right"
      // Colours live in global.css (.ml-toast) to keep this island small. On the product page
      // ProductPurchase.tsx renders this same component instead of a second island.
      toastOptions={{ duration: 5000, className: 'ml-toast' }}
    />
  );
}
