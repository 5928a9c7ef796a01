import { useState } from 'preact/hooks';
import { asApiError, type ApiError } from '../api/errors';

export interface Action {
  busy: boolean;
  error?: ApiError;
  setError(error: ApiError | undefined): void;
  /**
   * Runs `fn` with `busy` set and the previous error cleared; a failure becomes `error`. `busy`
   * ends when `fn` does, or with `keepBusy` only when it fails (for actions that leave the page).
   */
  run(fn: () => Promise<void>, options?: { keepBusy?: boolean }): Promise<void>;
}

/** The busy flag and the error of a form's submit (or another button's action). */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async (fn: () => Promise<void>, options: { keepBusy?: boolean } = {}) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
      if (!options.keepBusy) setBusy(false);
    } catch (caught) {
      setError(asApiError(caught));
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
