// The password typed at sign-in, held in memory only (never stored) until the forced change of a
// built-in password uses it as the current password, so the user is not asked for it again.
let remembered: string | undefined;

/** Keeps the password just typed for the forced change that follows the sign-in. */
export function rememberSignInPassword(password: string | undefined): void {
  remembered = password;
}

/** The password typed at sign-in, once: it is forgotten as it is read. */
export function takeSignInPassword(): string | undefined {
  const password = remembered;
  remembered = undefined;
  return password;
}
