/**
 * The browser's API client. Every island call goes through `api`, so a 401 is handled
 * in one place: TOASTS['session-expired'] and a trip to /login.
 */
import { navigateAfterToast } from './navigate';
import { signedOut } from './stores';
import { toast } from './toast';
import { TOASTS } from '@/lib/domain/toasts';

export const API_BASE = '/api/v1';

export interface ApiResult<T = any> {
  ok: boolean;
  status: number;
  body: T;
}

export class NetworkError extends Error {}

export async function api<T = any>(
  path: string,
  init: { method?: string; body?: unknown; form?: FormData; signal?: AbortSignal; handle401?: boolean; headers?: Record<string, string> } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  let body: BodyInit | undefined;
  if (init.form) body = init.form;
  else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  let res: Response;
  try {
    res = await fetch(path.startsWith('/') && !path.startsWith(API_BASE) && !path.startsWith('/api/') ? API_BASE + path : path, {
      method: init.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (err) {
    throw new NetworkError(err instanceof Error ? err.message : 'Network error');
  }
  let parsed: any = null;
  try {
    parsed = await res.json();
  } catch {
    parsed = { status: false, message: res.statusText };
  }
  if (res.status === 401 && init.handle401 !== false) {
    signedOut();
    toast.error(TOASTS['session-expired']);
    navigateAfterToast('/login');
  }
  return { ok: res.ok, status: res.status, body: parsed as T };
}
