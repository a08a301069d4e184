import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import toast from 'react-hot-toast';
import { avatarFileProblem } from '../lib/domain/account-rules';
import { countryName } from '../lib/domain/geo';
import { api } from '../lib/client/api';
import { setProfileFromUser, type ApiUser } from '../lib/client/session';
import CsrfInput from '../components/CsrfInput';
import { failureText } from '../lib/domain/toasts';

interface Props {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  user: ApiUser & { phoneNumber: string };
}

/** Avatar with the camera button, the shopper's details and the account links. */
export default function ProfileCard({ user: initial, csrf }: Props) {
  const [user, setUser] = useState(initial);
  const [uploading, setUploading] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Without scripts the picture is sent by the form's own Upload button (multipart post).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const initials = `${user.firstName[0] ?? ''}${user.lastName[0] ?? ''}`.toUpperCase();

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const problem = avatarFileProblem(file);
    if (problem) return void toast.error(problem);
    const form = new FormData();
    form.append('image', file);
    setUploading(true);
    try {
      const { ok, body } = await api('/user-auth/upload-image', { method: 'PUT', form });
      if (ok && body.status) {
        setUser({ ...user, image: body.data.image });
        setProfileFromUser(body.data);
        toast.success(body.message);
      } else {
        toast.error(failureText('upload-failed', body?.message ?? 'please try again'));
      }
    } catch (err) {
      toast.error(failureText('upload-failed', err instanceof Error ? err.message : 'network error'));
    }
    setUploading(false);
  }

  return (
    <div className="profile">
      <form
        className="profile-avatar-form"
        method="post"
        action="/api/v1/user-auth/upload-image"
        encType="multipart/form-data"
        onSubmit={(e) => e.preventDefault()}
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
              ref={input}
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
          <dd>{user.email}</dd>
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
