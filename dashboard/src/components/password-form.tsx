import { useState } from 'preact/hooks';
import { post } from '../api/client';
import { useAction } from '../lib/use-action';
import { ErrorBanner } from './error-banner';
import { issuesByPath, TextField } from './fields';

/**
 * Current password, new password twice; other sessions of the account end on success. With
 * `knownCurrent` (the password typed at sign-in a moment ago) only the new password is asked for,
 * unless the server refuses it as the current one.
 */
export function PasswordForm({
  onDone,
  submitLabel = 'Change password',
  knownCurrent,
}: {
  onDone(): void | Promise<void>;
  submitLabel?: string;
  knownCurrent?: string;
}) {
  const [current, setCurrent] = useState(knownCurrent ?? '');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const { busy, error, run } = useAction();
  const [mismatch, setMismatch] = useState(false);
  const issues = issuesByPath(error?.issues ?? []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setMismatch(next !== repeat);
    if (next !== repeat) return;
    await run(async () => {
      await post('/auth/password', { currentPassword: current, newPassword: next }, { credentialCheck: true });
      setCurrent('');
      setNext('');
      setRepeat('');
      await onDone();
    });
  };

  return (
    <form onSubmit={submit} class="card" aria-label="Change password">
      <ErrorBanner error={error} title="Password not changed" />
      {knownCurrent === undefined || error ? (
        <TextField
          id="current-password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onValue={setCurrent}
          errors={issues.get('currentPassword')}
        />
      ) : null}
      <TextField
        id="new-password"
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        value={next}
        onValue={setNext}
        hint="At least 8 characters."
        errors={issues.get('newPassword')}
      />
      <TextField
        id="repeat-password"
        label="Repeat the new password"
        type="password"
        autoComplete="new-password"
        required
        value={repeat}
        onValue={setRepeat}
        errors={mismatch ? ['does not match the new password'] : undefined}
      />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Saving…' : submitLabel}
      </button>
    </form>
  );
}
