/**
 * Browser session helpers. The session token lives only in the HttpOnly cookie; the
 * persistent $profile store keeps the non-secret fields the header and islands show.
 */
import { api } from './api';
import { signedIn, signedOut, type Profile } from './stores';

export interface ApiUser {
  id: string;
  userId?: string;
  firstName: string;
  lastName: string;
  email: string;
  image: string | null;
  country: 'nigeria' | 'south_africa';
  phoneNumber?: string;
}

export function profileFromUser(user: ApiUser): Profile {
  return {
    userId: user.userId ?? user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    image: user.image,
    country: user.country,
  };
}

/** After a successful login (or a profile change): remember who is signed in, without the token. */
export function setProfileFromUser(user: ApiUser): void {
  signedIn(profileFromUser(user));
}

/** Ends the server session, forgets the local profile and goes home. */
export async function logout(redirectTo = '/'): Promise<void> {
  try {
    await api('/user-auth/logout', { method: 'POST', handle401: false });
  } catch {
    // Signing out locally still happens; the session expires on its own.
  }
  signedOut();
  window.location.assign(redirectTo);
}
