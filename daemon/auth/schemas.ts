import { z } from 'zod';

/** Request-body pieces shared by the sign-in routes. */
export const emailField = z.string().trim().max(254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address');

/** Long enough to matter, short enough that hashing it stays cheap. */
export const newPasswordField = z.string().min(8, 'must be at least 8 characters').max(1024, 'must be at most 1024 characters');

export const passwordField = z.string().min(1, 'is required').max(1024);
