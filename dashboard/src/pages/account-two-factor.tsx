import { useState } from 'preact/hooks';
import { del, post } from '../api/client';
import type { Account, RecoveryCodes, TwoFactorSetup } from '../api/types';
import { ErrorBanner, Notice } from '../components/error-banner';
import { TextField } from '../components/fields';
import { refreshAccount } from '../lib/session';
import { useAction } from '../lib/use-action';

/** TOTP two-factor: enrol with a QR code and a first code, keep the recovery codes, or turn it off. */
export function TwoFactorSection({ account }: { account: Account }) {
  const [setup, setSetup] = useState<TwoFactorSetup>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const { busy, error, run } = useAction();

  const start = async () => {
    await run(async () => {
      setSetup(await post<TwoFactorSetup>('/auth/2fa/setup'));
    });
  };

  let body;
  if (recoveryCodes) {
    body = (
      <div class="card">
        <Notice>Two-factor sign-in is on.</Notice>
        <p>
          Save these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator. <strong>They are not shown again.</strong>
        </p>
        <ol class="recovery-codes mono" aria-label="Recovery codes">
          {recoveryCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ol>
        <button
          type="button"
          class="primary"
          onClick={async () => {
            setRecoveryCodes(undefined);
            await refreshAccount();
          }}
        >
          I have saved them
        </button>
      </div>
    );
  } else if (account.twoFactorEnabled) {
    body = <DisableForm account={account} />;
  } else if (setup) {
    body = (
      <ConfirmForm
        setup={setup}
        onConfirmed={(codes) => {
          setSetup(undefined);
          setRecoveryCodes(codes);
        }}
        onCancel={() => setSetup(undefined)}
      />
    );
  } else {
    body = (
      <>
        <p>Two-factor sign-in is off. With it on, signing in also asks for a code from an authenticator app.</p>
        <button type="button" onClick={() => void start()} disabled={busy}>
          Set up two-factor sign-in
        </button>
      </>
    );
  }

  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <ErrorBanner error={error} />
      {body}
    </section>
  );
}

function ConfirmForm({ setup, onConfirmed, onCancel }: { setup: TwoFactorSetup; onConfirmed(codes: string[]): void; onCancel(): void }) {
  const [code, setCode] = useState('');
  const { busy, error, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    await run(
      async () => {
        const answer = await post<RecoveryCodes>('/auth/2fa/confirm', { code: code.replace(/\s+/g, '') }, { credentialCheck: true });
        onConfirmed(answer.recoveryCodes);
      },
      { keepBusy: true },
    );
  };
  // An <img> with a data: URL shows the server's SVG without putting its markup into the page.
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`;
  return (
    <form class="card" onSubmit={submit} aria-label="Confirm two-factor sign-in">
      <p>Scan this code with your authenticator app, then enter the 6-digit code it shows.</p>
      <img class="qr" src={qr} alt="QR code of the two-factor secret" width={200} height={200} />
      <p>
        Or enter this key by hand:{' '}
        <code class="mono" data-testid="totp-secret">
          {setup.secret}
        </code>
      </p>
      <ErrorBanner error={error} title="Not confirmed" />
      <TextField id="enrol-code" label="Code from the app" inputMode="numeric" autoComplete="one-time-code" required value={code} onValue={setCode} />
      <div class="button-row">
        <button type="submit" class="primary" disabled={busy}>
          Turn on
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function DisableForm({ account }: { account: Account }) {
  const [value, setValue] = useState('');
  const { busy, error, run } = useAction();
  const byPassword = account.hasPassword;
  const submit = async (event: Event) => {
    event.preventDefault();
    await run(
      async () => {
        await del('/auth/2fa', { body: byPassword ? { currentPassword: value } : { code: value.replace(/\s+/g, '') }, credentialCheck: true });
        await refreshAccount();
      },
      { keepBusy: true },
    );
  };
  return (
    <form class="card" onSubmit={submit} aria-label="Turn off two-factor sign-in">
      <p>Two-factor sign-in is on.</p>
      <ErrorBanner error={error} title="Still on" />
      {byPassword ? (
        <TextField id="disable-password" label="Current password" type="password" autoComplete="current-password" required value={value} onValue={setValue} />
      ) : (
        <TextField id="disable-code" label="Code from the app" inputMode="numeric" autoComplete="one-time-code" required value={value} onValue={setValue} />
      )}
      <button type="submit" class="danger" disabled={busy}>
        Turn off two-factor sign-in
      </button>
    </form>
  );
}
