import { NEW_PASSWORD_LENGTH } from '../../contract/access.js';
import { z } from 'zod';

/** Request-body pieces shared by the sign-in routes. */
export const emailField = z
  .string()
  .trim()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address');

/** Long enough to matter, short enough that hashing it stays cheap. */
export const newPasswordField = z
  .string()
  .min(NEW_PASSWORD_LENGTH.min, `must be at least ${NEW_PASSWORD_LENGTH.min} characters`)
  .max(NEW_PASSWORD_LENGTH.max, `must be at most ${NEW_PASSWORD_LENGTH.max} characters`);

export const passwordField = z.string().min(1, 'is required').max(1024);
