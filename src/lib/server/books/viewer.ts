import { requireStaff, requireUser } from '@/lib/server/accounts/auth';
import type { DocumentViewer } from './books';

/** The signed-in viewer of an order's documents: staff (confirmed) see every order's, a shopper only their own. */
export function documentViewer(locals: App.Locals): DocumentViewer {
  const user = requireUser(locals);
  let staff = false;
  try {
    requireStaff(locals);
    staff = true;
  } catch {
    staff = false;
  }
  return { userId: user.id, staff };
}
