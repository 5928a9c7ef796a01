import type { ApiError } from '../api/errors';

const TITLES: Record<string, string> = {
  FORBIDDEN: 'Not allowed',
  NOT_FOUND: 'Not found',
  NETWORK: 'No connection',
  RATE_LIMITED: 'Too many attempts',
  VALIDATION_FAILED: 'Please check the form',
  INPUT_MISSING: 'Nothing to send',
};

/** An API error as a message (never a broken page); 403 and 404 read as plain sentences. */
export function ErrorBanner({ error, title }: { error?: ApiError | null; title?: string }) {
  if (!error) return null;
  return (
    <div class="banner banner-error" role="alert" data-error-code={error.code}>
      <strong>{title ?? TITLES[error.code] ?? 'Something went wrong'}</strong>
      <span> {error.message}</span>
    </div>
  );
}

/** A short confirmation after a successful change. */
export function Notice({ children, kind = 'success' }: { children: preact.ComponentChildren; kind?: 'success' | 'info' | 'warning' }) {
  return (
    <div class={`banner banner-${kind}`} role="status">
      {children}
    </div>
  );
}
