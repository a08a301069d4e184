import { useEffect, useState, type ChangeEvent } from 'react';
import { avatarFileProblem } from '@/lib/domain/account-rules';
import { countryName } from '@/lib/domain/geo';
import { useFormSubmit } from '@/lib/client/forms';
import { setProfileFromUser, type ApiUser } from '@/lib/client/session';
import CsrfInput from '@/components/CsrfInput';

interface Props {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  user: ApiUser & { phoneNumber: string };
}

/** Avatar with the camera button, the shopper's details and the account links. */
export default function ProfileCard({ user: initial, csrf }: Props) {
  const [user, setUser] = useState(initial);
  // Without scripts the picture is sent by the form's own Upload button (multipart post).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const initials = `${user.firstName[0] ?? ''}${user.lastName[0] ?? ''}`.toUpperCase();

  const { busy: uploading, onSubmit } = useFormSubmit({
    failed: 'Failed to upload image: please try again',
    unreachable: (err) => `Failed to upload image: ${err instanceof Error ? err.message : 'network error'}`,
    method: 'PUT',
    check: (_values, form) => {
      const file = new FormData(form).get('image');
      return file instanceof File ? avatarFileProblem(file) : null;
    },
    // The picture itself: multipart, as the plain form posts it.
    body: (_values, form) => new FormData(form),
    onSuccess: (body) => {
      setUser({ ...user, image: body.data.image });
      setProfileFromUser(body.data);
      return { toast: 'Profile picture saved.' };
    },
    refusal: ({ body }) => `Failed to upload image: ${body?.message ?? 'please try again'}`,
  });

  /** Choosing a picture sends the form; the input is then emptied so the same file can be chosen again. */
  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const input = e.currentTarget;
    if (input.files?.length) input.form?.requestSubmit();
    input.value = '';
  }

  return (
    <div className="profile">
      <form
        className="profile-avatar-form"
        method="post"
        action="/api/v1/user-auth/upload-image"
        encType="multipart/form-data"
        onSubmit={onSubmit}
      >
        <CsrfInput token={csrf} />
        <div className="profile-avatar">
          {user.image ? (
            <img src={user.image} alt={`${user.firstName} ${user.lastName}`} width={120} height={120} />
          ) : (
            <span className="profile-initials" aria-hidden="true">
              {initials}
            </span>
          )}
          <label className="profile-camera" aria-busy={uploading}>
            <span className="visually-hidden">Change profile picture</span>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8">
              <path d="M4 8h3l2-3h6l2 3h3v11H4z" strokeLinejoin="round" />
              <circle cx="12" cy="13" r="3.5" />
            </svg>
            <input
              className="visually-hidden"
              type="file"
              name="image"
              accept="image/*"
              aria-label="Change profile picture"
              disabled={uploading}
              onChange={onFile}
            />
          </label>
        </div>
        {!hydrated && (
          <button type="submit" className="btn btn-outline profile-upload">
            Upload picture
          </button>
        )}
      </form>
      <h1 className="profile-name">
        {user.firstName} {user.lastName}
      </h1>
      <dl className="profile-details">
        <div>
          <dt>Email</dt>
          {/* A long address breaks before the @ (and at dots), never inside a word. */}
          <dd className="profile-email">
            {user.email.split('@')[0]}
            <wbr />@{user.email.split('@').slice(1).join('@')}
          </dd>
        </div>
        <div>
          <dt>Country</dt>
          <dd>{countryName(user.country)}</dd>
        </div>
        <div>
          <dt>Mobile</dt>
          <dd>{user.phoneNumber}</dd>
        </div>
      </dl>
    </div>
  );
}
