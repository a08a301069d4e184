import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { api, NetworkError } from '@/lib/client/api';
import type { ProductDto } from '@/lib/domain/catalogue';
import { ProductCardSkeleton, ProductCardView, type CardProduct } from '@/components/ProductCardView';

export interface ShowcaseProps {
  /** Section id, also used for the heading id. */
  id: string;
  title: string;
  tagline: string;
  /** The spec's list call, e.g. /api/v1/products/organised/latest. */
  endpoint: string;
  /** Products rendered on the server so the section paints (and is indexed) before any script. */
  initial: CardProduct[];
  /** How many products the server knows the list has (decides the first paint of 'Discover More'). */
  initialTotal: number;
  initialVisible: number;
  step: number;
  /** Spec section 8 toasts. */
  failedMessage: string;
  errorMessage: string;
  /** Save-Data: smaller card images. */
  saveData?: boolean;
}

type Status = 'loading' | 'loaded' | 'failed';

/**
 * LATEST COLLECTIONS / BEST SELLERS. On hydration the list is fetched once from the
 * spec's call; 'Discover More' reveals `step` more and disappears once all are shown.
 * While loading, the grid holds as many cells as the visible count (placeholders fill the gap).
 */
export default function ProductShowcase(props: ShowcaseProps) {
  const { id, title, tagline, endpoint, initial, initialTotal, initialVisible, step, failedMessage, errorMessage } = props;
  const [status, setStatus] = useState<Status>('loading');
  const [products, setProducts] = useState<CardProduct[]>(initial);
  const [visible, setVisible] = useState(initialVisible);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const { body } = await api<{ status?: boolean; data?: { docs?: ProductDto[] } }>(endpoint);
        if (cancelled) return;
        if (body?.status && Array.isArray(body.data?.docs)) {
          setProducts(body.data.docs);
          setStatus('loaded');
        } else {
          // Spec: a failed list stays empty.
          setProducts([]);
          setStatus('failed');
          toast.error(failedMessage);
        }
      } catch (err) {
        if (cancelled) return;
        console.error(errorMessage, err instanceof NetworkError ? err.message : err);
        setProducts([]);
        setStatus('failed');
        toast.error(errorMessage);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [endpoint, failedMessage, errorMessage]);

  const shown = products.slice(0, visible);
  const placeholders = status === 'loading' ? Math.max(0, visible - shown.length) : 0;
  const total = status === 'loading' ? Math.max(initialTotal, products.length) : products.length;
  const canShowMore = status !== 'failed' && visible < total;

  return (
    <section className="section container showcase" id={id} aria-labelledby={`${id}-title`} aria-busy={status === 'loading'}>
      <div className="section-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <p>{tagline}</p>
      </div>
      <ul className="product-grid cols-5" data-showcase-grid>
        {shown.map((product) => (
          <li key={product.id}>
            <ProductCardView product={product} saveData={props.saveData} />
          </li>
        ))}
        {Array.from({ length: placeholders }, (_, i) => (
          <li key={`placeholder-${i}`}>
            <ProductCardSkeleton />
          </li>
        ))}
      </ul>
      {status === 'failed' && <p className="empty-note">No products to show right now.</p>}
      {canShowMore && (
        <div className="more-row">
          <button type="button" className="btn btn-outline" onClick={() => setVisible((v) => v + step)}>
            Discover More
          </button>
        </div>
      )}
    </section>
  );
}
