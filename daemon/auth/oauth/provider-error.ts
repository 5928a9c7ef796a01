/**
 * A sign-in that cannot complete, with a short reason code for the dashboard
 * (`/d/auth/complete?error=<reason>`). The message is for the log and never holds a secret.
 */
export class SignInError extends Error {
  constructor(
    readonly reason: SignInFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

/** Why an external sign-in failed, as the dashboard is told. */
export type SignInFailure =
  | 'access_denied'
  | 'invalid_state'
  | 'provider_error'
  | 'email_not_verified'
  | 'registration_closed'
  | 'install_failed'
  | 'rate_limited'
  | 'account_exists'
  | 'account_unverified'
  | 'saml_required'
  | 'saml_refused';
